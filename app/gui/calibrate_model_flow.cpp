// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/calibrate_model_flow.h"

#include "core/common/text_format.h"
#include "core/report/calibration_writers.h"
#include "gui/background_job.h"
#include "gui/calibration_view.h"
#include "gui/path_text.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

namespace rooftop::gui {

CalibrateModelFlow::CalibrateModelFlow(QWidget* window) : CalibrateModelFlow(window, &runCalibration) {}

CalibrateModelFlow::CalibrateModelFlow(QWidget* window, Session session)
    : QObject(window), parent_(window), session_(std::move(session)) {
    pool_.setMaxThreadCount(1);
    action_ = new QAction(tr("&Calibrate the runtime to runs…"), window);
    action_->setObjectName(QStringLiteral("CalibrateRuntimeAction"));
    action_->setStatusTip(tr("Fit the runtime's efficiencies and power model to the open model's runs, and "
                             "analyse with the calibrated runtime"));
    action_->setEnabled(false);
}

CalibrateModelFlow::~CalibrateModelFlow() {
    pool_.waitForDone();
}

void CalibrateModelFlow::setModelOpen(bool open) {
    modelOpen_ = open;
    action_->setEnabled(open && !running_);
}

void CalibrateModelFlow::calibrate(const ProfileDialogDefaults& defaults) {
    CalibrateDialog dialog(defaults, parent_);
    if (dialog.exec() == QDialog::Accepted) start(dialog.request()); // accept() has read every field
}

void CalibrateModelFlow::buildWindow() {
    if (window_) return;
    window_ = new QDialog(parent_);
    window_->setObjectName(QStringLiteral("CalibrateWindow"));
    window_->setWindowTitle(tr("Calibrate the runtime"));
    auto* layout = new QVBoxLayout(window_);
    status_ = new QLabel(window_);
    status_->setWordWrap(true);
    report_ = new CalibrationView(window_);
    report_->setObjectName(QStringLiteral("CalibrationReport"));
    auto* buttons = new QDialogButtonBox(window_);
    useButton_ = buttons->addButton(tr("Use in the window"), QDialogButtonBox::AcceptRole);
    useButton_->setToolTip(tr("Offer the calibrated runtime in the toolbar and analyse with it (File → Open "
                              "runtime file…)"));
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    connect(useButton_, &QPushButton::clicked, this, &CalibrateModelFlow::use);
    connect(close, &QPushButton::clicked, window_, &QDialog::hide);
    layout->addWidget(status_);
    layout->addWidget(report_, 1);
    layout->addWidget(buttons);
    // the runs table's ten columns in full on a 1280 x 800 screen, never past a smaller screen's edge
    const QSize screen = parent_ && parent_->screen() ? parent_->screen()->availableSize() : QSize();
    QSize size(1040, std::max(600, screen.height() * 7 / 10));
    if (screen.isValid()) size = size.boundedTo(screen);
    window_->resize(size);
}

bool CalibrateModelFlow::start(const CalibratePageRequest& request) {
    if (running_) {
        emit failed(tr("Calibrate the runtime"), tr("A runtime is being calibrated; wait for it."));
        return false;
    }
    buildWindow();
    report_->clear();
    useButton_->setEnabled(false);
    status_->setText(tr("Calibrating %1 to %2…")
                         .arg(QString::fromStdString(request.calibration.runtime.name),
                              QFileInfo(QString::fromStdString(request.calibration.runsPath)).fileName()));
    window_->show();
    running_ = true;
    action_->setEnabled(false);
    auto work = [session = session_, request]() -> JobReport<CalibrateModelFlow> {
        try {
            CalibrationResult result = session(request.calibration);
            saveRuntimeFile(request.runtimePath, result.fit.runtime);
            const QString path = QString::fromStdString(request.runtimePath);
            return [result = std::move(result), path](CalibrateModelFlow* flow) { flow->done(result, path); };
        } catch (const std::exception& error) { // InputError for bad runs, a file not written
            const QString message = firstLine(error.what());
            return [message](CalibrateModelFlow* flow) {
                if (flow->status_) flow->status_->setText(message);
                emit flow->failed(tr("Calibrate the runtime"), message);
                emit flow->finished();
            };
        }
    };
    runJob<CalibrateModelFlow>(pool_, this, work, [](CalibrateModelFlow* flow) {
        flow->running_ = false;
        flow->action_->setEnabled(flow->modelOpen_);
    });
    return true;
}

void CalibrateModelFlow::done(const CalibrationResult& result, const QString& runtimePath) {
    result_ = result;
    runtimePath_ = runtimePath;
    if (window_) {
        // the fit's quality is the report's own line, below
        status_->setText(tr("Done: written to %1. <i>Use in the window</i> analyses with it.")
                             .arg(pathAsShown(runtimePath).toHtmlEscaped()));
        report_->showReport(calibrationReportParts(result, runtimePath.toStdString(), true));
        useButton_->setEnabled(true);
    }
    emit statusMessage(tr("Calibrated %1 to %2 run(s) of %3: R² %4; written to %5")
                           .arg(QString::fromStdString(result.fit.runtime.name))
                           .arg(result.runs.size())
                           .arg(QFileInfo(QString::fromStdString(result.request.modelPath)).fileName(),
                                QString::fromStdString(fixed(result.fit.rSquared, 3)),
                                pathAsShown(runtimePath)));
    emit finished();
}

void CalibrateModelFlow::use() {
    if (!result_ || runtimePath_.isEmpty()) return;
    emit useRequested(runtimePath_);
    if (window_) window_->hide();
}

} // namespace rooftop::gui
