// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QMainWindow;

namespace rooftop::gui {

/// The layout version of the saved docks and toolbars: raised whenever they change shape, so that a newer
/// Rooftop never restores an older layout into its window (it opens with its own default layout instead).
constexpr int kWindowLayoutVersion = 3;

/// What a window keeps in the settings besides its geometry and docks.
struct WindowSettings {
    int view = 0;      ///< the result views' tab
    bool dark = false; ///< the dark palette
    QString board;     ///< the board chosen (saved only when one is)
};

/// Restores a window's geometry and docks, sized to its screen (a window without saved geometry) or moved
/// into it (one saved on a larger screen); returns the view and the palette. Docks and toolbars saved by
/// another layout version, or unreadable, are left at the window's defaults; a value that does not fit its
/// type (a theme other than light or dark, a negative view) reads as the default.
WindowSettings restoreWindowSettings(QMainWindow& window);

/// Saves a window's geometry, docks and `settings`.
void saveWindowSettings(const QMainWindow& window, const WindowSettings& settings);

/// The dims last set for a model (by its absolute path), or empty.
QString savedModelDims(const QString& modelPath);
/// Remembers the dims set for a model; empty dims forget them.
void saveModelDims(const QString& modelPath, const QString& dims);
/// The board chosen last, or the AGX Orin 64GB when none was.
QString savedBoard();

/// Keeps a window's frame, known only once it is shown, inside its screen's available area.
void keepFrameInsideScreen(QMainWindow& window);

} // namespace rooftop::gui
