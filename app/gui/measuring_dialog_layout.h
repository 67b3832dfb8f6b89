// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/profile_dialog.h"

#include <QString>

class QDialog;
class QFormLayout;
class QLabel;
class QLineEdit;
class QWidget;

namespace rooftop::gui {

/// What a measuring dialog's runs run, with the dims: "inference, sequence=128".
QString workloadText(const ProfileDialogDefaults& defaults);

/// Lays out a file-fitting dialog (learn, calibrate): "<b>MODEL</b> on BOARD: `what`", the form, `note` under
/// it when given (addRunsHint), and OK (labelled `ok`) and Cancel wired to accept and reject.
void layOutMeasuringDialog(QDialog* dialog, const ProfileDialogDefaults& defaults, QFormLayout* form,
                           const QString& what, const QString& ok, QWidget* note = nullptr);

/// A line for under the form (layOutMeasuringDialog's `note`) that tells a newcomer where runs come from
/// while the runs field names no file: "No runs file here yet: Device → Profile this model… measures ...".
/// Hidden once the file exists.
QLabel* addRunsHint(QLineEdit* runs);

} // namespace rooftop::gui
