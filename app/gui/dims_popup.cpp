// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/dims_popup.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

namespace rooftop::gui {

DimsPopup::DimsPopup(QWidget* parent) : QFrame(parent, Qt::Popup) {
    setObjectName(QStringLiteral("DimsPopup"));
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(new QLabel(tr("Dims"), this));
    edit_ = new QLineEdit(this);
    edit_->setPlaceholderText(tr("NAME=VALUE, e.g. sequence=128"));
    edit_->setMinimumWidth(edit_->fontMetrics().horizontalAdvance(QStringLiteral("sequence=128, past=0, x")));
    edit_->setClearButtonEnabled(true);
    layout->addWidget(edit_, 1);
    connect(edit_, &QLineEdit::returnPressed, this, [this] {
        hide();
        emit accepted(edit_->text().trimmed());
    });
}

void DimsPopup::open(const QString& text, QWidget* anchor) {
    edit_->setText(text);
    selectFirstDimValue(*edit_);
    adjustSize();
    const QPoint at = anchor
                          ? anchor->mapToGlobal(QPoint(0, anchor->height()))
                          : (parentWidget() ? parentWidget()->window()->mapToGlobal(QPoint(0, 0)) : QPoint());
    move(at);
    show();
    edit_->setFocus(Qt::PopupFocusReason);
}

void selectFirstDimValue(QLineEdit& edit) {
    const QString text = edit.text();
    const int eq = text.indexOf(QLatin1Char('='));
    const int end = text.indexOf(QLatin1Char(','), eq);
    if (eq >= 0) edit.setSelection(eq + 1, (end < 0 ? int(text.size()) : end) - eq - 1);
}

} // namespace rooftop::gui
