// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QSet>
#include <QStyledItemDelegate>

class QFontMetrics;

namespace rooftop::gui {

/// Draws node names ("/encoder/layers/encoder_layer_3/mlp/mlp.0/MatMul") that do not fit by dropping whole
/// path segments the next one repeats ("mlp" before "mlp.0"), then those without a digit, then the words
/// before the last word and number of the others ("…layer_3"), so the part that tells the rows apart stays;
/// then the last segment if it only repeats the row's op; last the longest segment loses letters from its
/// start but keeps its number ("…sample.0", "…_11"). A segment that alone tells two names apart ("ffn_in" and
/// "ffn_out" in BERT's "/layers.0/ffn_in/MatMul" and "/layers.0/ffn_out/MatMul") shrinks only when nothing
/// else is left to shrink, and then from its middle, keeping its first letter and its end ("l…1.0", "q…j" for
/// q_proj beside k_proj), so that elision does not make two rows read the same where that segment tells them
/// apart.
class PathElideDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    /// `path` shortened to fit `width` pixels in `metrics` by the rule above (before any middle elision);
    /// `op` is the row's op type, which the op column shows.
    /// `keep` holds the indices of segments (counted without the leading slash) not to drop or shorten.
    static QString compactPath(const QString& path, const QFontMetrics& metrics, int width,
                               const QString& op = {}, const QSet<int>& keep = {});
    /// For each name, the segments that alone tell it apart from another name of as many segments (the
    /// names that differ from it in that segment only); names without such a segment are left out.
    static QHash<QString, QSet<int>> distinguishingSegments(const QStringList& names);
    /// The names of the rows (a new model): their distinguishing segments are kept.
    void setNames(const QStringList& names);
    /// The text a cell of this width shows for the name at `index` (its row's op from the op column).
    QString shownName(const QModelIndex& index, const QFontMetrics& metrics, int width) const;

    /// The text the cell of `option` (its rect, font and widget) shows for the name at `index`.
    QString paintedName(const QStyleOptionViewItem& option, const QModelIndex& index) const;

    /// The size of the whole name: the column is sized to names as they are, and shortened when narrower.
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    QHash<QString, QSet<int>> keep_; ///< distinguishingSegments of the rows' names
};

} // namespace rooftop::gui
