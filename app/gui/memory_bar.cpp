// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/memory_bar.h"

#include "core/common/text_format.h"

#include <QPainter>
#include <algorithm>

namespace rooftop::gui {

MemoryBar::MemoryBar(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(22);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void MemoryBar::setMemory(const LlmMemory& memory) {
    memory_ = memory;
    setToolTip(
        tr("Weights %1 + KV cache %2 + activations %3 (an estimate) = %4 of %5 usable (%6 on the board, "
           "%7 kept for the OS or the CUDA context, and the runtime)")
            .arg(QString::fromStdString(gibText(memory.weightBytes)),
                 QString::fromStdString(gibText(memory.kvBytes)),
                 QString::fromStdString(gibText(memory.activationBytes)),
                 QString::fromStdString(gibText(memory.totalBytes)),
                 QString::fromStdString(gibText(memory.usableBytes())),
                 QString::fromStdString(gibText(memory.boardBytes)),
                 QString::fromStdString(gibText(memory.reservedBytes))));
    update();
}

double MemoryBar::share(int64_t bytes) const {
    const int64_t usable = memory_.usableBytes();
    return usable > 0 ? double(bytes) / double(usable) : 0.0;
}

double MemoryBar::weightShare() const {
    return share(memory_.weightBytes);
}
double MemoryBar::kvShare() const {
    return share(memory_.kvBytes);
}
double MemoryBar::activationShare() const {
    return share(memory_.activationBytes);
}

void MemoryBar::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRectF frame = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    painter.fillRect(frame, palette().color(QPalette::Base));
    const struct {
        double share;
        QColor colour;
    } parts[] = {{weightShare(), QColor(31, 119, 180)},
                 {kvShare(), QColor(255, 127, 14)},
                 {activationShare(), QColor(44, 160, 44)}};
    double from = 0;
    for (const auto& part : parts) {
        const double to = std::min(1.0, from + part.share);
        if (to > from)
            painter.fillRect(QRectF(frame.left() + from * frame.width(), frame.top(),
                                    (to - from) * frame.width(), frame.height()),
                             part.colour);
        from += part.share;
    }
    painter.setPen(
        QPen(from > 1.0 ? QColor(214, 39, 40) : palette().color(QPalette::Mid), from > 1.0 ? 2 : 1));
    painter.drawRect(frame);
    painter.setPen(palette().color(QPalette::Text));
    const QString text = tr("%1 of %2 usable: weights, KV cache, activations%3")
                             .arg(QString::fromStdString(gibText(memory_.totalBytes)),
                                  QString::fromStdString(gibText(memory_.usableBytes())),
                                  memory_.fits ? QString() : tr(": does not fit"));
    painter.drawText(frame.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignRight, text);
}

} // namespace rooftop::gui
