// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/roofline_plot.h"

#include "core/roofline/roofline_curves.h"
#include "models/unit_format.h"
#include "plots/op_palette.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>

namespace rooftop::plots {

namespace {

constexpr int kCurveSamples = 160;
constexpr int kMeasuredPickBase = 1 << 30; // pick ids of measured layers; layer points use node indices
constexpr int kMaxOpGroups = 9; // op types with their own colour; the rest are "other"
const double kSizeBuckets[] = {0.005, 0.02, 0.08}; // share of time thresholds
const double kMarkerSizes[] = {5.0, 7.0, 10.0, 14.0};

Qt::PenStyle penStyleOf(ComputeClass computeClass) {
    switch (computeClass) {
    case ComputeClass::Fp32CudaCore: return Qt::SolidLine;
    case ComputeClass::Fp16CudaCore: return Qt::DashLine;
    case ComputeClass::TensorFp16: return Qt::DotLine;
    case ComputeClass::TensorInt8: return Qt::DashDotLine;
    }
    return Qt::SolidLine;
}

int sizeBucket(double share) {
    int bucket = 0;
    for (double threshold : kSizeBuckets)
        if (share >= threshold) ++bucket;
    return bucket;
}

} // namespace

RooflinePlot::RooflinePlot(RooflineKind kind, QWidget* parent) : PlotBase(parent), kind_(kind) {
    makeLogAxis(xAxis);
    makeLogAxis(yAxis);
    xAxis->setLabel(QStringLiteral("Operational intensity (FLOP/B)"));
    yAxis->setLabel(kind == RooflineKind::Time ? QStringLiteral("Performance (FLOP/s)")
                                               : QStringLiteral("Energy efficiency (FLOP/J)"));
    setTitle(kind == RooflineKind::Time ? tr("Time roofline") : tr("Energy roofline"));
}

double RooflinePlot::layerY(const LayerMarker& marker) const {
    return kind_ == RooflineKind::Time ? marker.flopsPerSecond : marker.flopsPerJoule;
}

const LayerMarker* RooflinePlot::markerOf(int nodeIndex) const {
    for (const LayerMarker& marker : scene_.layers)
        if (marker.nodeIndex == nodeIndex) return &marker;
    return nullptr;
}

void RooflinePlot::addRoofs(const ModeRoofs& mode, double low, double high) {
    const RooflineCurve curve = kind_ == RooflineKind::Time ? RooflineCurve::Attainable : RooflineCurve::EnergyEfficiency;
    bool named = false;
    QCPGraph* ridges = addGraph();
    ridges->setLineStyle(QCPGraph::lsNone);
    ridges->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, mode.color, mode.color, 7));
    ridges->removeFromLegend();
    for (ComputeClass computeClass : scene_.classes) {
        if (mode.profile.ceilings.peak(computeClass).value <= 0) continue;
        const std::vector<CurvePoint> points = sampleCurve(mode.profile, computeClass, curve, low, high, kCurveSamples);
        QVector<double> keys, values;
        for (const CurvePoint& point : points) {
            if (point.value <= 0 || !std::isfinite(point.value)) continue;
            keys.push_back(point.intensity);
            values.push_back(point.value);
        }
        QCPGraph* roof = addGraph();
        QPen pen(mode.color, mode.whatIf ? 2.6 : 1.8, penStyleOf(computeClass));
        roof->setPen(pen);
        roof->setData(keys, values, true);
        roof->setName(mode.name);
        if (named) roof->removeFromLegend();
        named = true;
        ++roofCount_;
        const double ridge = kind_ == RooflineKind::Time ? timeBalance(mode.profile.ceilings, computeClass)
                                                         : energyBalance(mode.profile.power, computeClass);
        if (ridge > 0 && ridge >= low && ridge <= high) {
            const double y = kind_ == RooflineKind::Time ? attainableFlops(mode.profile.ceilings, computeClass, ridge)
                                                         : energyEfficiency(mode.profile, computeClass, ridge);
            if (y > 0) ridges->addData(ridge, y);
        }
    }
}

void RooflinePlot::addLayerPoints() {
    // Op types ranked by their share of time; the first kMaxOpGroups get a colour of their own.
    std::map<QString, double> shareByOp;
    for (const LayerMarker& marker : scene_.layers) shareByOp[marker.op] += marker.shareOfTime;
    std::vector<std::pair<double, QString>> ranked;
    for (const auto& [op, share] : shareByOp) ranked.push_back({-share, op});
    std::sort(ranked.begin(), ranked.end());
    std::map<QString, int> group;
    for (size_t i = 0; i < ranked.size(); ++i) group[ranked[i].second] = i < size_t(kMaxOpGroups) ? int(i) : kMaxOpGroups;

    const int groups = std::min<int>(int(ranked.size()), kMaxOpGroups + 1);
    std::vector<std::array<QVector<double>, 8>> data; // per group: x,y for 4 size buckets
    data.resize(size_t(groups));
    for (const LayerMarker& marker : scene_.layers) {
        const double y = layerY(marker);
        if (y <= 0 || marker.intensity <= 0) continue;
        auto& groupData = data[size_t(group[marker.op])];
        const int bucket = sizeBucket(marker.shareOfTime);
        groupData[size_t(2 * bucket)].push_back(marker.intensity);
        groupData[size_t(2 * bucket + 1)].push_back(y);
    }
    for (int g = 0; g < groups; ++g) {
        const bool other = g == kMaxOpGroups;
        const QString name = other ? tr("other ops") : ranked[size_t(g)].second;
        QColor color = other ? QColor(0x9E, 0x9E, 0x9E) : colorForOpType(name);
        QColor fill = color;
        fill.setAlpha(170);
        bool named = false;
        for (int bucket = 0; bucket < 4; ++bucket) {
            const auto& keys = data[size_t(g)][size_t(2 * bucket)];
            if (keys.isEmpty()) continue;
            QCPGraph* points = addGraph();
            points->setLineStyle(QCPGraph::lsNone);
            points->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssDisc, color.darker(130), fill, kMarkerSizes[bucket]));
            points->setData(keys, data[size_t(g)][size_t(2 * bucket + 1)]);
            points->setName(name);
            if (named) points->removeFromLegend();
            named = true;
        }
    }
}

void RooflinePlot::addMeasuredLayers() {
    measuredGraph_ = nullptr;
    measuredPredictionGraph_ = nullptr;
    if (kind_ != RooflineKind::Time || scene_.measured.layers.empty()) return;
    const QColor ink = foregroundColor();
    // one curve of segments, each measured -> predicted, separated by NaN gaps
    auto* joins = new QCPCurve(xAxis, yAxis);
    QColor joinColor = ink;
    joinColor.setAlpha(140);
    joins->setPen(QPen(joinColor, 0.8));
    joins->setScatterStyle(QCPScatterStyle::ssNone);
    joins->removeFromLegend();
    double t = 0;
    const double gap = std::numeric_limits<double>::quiet_NaN();
    for (const MeasuredLayerMarker& marker : scene_.measured.layers) {
        joins->addData(t++, marker.intensity, marker.achievedFlopsPerSecond);
        joins->addData(t++, marker.predictedIntensity, marker.predictedFlopsPerSecond);
        joins->addData(t++, gap, gap);
    }
    measuredPredictionGraph_ = addGraph();
    measuredPredictionGraph_->setLineStyle(QCPGraph::lsNone);
    measuredPredictionGraph_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssPlus, QPen(joinColor, 1.2), Qt::NoBrush, 7));
    measuredPredictionGraph_->setName(tr("predicted (same nodes)"));
    measuredGraph_ = addGraph();
    measuredGraph_->setLineStyle(QCPGraph::lsNone);
    measuredGraph_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(ink, 1.6), Qt::NoBrush, 9));
    measuredGraph_->setName(scene_.measured.label);
    for (const MeasuredLayerMarker& marker : scene_.measured.layers) {
        measuredGraph_->addData(marker.intensity, marker.achievedFlopsPerSecond);
        measuredPredictionGraph_->addData(marker.predictedIntensity, marker.predictedFlopsPerSecond);
    }
}

void RooflinePlot::setScene(const RooflineScene& scene) {
    scene_ = scene;
    clearPlottables(); // graphs and the curve joining measured layers to their predictions
    clearItems();
    roofCount_ = 0;

    double low = 1e-2, high = 1e3;
    for (const LayerMarker& marker : scene_.layers) {
        low = std::min(low, marker.intensity / 2);
        high = std::max(high, marker.intensity * 2);
    }
    if (kind_ == RooflineKind::Time)
        for (const MeasuredLayerMarker& marker : scene_.measured.layers) {
            low = std::min({low, marker.intensity / 2, marker.predictedIntensity / 2});
            high = std::max({high, marker.intensity * 2, marker.predictedIntensity * 2});
        }
    for (const ModeRoofs& mode : scene_.modes)
        for (ComputeClass computeClass : scene_.classes) high = std::max(high, 8 * timeBalance(mode.profile.ceilings, computeClass));
    low = std::pow(10.0, std::floor(std::log10(low)));
    high = std::pow(10.0, std::ceil(std::log10(high)));

    for (const ModeRoofs& mode : scene_.modes) addRoofs(mode, low, high);
    addLayerPoints();
    addMeasuredLayers();
    // Thousands of antialiased discs dominate a replot; beyond a few hundred nobody sees the difference.
    if (scene_.layers.size() > 1500)
        setNotAntialiasedElements(QCP::aeScatters);
    else
        setAntialiasedElements(QCP::aeScatters);

    if (scene_.hasModelPoint && layerY(scene_.model) > 0) {
        QCPGraph* model = addGraph();
        model->setLineStyle(QCPGraph::lsNone);
        model->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(foregroundColor(), 2.0), Qt::NoBrush, 18));
        model->addData(scene_.model.intensity, layerY(scene_.model));
        model->setName(tr("whole model"));
    }
    selectionGraph_ = addGraph();
    selectionGraph_->setLineStyle(QCPGraph::lsNone);
    selectionGraph_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(foregroundColor(), 2.5), Qt::NoBrush, 20));
    selectionGraph_->removeFromLegend();

    if (scene_.classes.size() > 1) {
        QStringList styles;
        const char* lines[] = {"——", "– –", "· · ·", "–·–"};
        for (ComputeClass computeClass : scene_.classes)
            styles << QStringLiteral("%1 %2").arg(QString::fromUtf8(lines[int(computeClass)]),
                                                 QString::fromUtf8(computeClassName(computeClass)));
        auto* key = new QCPItemText(this);
        key->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        key->position->setType(QCPItemPosition::ptAxisRectRatio);
        key->position->setCoords(0.98, 0.98);
        key->setText(tr("roofs: ") + styles.join(QStringLiteral("   ")));
        key->setColor(foregroundColor());
    }

    std::vector<PickPoint> picks;
    picks.reserve(scene_.layers.size() + 1);
    for (const LayerMarker& marker : scene_.layers)
        if (layerY(marker) > 0) picks.push_back({marker.intensity, layerY(marker), marker.nodeIndex});
    if (measuredGraph_)
        for (size_t i = 0; i < scene_.measured.layers.size(); ++i)
            picks.push_back({scene_.measured.layers[i].intensity,
                             scene_.measured.layers[i].achievedFlopsPerSecond, kMeasuredPickBase + int(i)});
    setPickPoints(std::move(picks));

    // Fit: the x range of the roofs, the y range of roofs and points.
    double yLow = std::numeric_limits<double>::max(), yHigh = 0;
    for (int i = 0; i < graphCount(); ++i) {
        bool found = false;
        const QCPRange range = graph(i)->getValueRange(found, QCP::sdBoth);
        if (!found) continue;
        yLow = std::min(yLow, range.lower);
        yHigh = std::max(yHigh, range.upper);
    }
    if (yHigh <= 0) yLow = 1e6, yHigh = 1e13;
    xFit_ = QCPRange(low, high);
    yFit_ = QCPRange(std::pow(10.0, std::floor(std::log10(std::max(yLow, 1e-30)))), yHigh * 3);
    const QString points = scene_.activeMode.isEmpty()
                               ? QString()
                               : tr(" — points: %1 (%2)").arg(scene_.activeMode, scene_.provenance);
    setTitle((kind_ == RooflineKind::Time ? tr("Time roofline") : tr("Energy roofline")) + points);
    padLegendItems();
    setSelectedLayer(selectedLayer_);
    resetView();
}

void RooflinePlot::setSelectedLayer(int nodeIndex) {
    selectedLayer_ = nodeIndex;
    if (!selectionGraph_) return;
    selectionGraph_->data()->clear();
    if (const LayerMarker* marker = markerOf(nodeIndex))
        if (layerY(*marker) > 0) selectionGraph_->addData(marker->intensity, layerY(*marker));
    requestReplot();
}

QPointF RooflinePlot::pixelOfLayer(int nodeIndex) const {
    const LayerMarker* marker = markerOf(nodeIndex);
    if (!marker || layerY(*marker) <= 0) return QPointF(-1, -1);
    return QPointF(xAxis->coordToPixel(marker->intensity), yAxis->coordToPixel(layerY(*marker)));
}

void RooflinePlot::resetView() {
    xAxis->setRange(xFit_);
    yAxis->setRange(yFit_);
    requestReplot();
}

int RooflinePlot::nodeOfPoint(int id) const {
    if (id >= kMeasuredPickBase) {
        const size_t index = size_t(id - kMeasuredPickBase);
        return index < scene_.measured.layers.size() ? scene_.measured.layers[index].firstNodeIndex : -1;
    }
    return markerOf(id) ? id : -1;
}

QString RooflinePlot::measuredHoverText(const MeasuredLayerMarker& marker) const {
    using models::formatSi;
    const int shownNodes = 6;
    QStringList nodes = marker.nodes.mid(0, shownNodes);
    if (marker.nodes.size() > shownNodes) nodes << tr("… %1 more").arg(marker.nodes.size() - shownNodes);
    return tr("<b>%1</b><br>covers %2 node(s): %3<br>"
              "<i>%4</i>: %5, %6 at intensity %7 FLOP/B%8<br>"
              "<i>predicted (%9)</i>: %10, %11 at %12 FLOP/B, %13-bound<br>error %14 %")
        .arg(marker.name.toHtmlEscaped())
        .arg(marker.nodes.size())
        .arg(nodes.join(QStringLiteral(", ")).toHtmlEscaped(), scene_.measured.provenance.toHtmlEscaped(),
             models::formatSeconds(marker.measuredMs / 1e3),
             formatSi(marker.achievedFlopsPerSecond, QStringLiteral("FLOP/s")))
        .arg(marker.intensity, 0, 'g', 3)
        .arg(marker.toolCounts ? tr(" (the tool's FLOP and byte counts)") : tr(" (Rooftop's counts)"),
             scene_.measured.predictedProvenance.toHtmlEscaped(),
             models::formatSeconds(marker.predictedMs / 1e3),
             formatSi(marker.predictedFlopsPerSecond, QStringLiteral("FLOP/s")))
        .arg(marker.predictedIntensity, 0, 'g', 3)
        .arg(marker.bound.toHtmlEscaped())
        .arg(marker.errorPct, 0, 'f', 1);
}

QString RooflinePlot::measuredLayerToolTip(int index) const {
    return index >= 0 && measuredGraph_ ? hoverText(kMeasuredPickBase + index) : QString();
}

QString RooflinePlot::hoverText(int id) const {
    if (id >= kMeasuredPickBase) {
        const size_t index = size_t(id - kMeasuredPickBase);
        return index < scene_.measured.layers.size() ? measuredHoverText(scene_.measured.layers[index])
                                                     : QString();
    }
    const LayerMarker* marker = markerOf(id);
    if (!marker) return {};
    using models::formatSi;
    return tr("<b>%1</b> (%2)<br>intensity %3 FLOP/B<br>%4<br>%5<br>time %6 (%7 % of the model), %8-bound<br>"
              "<i>predicted for %9 (%10)</i>")
        .arg(marker->name.toHtmlEscaped(), marker->op.toHtmlEscaped())
        .arg(marker->intensity, 0, 'g', 3)
        .arg(formatSi(marker->flopsPerSecond, QStringLiteral("FLOP/s")))
        .arg(formatSi(marker->flopsPerJoule, QStringLiteral("FLOP/J")))
        .arg(models::formatSeconds(marker->seconds))
        .arg(marker->shareOfTime * 100, 0, 'f', 1)
        .arg(marker->bound, scene_.activeMode, scene_.provenance);
}

} // namespace rooftop::plots
