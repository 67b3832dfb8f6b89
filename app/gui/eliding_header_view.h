// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHeaderView>

namespace rooftop::gui {

/// A header whose section titles too long for their section are elided at the right ("Error (%, pre…")
/// rather than cut at both ends; the model's header tooltip has them whole.
class ElidingHeaderView : public QHeaderView {
    Q_OBJECT
public:
    explicit ElidingHeaderView(Qt::Orientation orientation, QWidget* parent = nullptr);

    /// The title a section of this logical index shows at its width.
    QString shownTitle(int logicalIndex) const;

protected:
    void initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const override;
};

} // namespace rooftop::gui
