// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStyledItemDelegate>

class QFontMetrics;

namespace rooftop::gui {

/// Draws node names ("/encoder/layers/encoder_layer_3/mlp/mlp.0/MatMul") that do not fit by dropping whole
/// path segments the next one repeats ("mlp" before "mlp.0"), then those without a digit, then the words
/// before the last word and number of the others ("…layer_3"), so the part that tells the rows apart stays;
/// then the last segment if it only repeats the row's op; last the longest segment loses letters from its
/// start but keeps its number ("…sample.0", "…_11").
class PathElideDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    /// `path` shortened to fit `width` pixels in `metrics` by the rule above (before any middle elision);
    /// `op` is the row's op type, which the op column shows.
    static QString compactPath(const QString& path, const QFontMetrics& metrics, int width,
                               const QString& op = {});

    /// The size of the whole name: the column is sized to names as they are, and shortened when narrower.
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace rooftop::gui
