// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/op_palette.h"

#include <QHash>

namespace rooftop::plots {

namespace {
// Colour-blind-safe qualitative palette (Okabe-Ito, then Tableau 10 for more entries).
const QColor kPalette[] = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73),
                           QColor(0xCC, 0x79, 0xA7), QColor(0xD5, 0x5E, 0x00), QColor(0x56, 0xB4, 0xE9),
                           QColor(0xF0, 0xE4, 0x42), QColor(0x4E, 0x79, 0xA7), QColor(0x59, 0xA1, 0x4F),
                           QColor(0xB0, 0x7A, 0xA1), QColor(0x9C, 0x75, 0x5F), QColor(0xBA, 0xB0, 0xAC)};
constexpr int kPaletteSize = int(sizeof(kPalette) / sizeof(kPalette[0]));
} // namespace

QColor colorForOpType(const QString& opType) {
    // Common ops get fixed slots so that the familiar picture does not change between models.
    static const QHash<QString, int> fixed = {{"Conv", 0},    {"MatMul", 1}, {"Gemm", 1},   {"Relu", 2},
                                              {"Add", 3},     {"Mul", 3},    {"MaxPool", 4}, {"Softmax", 5},
                                              {"BatchNormalization", 6}, {"Clip", 2}, {"Attention", 7}};
    if (auto it = fixed.find(opType); it != fixed.end()) return kPalette[*it];
    return kPalette[int(qHash(opType) % uint(kPaletteSize))];
}

QColor colorForMode(int index) {
    static const QColor modes[] = {QColor(0xD6, 0x27, 0x28), QColor(0x1F, 0x77, 0xB4), QColor(0x2C, 0xA0, 0x2C),
                                   QColor(0xFF, 0x7F, 0x0E), QColor(0x94, 0x67, 0xBD), QColor(0x8C, 0x56, 0x4B),
                                   QColor(0xE3, 0x77, 0xC2), QColor(0x7F, 0x7F, 0x7F), QColor(0xBC, 0xBD, 0x22),
                                   QColor(0x17, 0xBE, 0xCF)};
    constexpr int count = int(sizeof(modes) / sizeof(modes[0]));
    const QColor base = modes[((index % count) + count) % count];
    return index < count ? base : base.darker(140);
}

} // namespace rooftop::plots
