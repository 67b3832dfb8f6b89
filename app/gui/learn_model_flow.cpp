// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/learn_model_flow.h"

#include "core/common/text_format.h"
#include "core/learn/predictor_file.h"
#include "core/report/learn_writers.h"
#include "gui/background_job.h"
#include "gui/path_text.h"
#include "plots/prediction_check_plot.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <exception>

namespace rooftop::gui {

namespace {

/// Thrown from the learner's progress report once the page's Cancel was pressed: it unwinds the learning.
struct LearningCancelled {};

QString percent(double fraction) {
    return QString::fromStdString(fixed(100 * fraction, 1)) + QStringLiteral(" %");
}

/// What the learning gave, in the words of `rooftop learn`'s report (its physics coefficients left out).
QString summaryText(const LearnOutcome& outcome, const QString& path) {
    const LearnReport report =
        learnReport(outcome.predictor, outcome.notes, QFileInfo(path).fileName().toStdString());
    auto line = [](const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); };
    QStringList lines{QStringLiteral("<b>%1</b>").arg(line(report.headline)), line(report.error),
                      line(report.range)};
    for (const std::string& note : report.notes)
        lines << line(note);
    lines << line(report.written) + QStringLiteral(".");
    lines << QObject::tr("<i>Use in the advisor</i> gives every mode's latency, power and energy from it "
                         "(predicted), their bounds from its own error.");
    return lines.join(QStringLiteral("<br>"));
}

} // namespace

LearnModelFlow::LearnModelFlow(QWidget* window) : LearnModelFlow(window, &runLearning) {}

LearnModelFlow::LearnModelFlow(QWidget* window, Session session)
    : QObject(window), parent_(window), session_(std::move(session)) {
    pool_.setMaxThreadCount(1);
    action_ = new QAction(tr("&Learn a predictor from runs…"), window);
    action_->setObjectName(QStringLiteral("LearnPredictorAction"));
    action_->setStatusTip(tr("Learn the time and power of every mode from the open model's runs, and use "
                             "them for its numbers"));
    action_->setEnabled(false);
}

LearnModelFlow::~LearnModelFlow() {
    if (cancelled_) cancelled_->store(true);
    pool_.waitForDone();
}

void LearnModelFlow::cancel() {
    if (!running_ || !cancelled_ || cancelled_->exchange(true)) return;
    if (status_) status_->setText(tr("Cancelling at the learner's next stage…"));
    if (cancelButton_) cancelButton_->setEnabled(false);
}

void LearnModelFlow::setModelOpen(bool open) {
    modelOpen_ = open;
    action_->setEnabled(open && !running_);
}

void LearnModelFlow::learn(const ProfileDialogDefaults& defaults) {
    LearnDialog dialog(defaults, parent_);
    if (dialog.exec() == QDialog::Accepted) start(dialog.request()); // accept() has read every field
}

void LearnModelFlow::buildWindow() {
    if (window_) return;
    window_ = new QDialog(parent_);
    window_->setObjectName(QStringLiteral("LearnWindow"));
    window_->setWindowTitle(tr("Learn a predictor"));
    auto* layout = new QVBoxLayout(window_);
    status_ = new QLabel(window_);
    status_->setObjectName(QStringLiteral("LearnStatus"));
    status_->setWordWrap(true);
    summary_ = new QLabel(window_);
    summary_->setObjectName(QStringLiteral("LearnSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    latencyCheck_ = new plots::PredictionCheckPlot(plots::PredictionCheckPlot::Quantity::Latency, window_);
    powerCheck_ = new plots::PredictionCheckPlot(plots::PredictionCheckPlot::Quantity::Power, window_);
    auto* plots = new QHBoxLayout;
    plots->addWidget(latencyCheck_, 1);
    plots->addWidget(powerCheck_, 1);
    auto* buttons = new QDialogButtonBox(window_);
    useButton_ = buttons->addButton(tr("Use in the advisor"), QDialogButtonBox::AcceptRole);
    useButton_->setToolTip(tr("Give the open model's numbers from this predictor (File → Load predictor…)"));
    cancelButton_ = buttons->addButton(tr("Cancel"), QDialogButtonBox::RejectRole);
    cancelButton_->setToolTip(tr("Stop learning; no predictor file is written"));
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    connect(useButton_, &QPushButton::clicked, this, &LearnModelFlow::use);
    connect(cancelButton_, &QPushButton::clicked, this, &LearnModelFlow::cancel);
    connect(close, &QPushButton::clicked, window_, [this] {
        cancel(); // a learning nobody watches is not finished behind their back
        window_->hide();
    });
    layout->addWidget(status_);
    layout->addWidget(summary_);
    layout->addLayout(plots, 1);
    layout->addWidget(buttons);
    window_->resize(900, 600);
}

bool LearnModelFlow::start(const LearnPageRequest& request) {
    if (running_) {
        emit failed(tr("Learn a predictor"), tr("A predictor is being learned; wait for it."));
        return false;
    }
    buildWindow();
    summary_->clear();
    latencyCheck_->setVisible(false);
    powerCheck_->setVisible(false);
    useButton_->setEnabled(false);
    cancelButton_->setEnabled(true);
    status_->setText(
        tr("Learning from %1…").arg(QFileInfo(QString::fromStdString(request.learn.runsPath)).fileName()));
    window_->show();
    running_ = true;
    action_->setEnabled(false);
    QPointer<LearnModelFlow> self(this); // stays set: the destructor waits for the job
    cancelled_ = std::make_shared<std::atomic<bool>>(false);
    auto work = [self, session = session_, request, cancelled = cancelled_]() -> JobReport<LearnModelFlow> {
        LearnRequest learn = request.learn;
        learn.progress = [self, cancelled](const std::string& stage) {
            if (cancelled->load()) throw LearningCancelled();
            const QString text = QString::fromStdString(stage);
            postTo(self.data(), [self, text] {
                if (self->running_ && self->status_) self->status_->setText(text);
            });
        };
        try {
            LearnOutcome outcome = session(learn);
            savePredictor(request.predictorPath, outcome.predictor, learn.runsPath);
            const QString path = QString::fromStdString(request.predictorPath);
            return [outcome = std::move(outcome), path](LearnModelFlow* flow) { flow->done(outcome, path); };
        } catch (const LearningCancelled&) {
            return [](LearnModelFlow* flow) {
                if (flow->status_) flow->status_->setText(tr("Cancelled; no predictor file was written."));
                emit flow->statusMessage(tr("Learning cancelled"));
                emit flow->finished();
            };
        } catch (const std::exception& error) { // InputError for bad or too few runs, a file not written
            const QString message = firstLine(error.what());
            return [message](LearnModelFlow* flow) {
                if (flow->status_) flow->status_->setText(message);
                emit flow->failed(tr("Learn a predictor"), message);
                emit flow->finished();
            };
        }
    };
    runJob<LearnModelFlow>(pool_, this, work, [](LearnModelFlow* flow) {
        flow->running_ = false;
        if (flow->cancelButton_) flow->cancelButton_->setEnabled(false);
        flow->action_->setEnabled(flow->modelOpen_);
    });
    return true;
}

void LearnModelFlow::done(const LearnOutcome& outcome, const QString& predictorPath) {
    outcome_ = outcome;
    predictorPath_ = predictorPath;
    if (window_) {
        status_->clear();
        summary_->setText(summaryText(outcome, predictorPath));
        const QString source = QFileInfo(predictorPath).fileName();
        latencyCheck_->setPredictor(outcome.predictor, source);
        powerCheck_->setPredictor(outcome.predictor, source);
        latencyCheck_->setVisible(true);
        powerCheck_->setVisible(outcome.predictor.powerLearned);
        useButton_->setEnabled(true);
    }
    emit statusMessage(
        tr("Learned a predictor of %1 from %2 run(s): time %3, power %4 cross-validated; "
           "written to %5")
            .arg(QString::fromStdString(outcome.predictor.model))
            .arg(outcome.predictor.runs)
            .arg(percent(outcome.predictor.cv.timeMape),
                 outcome.predictor.powerLearned ? percent(outcome.predictor.cv.powerMape) : tr("not learned"),
                 predictorPath));
    emit finished();
}

void LearnModelFlow::use() {
    if (!outcome_ || predictorPath_.isEmpty()) return;
    emit useRequested(predictorPath_);
    if (window_) window_->hide();
}

} // namespace rooftop::gui
