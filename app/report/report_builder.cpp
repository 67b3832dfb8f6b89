// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_builder.h"

#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "core/report/prediction_bounds.h"
#include "core/session/shown_mode.h"
#include "models/recommendation_text.h"
#include "models/unit_format.h"
#include "plots/pareto_plot.h"
#include "plots/roofline_plot.h"
#include "report/report_document.h"
#include "report/scene_builder.h"

#include <QBuffer>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>
#include <QTextFrame>
#include <algorithm>
#include <numeric>

namespace rooftop::report {

namespace {

using models::formatBytes;
using models::formatSeconds;
using models::formatSi;

std::string withNote(const std::string& text, const std::string& note) {
    return note.empty() ? text : text + "; " + note;
}

QString esc(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

QString prov(Provenance provenance) {
    return QString::fromUtf8(provenanceName(provenance));
}

QString sourced(const SourcedValue& value, const QString& unit) {
    return QStringLiteral("%1<br><span class=p>%2</span>")
        .arg(formatSi(value.value, unit), prov(value.provenance));
}

/// Every stock mode's roofs, and the layer points of the recommended mode: a custom one is drawn beside the
/// stock roofs as the recommendation, so that the report plots what it recommends.
SceneChoice reportChoice(const AnalysisResult& result) {
    SceneChoice choice;
    choice.overlaidStockModes.resize(result.stockPredictions.size());
    std::iota(choice.overlaidStockModes.begin(), choice.overlaidStockModes.end(), 0);
    choice.activeStockMode = defaultShownStockPrediction(result); // the window's default too
    const Recommendation& recommendation = result.recommendation;
    if (recommendation.recommended) {
        const Candidate& chosen = recommendation.candidates[*recommendation.recommended];
        if (!chosen.profile.mode.stock) {
            choice.whatIf = predictMode(result, chosen.profile.mode);
            choice.whatIfRecommended = true;
        }
    }
    return choice;
}

/// The plot at `width` x `height` (the size the report shows it at, so that its text reads at the window's
/// size), drawn at three times the pixels for print.
QImage render(QCustomPlot& plot, int width, int height) {
    plot.resize(width, height);
    plot.replot(QCustomPlot::rpImmediateRefresh);
    return plot.toPixmap(width, height, 3.0).toImage();
}

QString modelSection(const AnalysisResult& result) {
    const Workload& workload = result.workload();
    const WorkloadTotals& totals = workload.totals;
    QString html = QStringLiteral("<h2>Model</h2><table class=kv>");
    auto row = [&](const QString& key, const QString& value) {
        html += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(key, value);
    };
    row(QObject::tr("File"),
        esc(QFileInfo(QString::fromStdString(workload.info.path)).fileName().toStdString()));
    row(QObject::tr("Graph"), esc(workload.info.graphName));
    row(QObject::tr("Layers"), QString::number(totals.layers));
    row(QObject::tr("Parameters"), formatSi(double(totals.params), QString()));
    row(QObject::tr("MACs"), models::formatExactCount(totals.macs) + QStringLiteral(" (") +
                                 formatSi(double(totals.macs), QStringLiteral("MAC")) + QStringLiteral(")"));
    row(QObject::tr("FLOPs"), formatSi(double(totals.flops), QStringLiteral("FLOP")));
    row(QObject::tr("DRAM traffic"),
        formatBytes(double(totals.bytes())) +
            (workload.settings.phase == Phase::Training
                 ? QObject::tr(" over the training step (the forward's weights %1, inputs %2, outputs %3)")
                 : QObject::tr(" (weights %1, inputs %2, outputs %3)"))
                .arg(formatBytes(double(totals.weightBytes)), formatBytes(double(totals.inputBytes)),
                     formatBytes(double(totals.outputBytes))));
    row(QObject::tr("Intensity"), QStringLiteral("%1 FLOP/B").arg(totals.intensity(), 0, 'g', 3));
    row(QObject::tr("Settings"),
        QObject::tr("batch %1, precision %2, traffic %3")
            .arg(workload.settings.dims.batch.value_or(1))
            .arg(QString::fromStdString(precisionName(workload.settings.precision)),
                 QString::fromStdString(trafficViewName(workload.settings.traffic))));
    if (workload.settings.phase == Phase::Training)
        row(QObject::tr("Run"),
            QObject::tr(
                "training step with %1: one minibatch's forward, backward and update; energy per sample")
                .arg(QString::fromStdString(optimizerName(workload.settings.optimizer))));
    if (!workload.settings.dims.named.empty()) {
        QStringList dims;
        for (const auto& [name, value] : workload.settings.dims.named)
            dims << esc(name) + QStringLiteral("=") + QString::number(value);
        row(QObject::tr("Dims"), dims.join(QStringLiteral(", ")));
    }
    if (const std::vector<std::string> assumed = workload.info.assumedShapeDims(); !assumed.empty()) {
        QStringList dims;
        for (const std::string& dim : assumed)
            dims << esc(dim);
        row(QObject::tr("Assumed dims"),
            QObject::tr("<b>%1</b>: symbolic, bound by assumption; the counts and advice are for that size")
                .arg(dims.join(QStringLiteral(", "))));
    }
    if (!totals.unsupported.empty()) {
        QStringList ops;
        for (const std::string& op : totals.unsupported)
            ops << esc(op);
        row(QObject::tr("Unsupported ops"),
            ops.join(QStringLiteral(", ")) + QObject::tr(" (0 FLOPs, bytes counted)"));
    }
    if (!totals.shapeUnknown.empty()) {
        QStringList ops;
        for (const std::string& op : totals.shapeUnknown)
            ops << esc(op);
        QString text = ops.join(QStringLiteral(", ")) + QObject::tr(" (not counted)");
        if (!totals.shapeLossNode.empty())
            text += QObject::tr("; shapes lost at %1: %2")
                        .arg(esc(totals.shapeLossNode), esc(totals.shapeLossReason));
        row(QObject::tr("Shape unknown"), text);
    }
    return html + QStringLiteral("</table>");
}

/// "<br>≤ 2.64 ms" under a predicted number in a table cell.
QString upperBoundHtml(const QString& bound) {
    return QStringLiteral("<br><small>≤ %1</small>").arg(bound);
}

QString boardSection(const AnalysisResult& result) {
    const DeviceSpec& device = result.device;
    QString html =
        QObject::tr("<h2>Board and power modes</h2><p>%1 (%2, %3 CUDA cores, %4-bit %5). Runtime: "
                    "<b>%6</b>. Each number names its provenance: datasheet, estimate, measured, fitted "
                    "or predicted.</p>")
            .arg(esc(device.name), esc(device.soc))
            .arg(device.cudaCores())
            .arg(device.memoryBusBits)
            .arg(esc(device.memoryType), esc(result.runtime.name));
    if (!result.predictorBasis.empty())
        html += QObject::tr("<p>Latency, energy and power of each mode: predicted, %1.</p>")
                    .arg(esc(result.predictorBasis));
    // Headers of more than one word break at a space or slash only (nowrap), so a narrow column never splits
    // a word.
    const bool training = result.request.settings.phase == Phase::Training;
    // the advisor's confidence (report --confidence), so that the table's bounds are the advisor's
    const double confidence = result.request.constraints.confidence;
    const auto bound = [confidence](double value, double spread, const QString& unit) {
        if (confidence <= 0.5 || !(spread > 0)) return QString();
        const double high = upperBound(value, spread, confidence);
        return upperBoundHtml(unit.isEmpty() ? formatSeconds(high) : formatSi(high, unit));
    };
    html +=
        QObject::tr(
            "<table class=grid width=\"100%\" cellspacing=0><thead><tr><th>Mode</th><th>GPU</th><th>EMC</th>"
            "<th>CPU</th><th>FP32<br>peak</th><th>Bandwidth</th><th>Dispatch<br>t0</th><th>%1</th>"
            "<th>Energy/<br>%2</th><th>Avg<br>power</th><th>Prediction</th></tr></thead>")
            .arg(training ? QObject::tr("Per<br>step") : QObject::tr("Latency"),
                 training ? QObject::tr("sample") : QObject::tr("inference"));
    for (const ModelPrediction& prediction : result.stockPredictions) {
        const ModeProfile& profile = prediction.profile;
        const PowerMode& mode = profile.mode;
        html += QStringLiteral(
                    "<tr><td>%1</td><td>%2</td><td>%3</td><td>%4 × %5</td><td>%6</td><td>%7</td><td>%8</td>"
                    "<td>%9</td><td>%10</td><td>%11</td><td>%12</td></tr>")
                    .arg(esc(mode.name), formatSi(double(mode.gpuHz), QStringLiteral("Hz")),
                         formatSi(double(mode.emcHz), QStringLiteral("Hz")))
                    .arg(mode.onlineCores)
                    .arg(formatSi(double(mode.cpuKhz) * 1e3, QStringLiteral("Hz")),
                         sourced(profile.ceilings.peak(ComputeClass::Fp32CudaCore), QStringLiteral("FLOP/s")),
                         sourced(profile.ceilings.bandwidth, QStringLiteral("B/s")),
                         sourced(profile.ceilings.dispatchOverhead, QStringLiteral("s")) +
                             (profile.ceilings.inferenceOverhead.value > 0
                                  ? QObject::tr("<br>per inference %1")
                                        .arg(sourced(profile.ceilings.inferenceOverhead, QStringLiteral("s")))
                                  : QString()),
                         formatSeconds(prediction.latencySeconds) +
                             bound(prediction.latencySeconds, prediction.spread.latency, QString()),
                         formatSi(prediction.energyPerInference(), QStringLiteral("J")) +
                             bound(prediction.energyPerInference(), prediction.spread.energy,
                                   QStringLiteral("J")),
                         formatSi(prediction.averageWatts, QStringLiteral("W")) +
                             bound(prediction.averageWatts, prediction.spread.power, QStringLiteral("W")),
                         QObject::tr("predicted<br>(%1)").arg(prov(prediction.provenance)));
    }
    if (!result.stockPredictions.empty() && confidence > 0.5)
        html += QStringLiteral("</table><p class=p>%1</p>")
                    .arg(QObject::tr("≤: the bound at %1 (as the advisor's), from %2.")
                             .arg(QString::fromStdString(confidenceText(confidence)),
                                  esc(predictionBoundsBasis(result))));
    else
        html += QStringLiteral("</table>");
    return html;
}

QString recommendationSection(const AnalysisResult& result) {
    const Recommendation& recommendation = result.recommendation;
    QString html = QObject::tr("<h2>Recommendation</h2>");
    if (!result.advisorError.empty()) return html + QStringLiteral("<p>%1</p>").arg(esc(result.advisorError));
    const Constraints& limits = result.request.constraints;
    QStringList asked;
    if (limits.latencySloSeconds)
        asked << QObject::tr("latency ≤ %1").arg(formatSeconds(*limits.latencySloSeconds));
    if (limits.powerCapWatts) asked << QObject::tr("power ≤ %1 W").arg(*limits.powerCapWatts);
    if (limits.maxSlowdownPercent) asked << QObject::tr("slowdown ≤ %1 %").arg(*limits.maxSlowdownPercent);
    html += QObject::tr("<p>Objective: least %1; limits: %2; %3 candidate modes.</p>")
                .arg(QString::fromUtf8(objectiveName(result.request.objective)),
                     asked.isEmpty() ? QObject::tr("none") : asked.join(QStringLiteral(", ")))
                .arg(recommendation.candidates.size());
    html += QStringLiteral("<div class=rec>%1</div>")
                .arg(models::recommendationHeadline(recommendation)); // may hold a list
    if (!recommendation.explanation.empty())
        html += QStringLiteral("<p>%1</p>")
                    .arg(esc(recommendation.explanation).replace('\n', QStringLiteral("<br>")));
    if (!recommendation.nvpmodelBlock.empty())
        html += QStringLiteral("<pre>%1</pre>").arg(esc(recommendation.nvpmodelBlock));
    if (result.gridHint) {
        html += QStringLiteral("<p>%1</p>").arg(models::gridHintHtml(*result.gridHint, recommendation));
        if (!result.gridHint->nvpmodelBlock.empty())
            html += QStringLiteral("<pre>%1</pre>").arg(esc(result.gridHint->nvpmodelBlock));
    }
    for (const PrecisionHint& hint : result.precisionHints)
        html += QStringLiteral("<p>%1</p>")
                    .arg(models::precisionHintHtml(hint, recommendation, result.request.settings.precision));
    return html;
}

QString topLayersSection(const AnalysisResult& result, const SceneChoice& choice) {
    const ModelPrediction* active = activePrediction(result, choice);
    if (!active) return {};
    const ModelPrediction& prediction = *active;
    std::vector<size_t> order(std::min(prediction.layers.size(), result.workload().layers.size()));
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return prediction.layers[a].seconds != prediction.layers[b].seconds
                   ? prediction.layers[a].seconds > prediction.layers[b].seconds
                   : a < b;
    });
    // shares of the layers' summed roofline time, so that all layers' shares add up to 100 %: the model's
    // latency also holds per-kernel and per-inference overheads, or is a predictor's, and is not their sum
    const double layersSeconds = prediction.layersSeconds();
    order.resize(std::min<size_t>(order.size(), 15));
    QString html =
        QObject::tr(
            "<h2>Top layers by time in %1</h2><p class=p>Time: each layer's roofline time; share: of the "
            "%2 that all %3 layers take together (the shares of all layers add up to 100 %). The "
            "model's %4 latency (%5) also holds dispatch and per-inference overheads%6.</p>"
            "<table class=grid width=\"100%\" cellspacing=0><thead><tr><th>Layer</th>"
            "<th>Op</th><th>FLOPs</th><th>Bytes</th><th>Intensity</th><th>Time</th><th>Share</th>"
            "<th>Bound</th></tr></thead>")
            .arg(esc(readableModeName(prediction.profile.mode)), formatSeconds(layersSeconds))
            .arg(prediction.layers.size())
            .arg(prov(prediction.provenance), formatSeconds(prediction.latencySeconds),
                 result.predictorBasis.empty() ? QString() : QObject::tr(", or is the predictor's"));
    for (size_t index : order) {
        const LayerCount& layer = result.workload().layers[index];
        const LayerPrediction& layerPrediction = prediction.layers[index];
        html +=
            QStringLiteral(
                "<tr><td class=l>%1</td><td class=l>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td>"
                "<td>%7 %</td><td class=l>%8</td></tr>")
                .arg(esc(layer.name), esc(layer.op), formatSi(double(layer.flops), QStringLiteral("FLOP")),
                     formatBytes(double(layer.bytes())))
                .arg(layer.intensity(), 0, 'g', 3)
                .arg(formatSeconds(layerPrediction.seconds))
                .arg(layersSeconds > 0 ? 100 * layerPrediction.seconds / layersSeconds : 0, 0, 'f', 1)
                .arg(esc(withNote(boundName(layerPrediction.bound),
                                  layerLimitNote(layerPrediction, prediction.profile.ceilings))));
    }
    return html + QStringLiteral("</table>");
}

QString pngDataUri(const QImage& image) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(bytes.toBase64());
}

} // namespace

void askForReport(AnalysisRequest& request) {
    request.predictModes = false;
    request.predictStock = true;
    request.advise = true;
    request.compareWithGrid = true;   // a stock answer says when custom clocks would save more
    request.comparePrecisions = true; // and an FP32 one when FP16 or INT8 would
}

SceneChoice reportSceneChoice(const AnalysisResult& result, const SceneChoice* shown) {
    return shown ? *shown : reportChoice(result);
}

ReportImages renderReportPlots(const AnalysisResult& result, int width, int height,
                               const SceneChoice* shown) {
    const SceneChoice choice = reportSceneChoice(result, shown);
    const plots::RooflineScene scene = buildRooflineScene(result, choice);
    ReportImages images;
    plots::RooflinePlot time(plots::RooflineKind::Time);
    time.setScene(scene);
    images.timeRoofline = render(time, width, height);
    plots::RooflinePlot energy(plots::RooflineKind::Energy);
    energy.setScene(scene);
    images.energyRoofline = render(energy, width, height);
    plots::ParetoPlot pareto;
    pareto.setLimits(result.request.constraints);
    pareto.setShowAll(result.recommendation.candidates.size() <=
                      64); // a grid: the modes that meet the limits
    pareto.setRecommendation(result.recommendation, QString::fromStdString(result.device.name));
    images.pareto = render(pareto, width, height);
    return images;
}

QString reportHtml(const AnalysisResult& result, const std::function<QString(const QString&)>& imageSource,
                   const SceneChoice* shown) {
    QString model = QFileInfo(QString::fromStdString(result.workload().info.path)).fileName();
    if (const std::vector<std::string> assumed = result.workload().info.assumedShapeDims();
        !assumed.empty()) {
        QStringList dims;
        for (const std::string& dim : assumed)
            dims << QString::fromStdString(dim);
        model += QObject::tr(" (assumed %1)").arg(dims.join(QStringLiteral(", ")));
    }
    const QString title =
        QObject::tr("Rooftop report: %1 on %2").arg(model, QString::fromStdString(result.device.name));
    QString html =
        QStringLiteral(
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1</title><style>"
            "body{font-family:sans-serif;max-width:60em;margin:1em auto;color:#222}"
            "table{border-collapse:collapse;margin:0.5em 0}th,td{padding:2px 8px;font-size:90%}"
            "table.grid td,table.grid th{border:1px solid #bbb}th,table.grid "
            "td{white-space:nowrap}table.kv th{text-align:left}"
            "td{text-align:right}table.kv td,td.l{text-align:left}.p{color:#777;font-size:80%}"
            ".rec{font-size:110%}pre{background:#f4f4f4;padding:6px;white-space:pre;overflow-x:auto;"
            "font-size:80%}img{max-width:100%}"
            "</style></head><body><h1>%1</h1>")
            .arg(title.toHtmlEscaped());
    html += QObject::tr(
                "<p class=p>Made by Rooftop %1 on %2. Times, energies and powers are predictions from the "
                "ceilings and power model of each mode; their provenance says what they rest on.</p>")
                .arg(QStringLiteral(ROOFTOP_VERSION), QDateTime::currentDateTime().toString(Qt::ISODate));
    if (!result.predictorBasis.empty())
        html += QObject::tr(
                    "<p><b>Predictor:</b> the modes' latency, energy and power are predicted, %1. The layer "
                    "points and the layers' times are Rooftop's roofline.</p>")
                    .arg(esc(result.predictorBasis));
    html += modelSection(result);
    html += recommendationSection(result);
    html += boardSection(result);
    html += QObject::tr("<h2>Time roofline</h2><p><img src=\"%1\" width=\"%2\"></p>")
                .arg(imageSource("time"))
                .arg(reportPlotShownWidth);
    if (const ModelPrediction* points = activePrediction(result, reportSceneChoice(result, shown)))
        html += QObject::tr("<p class=p>Layer points: %1 (%2)</p>")
                    .arg(esc(readableModeName(points->profile.mode)), prov(points->provenance));
    html += QObject::tr("<h2>Energy roofline</h2><p><img src=\"%1\" width=\"%2\"></p>")
                .arg(imageSource("energy"))
                .arg(reportPlotShownWidth);
    html += QObject::tr("<h2>Latency against energy</h2><p><img src=\"%1\" width=\"%2\"></p>")
                .arg(imageSource("pareto"))
                .arg(reportPlotShownWidth);
    html += topLayersSection(result, reportSceneChoice(result, shown));
    return html + QStringLiteral("</body></html>\n");
}

std::unique_ptr<QTextDocument> reportPdfDocument(const AnalysisResult& result, const ReportImages& images,
                                                 const SceneChoice* shown) {
    auto document = std::make_unique<QTextDocument>();
    document->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("rooftop:time")),
                          images.timeRoofline);
    document->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("rooftop:energy")),
                          images.energyRoofline);
    document->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("rooftop:pareto")),
                          images.pareto);
    // Pages are narrower than a browser window: tables in a smaller type so that 11 columns fit.
    document->setHtml(
        reportHtml(
            result, [](const QString& name) { return QStringLiteral("rooftop:") + name; }, shown)
            .replace(QStringLiteral("th,td{padding:2px 8px;font-size:90%}"),
                     QStringLiteral("th,td{padding:1px 3px;font-size:6.5pt}"))
            // a page cannot scroll: a command longer than the line wraps inside its box
            .replace(QStringLiteral("white-space:pre;overflow-x:auto;font-size:80%"),
                     QStringLiteral("white-space:pre-wrap;font-size:7pt")));
    QTextFrameFormat root = document->rootFrame()->frameFormat();
    root.setMargin(0); // the page margins are the writer's
    document->rootFrame()->setFrameFormat(root);
    paginate(*document, reportPageSize());
    return document;
}

QString writeReport(const AnalysisResult& result, const QString& path, const SceneChoice* shown) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("html") && suffix != QLatin1String("htm") && suffix != QLatin1String("pdf"))
        return QObject::tr("the report file must end in .html or .pdf, got '%1'").arg(path);
    const ReportImages images = renderReportPlots(result, reportPlotWidth, reportPlotHeight, shown);
    auto imageOf = [&](const QString& name) -> const QImage& {
        return name == QLatin1String("time")     ? images.timeRoofline
               : name == QLatin1String("energy") ? images.energyRoofline
                                                 : images.pareto;
    };
    if (suffix == QLatin1String("pdf")) {
        const std::unique_ptr<QTextDocument> document = reportPdfDocument(result, images, shown);
        if (!QFileInfo(path).absoluteDir().exists())
            return QObject::tr("cannot write %1: no such folder").arg(path);
        QPdfWriter writer(path);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setTitle(QObject::tr("Rooftop report"));
        writer.setCreator(QStringLiteral("Rooftop " ROOFTOP_VERSION));
        document->print(&writer);
        return QFileInfo(path).size() > 0 ? QString() : QObject::tr("could not write %1").arg(path);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    file.write(reportHtml(
                   result, [&](const QString& name) { return pngDataUri(imageOf(name)); }, shown)
                   .toUtf8());
    if (!file.commit()) return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

} // namespace rooftop::report
