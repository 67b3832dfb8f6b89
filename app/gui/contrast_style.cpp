// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/contrast_style.h"

#include <QPainter>
#include <QStyleFactory>
#include <QStyleOption>

namespace rooftop::gui {

ContrastStyle::ContrastStyle() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))) {}

void ContrastStyle::drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                                  const QWidget* widget) const {
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    const bool indicator = element == PE_IndicatorCheckBox || element == PE_IndicatorRadioButton;
    constexpr int kDarkWindow = 100; // lightness below which Fusion's darkened outline disappears
    if (!indicator || option->palette.window().color().lightness() >= kDarkWindow) return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, element == PE_IndicatorRadioButton);
    const bool enabled = option->state & State_Enabled;
    painter->setPen(QPen(option->palette.text().color().darker(enabled ? 160 : 260), 1.0));
    painter->setBrush(Qt::NoBrush);
    const QRectF box = QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5);
    if (element == PE_IndicatorRadioButton)
        painter->drawEllipse(box);
    else
        painter->drawRect(box);
    painter->restore();
}

} // namespace rooftop::gui
