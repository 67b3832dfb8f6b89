// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commands.h"
#include "core/common/errors.h"

#include <QSaveFile>
#include <iostream>

namespace rooftop::cli {

void writeOutput(const std::string& path, const std::string& text) {
    if (path.empty() || path == "-") {
        std::cout << text << std::flush;
        return;
    }
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit())
        throw InputError(path + ": cannot write (" + file.errorString().toStdString() + ")");
}

} // namespace rooftop::cli
