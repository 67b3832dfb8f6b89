// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window_menus.h"

#include "gui/analysis_toolbar.h"
#include "gui/layer_panel.h"
#include "gui/layer_profile_import.h"
#include "gui/main_window.h"
#include "gui/measuring_pages.h"
#include "gui/model_attachments.h"
#include "gui/model_opener.h"
#include "gui/result_views.h"
#include "gui/window_exports.h"
#include "gui/window_status.h"
#include "models/layer_filter_proxy_model.h"
#include "models/model_export.h"
#include "plots/plot_base.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>

namespace rooftop::gui {

namespace {

void buildFileMenu(MainWindow& window, QMenu* file) {
    const MainWindow::Parts& parts = window.parts();
    ModelAttachments* files = parts.attachments;
    file->addAction(QObject::tr("Load measured &profile…"), files, &ModelAttachments::chooseMeasuredProfile);
    file->addAction(QObject::tr("Open r&uns file…"), files, &ModelAttachments::chooseRunsFile);
    file->addAction(QObject::tr("Load pre&dictor…"), files, &ModelAttachments::choosePredictorFile);
    file->addAction(QObject::tr("Load runtime fi&le…"), files, &ModelAttachments::chooseRuntimeFile);
    file->addAction(parts.layerImport->importAction());
    file->addAction(parts.layerImport->clearAction());
    file->addSeparator();
    WindowExports* exports = parts.exports;
    file->addAction(QObject::tr("&Export plot…"), QKeySequence(QObject::tr("Ctrl+E")), exports,
                    &WindowExports::chooseAndExportPlot);
    file->addAction(QObject::tr("Export layer &table…"), QKeySequence(QObject::tr("Ctrl+Shift+E")), exports,
                    [exports] { exports->chooseAndExportTable(false); });
    file->addAction(QObject::tr("Export power &modes table…"), exports,
                    [exports] { exports->chooseAndExportTable(true); });
    file->addAction(QObject::tr("Export &Netron metrics…"), exports, &WindowExports::chooseAndExportNetron);
    file->addAction(QObject::tr("Write &report…"), QKeySequence(QObject::tr("Ctrl+R")), exports,
                    &WindowExports::chooseAndExportReport);
    file->addSeparator();
    file->addAction(QObject::tr("&Quit"), QKeySequence::Quit, &window, &QWidget::close);
}

void buildViewMenu(MainWindow& window, QMenu* view) {
    const MainWindow::Parts& parts = window.parts();
    ResultViews* views = parts.views;
    view->addAction(QObject::tr("&Reset zoom"), QKeySequence(QObject::tr("Ctrl+0")), &window,
                    [views] { views->currentPlot()->resetView(); });
    const std::pair<const char*, const char*> tabs[] = {{QT_TR_NOOP("Time roofline"), "time"},
                                                        {QT_TR_NOOP("Energy roofline"), "energy"},
                                                        {QT_TR_NOOP("Power modes"), "modes"},
                                                        {QT_TR_NOOP("Time by op"), "ops"}};
    int key = Qt::Key_1;
    for (const auto& [title, name] : tabs)
        view->addAction(QObject::tr(title), QKeySequence(Qt::CTRL | Qt::Key(key++)), &window,
                        [&window, name = QString::fromLatin1(name)] { window.showView(name); });
    QAction* llm = view->addAction(QObject::tr("&LLM view…"), &window, [&window] {
        if (!window.showLlmView())
            QMessageBox::information(
                &window, QObject::tr("LLM view"),
                QObject::tr(
                    "The open model is no decoder with a KV cache (rooftop llm "
                    "reads optimum, merged optimum, onnxruntime-genai and TensorRT Edge-LLM exports)."));
    });
    llm->setObjectName(QStringLiteral("LlmViewAction"));
    view->addSeparator();
    // every dock and toolbar can be hidden and brought back
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    for (QToolBar* bar : {static_cast<QToolBar*>(parts.toolbar), parts.toolbar->modeBar()}) {
        QAction* toggle = bar->toggleViewAction();
        toggle->setText(QObject::tr("%1 toolbar").arg(bar->windowTitle()));
        view->addAction(toggle);
    }
    view->addSeparator();
    QAction* dark = view->addAction(QObject::tr("&Dark palette"));
    dark->setCheckable(true);
    dark->setObjectName(QStringLiteral("DarkPaletteAction"));
    QObject::connect(dark, &QAction::toggled, &window,
                     [&window](bool on) { window.setTheme(on ? Theme::Dark : Theme::Light); });
}

void buildEditMenu(MainWindow& window, QMenu* edit) {
    const MainWindow::Parts& parts = window.parts();
    edit->addAction(QObject::tr("Find &layer"), &window, [parts] { parts.views->layers()->focusFilter(); });
    edit->addAction(QObject::tr("Set &dims…"), &window,
                    [parts] { parts.toolbar->editDims(parts.toolbar->dimsText()); });
    edit->addAction(QObject::tr("&Copy table rows"), QKeySequence::Copy, &window, [parts] {
        QApplication::clipboard()->setText(models::modelToCsv(*parts.layerProxy));
        parts.status->setText(QObject::tr("Copied %1 rows as CSV").arg(parts.layerProxy->rowCount()));
    });
}

void buildDeviceMenu(MainWindow& window, QMenu* device) {
    const MainWindow::Parts& parts = window.parts();
    parts.pages->addActions(device);
    device->setToolTipsVisible(true);
    QAction* derived = device->addAction(QObject::tr("Use &derived ceilings"), parts.attachments,
                                         &ModelAttachments::useDerivedCeilings);
    QAction* ownPredictions =
        device->addAction(QObject::tr("Use Rooftop's &predictions (drop the predictor)"), parts.attachments,
                          &ModelAttachments::dropPredictor);
    derived->setObjectName(QStringLiteral("UseDerivedCeilingsAction"));
    ownPredictions->setObjectName(QStringLiteral("DropPredictorAction"));
    // each undoes an attachment: offered only while there is one to undo
    QObject::connect(device, &QMenu::aboutToShow, parts.attachments, [derived, ownPredictions, parts] {
        derived->setEnabled(parts.attachments->hasProfile());
        derived->setToolTip(
            parts.attachments->hasProfile()
                ? QObject::tr("Drop the measured profile: ceilings derived from the datasheet")
                : QObject::tr("The ceilings are derived already (no measured profile in use)"));
        ownPredictions->setEnabled(parts.attachments->hasPredictor());
        ownPredictions->setToolTip(parts.attachments->hasPredictor()
                                       ? QObject::tr("Drop the predictor: Rooftop's roofline predictions")
                                       : QObject::tr("The numbers are Rooftop's predictions already (no "
                                                     "predictor loaded)"));
    });
}

} // namespace

ModelOpener* buildWindowMenus(MainWindow& window) {
    QMenuBar* bar = window.menuBar();
    QMenu* file = bar->addMenu(QObject::tr("&File"));
    auto* opener = new ModelOpener(file, &window);
    buildFileMenu(window, file);
    buildViewMenu(window, bar->addMenu(QObject::tr("&View")));
    buildEditMenu(window, bar->addMenu(QObject::tr("&Edit")));
    buildDeviceMenu(window, bar->addMenu(QObject::tr("&Device")));
    return opener;
}

} // namespace rooftop::gui
