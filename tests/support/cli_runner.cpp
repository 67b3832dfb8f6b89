// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/cli_runner.h"

#include "core/onnx/model_loader.h"

#include <QJsonDocument>
#include <QProcess>
#include <QTest>
#include <fstream>

namespace rooftop::test {

QString rooftopBinary() {
    return QStringLiteral(ROOFTOP_BINARY);
}

CliResult runRooftop(const QStringList& arguments) {
    return runRooftop(arguments, QStringList());
}

CliResult runRooftop(const QStringList& arguments, const QStringList& unsetVariables) {
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString& name : unsetVariables)
        environment.remove(name);
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(ROOFTOP_BINARY), arguments);
    CliResult result;
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        result.crashed = true;
    }
    result.crashed = result.crashed || process.exitStatus() != QProcess::NormalExit;
    result.exitCode = process.exitCode();
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

bool writeTextModel(const QString& path, const char* text) {
    try {
        const auto model = parseModelText(text);
        std::ofstream file(path.toStdString(), std::ios::binary);
        return model.SerializeToOstream(&file);
    } catch (const std::exception&) {
        return false;
    }
}

QJsonObject jsonOf(const CliResult& result) {
    if (result.exitCode != 0) qWarning("%s", qPrintable(result.err));
    return QJsonDocument::fromJson(result.out.toUtf8()).object();
}

void expectOneLineError(const CliResult& result, const char* fragment) {
    QVERIFY2(!result.crashed, qPrintable("crashed or hung: " + result.err));
    QCOMPARE(result.exitCode, 1);
    const QString err = result.err.trimmed();
    QVERIFY2(!err.isEmpty(), "no message on stderr");
    QVERIFY2(!err.contains('\n'), qPrintable("more than one line: " + err));
    QVERIFY2(err.startsWith("rooftop: error: "), qPrintable(err));
    QVERIFY2(err.contains(QString::fromLatin1(fragment)), qPrintable(err));
}

} // namespace rooftop::test
