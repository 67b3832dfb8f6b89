// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/tune_model_flow.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/measure/runner_spec.h"
#include "core/tune/tune_progress.h"
#include "core/tune/tune_writers.h"
#include "gui/background_job.h"
#include "gui/tune_dialog.h"
#include "gui/tune_plot.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontMetrics>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <exception>

namespace rooftop::gui {

TuneModelFlow::TuneModelFlow(QWidget* window) : TuneModelFlow(window, &runTuneSession) {}

TuneModelFlow::TuneModelFlow(QWidget* window, Session session)
    : QObject(window), parent_(window), session_(std::move(session)) {
    pool_.setMaxThreadCount(1);
    action_ = new QAction(tr("&Tune this model…"), window);
    action_->setStatusTip(
        tr("Find the mode, batch and precision with the least energy within the limits in a "
           "few measured runs"));
    action_->setEnabled(false);
}

TuneModelFlow::~TuneModelFlow() {
    stopAndWait();
}

void TuneModelFlow::setModelOpen(bool open) {
    modelOpen_ = open;
    action_->setEnabled(open && !running_);
}

void TuneModelFlow::cancel() {
    if (cancel_) cancel_->store(true);
    if (running_ && status_)
        status_->setText(tr("Cancelling: stopping the current run and restoring the power mode…"));
    if (cancelButton_) cancelButton_->setEnabled(false);
}

void TuneModelFlow::stopAndWait() {
    if (cancel_) cancel_->store(true);
    pool_.waitForDone();
}

void TuneModelFlow::tune(const ProfileDialogDefaults& defaults, const Constraints& limits,
                         Objective objective) {
    TuneDialog dialog(defaults, limits, objective, parent_);
    if (dialog.exec() == QDialog::Accepted) start(dialog.request()); // accept() has read every field
}

void TuneModelFlow::buildWindow() {
    if (window_) return;
    window_ = new QDialog(parent_);
    window_->setObjectName(QStringLiteral("TuneWindow"));
    window_->setWindowTitle(tr("Tune this model"));
    auto* layout = new QVBoxLayout(window_);
    status_ = new QLabel(window_);
    status_->setWordWrap(true);
    runs_ = new QListWidget(window_);
    plot_ = new TuneConvergencePlot(window_);
    result_ = new QPlainTextEdit(window_);
    result_->setReadOnly(true);
    result_->setLineWrapMode(QPlainTextEdit::NoWrap);
    result_->setFont(QFont(QStringLiteral("monospace")));
    result_->setVisible(false);
    auto* buttons = new QDialogButtonBox(window_);
    cancelButton_ = buttons->addButton(tr("Cancel"), QDialogButtonBox::RejectRole);
    applyButton_ = buttons->addButton(tr("Apply to advisor"), QDialogButtonBox::AcceptRole);
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    connect(cancelButton_, &QPushButton::clicked, this, &TuneModelFlow::cancel);
    connect(applyButton_, &QPushButton::clicked, this, &TuneModelFlow::apply);
    connect(close, &QPushButton::clicked, window_, [this] {
        if (running_) cancel();
        window_->hide();
    });
    layout->addWidget(status_);
    layout->addWidget(runs_, 1);
    layout->addWidget(plot_);
    layout->addWidget(result_, 1);
    layout->addWidget(buttons);
    // room for the run lines and the result table on a large screen, at least 760 x 640 on a small one, and
    // never past the screen's edge (a scaled 1280 x 800 screen is 960 x 600 to Qt at 133 %)
    const QSize screen = parent_ && parent_->screen() ? parent_->screen()->availableSize() : QSize();
    QSize size(std::max(760, screen.width() * 11 / 20), std::max(640, screen.height() * 7 / 10));
    if (screen.isValid()) size = size.boundedTo(screen);
    window_->resize(size);
}

void TuneModelFlow::widenToTheTable() {
    int widest = 0;
    const QFontMetrics metrics(result_->font());
    for (const QString& line : result_->toPlainText().split(QLatin1Char('\n')))
        widest = std::max(widest, metrics.horizontalAdvance(line));
    // the table's columns whole where the screen allows, with the frame, margins and scroll bar beside them
    const int wanted = widest + result_->verticalScrollBar()->sizeHint().width() + 6 * result_->frameWidth() +
                       window_->layout()->contentsMargins().left() +
                       window_->layout()->contentsMargins().right() + 16;
    const QRect screen = window_->screen() ? window_->screen()->availableGeometry() : QRect();
    const int width = screen.isValid() ? std::min(wanted, screen.width() * 19 / 20) : wanted;
    if (width <= window_->width()) return;
    QRect frame = window_->geometry();
    frame.setWidth(width);
    if (screen.isValid() && frame.right() > screen.right()) // still whole on the screen
        frame.moveLeft(std::max(screen.left(), screen.right() - width));
    window_->setGeometry(frame);
}

bool TuneModelFlow::start(const TuneRequest& request) {
    if (running_) {
        emit failed(tr("Tune this model"), tr("A tune is running; wait for it or cancel it."));
        return false;
    }
    buildWindow();
    runs_->clear();
    runs_->setVisible(true);
    plot_->clear();
    result_->clear();
    result_->setVisible(false);
    applyButton_->setText(tr("Apply to advisor"));
    applyButton_->setEnabled(false);
    cancelButton_->setEnabled(true);
    status_->setText(tr("Tuning %1: counting the model and predicting every configuration…")
                         .arg(QFileInfo(QString::fromStdString(request.modelPath)).fileName()));
    window_->show();
    running_ = true;
    action_->setEnabled(false);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    cancel_ = cancel;
    QPointer<TuneModelFlow> self(this); // stays set: the destructor waits for the job
    // the simulated board's numbers are simulated, not measured (the runner spec "sim..." names it)
    const QString provenance = QString::fromStdString(runProvenance(request.runner));
    const QString item = QString::fromStdString(energyItem(request.options));
    plot_->setProvenance(provenance, item);
    auto work = [self, session = session_, request, cancel, provenance]() -> JobReport<TuneModelFlow> {
        auto onSample = [self, options = request.options, provenance](const TuneOutcome& sofar,
                                                                      const TuneSpace& space) {
            const std::string runs = provenance.toStdString();
            const QString line =
                QString::fromStdString(tuneSampleLine(sofar, sofar.latest, space, options, runs, true));
            const QString progress = QString::fromStdString(tuneProgressLine(sofar, options, runs));
            const double best = bestEnergySoFar(sofar).value_or(NAN);
            const int samples = int(sofar.samples.size());
            postTo(self.data(),
                   [self, line, progress, best, samples] { self->landed(line, progress, best, samples); });
        };
        try {
            const TuneReport report = session(request, onSample, cancel.get());
            return [report](TuneModelFlow* flow) { flow->done(report); };
        } catch (const std::exception& error) { // InputError, UnavailableError, a failed restore: one line
            const QString message = firstLine(error.what());
            return [message](TuneModelFlow* flow) {
                if (flow->status_) flow->status_->setText(message);
                emit flow->failed(tr("Tune this model"), message);
            };
        }
    };
    runJob<TuneModelFlow>(pool_, this, work, [](TuneModelFlow* flow) {
        flow->running_ = false;
        flow->cancel_.reset();
        flow->action_->setEnabled(flow->modelOpen_);
        if (flow->cancelButton_) flow->cancelButton_->setEnabled(false);
    });
    return true;
}

void TuneModelFlow::landed(const QString& line, const QString& progress, double bestEnergyMj, int samples) {
    if (!window_) return;
    runs_->addItem(line);
    runs_->scrollToBottom();
    plot_->addRun(bestEnergyMj);
    if (!cancel_ || !cancel_->load()) status_->setText(progress);
    emit sampleLanded(samples);
}

void TuneModelFlow::done(const TuneReport& report) {
    report_ = report;
    const TuneOutcome& out = report.outcome;
    if (window_) {
        const QString ended =
            out.cancelled ? (report.switching ? tr("Cancelled after %1 run(s); the power mode was restored.")
                                              : tr("Cancelled after %1 run(s) (no mode was switched)."))
                                .arg(out.runsMade)
            : out.caveat.empty()
                ? tr("Done: %1.").arg(QString::fromStdString(out.stopReason))
                : tr("Done: %1. Note: %2.")
                      .arg(QString::fromStdString(out.stopReason), QString::fromStdString(out.caveat));
        // the answer first, above the runs that led to it
        status_->setText(ended.toHtmlEscaped() + QStringLiteral("<br><b>") +
                         QString::fromStdString(tuneAnswerLine(report, true)).toHtmlEscaped() +
                         QStringLiteral(".</b>"));
        result_->setPlainText(QString::fromStdString(tuneTable(report, true)));
        result_->setVisible(true);
        runs_->setVisible(out.samples.empty()); // the table has every run line's run, with more columns
        widenToTheTable();
        applyButton_->setEnabled(out.recommended.has_value());
    }
    emit statusMessage(
        out.recommended
            ? tr("Tuned %1: %2 run(s) over %3 configuration(s), best within the limits %4 mJ per %5")
                  .arg(QString::fromStdString(report.model))
                  .arg(out.runsMade)
                  .arg(out.samples.size())
                  .arg(QString::fromStdString(general(out.samples[*out.recommended].energyMj, 4)))
                  .arg(QString::fromStdString(energyItem(report.options)))
            : tr("Tuned %1: no measured configuration met the limits")
                  .arg(QString::fromStdString(report.model)));
    emit finished();
}

void TuneModelFlow::apply() {
    if (!report_ || !report_->outcome.recommended) return;
    emit applied();
    if (!window_) return;
    // the page keeps a mark of what the window now shows, until the next tune
    const TuneConfig& best =
        report_->space.configs[report_->outcome.samples[*report_->outcome.recommended].config];
    applyButton_->setText(tr("Applied"));
    applyButton_->setEnabled(false);
    const QString before =
        Qt::mightBeRichText(status_->text()) ? status_->text() : status_->text().toHtmlEscaped();
    status_->setText(
        before + "<br>" +
        tr("Applied: the window now advises %1 at batch %2 for this tune's limits (the card says "
           "<i>Tuned</i>).")
            .arg(QString::fromStdString(readableModeName(best.mode)).toHtmlEscaped())
            .arg(best.batch));
}

} // namespace rooftop::gui
