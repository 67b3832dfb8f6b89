// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/profile_session.h"
#include "gui/profile_dialog.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QAction;
class QProgressDialog;
class QWidget;

namespace rooftop::gui {

class ProfileController;

/// Device → Profile this model…: asks for the sweep in a ProfileDialog, shows its progress with Cancel and
/// hands the runs file on when it ends; the sweep itself runs in a ProfileController.
class ProfileModelFlow : public QObject {
    Q_OBJECT
public:
    /// The action and its dialogs belong to `window`.
    explicit ProfileModelFlow(QWidget* window);

    /// The menu action (enabled while a model is open and no sweep runs).
    QAction* action() const { return action_; }
    /// Records whether a model is open (the action needs one).
    void setModelOpen(bool open);
    /// Shows the dialog for this model and board and starts the sweep it describes.
    void profile(const ProfileDialogDefaults& defaults);
    /// Starts a sweep with a progress dialog; false (with a message) when it cannot start.
    bool start(const ProfileRequest& request);
    /// True while a sweep runs.
    bool running() const;
    /// Cancels a running sweep and waits until it has restored the power mode.
    void stopAndWait();
    ProfileController& controller() const { return *controller_; }

signals:
    /// A sweep ended (finished or cancelled) and left its rows in this runs file.
    void runsWritten(const QString& runsPath);
    /// A line for the status bar.
    void statusMessage(const QString& text);
    /// The sweep was refused or failed.
    void failed(const QString& title, const QString& message);

private:
    void finished(const ProfileOutcome& outcome);
    void cancelRequested();
    void ended();

    QWidget* window_;
    QAction* action_ = nullptr;
    ProfileController* controller_ = nullptr;
    QPointer<QProgressDialog> dialog_;
    bool modelOpen_ = false;
};

} // namespace rooftop::gui
