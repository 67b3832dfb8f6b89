// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QApplication;

namespace rooftop::gui {

/// The window's colour scheme.
enum class Theme { Light, Dark };

/// Applies the Fusion style with a light or dark palette to the whole application (plots follow the palette).
void applyTheme(Theme theme);

} // namespace rooftop::gui
