// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"
#include "report/scene_builder.h"

#include <QImage>
#include <QString>
#include <QTextDocument>
#include <functional>
#include <memory>

namespace rooftop::report {

/// Asks a request for what the window and the report show: every stock mode predicted (the roof overlays) and
/// the advisor over the request's mode set and batch sizes.
void askForReport(AnalysisRequest& request);

/// The plots of a report, rendered offscreen through the plots' own paint path.
struct ReportImages {
    QImage timeRoofline;
    QImage energyRoofline;
    QImage pareto;
};

/// The modes a report plots: `shown` (the window's choice) when given, else every stock mode's roofs with the
/// points of the recommended mode (a custom one drawn as "recommended" beside them; the fastest stock mode
/// when there is no recommendation).
SceneChoice reportSceneChoice(const AnalysisResult& result, const SceneChoice* shown = nullptr);

/// The size a report draws its plots at (logical pixels): wide enough for the legend beside the plot (below
/// 700 px it goes under it).
constexpr int reportPlotWidth = 860, reportPlotHeight = 500;
/// The width a report shows them at: about their own size, so that their text reads at the window's size.
constexpr int reportPlotShownWidth = 680;

/// Renders the time and energy rooflines (reportSceneChoice) and the Pareto plot at `width` x `height`
/// logical pixels, three times as many device pixels.
ReportImages renderReportPlots(const AnalysisResult& result, int width = reportPlotWidth,
                               int height = reportPlotHeight, const SceneChoice* shown = nullptr);

/// The report as HTML: model summary, board and modes with provenance, both rooflines, the modes table and
/// Pareto plot, the top layers and the recommendation. `imageSource` maps "time", "energy", "pareto" to the
/// src of each <img>; under the rooflines, whose points they show (reportSceneChoice).
QString reportHtml(const AnalysisResult& result, const std::function<QString(const QString&)>& imageSource,
                   const SceneChoice* shown = nullptr);

/// The PDF report's document, paginated for A4 (report_document.h): headings kept with what follows, table
/// headers repeated and never broken inside a word.
std::unique_ptr<QTextDocument> reportPdfDocument(const AnalysisResult& result, const ReportImages& images,
                                                 const SceneChoice* shown = nullptr);

/// Writes the report as .html (images embedded) or .pdf (Qt's PDF writer), plotting `shown` (the window's
/// modes) when given; empty on success, else one line.
QString writeReport(const AnalysisResult& result, const QString& path, const SceneChoice* shown = nullptr);

} // namespace rooftop::report
