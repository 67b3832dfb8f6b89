// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QApplication;
class QPalette;

namespace rooftop::gui {

/// The window's colour scheme.
enum class Theme { Light, Dark };

/// Applies the Fusion style with a light or dark palette to the whole application (plots follow the palette).
void applyTheme(Theme theme);

/// The CSS colour of secondary text (provenance, notes) in rich-text labels: the text colour eased towards
/// the window's, at a contrast of 6:1 or more in both palettes (Qt's "gray", 3.5:1, was below WCAG
/// AA's 4.5:1).
QString secondaryTextCss(const QPalette& palette);

} // namespace rooftop::gui
