// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: menus, files (open, recent, drag-and-drop), exports, settings and the measuring action.
#include "gui/main_window.h"

#include "core/device/measured_profile.h"
#include "core/microbench/bench_session.h"
#include "core/report/netron_metrics.h"
#include "report/report_builder.h"
#include "models/layer_table_model.h"
#include "models/layer_filter_proxy_model.h"
#include "models/model_export.h"
#include "plots/pareto_plot.h"
#include "plots/plot_base.h"
#include "plots/plot_export.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressDialog>
#include <QSaveFile>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QThreadPool>
#include <QToolBar>

#include <algorithm>
#include <atomic>

namespace rooftop::gui {

namespace {

constexpr int kMaxRecentFiles = 10;

QString writeText(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    file.write(bytes);
    if (!file.commit()) return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

/// Asks for an export size; false when cancelled.
bool askExportSize(QWidget* parent, int& width, int& height) {
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Export size"));
    auto* form = new QFormLayout(&dialog);
    auto* widthBox = new QSpinBox(&dialog);
    auto* heightBox = new QSpinBox(&dialog);
    for (QSpinBox* box : {widthBox, heightBox}) {
        box->setRange(64, 10000);
        box->setSuffix(QObject::tr(" px"));
    }
    widthBox->setValue(width);
    heightBox->setValue(height);
    form->addRow(QObject::tr("Width"), widthBox);
    form->addRow(QObject::tr("Height"), heightBox);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) return false;
    width = widthBox->value();
    height = heightBox->value();
    return true;
}

} // namespace

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open model…"), QKeySequence::Open, this, &MainWindow::chooseAndOpen);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("Load measured &profile…"), this, &MainWindow::chooseMeasuredProfile);
    file->addSeparator();
    file->addAction(tr("&Export plot…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::chooseAndExportPlot);
    file->addAction(tr("Export layer &table…"), QKeySequence(tr("Ctrl+Shift+E")), this, [this] { chooseAndExportTable(false); });
    file->addAction(tr("Export power &modes table…"), this, [this] { chooseAndExportTable(true); });
    file->addAction(tr("Export &Netron metrics…"), this, &MainWindow::chooseAndExportNetron);
    file->addAction(tr("Write &report…"), QKeySequence(tr("Ctrl+R")), this, &MainWindow::chooseAndExportReport);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Reset zoom"), QKeySequence(tr("Ctrl+0")), this, [this] { currentPlot()->resetView(); });
    view->addAction(tr("Time roofline"), QKeySequence(tr("Ctrl+1")), this, [this] { showView(QStringLiteral("time")); });
    view->addAction(tr("Energy roofline"), QKeySequence(tr("Ctrl+2")), this, [this] { showView(QStringLiteral("energy")); });
    view->addAction(tr("Power modes"), QKeySequence(tr("Ctrl+3")), this, [this] { showView(QStringLiteral("modes")); });
    view->addSeparator();
    QAction* dark = view->addAction(tr("&Dark palette"));
    dark->setCheckable(true);
    dark->setObjectName(QStringLiteral("DarkPaletteAction"));
    connect(dark, &QAction::toggled, this, [this](bool on) { setTheme(on ? Theme::Dark : Theme::Light); });

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Copy table rows"), QKeySequence::Copy, this, [this] {
        QApplication::clipboard()->setText(models::modelToCsv(*layerProxy_));
        status_->setText(tr("Copied %1 rows as CSV").arg(layerProxy_->rowCount()));
    });

    QMenu* device = menuBar()->addMenu(tr("&Device"));
    QAction* measure = device->addAction(tr("&Measure this device…"), this, &MainWindow::measureDevice);
    measureAction_ = measure;
    std::string whyNot;
    if (!benchAvailable(&whyNot)) {
        measure->setToolTip(QString::fromStdString(whyNot));
        measure->setStatusTip(tr("Cannot measure here: %1").arg(QString::fromStdString(whyNot)));
    }
    device->setToolTipsVisible(true);
    device->addAction(tr("Use &derived ceilings"), this, [this] {
        profilePath_.clear();
        scheduleAnalysis();
    });
}

void MainWindow::setTheme(Theme theme) {
    theme_ = theme;
    applyTheme(theme);
    if (auto* dark = findChild<QAction*>(QStringLiteral("DarkPaletteAction"))) {
        const QSignalBlocker block(dark);
        dark->setChecked(theme == Theme::Dark);
    }
    refreshViews();
    if (result_) paretoPlot_->setRecommendation(result_->recommendation, QString::fromStdString(result_->device.name));
}

void MainWindow::openModel(const QString& path, const QString& deviceId) {
    if (!deviceId.isEmpty()) {
        const int index = deviceBox_->findData(deviceId);
        if (index < 0) {
            showError(tr("Unknown board"), tr("There is no board '%1' in the catalog.").arg(deviceId));
        } else {
            const QSignalBlocker block(deviceBox_);
            deviceBox_->setCurrentIndex(index);
        }
    }
    if (path.isEmpty()) return;
    if (!QFileInfo(path).isFile()) {
        showError(tr("Cannot open the model"), tr("%1 is not a file.").arg(path));
        return;
    }
    modelPath_ = QFileInfo(path).absoluteFilePath();
    addRecentFile(modelPath_);
    requestAnalysis();
}

void MainWindow::chooseAndOpen() {
    const QString start = modelPath_.isEmpty() ? QString() : QFileInfo(modelPath_).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open ONNX model"), start, tr("ONNX models (*.onnx);;All files (*)"));
    if (!path.isEmpty()) openModel(path);
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecentFiles) recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& path : recent)
        recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openModel(path); })->setToolTip(path);
    recentMenu_->setEnabled(!recent.isEmpty());
    recentMenu_->setToolTipsVisible(true);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    const int device = deviceBox_->findData(settings.value(QStringLiteral("lastDevice"), QStringLiteral("agx-orin-64gb")));
    if (device >= 0) {
        const QSignalBlocker block(deviceBox_);
        deviceBox_->setCurrentIndex(device);
    }
    tabs_->setCurrentIndex(settings.value(QStringLiteral("window/view"), 0).toInt());
    if (settings.value(QStringLiteral("theme")).toString() == QLatin1String("dark")) setTheme(Theme::Dark);
    rebuildRecentMenu();
    if (!settings.contains(QStringLiteral("window/geometry"))) resize(1500, 900);
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/view"), tabs_->currentIndex());
    settings.setValue(QStringLiteral("lastDevice"), deviceBox_->currentData());
    settings.setValue(QStringLiteral("theme"), theme_ == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light"));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (measureCancel_) {
        // The sweep restores the board's original mode when it stops: wait for that before the window goes.
        measureCancel_->store(true);
        status_->setText(tr("Stopping the measurement and restoring the power mode…"));
        QThreadPool::globalInstance()->waitForDone();
    }
    saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    const bool allLocal = std::all_of(urls.begin(), urls.end(), [](const QUrl& url) { return url.isLocalFile(); });
    if (!urls.isEmpty() && allLocal) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty()) return;
    event->acceptProposedAction();
    // The first model opens here, each further one in a window of its own on the same board.
    for (int i = 1; i < urls.size(); ++i) {
        if (!urls[i].isLocalFile()) continue;
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        window->openModel(urls[i].toLocalFile(), deviceBox_->currentData().toString());
    }
    if (urls.front().isLocalFile()) openModel(urls.front().toLocalFile());
}

QString MainWindow::exportCurrentPlot(const QString& path, int width, int height) {
    return plots::exportPlot(*currentPlot(), path, width, height);
}

namespace {

QString exportTable(const QAbstractItemModel& view, const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("json")) return writeText(path, models::modelToJson(view));
    if (suffix == QLatin1String("csv")) return writeText(path, models::modelToCsv(view).toUtf8());
    return QObject::tr("the table file must end in .csv or .json, got '%1'").arg(path);
}

} // namespace

QString MainWindow::exportLayerTable(const QString& path) { return exportTable(*layerProxy_, path); }

QString MainWindow::exportModesTable(const QString& path) { return exportTable(*modesProxy_, path); }

QString MainWindow::exportNetronMetrics(const QString& path) {
    if (!result_) return tr("no analysis to export yet");
    return writeText(path, QByteArray::fromStdString(netronMetricsJson(result_->workload, layerModel_->prediction())));
}

QString MainWindow::exportReport(const QString& path) {
    if (!result_) return tr("no analysis to report yet");
    return report::writeReport(*result_, path);
}

void MainWindow::chooseAndExportPlot() {
    int width = 1200, height = 800;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), currentPlot()->objectName() + ".png",
                                                      plots::plotExportFilter());
    if (path.isEmpty() || !askExportSize(this, width, height)) return;
    if (const QString error = exportCurrentPlot(path, width, height); !error.isEmpty()) showError(tr("Export"), error);
}

void MainWindow::chooseAndExportTable(bool modes) {
    const QString path = QFileDialog::getSaveFileName(this, modes ? tr("Export power modes table") : tr("Export layer table"),
                                                      modes ? QStringLiteral("modes.csv") : QStringLiteral("layers.csv"),
                                                      tr("CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty()) return;
    const QString error = modes ? exportModesTable(path) : exportLayerTable(path);
    if (!error.isEmpty()) showError(tr("Export"), error);
}

void MainWindow::chooseAndExportNetron() {
    const QString base = modelPath_.isEmpty() ? QStringLiteral("model") : QFileInfo(modelPath_).completeBaseName();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Netron metrics"), base + ".metrics.json",
                                                      tr("Netron metrics (*.json)"));
    if (path.isEmpty()) return;
    if (const QString error = exportNetronMetrics(path); !error.isEmpty()) showError(tr("Export"), error);
}

void MainWindow::chooseAndExportReport() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Write report"), QStringLiteral("rooftop-report.pdf"),
                                                      tr("PDF (*.pdf);;HTML (*.html)"));
    if (path.isEmpty()) return;
    if (const QString error = exportReport(path); !error.isEmpty()) showError(tr("Report"), error);
}

void MainWindow::chooseMeasuredProfile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load measured profile"), QString(),
                                                      tr("Rooftop profiles (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    try {
        profileDevice_ = QString::fromStdString(loadMeasuredProfile(path.toStdString()).deviceId);
    } catch (const std::exception& error) {
        return showError(tr("Load measured profile"), QString::fromUtf8(error.what()));
    }
    profilePath_ = path;
    const int device = deviceBox_->findData(profileDevice_);
    if (device >= 0) deviceBox_->setCurrentIndex(device); // the profile's board
    scheduleAnalysis();
}

void MainWindow::measureDevice() {
    std::string whyNot;
    if (!benchAvailable(&whyNot)) {
        showError(tr("Measure this device"), tr("Rooftop cannot measure here: %1").arg(QString::fromStdString(whyNot)));
        return;
    }
    bool ok = false;
    const QString modes = QInputDialog::getItem(this, tr("Measure this device"), tr("Modes to measure"),
                                                {QStringLiteral("current"), QStringLiteral("stock"), QStringLiteral("all")},
                                                0, false, &ok);
    if (!ok) return;
    BenchRequest request;
    request.deviceId = deviceBox_->currentData().toString().toStdString();
    request.modes = modes.toStdString();
    // A desktop launch may start in / or a read-only folder: profiles go to the user's data folder.
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(folder);
    request.outPath = QDir(folder).filePath(QStringLiteral("%1-profile.json").arg(deviceBox_->currentData().toString())).toStdString();
    auto* dialog = new QProgressDialog(tr("Measuring…"), tr("Cancel"), 0, 1000, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(0);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    measureCancel_ = cancel;
    measureAction_->setEnabled(false); // one measurement at a time
    connect(dialog, &QProgressDialog::canceled, this, [cancel] { cancel->store(true); });
    QPointer<MainWindow> self(this);
    QPointer<QProgressDialog> progress(dialog);
    QThreadPool::globalInstance()->start([self, progress, cancel, request] {
        QString error;
        SweepOutcome outcome;
        try {
            outcome = runBenchSession(
                request,
                [&](const SweepProgress& step) {
                    const QString text = QObject::tr("%1 (%2 of %3): %4, about %5 s left")
                                             .arg(QString::fromStdString(step.modeName))
                                             .arg(step.modeIndex + 1)
                                             .arg(step.modeCount)
                                             .arg(QString::fromStdString(step.phase))
                                             .arg(step.etaSeconds < 0 ? QStringLiteral("?") : QString::number(int(step.etaSeconds)));
                    const int value = int(step.fraction * 1000);
                    QMetaObject::invokeMethod(qApp, [progress, text, value] {
                        if (!progress) return;
                        progress->setLabelText(text);
                        progress->setValue(value);
                    });
                },
                cancel.get());
        } catch (const std::exception& failure) {
            error = QString::fromUtf8(failure.what());
        } catch (...) {
            error = QObject::tr("the measurement stopped on an unknown error");
        }
        QMetaObject::invokeMethod(qApp, [self, progress, error, outcome] {
            if (progress) progress->close();
            if (!self) return;
            self->measureCancel_.reset();
            self->measureAction_->setEnabled(true);
            if (!error.isEmpty()) return self->showError(tr("Measure this device"), error);
            QStringList notes;
            if (outcome.cancelled) notes << tr("cancelled");
            for (const std::string& skipped : outcome.skipped) notes << QString::fromStdString(skipped);
            if (outcome.measured.empty() && outcome.resumed.empty()) {
                self->showError(tr("Measure this device"), tr("Nothing was measured (%1).").arg(notes.join(QStringLiteral("; "))));
                return;
            }
            self->status_->setText(tr("Measured %1 mode(s) into %2%3")
                                       .arg(outcome.measured.size())
                                       .arg(QString::fromStdString(outcome.outPath),
                                            notes.isEmpty() ? QString() : QStringLiteral(" (") + notes.join(QStringLiteral("; ")) + QStringLiteral(")")));
            self->profilePath_ = QString::fromStdString(outcome.outPath);
            self->profileDevice_ = self->deviceBox_->currentData().toString();
            self->scheduleAnalysis();
        });
    });
}

void MainWindow::showError(const QString& title, const QString& message) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

} // namespace rooftop::gui
