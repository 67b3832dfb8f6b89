// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commands.h"
#include "core/common/errors.h"
#include "core/common/option_text.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <iostream>

namespace rooftop::cli {
namespace {

std::vector<std::string>& commandArguments() {
    static std::vector<std::string> arguments;
    return arguments;
}

// How many of the command's arguments name the file `target`, alone or as an --option=FILE (the output's own
// value among them).
int argumentsNaming(const QFileInfo& target) {
    const QString canonical = target.canonicalFilePath();
    const auto names = [&canonical](const std::string& path) {
        const QFileInfo info(QString::fromStdString(path));
        return info.exists() && info.canonicalFilePath() == canonical;
    };
    int named = 0;
    for (const std::string& argument : commandArguments()) {
        const OptionText typed = splitOption(argument);
        named += names(typed.attached ? *typed.attached : argument);
    }
    return named;
}

} // namespace

void rememberCommandArguments(const std::vector<std::string>& args) {
    commandArguments() = args;
    for (size_t i = 0; i < args.size(); ++i) {
        const OptionText typed = splitOption(args[i]);
        if (longOptionName(typed.name) != "--output" || (!typed.attached && i + 1 == args.size())) continue;
        const std::string path = typed.attached ? *typed.attached : args[i + 1];
        const QFileInfo target(QString::fromStdString(path));
        if (target.isFile() && argumentsNaming(target) >= 2) // before anything runs: never over what it reads
            throw InputError(path + ": the output is also an input of this command; give -o another file");
    }
}

void writeOutput(const std::string& path, const std::string& text) {
    if (path.empty() || path == "-") {
        std::cout << text << std::flush;
        return;
    }
    const QString name = QString::fromStdString(path);
    const QFileInfo target(name);
    if (target.exists()) {
        if (target.isDir()) throw InputError(path + ": cannot write (a folder)");
        if (argumentsNaming(target) >= 2) // never overwrite what the command read
            throw InputError(path + ": the output is also an input of this command; give -o another file");
        if (!target.isFile()) { // a device, a FIFO, a terminal: written to, never replaced by a file
            QFile device(name);
            if (!device.open(QIODevice::WriteOnly) ||
                device.write(text.data(), static_cast<qint64>(text.size())) !=
                    static_cast<qint64>(text.size()))
                throw InputError(path + ": cannot write (" + device.errorString().toStdString() + ")");
            return;
        }
    }
    QSaveFile file(name);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit())
        throw InputError(path + ": cannot write (" + file.errorString().toStdString() + ")");
}

} // namespace rooftop::cli
