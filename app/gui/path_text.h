// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace rooftop::gui {

/// A path as a field shows it: under the home folder with "~" for it (the data folder's default).
QString pathAsShown(const QString& path);

/// A path as a field's text gives it: a leading "~/" is the home folder.
QString pathAsTyped(const QString& text);

} // namespace rooftop::gui
