// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/profile_model_flow.h"

#include "gui/profile_controller.h"

#include <QAction>
#include <QFileInfo>
#include <QMetaObject>
#include <QProgressDialog>
#include <QWidget>

namespace rooftop::gui {

ProfileModelFlow::ProfileModelFlow(QWidget* window) : QObject(window), window_(window) {
    action_ = new QAction(tr("&Profile this model…"), window);
    action_->setStatusTip(
        tr("Run the open model in each power mode and show the runs beside the predictions"));
    action_->setEnabled(false);
    controller_ = new ProfileController(this);
    connect(controller_, &ProfileController::progress, this, [this](const QString& text, double fraction) {
        if (!dialog_ || dialog_->wasCanceled()) return;
        dialog_->setLabelText(text);
        dialog_->setValue(int(fraction * 1000));
    });
    connect(controller_, &ProfileController::failed, this, [this](const QString& message) {
        ended();
        emit failed(tr("Profile this model"), message);
    });
    connect(controller_, &ProfileController::finished, this, &ProfileModelFlow::finished);
}

void ProfileModelFlow::setModelOpen(bool open) {
    modelOpen_ = open;
    action_->setEnabled(open && !running());
}

bool ProfileModelFlow::running() const {
    return controller_->running();
}

void ProfileModelFlow::stopAndWait() {
    controller_->stopAndWait();
}

void ProfileModelFlow::profile(const ProfileDialogDefaults& defaults) {
    ProfileDialog dialog(defaults, window_);
    if (dialog.exec() == QDialog::Accepted) start(dialog.request()); // accept() has read every field
}

bool ProfileModelFlow::start(const ProfileRequest& request) {
    if (!controller_->start(request)) {
        emit failed(tr("Profile this model"), tr("A profile is running; wait for it or cancel it."));
        return false;
    }
    action_->setEnabled(false);
    dialog_ = new QProgressDialog(tr("Starting the sweep…"), tr("Cancel"), 0, 1000, window_);
    dialog_->setWindowTitle(
        tr("Profiling %1").arg(QFileInfo(QString::fromStdString(request.modelPath)).fileName()));
    dialog_->setAttribute(Qt::WA_DeleteOnClose);
    dialog_->setWindowModality(Qt::WindowModal);
    dialog_->setMinimumDuration(0);
    dialog_->setAutoClose(false);
    dialog_->setAutoReset(false);
    dialog_->setMinimumWidth(520);
    connect(dialog_, &QProgressDialog::canceled, this, &ProfileModelFlow::cancelRequested);
    return true;
}

void ProfileModelFlow::cancelRequested() {
    controller_->cancel();
    // The sweep stops its current run and restores the original mode: stay up, without Cancel, until
    // it has. Queued: the button that was clicked must not be deleted inside its own signal.
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (!dialog_ || !running()) return;
            dialog_->setCancelButton(nullptr);
            dialog_->setLabelText(tr("Cancelling: stopping the current run and restoring the power mode…"));
            dialog_->show();
        },
        Qt::QueuedConnection);
}

void ProfileModelFlow::ended() {
    if (dialog_) dialog_->close();
    action_->setEnabled(modelOpen_);
}

void ProfileModelFlow::finished(const ProfileOutcome& outcome) {
    ended();
    QStringList notes;
    if (outcome.cancelled) notes << tr("cancelled");
    if (outcome.failed > 0) notes << tr("%1 failed").arg(outcome.failed);
    if (outcome.resumed > 0) notes << tr("%1 already in the file").arg(outcome.resumed);
    for (const std::string& skipped : outcome.skipped)
        notes << tr("skipped %1").arg(QString::fromStdString(skipped));
    const QString path = QString::fromStdString(outcome.outPath);
    emit statusMessage(tr("Profiled %1 run(s) into %2%3")
                           .arg(outcome.ok)
                           .arg(QFileInfo(path).fileName(),
                                notes.isEmpty()
                                    ? QString()
                                    : QStringLiteral(" (%1)").arg(notes.join(QStringLiteral("; ")))));
    if (!path.isEmpty()) emit runsWritten(path);
}

} // namespace rooftop::gui
