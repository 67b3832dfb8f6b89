// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <optional>

class QAction;
class QProgressDialog;
class QWidget;

namespace rooftop {
struct SweepOutcome;
}

namespace rooftop::gui {

class MeasurementController;

/// Device → Measure this device…: asks which modes to measure, shows the progress with Cancel and reports
/// the outcome; the measurement itself runs in a MeasurementController.
class MeasureDeviceFlow : public QObject {
    Q_OBJECT
public:
    /// The action and its dialogs belong to `window`.
    explicit MeasureDeviceFlow(QWidget* window);

    /// The menu action (disabled while a measurement runs).
    QAction* action() const { return action_; }
    /// Records whether this machine can measure (from the start-up probe) and explains it on the action.
    void setAvailability(bool canMeasure, const QString& whyNot);
    /// Asks for the modes and measures this board (catalog id) into the user's data folder.
    void measure(const QString& deviceId);
    /// True while a measurement runs.
    bool running() const;
    /// Cancels a running measurement and waits until it has restored the power mode.
    void stopAndWait();
    MeasurementController& controller() const { return *controller_; }

signals:
    /// A profile was measured (or extended) for this board.
    void profileMeasured(const QString& profilePath, const QString& deviceId);
    /// A line for the status bar.
    void statusMessage(const QString& text);
    /// Measuring was impossible or failed.
    void failed(const QString& title, const QString& message);

private:
    void finished(const SweepOutcome& outcome);
    void ended();

    QWidget* window_;
    QAction* action_ = nullptr;
    MeasurementController* controller_ = nullptr;
    QPointer<QProgressDialog> dialog_;
    QString measuredDevice_;
    std::optional<QString> whyCannotMeasure_; ///< empty string: can measure; nothing: not probed yet
};

} // namespace rooftop::gui
