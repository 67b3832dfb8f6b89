// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/path_elide_delegate.h"

#include "models/layer_table_model.h"

#include <QApplication>
#include <QFontMetrics>
#include <QStyle>
#include <algorithm>

namespace rooftop::gui {

namespace {

const QString kEllipsis = QStringLiteral("\u2026");

bool hasDigit(const QString& segment) {
    return std::any_of(segment.begin(), segment.end(), [](QChar c) { return c.isDigit(); });
}

QString joined(const QStringList& segments, bool leadingSlash) {
    QStringList shown;
    for (const QString& segment : segments)
        if (segment != kEllipsis || shown.isEmpty() || shown.back() != kEllipsis) shown << segment;
    return (leadingSlash ? QStringLiteral("/") : QString()) + shown.join(QLatin1Char('/'));
}

} // namespace

QString PathElideDelegate::compactPath(const QString& path, const QFontMetrics& metrics, int width,
                                       const QString& op, const QSet<int>& keep) {
    if (metrics.horizontalAdvance(path) <= width || !path.contains(QLatin1Char('/'))) return path;
    const bool leadingSlash = path.startsWith(QLatin1Char('/'));
    QStringList segments = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    // the last segment (the op) always stays; first a segment the next one repeats ("layer2" in
    // "layer2/layer2.0") goes
    for (int i = 0; i + 2 < segments.size(); ++i) {
        if (segments[i] == kEllipsis || keep.contains(i) || !segments[i + 1].startsWith(segments[i]))
            continue;
        segments[i] = kEllipsis;
        const QString text = joined(segments, leadingSlash);
        if (metrics.horizontalAdvance(text) <= width) return text;
    }
    // then the others without a digit, left to right
    for (int i = 0; i + 1 < segments.size(); ++i) {
        if (segments[i] == kEllipsis || keep.contains(i) || hasDigit(segments[i])) continue;
        segments[i] = kEllipsis;
        const QString text = joined(segments, leadingSlash);
        if (metrics.horizontalAdvance(text) <= width) return text;
    }
    // then the segments with a digit keep their last word and number: "encoder_layer_11" -> "…layer_11"
    for (int i = 0; i + 1 < segments.size(); ++i) {
        QString& segment = segments[i];
        if (segment == kEllipsis) continue;
        int separators = 0, cut = -1;
        for (int c = int(segment.size()) - 1; c > 0 && cut < 0; --c)
            if ((segment[c] == QLatin1Char('_') || segment[c] == QLatin1Char('.')) && ++separators == 2)
                cut = c + 1;
        if (cut <= 0) continue;
        segment = kEllipsis + segment.mid(cut);
        const QString text = joined(segments, leadingSlash);
        if (metrics.horizontalAdvance(text) <= width) return text;
    }
    // then the last segment when it only repeats the op column ("MatMul" beside the op MatMul)
    int ends = 1; // the segments at the end that stay whole: the op's, unless it was dropped
    if (!op.isEmpty() && segments.size() > 1 && segments.back() == op) {
        segments.removeLast();
        ends = 0;
        const QString text = joined(segments, leadingSlash);
        if (metrics.horizontalAdvance(text) <= width) return text;
    }
    // last, the longest of the others loses letters from its start ("downsample.0" -> "…sample.0"), one
    // ellipsis each rather than the view's elision beside ours, but keeps its number ("…_11", "….3")
    bool keeping = true;
    const auto numberLength = [](const QString& segment) {
        int digits = 0;
        while (digits < segment.size() && segment[segment.size() - 1 - digits].isDigit())
            ++digits;
        if (digits > 0 && digits < segment.size()) ++digits; // the separator before the number
        return digits;
    };
    // a kept segment shrinks only when nothing else can, from its middle: its first letter and its end (its
    // number, or its last letter) stay, so rows that differ at either end stay apart ("q_proj", "k_proj" ->
    // "q…j", "k…j"; "layer4.1" -> "l…4.1")
    const auto middleCut = [&](int i) {
        return !keeping && keep.contains(i) && !segments[i].startsWith(kEllipsis);
    };
    const auto shrinkable = [&](int i) {
        const QString& segment = segments[i];
        const int number = numberLength(segment);
        if (middleCut(i)) return segment.size() > 2 + (number > 0 ? std::max(3, number) : 1);
        return !keep.contains(i) && segment.size() > std::max(4, number + 1);
    };
    while (true) {
        int longest = -1;
        for (int i = 0; i + ends < segments.size(); ++i)
            if (shrinkable(i) && (longest < 0 || segments[i].size() > segments[longest].size())) longest = i;
        if (longest < 0 && keeping) {
            keeping = false;
            continue;
        }
        if (longest < 0) break;
        QString& segment = segments[longest];
        if (middleCut(longest))
            segment = segment.left(1) + kEllipsis + segment.mid(segment.mid(1, 1) == kEllipsis ? 3 : 2);
        else
            segment = kEllipsis + segment.mid(segment.startsWith(kEllipsis) ? 2 : 1);
        const QString text = joined(segments, leadingSlash);
        if (metrics.horizontalAdvance(text) <= width) return text;
    }
    return joined(segments, leadingSlash);
}

QHash<QString, QSet<int>> PathElideDelegate::distinguishingSegments(const QStringList& names) {
    // names of as many segments that are the same but for segment i: a group under one key
    QHash<QString, QSet<QString>> valuesOf; // key -> the values segment i takes in the group
    QHash<QString, QList<QPair<QString, int>>> members;
    for (const QString& name : names) {
        const QStringList segments = name.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        if (segments.size() < 2) continue;
        for (int i = 0; i < segments.size(); ++i) {
            QStringList masked = segments;
            masked[i] = QStringLiteral("\u0001");
            const QString key = QString::number(i) + QLatin1Char('|') + masked.join(QLatin1Char('/'));
            valuesOf[key].insert(segments[i]);
            members[key].append({name, i});
        }
    }
    QHash<QString, QSet<int>> keep;
    for (auto group = members.cbegin(); group != members.cend(); ++group)
        if (valuesOf.value(group.key()).size() > 1)
            for (const auto& [name, segment] : group.value())
                keep[name].insert(segment);
    return keep;
}

void PathElideDelegate::setNames(const QStringList& names) {
    keep_ = distinguishingSegments(names);
}

QString PathElideDelegate::shownName(const QModelIndex& index, const QFontMetrics& metrics, int width) const {
    const QString name = index.data().toString();
    const QString op = index.sibling(index.row(), models::LayerTableModel::Op).data().toString();
    return compactPath(name, metrics, width, op, keep_.value(name));
}

QSize PathElideDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QStyleOptionViewItem full = option;
    QStyledItemDelegate::initStyleOption(&full, index); // the base's option: the name uncut
    const QStyle* style = full.widget ? full.widget->style() : QApplication::style();
    return style->sizeFromContents(QStyle::CT_ItemViewItem, &full, QSize(), full.widget);
}

QString PathElideDelegate::paintedName(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    return cell.text;
}

void PathElideDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    // the style lays the text out inside the cell less a focus margin each side (a name has no icon or
    // check), and elides again (in the middle, cutting a segment) what its layout finds a pixel too wide:
    // ours fits with room to spare
    const QStyle* style = option->widget ? option->widget->style() : QApplication::style();
    const int margin =
        2 * (style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option->widget) + 1) + 3;
    option->text = shownName(index, option->fontMetrics, option->rect.width() - margin);
}

} // namespace rooftop::gui
