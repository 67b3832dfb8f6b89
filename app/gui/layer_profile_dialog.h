// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/profile_kind.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace rooftop::gui {

/// A power mode offered as the one a profile was measured in: its readable name and its canonical name.
struct ModeChoice {
    QString label;
    QString name;
};

/// The small question after File → Import measured layer profile…: which tool wrote the file (preset to what
/// its content says), for trtexec the optional --exportLayerInfo file that names the ONNX nodes, and the
/// power mode it was measured in (asked, never assumed: OK waits for an answer when modes are offered).
class LayerProfileDialog : public QDialog {
    Q_OBJECT
public:
    LayerProfileDialog(const QString& profilePath, const ProfileKindGuess& guess,
                       const QList<ModeChoice>& modes = {}, QWidget* parent = nullptr);

    ProfileSource source() const;
    /// The layer info file, empty when none (or not trtexec).
    QString layerInfoPath() const;
    /// The canonical name of the mode it was measured in; empty for "not known" (or no modes offered).
    QString measuredMode() const;
    QComboBox* kindBox() const { return kind_; }
    QLineEdit* layerInfoEdit() const { return layerInfo_; }
    QComboBox* measuredModeBox() const { return mode_; }
    QPushButton* okButton() const { return ok_; }

private:
    void kindChanged();
    void modeChanged();

    QComboBox* kind_ = nullptr;
    QComboBox* mode_ = nullptr;
    QPushButton* ok_ = nullptr;
    QLineEdit* layerInfo_ = nullptr;
    QPushButton* browse_ = nullptr;
};

} // namespace rooftop::gui
