// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QMessageBox>
#include <QString>

namespace rooftop::test {

/// Presses OK on `dialog` and checks that it refused: it stays open, with a visible message box parented to
/// it (over it, not behind it) whose text contains `part`; the box is closed. Empty when so, else what is
/// wrong.
inline QString refusedWithABoxOver(QDialog& dialog, const QString& part) {
    dialog.accept();
    if (dialog.result() == QDialog::Accepted) return QStringLiteral("the dialog accepted");
    auto* box = dialog.findChild<QMessageBox*>();
    if (!box) return QStringLiteral("no message box parented to the dialog");
    const QString text = box->text();
    const bool visible = box->isVisible();
    box->close();
    if (!visible) return QStringLiteral("the message box is hidden");
    return text.contains(part) ? QString() : QStringLiteral("the message says: ") + text;
}

} // namespace rooftop::test
