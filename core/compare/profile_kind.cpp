// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/profile_kind.h"

#include "core/common/errors.h"
#include "core/common/input_file.h"

#include <QFile>
#include <QFileInfo>

namespace rooftop {

ProfileKindGuess guessProfileKind(const std::string& path) {
    refuseIrregularFile(path, "a layer profile");
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        throw InputError(path + ": cannot read (" + file.errorString().toStdString() + ")");
    const QByteArray head = file.read(qint64(64) * 1024);
    const QByteArray trimmed = head.trimmed();
    ProfileKindGuess guess;
    const bool json = trimmed.startsWith('[') || trimmed.startsWith('{');
    if (!json) {
        const bool csvName = QFileInfo(file).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0;
        if (csvName || head.contains("\"ID\"") || head.contains("Kernel Name"))
            guess.source = ProfileSource::NsightCompute;
        return guess;
    }
    if (head.contains("\"averageMs\""))
        guess.source = ProfileSource::Trtexec;
    else if (head.contains("\"traceEvents\"") || head.contains("\"ph\""))
        guess.source = ProfileSource::OnnxRuntime;
    else if (head.contains("\"Layers\""))
        guess.layerInfo = true;
    return guess;
}

} // namespace rooftop
