// SPDX-License-Identifier: GPL-3.0-or-later
// The layer table's names and numbers on the offscreen platform: names that elision would make read the same
// keep the segment that tells them apart (BERT's two FFN MatMuls at 1280 x 800); with a measured profile the
// number columns take the room of their cells, the name keeps its room and the table sorts by |error|.
#include "gui/advisor_panel.h"
#include "gui/eliding_header_view.h"
#include "gui/layer_panel.h"
#include "gui/layer_profile_import.h"
#include "gui/main_window.h"
#include "gui/model_attachments.h"
#include "gui/path_elide_delegate.h"
#include "gui/result_views.h"
#include "models/item_roles.h"
#include "models/layer_filter_proxy_model.h"
#include "models/layer_table_model.h"
#include "support/compare_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QApplication>
#include <QFontMetrics>
#include <QHeaderView>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <map>

using namespace rooftop;
using namespace rooftop::gui;
using rooftop::models::LayerTableModel;

namespace {

/// The window on a sample at 1280 x 800, analysed.
bool openAt1280(MainWindow& window, const std::string& sample) {
    window.show();
    window.openModel(QString::fromStdString(test::samplePath(sample)), QStringLiteral("agx-orin-64gb"));
    if (!QTest::qWaitFor([&] { return window.result() != nullptr && !window.runner().busy(); }, 60000))
        return false;
    window.setGeometry(0, 0, 1280, 800);
    if (!QTest::qWaitFor([&] { return window.width() == 1280; }, 5000)) return false;
    QCoreApplication::processEvents();
    return true;
}

} // namespace

class TestLayerTableWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // where nothing else is left to shorten, the segments that tell rows apart shrink from their middle:
    // Llama's q, k and v projections (which differ at their start) and ResNet's blocks (at their end) still
    // read apart in a name column of 100 px
    void keptSegmentsShrinkFromTheirMiddle() {
        const QStringList names = {QStringLiteral("/model/layers.0/self_attn/q_proj/MatMul"),
                                   QStringLiteral("/model/layers.0/self_attn/k_proj/MatMul"),
                                   QStringLiteral("/model/layers.0/self_attn/v_proj/MatMul"),
                                   QStringLiteral("/layer4/layer4.1/conv1/Conv"),
                                   QStringLiteral("/layer4/layer4.0/conv1/Conv"),
                                   QStringLiteral("/layer3/layer3.1/conv1/Conv")};
        const auto keep = PathElideDelegate::distinguishingSegments(names);
        const QFontMetrics metrics(QApplication::font());
        for (int width : {100, 80, 60}) {
            QSet<QString> shown;
            for (const QString& name : names) {
                const QString op = name.section(QLatin1Char('/'), -1);
                shown.insert(PathElideDelegate::compactPath(name, metrics, width, op, keep.value(name)));
            }
            QVERIFY2(shown.size() == names.size(),
                     qPrintable(QStringList(shown.values()).join(QStringLiteral(", "))));
        }
        const QString q =
            PathElideDelegate::compactPath(names[0], metrics, 60, "MatMul", keep.value(names[0]));
        QVERIFY2(q.endsWith(QStringLiteral("/q\u2026j")), qPrintable(q));
    }

    void theSegmentThatTellsTwoNamesApartStays() {
        const QString in = QStringLiteral("/layers.0/ffn_in/MatMul");
        const QString out = QStringLiteral("/layers.0/ffn_out/MatMul");
        const QString query = QStringLiteral("/layers.0/attention/q/MatMul");
        const auto keep = PathElideDelegate::distinguishingSegments({in, out, query});
        QCOMPARE(keep.value(in), QSet<int>({1}));
        QCOMPARE(keep.value(out), QSet<int>({1}));
        QVERIFY(!keep.contains(query)); // no name differs from it in one segment only
        const QFontMetrics metrics(QApplication::font());
        const int narrow = metrics.horizontalAdvance(QStringLiteral("/layers.0/ffn_out"));
        const QString shortIn = PathElideDelegate::compactPath(in, metrics, narrow, "MatMul", keep.value(in));
        const QString shortOut =
            PathElideDelegate::compactPath(out, metrics, narrow, "MatMul", keep.value(out));
        QVERIFY2(shortIn != shortOut, qPrintable(shortIn));
        QVERIFY2(shortIn.contains(QStringLiteral("ffn_in")), qPrintable(shortIn));
        QVERIFY2(shortOut.contains(QStringLiteral("ffn_out")), qPrintable(shortOut));
    }

    void bertsRowsReadDifferentlyAt1280() {
        MainWindow window;
        QVERIFY(openAt1280(window, "bert_base"));
        LayerPanel* layers = window.parts().views->layers();
        std::map<QString, QString> fullNameOf; // what a row shows -> its name
        QString ffnIn, ffnOut;
        for (int row = 0; row < layers->proxy()->rowCount(); ++row) {
            const QString name = layers->proxy()->index(row, LayerTableModel::Name).data().toString();
            const QString shown = layers->shownName(row);
            if (name == QLatin1String("/layers.0/ffn_in/MatMul")) ffnIn = shown;
            if (name == QLatin1String("/layers.0/ffn_out/MatMul")) ffnOut = shown;
        }
        QVERIFY(!ffnIn.isEmpty() && !ffnOut.isEmpty());
        QVERIFY2(ffnIn != ffnOut, qPrintable(ffnIn + " and " + ffnOut));
    }

    void numberColumnsFitTheirCellsWithAProfileSortedByError() {
        QTemporaryDir folder;
        const QString profile = folder.filePath(QStringLiteral("resnet18-trt86.json"));
        QVERIFY(test::writeText(profile, test::trtexecProfileJson(test::resnet18Trt86Layers())));
        MainWindow window;
        QVERIFY(openAt1280(window, "resnet18"));
        QCOMPARE(window.parts().attachments->importLayerProfile(profile), QString());
        QVERIFY(QTest::qWaitFor([&] { return !window.parts().layerImport->running(); }, 60000));
        QCoreApplication::processEvents();
        LayerPanel* layers = window.parts().views->layers();
        QTableView* view = layers->view();
        const QString header =
            layers->proxy()->headerData(LayerTableModel::LayerError, Qt::Horizontal).toString();
        QCOMPARE(header, QStringLiteral("Error (%, predicted \u2212 measured)"));
        // too long for its column, the title is elided at its end, not cut at both
        const auto* titles = qobject_cast<ElidingHeaderView*>(view->horizontalHeader());
        QVERIFY(titles != nullptr);
        const QString shown = titles->shownTitle(LayerTableModel::LayerError);
        QVERIFY2(shown.startsWith(QStringLiteral("Error")) && shown.endsWith(QStringLiteral("…")),
                 qPrintable(shown));

        // "283 µs" needs no 110 px: the measured numbers take the room of their cells, their headers the room
        // of their first word
        const QFontMetrics metrics(view->font());
        for (int column :
             {LayerTableModel::MeasuredTime, LayerTableModel::LayerPredicted, LayerTableModel::LayerError}) {
            QVERIFY(!view->isColumnHidden(column));
            QVERIFY2(
                view->columnWidth(column) <= metrics.horizontalAdvance(QStringLiteral("Predicted…")) + 30,
                qPrintable(QStringLiteral("column %1: %2 px").arg(column).arg(view->columnWidth(column))));
        }
        QVERIFY(view->columnWidth(LayerTableModel::Name) >= 110);
        // at 1280 x 800 the panel widens for the measured columns: name to bound in view, the plots keep room
        ResultViews* views = window.parts().views;
        const QList<int> widened = views->sizes();
        QVERIFY2(layers->boundColumnRightEdge() <= view->viewport()->width(),
                 qPrintable(QStringLiteral("bound ends at %1 of %2, panel %3 of %4")
                                .arg(layers->boundColumnRightEdge())
                                .arg(view->viewport()->width())
                                .arg(widened[0])
                                .arg(widened[0] + widened[1])));
        QVERIFY2(widened[1] >= 0.4 * (widened[0] + widened[1]), qPrintable(QString::number(widened[1])));
        window.parts().attachments->clearLayerProfile(); // the panel's width back, then the profile again
        QVERIFY2(views->sizes()[0] < widened[0], qPrintable(QString::number(views->sizes()[0])));
        QCOMPARE(window.parts().attachments->importLayerProfile(profile), QString());
        QVERIFY(QTest::qWaitFor([&] { return !window.parts().layerImport->running(); }, 60000));
        QCoreApplication::processEvents();
        QCOMPARE(views->sizes(), widened);
        // each name as the cell shows it fits the style's text room whole: the style does not cut it again in
        // the middle ("/…/lay…/conv1" for "/…/…4.1/conv1"), and the rows keep their numbers
        QStyleOptionViewItem cell;
        cell.initFrom(view);
        cell.widget = view;
        cell.rect = QRect(0, 0, view->columnWidth(LayerTableModel::Name) - (view->showGrid() ? 1 : 0),
                          view->verticalHeader()->defaultSectionSize());
        cell.features |= QStyleOptionViewItem::HasDisplay;
        const int textMargin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
        const int room =
            cell.rect.width() - 2 * textMargin; // the style's text room in a cell without an icon
        int cut = 0;
        for (int row = 0; row < layers->proxy()->rowCount(); ++row) {
            const QString name = layers->shownName(row);
            QVERIFY2(metrics.horizontalAdvance(name) <= room,
                     qPrintable(QStringLiteral("%1: %2 px of %3")
                                    .arg(name)
                                    .arg(metrics.horizontalAdvance(name))
                                    .arg(room)));
            cut += name != layers->proxy()->index(row, LayerTableModel::Name).data().toString();
        }
        QVERIFY(cut > 0); // at 1280 x 800 the names are shortened, by the delegate alone
        // at 1920 x 1080 name to bound are in view, and the names have room
        window.setGeometry(0, 0, 1920, 1080);
        QVERIFY(QTest::qWaitFor([&] { return window.width() == 1920; }, 5000));
        QCoreApplication::processEvents();
        layers->fitColumns();
        QVERIFY2(layers->boundColumnRightEdge() <= view->viewport()->width(),
                 qPrintable(QStringLiteral("bound ends at %1 of %2")
                                .arg(layers->boundColumnRightEdge())
                                .arg(view->viewport()->width())));
        const int typical = metrics.horizontalAdvance(QStringLiteral("/layer1/layer1.0/conv2")) + 8;
        QVERIFY2(view->columnWidth(LayerTableModel::Name) >= typical, // ResNet's names whole
                 qPrintable(QStringLiteral("names %1 px of %2")
                                .arg(view->columnWidth(LayerTableModel::Name))
                                .arg(typical)));

        // sorted by the size of the error, largest first, rows without one last
        QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), int(LayerTableModel::LayerError));
        QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        double previous = INFINITY;
        bool sawEmpty = false;
        int errors = 0;
        for (int row = 0; row < layers->proxy()->rowCount(); ++row) {
            const QVariant error =
                layers->proxy()->index(row, LayerTableModel::LayerError).data(models::SortRole);
            if (!error.isValid()) {
                sawEmpty = true;
                continue;
            }
            QVERIFY2(!sawEmpty, "a row with an error after one without");
            QVERIFY(std::abs(error.toDouble()) <= previous);
            previous = std::abs(error.toDouble());
            ++errors;
        }
        QVERIFY(errors >= 10);

        // without the profile the table goes back to time, slowest first
        window.parts().attachments->clearLayerProfile();
        QCoreApplication::processEvents();
        QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), int(LayerTableModel::Time));
    }
};

ROOFTOP_TEST_CLASS(TestLayerTableWindow)
#include "test_layer_table_window.moc"
