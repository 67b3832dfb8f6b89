// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/measure_device_flow.h"

#include "gui/measurement_controller.h"

#include <QAction>
#include <QDir>
#include <QInputDialog>
#include <QProgressDialog>
#include <QStandardPaths>
#include <QWidget>

namespace rooftop::gui {

MeasureDeviceFlow::MeasureDeviceFlow(QWidget* window) : QObject(window), window_(window) {
    action_ = new QAction(tr("&Measure this device…"), window);
    controller_ = new MeasurementController(this);
    connect(controller_, &MeasurementController::progress, this,
            [this](const QString& text, double fraction) {
                if (!dialog_) return;
                dialog_->setLabelText(text);
                dialog_->setValue(int(fraction * 1000));
            });
    connect(controller_, &MeasurementController::unavailable, this, [this](const QString& reason) {
        ended();
        emit failed(tr("Measure this device"), tr("Rooftop cannot measure here: %1").arg(reason));
    });
    connect(controller_, &MeasurementController::failed, this, [this](const QString& message) {
        ended();
        emit failed(tr("Measure this device"), message);
    });
    connect(controller_, &MeasurementController::finished, this, &MeasureDeviceFlow::finished);
}

void MeasureDeviceFlow::setAvailability(bool canMeasure, const QString& whyNot) {
    whyCannotMeasure_ = canMeasure ? QString() : whyNot;
    // greyed out where nothing can measure (its tooltip says why), as Profile and Tune are not: they run
    // through a runner, the simulated board's included
    action_->setEnabled(canMeasure && !running());
    action_->setToolTip(canMeasure ? QString() : whyNot);
    action_->setStatusTip(canMeasure ? QString() : tr("Cannot measure here: %1").arg(whyNot));
}

bool MeasureDeviceFlow::running() const {
    return controller_->running();
}

void MeasureDeviceFlow::stopAndWait() {
    controller_->stopAndWait();
}

void MeasureDeviceFlow::measure(const QString& deviceId) {
    if (whyCannotMeasure_ && !whyCannotMeasure_->isEmpty()) {
        emit failed(tr("Measure this device"), tr("Rooftop cannot measure here: %1").arg(*whyCannotMeasure_));
        return;
    }
    bool ok = false;
    const QString modes = QInputDialog::getItem(
        window_, tr("Measure this device"), tr("Modes to measure"),
        {QStringLiteral("current"), QStringLiteral("stock"), QStringLiteral("all")}, 0, false, &ok);
    if (!ok) return;
    BenchRequest request;
    request.deviceId = deviceId.toStdString();
    request.modes = modes.toStdString();
    // A desktop launch may start in / or a read-only folder: profiles go to the user's data folder.
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(folder);
    request.outPath = QDir(folder).filePath(QStringLiteral("%1-profile.json").arg(deviceId)).toStdString();
    if (!controller_->start(request)) {
        emit failed(tr("Measure this device"),
                    tr("Another measurement is running; wait for it or cancel it."));
        return;
    }
    measuredDevice_ = deviceId;
    action_->setEnabled(false);
    dialog_ = new QProgressDialog(tr("Measuring…"), tr("Cancel"), 0, 1000, window_);
    dialog_->setAttribute(Qt::WA_DeleteOnClose);
    dialog_->setWindowModality(Qt::WindowModal);
    dialog_->setMinimumDuration(0);
    connect(dialog_, &QProgressDialog::canceled, controller_, &MeasurementController::cancel);
}

void MeasureDeviceFlow::ended() {
    if (dialog_) dialog_->close();
    action_->setEnabled(!whyCannotMeasure_ || whyCannotMeasure_->isEmpty());
}

void MeasureDeviceFlow::finished(const SweepOutcome& outcome) {
    ended();
    QStringList notes;
    if (outcome.cancelled) notes << tr("cancelled");
    for (const std::string& skipped : outcome.skipped)
        notes << QString::fromStdString(skipped);
    const QString noteText = notes.join(QStringLiteral("; "));
    if (outcome.measured.empty() && outcome.resumed.empty()) {
        emit failed(tr("Measure this device"), tr("Nothing was measured (%1).").arg(noteText));
        return;
    }
    emit statusMessage(tr("Measured %1 mode(s) into %2%3")
                           .arg(outcome.measured.size())
                           .arg(QString::fromStdString(outcome.outPath),
                                notes.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(noteText)));
    emit profileMeasured(QString::fromStdString(outcome.outPath), measuredDevice_);
}

} // namespace rooftop::gui
