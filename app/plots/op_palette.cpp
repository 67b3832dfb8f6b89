// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/op_palette.h"

#include <QHash>
#include <algorithm>
#include <utility>
#include <vector>

namespace rooftop::plots {

namespace {
// Colour-blind-safe qualitative palette (Okabe-Ito, then Tableau 10 for more entries).
const QColor kPalette[] = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73),
                           QColor(0xCC, 0x79, 0xA7), QColor(0xD5, 0x5E, 0x00), QColor(0x56, 0xB4, 0xE9),
                           QColor(0xF0, 0xE4, 0x42), QColor(0x4E, 0x79, 0xA7), QColor(0x59, 0xA1, 0x4F),
                           QColor(0xB0, 0x7A, 0xA1), QColor(0x9C, 0x75, 0x5F), QColor(0xBA, 0xB0, 0xAC)};
constexpr int kPaletteSize = int(sizeof(kPalette) / sizeof(kPalette[0]));
// Taken in order by the op types of a model whose own colour an op type ahead of them has (Kelly's and
// Tableau's colours unlike those above and the grey of "other").
const QColor kSpareColors[] = {QColor(0xBE, 0x00, 0x32), QColor(0x60, 0x4E, 0x97), QColor(0x8D, 0xB6, 0x00),
                               QColor(0x88, 0x2D, 0x17), QColor(0xA1, 0xCA, 0xF1), QColor(0xF9, 0x93, 0x79),
                               QColor(0x17, 0xBE, 0xCF), QColor(0xC2, 0xB2, 0x80), QColor(0x39, 0x3B, 0x79),
                               QColor(0xE3, 0x77, 0xC2), QColor(0x6B, 0x6B, 0x00), QColor(0x00, 0x5F, 0x5F)};
// Shapes QCustomPlot fills with the brush, so that a shape reads at 5 px too.
const QCPScatterStyle::ScatterShape kShapes[] = {QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare,
                                                 QCPScatterStyle::ssDiamond, QCPScatterStyle::ssTriangle,
                                                 QCPScatterStyle::ssTriangleInverted};
constexpr int kShapeCount = int(sizeof(kShapes) / sizeof(kShapes[0]));

struct Slot {
    int color;
    int shape;
};

// Common ops get fixed colour and shape slots so that the familiar picture does not change between models;
// no two share both. In this order they claim their colour in an OpPalette.
const std::vector<std::pair<QString, Slot>>& fixedSlots() {
    static const std::vector<std::pair<QString, Slot>> fixed = {{"Conv", {0, 0}},
                                                                {"ConvTranspose", {0, 1}},
                                                                {"MatMul", {1, 0}},
                                                                {"Gemm", {4, 3}},
                                                                {"Attention", {7, 2}},
                                                                {"Relu", {2, 0}},
                                                                {"Clip", {2, 1}},
                                                                {"Sigmoid", {8, 3}},
                                                                {"Add", {3, 0}},
                                                                {"Mul", {5, 1}},
                                                                {"Div", {6, 2}},
                                                                {"Sub", {9, 4}},
                                                                {"MaxPool", {10, 1}},
                                                                {"AveragePool", {10, 2}},
                                                                {"GlobalAveragePool", {10, 4}},
                                                                {"Softmax", {5, 3}},
                                                                {"BatchNormalization", {6, 0}},
                                                                {"LayerNormalization", {6, 4}},
                                                                {"Erf", {8, 2}},
                                                                {"Gelu", {8, 0}},
                                                                {"Pow", {3, 4}},
                                                                {"Sqrt", {9, 1}},
                                                                {"ReduceMean", {11, 0}},
                                                                {"Tanh", {7, 3}},
                                                                {"HardSwish", {4, 1}},
                                                                {"HardSigmoid", {4, 2}},
                                                                {"Concat", {11, 2}}};
    return fixed;
}

} // namespace

OpStyle styleForOpType(const QString& opType) {
    static const QHash<QString, Slot> fixed = [] {
        QHash<QString, Slot> byOp;
        for (const auto& [op, slot] : fixedSlots())
            byOp.insert(op, slot);
        return byOp;
    }();
    Slot slot;
    if (auto it = fixed.find(opType); it != fixed.end())
        slot = *it;
    else {
        const uint hash = qHash(opType);
        slot = {int(hash % uint(kPaletteSize)), int((hash / uint(kPaletteSize)) % uint(kShapeCount))};
    }
    return {kPalette[slot.color], kShapes[slot.shape]};
}

OpPalette::OpPalette(const QStringList& opTypes) {
    QStringList order; // the common ops in their fixed order, then the others by name
    for (const auto& [op, slot] : fixedSlots())
        if (opTypes.contains(op)) order << op;
    QStringList others;
    for (const QString& op : opTypes)
        if (!order.contains(op) && !others.contains(op)) others << op;
    others.sort();
    order << others;

    QList<QColor> used;
    QList<QColor> spare(std::begin(kPalette), std::end(kPalette));
    spare.append(QList<QColor>(std::begin(kSpareColors), std::end(kSpareColors)));
    int generated = 0;
    for (const QString& op : order) {
        OpStyle style = styleForOpType(op);
        if (used.contains(style.color)) {
            const auto free = std::find_if(spare.begin(), spare.end(),
                                           [&](const QColor& color) { return !used.contains(color); });
            if (free != spare.end()) {
                style.color = *free;
            } else {
                do { // more op types than colours listed: hues around the wheel at the golden angle
                    style.color = QColor::fromHsv(int(generated * 137.508) % 360, 160 + 50 * (generated % 2),
                                                  150 + 40 * (generated / 2 % 3));
                    ++generated;
                } while (used.contains(style.color));
            }
        }
        used << style.color;
        styles_.insert(op, style);
    }
}

OpStyle OpPalette::style(const QString& opType) const {
    const auto it = styles_.find(opType);
    return it != styles_.end() ? *it : styleForOpType(opType);
}

QColor colorForMode(int index) {
    static const QColor modes[] = {QColor(0xD6, 0x27, 0x28), QColor(0x1F, 0x77, 0xB4),
                                   QColor(0x2C, 0xA0, 0x2C), QColor(0xFF, 0x7F, 0x0E),
                                   QColor(0x94, 0x67, 0xBD), QColor(0x8C, 0x56, 0x4B),
                                   QColor(0xE3, 0x77, 0xC2), QColor(0x7F, 0x7F, 0x7F),
                                   QColor(0xBC, 0xBD, 0x22), QColor(0x17, 0xBE, 0xCF)};
    constexpr int count = int(sizeof(modes) / sizeof(modes[0]));
    const QColor base = modes[((index % count) + count) % count];
    return index < count ? base : base.darker(140);
}

} // namespace rooftop::plots
