// SPDX-License-Identifier: GPL-3.0-or-later
// core/report/json_writer: the text it writes is the text QJsonDocument::Indented writes for the same value.
#include "core/report/json_writer.h"
#include "support/test_registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>
#include <limits>
#include <random>

using namespace rooftop;

namespace {

// The same value built twice: as a JsonValue and as Qt's.
struct Twin {
    JsonValue ours;
    QJsonValue qt;
};

const std::vector<std::string>& sampleStrings() {
    static const std::vector<std::string> strings = {"",
                                                     "conv1",
                                                     "a\"quote",
                                                     "back\\slash",
                                                     "tab\there",
                                                     "line\nbreak",
                                                     "cr\r",
                                                     "\b\f",
                                                     std::string("nul\0x", 5),
                                                     "\x01\x1f\x7f",
                                                     "µs",
                                                     "名前",
                                                     "\xff\xfe invalid",
                                                     "\xe2\x82",
                                                     "emoji \xf0\x9f\x98\x80",
                                                     "/layers.0/attn/MatMul"};
    return strings;
}

const std::vector<double>& sampleDoubles() {
    static const std::vector<double> doubles = {0.0,
                                                -0.0,
                                                1.0,
                                                -1.0,
                                                0.5,
                                                1.0 / 3.0,
                                                12.345678901234567,
                                                1e-5,
                                                1e-300,
                                                5e-324,
                                                1e15,
                                                1e16,
                                                1e20,
                                                1e300,
                                                9007199254740991.0,
                                                9007199254740992.0,
                                                9007199254740994.0,
                                                -9007199254740992.0,
                                                -9007199254740994.0,
                                                123456789.0,
                                                1.5e9,
                                                4.49e9,
                                                std::numeric_limits<double>::max(),
                                                std::numeric_limits<double>::quiet_NaN(),
                                                std::numeric_limits<double>::infinity(),
                                                -std::numeric_limits<double>::infinity()};
    return doubles;
}

Twin randomValue(std::mt19937_64& random, int depth) {
    const int kind = static_cast<int>(random() % (depth > 3 ? 5 : 7));
    switch (kind) {
    case 0:
        return {JsonValue(), QJsonValue()};
    case 1: {
        const bool b = random() % 2;
        return {JsonValue(b), QJsonValue(b)};
    }
    case 2: {
        const int64_t values[] = {0,
                                  1,
                                  -1,
                                  42,
                                  std::numeric_limits<int64_t>::max(),
                                  std::numeric_limits<int64_t>::min(),
                                  int64_t(1) << 53,
                                  static_cast<int64_t>(random())};
        const int64_t v = values[random() % 8];
        return {JsonValue(v), QJsonValue(qint64(v))};
    }
    case 3: {
        const double d = random() % 3
                             ? sampleDoubles()[random() % sampleDoubles().size()]
                             : std::ldexp(double(random() % 1000000) - 500000.0, int(random() % 80) - 40);
        return {JsonValue(d), QJsonValue(d)};
    }
    case 4: {
        const std::string& s = sampleStrings()[random() % sampleStrings().size()];
        return {JsonValue(s), QJsonValue(QString::fromStdString(s))};
    }
    case 5: {
        Twin array{JsonValue::array(), QJsonValue()};
        QJsonArray qt;
        const int n = static_cast<int>(random() % 4);
        for (int i = 0; i < n; ++i) {
            Twin item = randomValue(random, depth + 1);
            array.ours.append(std::move(item.ours));
            qt.append(item.qt);
        }
        array.qt = qt;
        return array;
    }
    default: {
        Twin object{JsonValue::object(), QJsonValue()};
        QJsonObject qt;
        const int n = static_cast<int>(random() % 5);
        for (int i = 0; i < n; ++i) {
            // Keys repeat now and then: the later value replaces the earlier one.
            const std::string key = random() % 4 ? "k" + std::to_string(random() % 12)
                                                 : sampleStrings()[random() % sampleStrings().size()];
            Twin item = randomValue(random, depth + 1);
            object.ours.set(key, std::move(item.ours));
            qt[QString::fromStdString(key)] = item.qt;
        }
        object.qt = qt;
        return object;
    }
    }
}

std::string qtText(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace

class TestJsonWriter : public QObject {
    Q_OBJECT

private slots:
    void matchesQtOnRandomDocuments() {
        std::mt19937_64 random(20261201);
        for (int document = 0; document < 2000; ++document) {
            JsonValue ours = JsonValue::object();
            QJsonObject qt;
            for (int i = 0; i < 6; ++i) {
                Twin member = randomValue(random, 0);
                ours.set("m" + std::to_string(i), std::move(member.ours));
                qt["m" + QString::number(i)] = member.qt;
            }
            const std::string expected = qtText(qt);
            const std::string written = ours.toIndentedJson();
            if (written != expected)
                QFAIL(qPrintable(QString::fromStdString("document " + std::to_string(document) + ":\n" +
                                                        written + "\nQt:\n" + expected)));
        }
    }

    void everySampleScalarAsQtWritesIt() {
        for (double d : sampleDoubles()) {
            JsonValue ours = JsonValue::object();
            ours.set("d", d);
            QCOMPARE(ours.toIndentedJson(), qtText(QJsonObject{{"d", d}}));
        }
        for (const auto& s : sampleStrings()) {
            JsonValue ours = JsonValue::object();
            ours.set(s, s);
            QCOMPARE(ours.toIndentedJson(),
                     qtText(QJsonObject{{QString::fromStdString(s), QString::fromStdString(s)}}));
        }
    }

    void emptyContainersAndReplacedKeys() {
        JsonValue ours = JsonValue::object();
        ours.set("b", JsonValue::array())
            .set("a", JsonValue::object())
            .set("b", JsonValue::strings({"x", "y"}));
        QCOMPARE(ours.toIndentedJson(), std::string("{\n    \"a\": {\n    },\n    \"b\": [\n        \"x\",\n"
                                                    "        \"y\"\n    ]\n}\n"));
    }
};

ROOFTOP_TEST_CLASS(TestJsonWriter)
#include "test_json_writer.moc"
