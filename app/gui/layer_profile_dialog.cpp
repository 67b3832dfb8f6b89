// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/layer_profile_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace rooftop::gui {

LayerProfileDialog::LayerProfileDialog(const QString& profilePath, const ProfileKindGuess& guess,
                                       const QList<ModeChoice>& modes, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Import measured layer profile"));
    setObjectName(QStringLiteral("LayerProfileDialog"));
    kind_ = new QComboBox(this);
    kind_->addItem(tr("trtexec --exportProfile (JSON)"), int(ProfileSource::Trtexec));
    kind_->addItem(tr("ONNX Runtime profile (JSON)"), int(ProfileSource::OnnxRuntime));
    kind_->addItem(tr("Nsight Compute CSV"), int(ProfileSource::NsightCompute));
    if (guess.source) kind_->setCurrentIndex(kind_->findData(int(*guess.source)));
    layerInfo_ = new QLineEdit(this);
    layerInfo_->setPlaceholderText(tr("optional: trtexec --exportLayerInfo JSON"));
    browse_ = new QPushButton(tr("Browse…"), this);
    connect(browse_, &QPushButton::clicked, this, [this, profilePath] {
        const QString path = QFileDialog::getOpenFileName(this, tr("trtexec layer info"),
                                                          QFileInfo(profilePath).absolutePath(),
                                                          tr("JSON (*.json);;All files (*)"));
        if (!path.isEmpty()) layerInfo_->setText(path);
    });
    auto* infoRow = new QHBoxLayout;
    infoRow->addWidget(layerInfo_, 1);
    infoRow->addWidget(browse_);
    auto* form = new QFormLayout;
    form->addRow(tr("File:"), new QLabel(QFileInfo(profilePath).fileName(), this));
    form->addRow(tr("Written by:"), kind_);
    form->addRow(tr("Layer info:"), infoRow);
    mode_ = new QComboBox(this);
    mode_->setToolTip(tr("The power mode the board was in while the profile was taken: Rooftop predicts the "
                         "layers in that mode to set beside the measured times."));
    mode_->addItem(tr("Choose the mode it was measured in…"));
    for (const ModeChoice& choice : modes)
        mode_->addItem(choice.label, choice.name);
    mode_->addItem(tr("Not known: compare in the mode the plots show"), QString());
    if (!modes.isEmpty()) form->addRow(tr("Measured in:"), mode_);
    auto* note = new QLabel(guess.source ? tr("The kind was read from the file's content.")
                                         : tr("The file does not say which tool wrote it: choose."),
                            this);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    ok_ = buttons->button(QDialogButtonBox::Ok);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    connect(kind_, &QComboBox::currentIndexChanged, this, &LayerProfileDialog::kindChanged);
    connect(mode_, &QComboBox::currentIndexChanged, this, &LayerProfileDialog::modeChanged);
    if (modes.isEmpty())
        mode_->hide();
    else
        mode_->setFocus(); // the one question without a default
    kindChanged();
    modeChanged();
    resize(560, sizeHint().height());
}

ProfileSource LayerProfileDialog::source() const {
    return ProfileSource(kind_->currentData().toInt());
}

QString LayerProfileDialog::layerInfoPath() const {
    return source() == ProfileSource::Trtexec ? layerInfo_->text().trimmed() : QString();
}

QString LayerProfileDialog::measuredMode() const {
    return mode_->currentData().toString(); // "Not known" is empty; the question itself cannot be accepted
}

void LayerProfileDialog::modeChanged() {
    ok_->setEnabled(mode_->isHidden() || mode_->currentIndex() > 0);
}

void LayerProfileDialog::kindChanged() {
    const bool trtexec = source() == ProfileSource::Trtexec;
    layerInfo_->setEnabled(trtexec);
    browse_->setEnabled(trtexec);
}

} // namespace rooftop::gui
