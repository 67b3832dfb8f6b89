// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace rooftop::gui {

class MainWindow;
class ModelOpener;

/// Builds the window's File, View, Edit and Device menus from its parts; returns the File menu's opener.
ModelOpener* buildWindowMenus(MainWindow& window);

} // namespace rooftop::gui
