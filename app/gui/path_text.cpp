// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/path_text.h"

#include "core/common/errors.h"
#include "core/measure/runs_file.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>

namespace rooftop::gui {

QString pathAsShown(const QString& path) {
    const QString home = QDir::homePath();
    return path.startsWith(home + QLatin1Char('/')) ? QStringLiteral("~") + path.mid(home.size()) : path;
}

QString pathFromWorkingFolder(const QString& path) {
    const QString relative = QDir::current().relativeFilePath(path);
    return relative.startsWith(QLatin1String("..")) ? path : relative;
}

QString pathAsTyped(const QString& text) {
    return text.startsWith(QLatin1String("~/")) ? QDir::homePath() + text.mid(1) : text;
}

QLineEdit* addPathRow(QFormLayout* form, QWidget* parent, const QString& label, const QString& filter,
                      bool save, const std::function<void(const QString&)>& chosen) {
    auto* field = new QLineEdit(parent);
    auto* browse = new QPushButton(QObject::tr("Browse…"), parent);
    QObject::connect(browse, &QPushButton::clicked, parent, [parent, field, label, filter, save, chosen] {
        const QString start = pathAsTyped(field->text().trimmed());
        const QString path = save ? QFileDialog::getSaveFileName(parent, label, start, filter)
                                  : QFileDialog::getOpenFileName(parent, label, start, filter);
        if (path.isEmpty()) return;
        field->setText(pathAsShown(path));
        if (chosen) chosen(field->text());
    });
    auto* row = new QHBoxLayout;
    row->addWidget(field, 1);
    row->addWidget(browse);
    form->addRow(label, row);
    return field;
}

std::string existingFileOf(const QLineEdit* field, const QString& what) {
    const QString path = pathAsTyped(field->text().trimmed());
    if (path.isEmpty()) throw InputError(QObject::tr("%1: give a file").arg(what).toStdString());
    if (!QFileInfo(path).isFile())
        throw InputError(QObject::tr("%1: %2 does not exist").arg(what, path).toStdString());
    return path.toStdString();
}

QString besideRunsFile(const QString& runsPath, const QString& suffix) {
    if (runsPath.trimmed().isEmpty()) return {};
    const QFileInfo runs(runsPath.trimmed());
    QString stem = runs.completeBaseName();
    if (stem.endsWith(QStringLiteral("-runs"))) stem.chop(5);
    return runs.dir().filePath(stem + suffix);
}

QString runsFileToStartFrom(const QString& group, const QString& model) {
    const QSettings settings;
    for (const QString& dialog : {group, QStringLiteral("profileDialog"), QStringLiteral("tuneDialog")})
        if (const QString path = settings.value(dialog + QStringLiteral("/runsFile/") + model).toString();
            !path.isEmpty())
            return path;
    return pathAsShown(QString::fromStdString(defaultRunsPath(model.toStdString())));
}

} // namespace rooftop::gui
