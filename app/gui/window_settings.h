// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QMainWindow;

namespace rooftop::gui {

/// What a window keeps in the settings besides its geometry and docks.
struct WindowSettings {
    int view = 0;      ///< the result views' tab
    bool dark = false; ///< the dark palette
    QString board;     ///< the board chosen (saved only when one is)
};

/// Restores a window's geometry and docks, sized to its screen (a window without saved geometry) or moved
/// into it (one saved on a larger screen); returns the view and the palette.
WindowSettings restoreWindowSettings(QMainWindow& window);

/// Saves a window's geometry, docks and `settings`.
void saveWindowSettings(const QMainWindow& window, const WindowSettings& settings);

/// Keeps a window's frame, known only once it is shown, inside its screen's available area.
void keepFrameInsideScreen(QMainWindow& window);

} // namespace rooftop::gui
