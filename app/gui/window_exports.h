// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"
#include "report/scene_builder.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

class QWidget;

namespace rooftop::gui {

class ResultViews;

/// The window's exports: the current plot (PNG, PDF, SVG), the layer and power-modes tables as shown (CSV,
/// JSON), the Netron metrics and the report (HTML, PDF), each with its file dialog.
class WindowExports : public QObject {
    Q_OBJECT
public:
    /// Exports what `views` show; dialogs open over `dialogParent`.
    WindowExports(ResultViews& views, QWidget* dialogParent);

    /// The analysis the Netron metrics and the report describe (null: none yet).
    void setResult(std::shared_ptr<const AnalysisResult> result) { result_ = std::move(result); }
    /// What the window plots (its overlaid roofs, points and what-if mode), so that its report plots the
    /// same.
    void setSceneChoice(std::function<report::SceneChoice()> choice) { sceneChoice_ = std::move(choice); }

    /// Exports the current view's plot (PNG, PDF or SVG by suffix); empty on success, else the reason.
    QString exportCurrentPlot(const QString& path, int width, int height) const;
    /// Exports the layer table as the view shows it (CSV or JSON by suffix).
    QString exportLayerTable(const QString& path) const;
    /// Exports the power-modes table as the view shows it (CSV or JSON by suffix).
    QString exportModesTable(const QString& path) const;
    /// Writes the Netron metrics attachment of the current analysis.
    QString exportNetronMetrics(const QString& path) const;
    /// Writes the HTML or PDF report of the current analysis.
    QString exportReport(const QString& path) const;

    /// File → Export plot…: asks for a file and a size.
    void chooseAndExportPlot();
    /// File → Export layer table… (modes false) or Export power modes table… (modes true).
    void chooseAndExportTable(bool modes);
    /// File → Export Netron metrics….
    void chooseAndExportNetron();
    /// File → Write report….
    void chooseAndExportReport();

signals:
    /// An export chosen in a dialog failed.
    void failed(const QString& title, const QString& message);

private:
    ResultViews& views_;
    QWidget* dialogParent_;
    std::shared_ptr<const AnalysisResult> result_;
    std::function<report::SceneChoice()> sceneChoice_;
};

} // namespace rooftop::gui
