// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <functional>
#include <string>

class QFormLayout;
class QLineEdit;
class QWidget;

namespace rooftop::gui {

/// A path as a field shows it: under the home folder with "~" for it (the data folder's default).
QString pathAsShown(const QString& path);

/// A path under the working folder relative to it (shorter, and what a user typed), else as it is.
QString pathFromWorkingFolder(const QString& path);

/// A path as a field's text gives it: a leading "~/" is the home folder.
QString pathAsTyped(const QString& text);

/// A file field with Browse… added to `form` under `label`: opens (with `save`, saves) a file of `filter`,
/// shows the one chosen as pathAsShown, then calls `chosen` with the field's text (may be empty).
QLineEdit* addPathRow(QFormLayout* form, QWidget* parent, const QString& label, const QString& filter,
                      bool save, const std::function<void(const QString&)>& chosen = {});

/// The file a field names, which must exist (pathAsTyped); InputError naming `what` when empty or missing.
std::string existingFileOf(const QLineEdit* field, const QString& what);

/// The file beside a runs file, its "-runs" stem (or its whole stem) ending in `suffix`:
/// ("d/m-runs.csv", "-predictor.json") gives "d/m-predictor.json"; empty for an empty path.
QString besideRunsFile(const QString& runsPath, const QString& suffix);

/// The runs file a measuring dialog starts from for `model`: the one `group` last used, else the profile's or
/// tune dialog's, else the data folder's default (defaultRunsPath), as shown (pathAsShown).
QString runsFileToStartFrom(const QString& group, const QString& model);

} // namespace rooftop::gui
