// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProxyStyle>

namespace rooftop::gui {

/// Fusion whose check boxes and radio buttons keep a visible outline on a dark window: Fusion draws them
/// with the window colour darkened, which on a dark palette is all but the colour around them.
class ContrastStyle : public QProxyStyle {
public:
    ContrastStyle();
    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget = nullptr) const override;
};

} // namespace rooftop::gui
