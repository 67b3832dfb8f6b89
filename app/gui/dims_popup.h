// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLineEdit;

namespace rooftop::gui {

/// The dims editor as a popup under a widget, for when the toolbar's Dims field is folded away (a narrow
/// window) or its toolbar is hidden: "Set dims…" still has a field to type into.
class DimsPopup : public QFrame {
    Q_OBJECT
public:
    explicit DimsPopup(QWidget* parent = nullptr);

    /// Opens under `anchor` (the window's top left when null) with this text, the first value selected.
    void open(const QString& text, QWidget* anchor);
    QLineEdit* edit() const { return edit_; }

signals:
    /// Enter was pressed: the popup closes and the toolbar takes these dims.
    void accepted(const QString& text);

private:
    QLineEdit* edit_ = nullptr;
};

/// Selects the first value of "NAME=VALUE, ..." in an editor holding it.
void selectFirstDimValue(QLineEdit& edit);

} // namespace rooftop::gui
