// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/profile_kind.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace rooftop::gui {

/// The small question after File → Import measured layer profile…: which tool wrote the file (preset to what
/// its content says) and, for trtexec, the optional --exportLayerInfo file that names the ONNX nodes.
class LayerProfileDialog : public QDialog {
    Q_OBJECT
public:
    LayerProfileDialog(const QString& profilePath, const ProfileKindGuess& guess, QWidget* parent = nullptr);

    ProfileSource source() const;
    /// The layer info file, empty when none (or not trtexec).
    QString layerInfoPath() const;
    QComboBox* kindBox() const { return kind_; }
    QLineEdit* layerInfoEdit() const { return layerInfo_; }

private:
    void kindChanged();

    QComboBox* kind_ = nullptr;
    QLineEdit* layerInfo_ = nullptr;
    QPushButton* browse_ = nullptr;
};

} // namespace rooftop::gui
