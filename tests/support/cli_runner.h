// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace rooftop::test {

/// What one run of the rooftop executable produced.
struct CliResult {
    int exitCode = -1;
    bool crashed = false;
    QString out;
    QString err;
};

/// The built rooftop binary.
QString rooftopBinary();

/// Runs the built rooftop binary with arguments (30 s limit; a hang counts as a crash).
CliResult runRooftop(const QStringList& arguments);

/// As above, with these environment variables removed (e.g. DISPLAY and QT_QPA_PLATFORM: "no display").
CliResult runRooftop(const QStringList& arguments, const QStringList& unsetVariables);

/// Writes a textual ONNX model as a binary .onnx file; returns false on parse failure.
bool writeTextModel(const QString& path, const char* text);

/// The JSON object the run printed on stdout (empty when it printed none); a failed run's stderr is logged.
QJsonObject jsonOf(const CliResult& result);

/// Checks (QVERIFY) that the run failed with exit 1 and one stderr line "rooftop: error: ..." containing
/// `fragment`.
void expectOneLineError(const CliResult& result, const char* fragment);

} // namespace rooftop::test
