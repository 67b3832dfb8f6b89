// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/roofline_plot.h"

#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "core/roofline/roofline_curves.h"
#include "models/unit_format.h"
#include "plots/op_palette.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace rooftop::plots {

namespace {

constexpr int kCurveSamples = 160;
// Pick ids: layer points use node indices; roofs, ridges, the model and measured layers lie above them.
constexpr int kRoofPickBase = 1 << 26;
constexpr int kRidgePickBase = 1 << 27;
constexpr int kModelPickId = 1 << 28;
constexpr int kMeasuredPickBase = 1 << 30;
constexpr int kMaxOpGroups = 12; // op types with their own colour and shape; the rest are "other"
constexpr int kMaxStackLabels = 60;
const double kSizeBuckets[] = {0.005, 0.02, 0.08}; // share of time thresholds
const double kMarkerSizes[] = {5.0, 7.0, 10.0, 14.0};
constexpr double kModelStarSize = 18.0, kMeasuredSize = 9.0, kPredictedSize = 7.0; // pixels
constexpr double kRoofWidth = 1.4;
constexpr double kHighlightedRoofWidth = 3.2;
// Label priorities in the placement pass: the corner note, the highlighted mode's roof labels, the what-if
// mode's, the other peaks, the other ridges, then the stack counts (larger stacks first).
constexpr int kNotePriority = 1000;
constexpr int kHighlightedPeakPriority = 900;
constexpr int kHighlightedRidgePriority = 890;
constexpr int kWhatIfPeakPriority = 800;
constexpr int kPeakPriority = 700;
constexpr int kRidgePriority = 600;
constexpr int kStackPriority = 100;

Qt::PenStyle penStyleOf(ComputeClass computeClass) {
    switch (computeClass) {
    case ComputeClass::Fp32CudaCore:
        return Qt::SolidLine;
    case ComputeClass::Fp16CudaCore:
        return Qt::DashLine;
    case ComputeClass::TensorFp16:
        return Qt::DotLine;
    case ComputeClass::TensorInt8:
        return Qt::DashDotLine;
    case ComputeClass::TensorFp8:
        return Qt::DashDotDotLine;
    case ComputeClass::TensorFp4:
        return Qt::DotLine;
    }
    return Qt::SolidLine;
}

int sizeBucket(double share) {
    int bucket = 0;
    for (double threshold : kSizeBuckets)
        if (share >= threshold) ++bucket;
    return bucket;
}

/// Points within 1/200 of a decade on both axes (a pixel or less) count as one position.
std::pair<long long, long long> positionKey(double x, double y) {
    return {std::llround(std::log10(x) * 200), std::llround(std::log10(y) * 200)};
}

QString shortClassName(ComputeClass computeClass) {
    switch (computeClass) {
    case ComputeClass::Fp32CudaCore:
        return QStringLiteral("FP32");
    case ComputeClass::Fp16CudaCore:
        return QStringLiteral("FP16");
    case ComputeClass::TensorFp16:
        return QStringLiteral("TC FP16");
    case ComputeClass::TensorInt8:
        return QStringLiteral("TC INT8");
    case ComputeClass::TensorFp8:
        return QStringLiteral("TC FP8");
    case ComputeClass::TensorFp4:
        return QStringLiteral("TC FP4");
    }
    return {};
}

/// A mode's legend entry: a what-if or custom mode's long name ("recommended GPU 727 · EMC 2133 · 2 × 1190
/// MHz") on three short lines, which would otherwise widen the legend column and narrow the axes.
QString legendName(const ModeRoofs& mode) {
    if (!mode.whatIf || !mode.name.startsWith(mode.roofTag + QLatin1Char(' '))) return mode.name;
    QString clocks = mode.name.mid(mode.roofTag.size() + 1);
    const int last = clocks.lastIndexOf(QStringLiteral(" · "));
    if (last > 0) clocks.replace(last, 3, QStringLiteral("\n"));
    return mode.roofTag + QLatin1Char('\n') + clocks;
}

QFont boldFont(QFont font) {
    font.setBold(true);
    return font;
}

/// The roof of the mode the points are for stands out: thick and opaque; the what-if mode's is bolder than
/// the rest, which stay thin and a little faded so that the highlighted one reads first.
QPen roofPen(const ModeRoofs& mode, QColor color, ComputeClass computeClass, bool highlighted) {
    if (!highlighted && !mode.whatIf) color.setAlpha(190);
    const double width = highlighted ? kHighlightedRoofWidth : mode.whatIf ? 2.2 : kRoofWidth;
    return QPen(color, width, penStyleOf(computeClass));
}

} // namespace

RooflinePlot::RooflinePlot(RooflineKind kind, QWidget* parent) : PlotBase(parent), kind_(kind) {
    makeLogAxis(xAxis, QStringLiteral(""));
    makeLogAxis(yAxis, kind == RooflineKind::Time ? QStringLiteral("FLOP/s") : QStringLiteral("FLOP/J"));
    xAxis->setLabel(QStringLiteral("Operational intensity (FLOP/B)"));
    yAxis->setLabel(kind == RooflineKind::Time ? QStringLiteral("Attainable performance")
                                               : QStringLiteral("Energy efficiency"));
    setTitle(kind == RooflineKind::Time ? tr("Time roofline") : tr("Energy roofline"));
    opLegend_ = secondLegend(tr("Modes"), tr("Op types"));
}

double RooflinePlot::layerY(const LayerMarker& marker) const {
    return kind_ == RooflineKind::Time ? marker.flopsPerSecond : marker.flopsPerJoule;
}

const LayerMarker* RooflinePlot::markerOf(int nodeIndex) const {
    for (const LayerMarker& marker : scene_.layers)
        if (marker.nodeIndex == nodeIndex) return &marker;
    return nullptr;
}

bool RooflinePlot::layerDrawn(const LayerMarker& marker) const {
    if (layerY(marker) <= 0 || marker.intensity <= 0) return false;
    if (marker.nearFree && !showNearFree_) return false;
    return !filter_ || filter_(marker);
}

bool RooflinePlot::onlyChosenRoofs() const {
    switch (roofChoice_) {
    case RoofChoice::OnlyChosen:
        return true;
    case RoofChoice::All:
        return false;
    case RoofChoice::Auto:
        break;
    }
    return scene_.classes.size() > 1;
}

void RooflinePlot::setLayerFilter(LayerFilter filter) {
    filter_ = std::move(filter);
    rebuild(false);
}

void RooflinePlot::setShowNearFree(bool show) {
    if (show == showNearFree_) return;
    showNearFree_ = show;
    rebuild(true);
}

void RooflinePlot::setRoofChoice(RoofChoice choice) {
    if (choice == roofChoice_) return;
    roofChoice_ = choice;
    rebuild(true);
}

void RooflinePlot::paletteChanged() {
    if (selectionGraph_) rebuild(false); // the ring, the star, labels and keys take the new foreground
}

void RooflinePlot::addRoofs(int modeIndex, double low, double high, std::vector<PickPoint>& picks) {
    const ModeRoofs& mode = scene_.modes[size_t(modeIndex)];
    const RooflineCurve curve =
        kind_ == RooflineKind::Time ? RooflineCurve::Attainable : RooflineCurve::EnergyEfficiency;
    const QString unit = kind_ == RooflineKind::Time ? QStringLiteral("FLOP/s") : QStringLiteral("FLOP/J");
    bool named = false;
    const bool highlighted = modeIndex == highlightedMode_;
    QCPGraph* ridges = addGraph();
    ridges->setLineStyle(QCPGraph::lsNone);
    const QColor modeInk = readableOnBackground(mode.color);
    ridges->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, modeInk, modeInk, 7));
    ridges->removeFromLegend();
    QFont labelFont = font();
    labelFont.setPointSizeF(std::max(6.5, labelFont.pointSizeF() - 1.5));
    if (highlighted) labelFont = boldFont(labelFont);
    for (ComputeClass computeClass : scene_.classes) {
        if (mode.profile.ceilings.peak(computeClass).value <= 0) continue;
        const std::vector<CurvePoint> points =
            sampleCurve(mode.profile, computeClass, curve, low, high, kCurveSamples);
        QVector<double> keys, values;
        for (const CurvePoint& point : points) {
            if (point.value <= 0 || !std::isfinite(point.value)) continue;
            keys.push_back(point.intensity);
            values.push_back(point.value);
        }
        if (keys.isEmpty()) continue;
        QCPGraph* roof = addGraph();
        roof->setPen(roofPen(mode, modeInk, computeClass, highlighted));
        roof->setData(keys, values, true);
        roof->setName(legendName(mode));
        if (named)
            roof->removeFromLegend();
        else if (QCPAbstractLegendItem* entry = highlighted ? legend->itemWithPlottable(roof) : nullptr)
            entry->setFont(boldFont(entry->font()));
        named = true;
        roofGraphs_.push_back(roof);

        RoofInfo info;
        info.mode = modeIndex;
        info.computeClass = computeClass;
        info.peak = values.back();
        const double ridge = kind_ == RooflineKind::Time ? timeBalance(mode.profile.ceilings, computeClass)
                                                         : energyBalance(mode.profile.power, computeClass);
        if (ridge > 0 && ridge >= low && ridge <= high) {
            const double y = kind_ == RooflineKind::Time
                                 ? attainableFlops(mode.profile.ceilings, computeClass, ridge)
                                 : energyEfficiency(mode.profile, computeClass, ridge);
            if (y > 0) {
                ridges->addData(ridge, y);
                info.ridge = ridge;
                info.ridgeY = y;
            }
        }
        const int roofId = int(roofs_.size());
        roofs_.push_back(info);
        for (int i = 0; i < keys.size(); ++i)
            picks.push_back({keys[i], values[i], kRoofPickBase + roofId, 0});
        if (info.ridge > 0) picks.push_back({info.ridge, info.ridgeY, kRidgePickBase + roofId, 1});

        // The peak at the right end of the flat part, the ridge beside its diamond, each where the placement
        // pass finds room (PlotBase::placeLabel); one left out is in the roof's hover text. The labels of the
        // highlighted mode go first.
        const int peakPriority = highlighted   ? kHighlightedPeakPriority
                                 : mode.whatIf ? kWhatIfPeakPriority
                                               : kPeakPriority;
        auto* peakLabel = new QCPItemText(this);
        peakLabel->setClipToAxisRect(true);
        peakLabel->setFont(labelFont);
        peakLabel->setColor(modeInk);
        // a what-if mode's clocks are in the legend; here they would run over the other roofs' labels
        const QString name = mode.whatIf ? mode.roofTag : mode.name;
        const QString who =
            scene_.classes.size() > 1 ? name + QStringLiteral(" ") + shortClassName(computeClass) : name;
        peakLabel->setText(QStringLiteral("%1: %2").arg(who, models::formatSi(info.peak, unit)));
        std::vector<LabelPlace> peakPlaces = {
            {QPointF(high, info.peak), Qt::AlignRight | Qt::AlignBottom, QMargins(0, 0, 4, 3)},
            {QPointF(high, info.peak), Qt::AlignRight | Qt::AlignTop, QMargins(0, 3, 4, 0)}};
        // further left along the flat part, above then under it
        for (const double left : {std::pow(10.0, -0.8), std::pow(10.0, -1.6)})
            if (high * left > std::max(info.ridge, low) * 1.5) {
                peakPlaces.push_back({QPointF(high * left, info.peak), Qt::AlignRight | Qt::AlignBottom,
                                      QMargins(0, 0, 4, 3)});
                peakPlaces.push_back(
                    {QPointF(high * left, info.peak), Qt::AlignRight | Qt::AlignTop, QMargins(0, 3, 4, 0)});
            }
        // from just right of the knee, above then under the flat part: layers crowd a roof's right end
        if (info.ridge > 0 && info.ridge * 8 < high) {
            const QPointF start(info.ridge * 1.2, info.peak);
            peakPlaces.push_back({start, Qt::AlignLeft | Qt::AlignBottom, QMargins(4, 0, 0, 3)});
            peakPlaces.push_back({start, Qt::AlignLeft | Qt::AlignTop, QMargins(4, 3, 0, 0)});
        }
        // the highlighted mode's labels stay (struck, if they must); another roof's are in its hover text
        // lower under the roof: an energy roof still rises towards its peak under the text's left end; higher
        // above it: clear of a roof just above this one
        peakPlaces.push_back(
            {QPointF(high, info.peak), Qt::AlignRight | Qt::AlignTop, QMargins(0, 12, 4, 0)});
        peakPlaces.push_back(
            {QPointF(high, info.peak), Qt::AlignRight | Qt::AlignBottom, QMargins(0, 0, 4, 12)});
        placeLabel(peakLabel, peakPriority, std::move(peakPlaces), !highlighted);
        if (info.ridge > 0) {
            auto* ridgeLabel = new QCPItemText(this);
            ridgeLabel->setClipToAxisRect(true);
            ridgeLabel->setFont(labelFont);
            ridgeLabel->setColor(modeInk);
            ridgeLabel->setText(tr("ridge %1 FLOP/B").arg(info.ridge, 0, 'g', 3));
            const QPointF knee(info.ridge, info.ridgeY);
            // left of the knee under the slope, right of it under the roof, left of it above the slope,
            // then a line lower on either side: the placement pass takes the first that crosses no roof
            placeLabel(ridgeLabel, highlighted ? kHighlightedRidgePriority : kRidgePriority,
                       {{knee, Qt::AlignRight | Qt::AlignTop, QMargins(0, 4, 8, 0)},
                        {knee, Qt::AlignLeft | Qt::AlignTop, QMargins(8, 4, 0, 0)},
                        {knee, Qt::AlignRight | Qt::AlignBottom, QMargins(0, 0, 8, 4)},
                        {knee, Qt::AlignLeft | Qt::AlignTop, QMargins(8, 20, 0, 0)},
                        {knee, Qt::AlignRight | Qt::AlignTop, QMargins(0, 20, 24, 0)},
                        {knee, Qt::AlignLeft | Qt::AlignBottom, QMargins(8, 0, 0, 4)}},
                       !highlighted);
        }
        ++roofCount_;
    }
}

void RooflinePlot::addClassKey() {
    if (scene_.classes.size() < 2) return;
    // One legend entry per line style, in the foreground colour, instead of a key text over the axes.
    for (ComputeClass computeClass : scene_.classes) {
        QCPGraph* key = addGraph();
        key->setPen(QPen(foregroundColor(), 1.4, penStyleOf(computeClass)));
        key->setName(tr("roof: %1").arg(QString::fromUtf8(computeClassName(computeClass))));
    }
}

void RooflinePlot::addLayerPoints(std::vector<PickPoint>& picks) {
    std::vector<const LayerMarker*> drawn;
    hiddenNearFree_ = 0;
    for (const LayerMarker& marker : scene_.layers) {
        if (layerDrawn(marker))
            drawn.push_back(&marker);
        else if (marker.nearFree && !showNearFree_ && layerY(marker) > 0 && (!filter_ || filter_(marker)))
            ++hiddenNearFree_;
    }
    drawnPoints_ = int(drawn.size());
    // Op types ranked by their share of time; the first kMaxOpGroups get a colour and shape of their own.
    std::map<QString, double> shareByOp;
    for (const LayerMarker* marker : drawn)
        shareByOp[marker->op] += marker->shareOfTime;
    std::vector<std::pair<double, QString>> ranked;
    ranked.reserve(shareByOp.size());
    for (const auto& [op, share] : shareByOp)
        ranked.push_back({-share, op});
    std::sort(ranked.begin(), ranked.end());
    std::map<QString, int> group;
    for (size_t i = 0; i < ranked.size(); ++i)
        group[ranked[i].second] = i < size_t(kMaxOpGroups) ? int(i) : kMaxOpGroups;

    const int groups = std::min<int>(int(ranked.size()), kMaxOpGroups + 1);
    std::vector<std::array<QVector<double>, 8>> data; // per group: x,y for 4 size buckets
    data.resize(size_t(groups));
    for (const LayerMarker* marker : drawn) {
        auto& groupData = data[size_t(group[marker->op])];
        const size_t bucket = size_t(sizeBucket(marker->shareOfTime));
        groupData[2 * bucket].push_back(marker->intensity);
        groupData[2 * bucket + 1].push_back(layerY(*marker));
        picks.push_back({marker->intensity, layerY(*marker), marker->nodeIndex, 2, kMarkerSizes[bucket] + 2});
    }
    QStringList opTypes = scene_.opTypes;
    if (opTypes.isEmpty())
        for (const LayerMarker& marker : scene_.layers)
            if (!opTypes.contains(marker.op)) opTypes << marker.op;
    const OpPalette palette(opTypes);
    for (int g = 0; g < groups; ++g) {
        const bool other = g == kMaxOpGroups;
        const QString name = other ? tr("other ops") : ranked[size_t(g)].second;
        const OpStyle style =
            other ? OpStyle{QColor(0x9E, 0x9E, 0x9E), QCPScatterStyle::ssDisc} : palette.style(name);
        const QColor ink = readableOnBackground(style.color);
        QColor fill = ink;
        fill.setAlpha(170);
        bool named = false;
        for (size_t bucket = 0; bucket < 4; ++bucket) {
            const auto& keys = data[size_t(g)][2 * bucket];
            if (keys.isEmpty()) continue;
            QCPGraph* points = addGraph();
            points->setLineStyle(QCPGraph::lsNone);
            points->setScatterStyle(
                QCPScatterStyle(style.shape, ink.darker(130), fill, kMarkerSizes[bucket]));
            points->setData(keys, data[size_t(g)][2 * bucket + 1]);
            points->setName(name);
            points->removeFromLegend();
            if (!named) opLegend_->addItem(new QCPPlottableLegendItem(opLegend_, points));
            named = true;
        }
    }
    addStackLabels(drawn);
}

void RooflinePlot::addStackLabels(const std::vector<const LayerMarker*>& drawn) {
    stackOf_.clear();
    stackLabels_ = 0;
    std::map<std::pair<long long, long long>, std::vector<const LayerMarker*>> stacks;
    for (const LayerMarker* marker : drawn)
        stacks[positionKey(marker->intensity, layerY(*marker))].push_back(marker);
    std::vector<const std::vector<const LayerMarker*>*> shared;
    for (const auto& [key, members] : stacks) {
        for (const LayerMarker* marker : members)
            stackOf_[marker->nodeIndex] = int(members.size());
        if (members.size() > 1) shared.push_back(&members);
    }
    std::sort(shared.begin(), shared.end(),
              [](const auto* a, const auto* b) { return a->size() > b->size(); });
    if (shared.size() > size_t(kMaxStackLabels)) shared.resize(size_t(kMaxStackLabels));
    QFont labelFont = font();
    labelFont.setPointSizeF(std::max(6.5, labelFont.pointSizeF() - 1.5));
    labelFont.setBold(true);
    // Stacks a few pixels apart share one label ("×25, ×12"), largest first, so the counts never overprint.
    struct Label {
        double x, y;
        QStringList counts;
    };
    std::vector<Label> labels;
    // a label is about a line high and a decade wide on a window-sized plot
    constexpr double kNearX = 0.8, kNearY = 0.1; // decades
    for (const auto* members : shared) {
        const LayerMarker& first = *members->front();
        const double lx = std::log10(first.intensity), ly = std::log10(layerY(first));
        const QString count = QStringLiteral("×%1").arg(members->size());
        auto near = std::find_if(labels.begin(), labels.end(), [&](const Label& label) {
            return std::abs(std::log10(label.x) - lx) < kNearX && std::abs(std::log10(label.y) - ly) < kNearY;
        });
        if (near == labels.end())
            labels.push_back({first.intensity, layerY(first), {count}});
        else if (near->counts.size() < 3)
            near->counts << count;
        else if (near->counts.size() == 3)
            near->counts << QStringLiteral("…");
    }
    for (size_t i = 0; i < labels.size(); ++i) {
        const Label& entry = labels[i];
        auto* label = new QCPItemText(this);
        label->setClipToAxisRect(true);
        label->setFont(labelFont);
        label->setColor(foregroundColor());
        label->setText(entry.counts.join(QStringLiteral(", ")));
        // right of the point and above it, else under it, else left of it; one without room, or with a roof
        // through it wherever it goes, is in the hover text of its points ("N layers at this point")
        const QPointF at(entry.x, entry.y);
        placeLabel(label, kStackPriority - std::min(int(i), kStackPriority - 1),
                   {{at, Qt::AlignLeft | Qt::AlignBottom, QMargins(7, 0, 0, 5)},
                    {at, Qt::AlignLeft | Qt::AlignTop, QMargins(7, 5, 0, 0)},
                    {at, Qt::AlignRight | Qt::AlignBottom, QMargins(0, 0, 7, 5)},
                    {at, Qt::AlignRight | Qt::AlignTop, QMargins(0, 5, 7, 0)}},
                   true);
        ++stackLabels_;
    }
}

int RooflinePlot::stackCount(int nodeIndex) const {
    const auto it = stackOf_.find(nodeIndex);
    return it == stackOf_.end() ? 0 : it->second;
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
        QCPScatterStyle(QCPScatterStyle::ssPlus, QPen(joinColor, 1.2), Qt::NoBrush, kPredictedSize));
    measuredPredictionGraph_->setName(tr("predicted (same nodes)"));
    measuredGraph_ = addGraph();
    measuredGraph_->setLineStyle(QCPGraph::lsNone);
    measuredGraph_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(ink, 1.6), Qt::NoBrush, kMeasuredSize));
    measuredGraph_->setName(scene_.measured.label);
    for (const MeasuredLayerMarker& marker : scene_.measured.layers) {
        measuredGraph_->addData(marker.intensity, marker.achievedFlopsPerSecond);
        measuredPredictionGraph_->addData(marker.predictedIntensity, marker.predictedFlopsPerSecond);
    }
}

void RooflinePlot::setScene(const RooflineScene& scene) {
    scene_ = scene;
    rebuild(true);
}

void RooflinePlot::rebuild(bool fit) {
    const QCPRange keepX = xAxis->range(), keepY = yAxis->range();
    opLegend_->clearItems(); // before the plottables they point to go
    clearPlottables();       // graphs and the curve joining measured layers to their predictions
    clearItems();
    roofCount_ = 0;
    roofs_.clear();
    roofGraphs_.clear();
    std::vector<PickPoint> picks;

    double low = 1e-2, high = 1e3;
    for (const LayerMarker& marker : scene_.layers) {
        if (!layerDrawn(marker)) continue;
        low = std::min(low, marker.intensity / 2);
        high = std::max(high, marker.intensity * 2);
    }
    if (kind_ == RooflineKind::Time)
        for (const MeasuredLayerMarker& marker : scene_.measured.layers) {
            low = std::min({low, marker.intensity / 2, marker.predictedIntensity / 2});
            high = std::max({high, marker.intensity * 2, marker.predictedIntensity * 2});
        }
    for (const ModeRoofs& mode : scene_.modes)
        for (ComputeClass computeClass : scene_.classes)
            high = std::max(high, 8 * timeBalance(mode.profile.ceilings, computeClass));
    low = std::pow(10.0, std::floor(std::log10(low)));
    high = std::pow(10.0, std::ceil(std::log10(high)));

    // Only the chosen mode: the what-if mode when there is one, else the mode the points are for.
    int chosen = -1;
    highlightedMode_ = -1; // the mode the points are for
    for (size_t i = 0; i < scene_.modes.size(); ++i) {
        if (scene_.modes[i].whatIf || (chosen < 0 && scene_.modes[i].name == scene_.activeMode))
            chosen = int(i);
        const ModeRoofs& mode = scene_.modes[i]; // a what-if or custom mode is named "what-if MODE"
        if (highlightedMode_ < 0 && !scene_.activeMode.isEmpty() &&
            (mode.name == scene_.activeMode ||
             QString::fromStdString(readableModeName(mode.profile.mode)) == scene_.activeMode))
            highlightedMode_ = int(i);
    }
    const bool onlyChosen = onlyChosenRoofs() && chosen >= 0;
    for (size_t i = 0; i < scene_.modes.size(); ++i)
        if (!onlyChosen || int(i) == chosen) addRoofs(int(i), low, high, picks);
    for (size_t i = 0; i < roofGraphs_.size(); ++i) // the highlighted roofs over the others
        if (roofs_[i].mode == highlightedMode_)
            roofGraphs_[i]->setLayer(roofGraphs_[i]->layer()); // to the end of its layer
    addClassKey();
    addLayerPoints(picks);
    addMeasuredLayers();
    // Thousands of antialiased discs dominate a replot; beyond a few hundred nobody sees the difference.
    if (scene_.layers.size() > 1500)
        setNotAntialiasedElements(QCP::aeScatters);
    else
        setAntialiasedElements(QCP::aeScatters);

    modelGraph_ = nullptr;
    if (scene_.hasModelPoint && layerY(scene_.model) > 0) {
        modelGraph_ = addGraph();
        modelGraph_->setLineStyle(QCPGraph::lsNone);
        modelGraph_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(foregroundColor(), 2.0),
                                                     Qt::NoBrush, kModelStarSize));
        modelGraph_->addData(scene_.model.intensity, layerY(scene_.model));
        modelGraph_->setName(tr("whole model"));
        picks.push_back({scene_.model.intensity, layerY(scene_.model), kModelPickId, 3, kModelStarSize});
    }
    selectionGraph_ = addGraph();
    selectionGraph_->setLineStyle(QCPGraph::lsNone);
    selectionGraph_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(foregroundColor(), 2.5), Qt::NoBrush, 20));
    selectionGraph_->removeFromLegend();

    // a measured layer's circle and its prediction's plus both answer for the layer, and labels keep off both
    if (measuredGraph_)
        for (size_t i = 0; i < scene_.measured.layers.size(); ++i) {
            const MeasuredLayerMarker& layer = scene_.measured.layers[i];
            const int id = kMeasuredPickBase + int(i);
            picks.push_back({layer.intensity, layer.achievedFlopsPerSecond, id, 2, kMeasuredSize + 2});
            picks.push_back({layer.predictedIntensity, layer.predictedFlopsPerSecond, id, 2, kPredictedSize});
        }
    setPickPoints(std::move(picks));

    // Fit: the x range of the roofs, the y range of roofs and drawn points.
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
    // a custom mode's clocks do not fit beside the title on a narrow plot: they get a line of their own
    const QString separator = scene_.activeMode.size() > 16 ? QStringLiteral("\n") : QStringLiteral(" — ");
    const QString points = scene_.activeMode.isEmpty()
                               ? QString()
                               : separator + tr("points: %1\n(%2)").arg(scene_.activeMode, scene_.provenance);
    QStringList notes; // in a corner of the axes: the title stays short enough for narrow plots
    if (hiddenNearFree_ > 0)
        notes << (hiddenNearFree_ == 1 ? tr("1 near-free layer hidden")
                                       : tr("%1 near-free layers hidden").arg(hiddenNearFree_));
    if (filter_ && drawnPoints_ + hiddenNearFree_ < int(scene_.layers.size()))
        notes << tr("%1 of %2 layers (table filter)").arg(drawnPoints_).arg(scene_.layers.size());
    if (!notes.isEmpty()) {
        auto* note = new QCPItemText(this);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->setClipToAxisRect(true);
        note->setColor(foregroundColor());
        note->setText(notes.join(QStringLiteral("; ")));
        placeLabel(note, kNotePriority,
                   {{QPointF(1, 1), Qt::AlignRight | Qt::AlignBottom, QMargins(0, 0, 5, 4)}});
    }
    setTitle((kind_ == RooflineKind::Time ? tr("Time roofline") : tr("Energy roofline")) + points);
    padLegendItems();
    setSelectedLayer(selectedLayer_);
    if (fit) {
        resetView();
    } else {
        xAxis->setRange(keepX);
        yAxis->setRange(keepY);
        requestReplot();
    }
}

void RooflinePlot::setSelectedLayer(int nodeIndex) {
    selectedLayer_ = nodeIndex;
    if (!selectionGraph_) return;
    selectionGraph_->data()->clear();
    if (const LayerMarker* marker = markerOf(nodeIndex))
        if (layerDrawn(*marker)) selectionGraph_->addData(marker->intensity, layerY(*marker));
    requestReplot();
}

QPointF RooflinePlot::pixelOfLayer(int nodeIndex) const {
    const LayerMarker* marker = markerOf(nodeIndex);
    if (!marker || !layerDrawn(*marker)) return QPointF(-1, -1);
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
    if (id >= kRoofPickBase) return -1;
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

QString RooflinePlot::roofHoverText(const RoofInfo& roof, bool ridge) const {
    using models::formatSi;
    const ModeRoofs& mode = scene_.modes[size_t(roof.mode)];
    const Ceilings& ceilings = mode.profile.ceilings;
    const QString className = QString::fromUtf8(computeClassName(roof.computeClass));
    const SourcedValue& peak = ceilings.peak(roof.computeClass);
    auto sourced = [](const SourcedValue& value, const QString& unit) {
        return QStringLiteral("%1 <i>(%2)</i>")
            .arg(formatSi(value.value, unit), QString::fromUtf8(provenanceName(value.provenance)));
    };
    if (ridge) {
        return kind_ == RooflineKind::Time
                   ? tr("<b>Ridge of %1, %2</b><br>at %3 FLOP/B = peak / bandwidth: below it a layer is "
                        "memory-bound, above it compute-bound<br>%4 there")
                         .arg(mode.name.toHtmlEscaped(), className)
                         .arg(roof.ridge, 0, 'g', 3)
                         .arg(formatSi(roof.ridgeY, QStringLiteral("FLOP/s")))
                   : tr("<b>Energy balance of %1, %2</b><br>at %3 FLOP/B = energy per byte / energy per "
                        "FLOP: "
                        "below it bytes cost more energy than FLOPs<br>%4 there")
                         .arg(mode.name.toHtmlEscaped(), className)
                         .arg(roof.ridge, 0, 'g', 3)
                         .arg(formatSi(roof.ridgeY, QStringLiteral("FLOP/J")));
    }
    if (kind_ == RooflineKind::Time)
        return tr("<b>%1</b> — %2 roof<br>peak %3<br>DRAM bandwidth %4<br>ridge at %5 FLOP/B")
            .arg(mode.name.toHtmlEscaped(), className, sourced(peak, QStringLiteral("FLOP/s")),
                 sourced(ceilings.bandwidth, QStringLiteral("B/s")))
            .arg(roof.ridge, 0, 'g', 3);
    const PowerModel& power = mode.profile.power;
    return tr("<b>%1</b> — %2 energy roof<br>at most %3 at high intensity<br>energy per FLOP %4, per byte "
              "%5, "
              "constant power %6<br>energy balance at %7 FLOP/B")
        .arg(mode.name.toHtmlEscaped(), className, formatSi(roof.peak, QStringLiteral("FLOP/J")),
             sourced(power.energyPerFlop, QStringLiteral("J")),
             sourced(power.energyPerByte, QStringLiteral("J")),
             sourced(power.constantPower, QStringLiteral("W")))
        .arg(roof.ridge, 0, 'g', 3);
}

QString RooflinePlot::layerHoverText(const LayerMarker& marker) const {
    using models::formatSi;
    QString text = tr("<b>%1</b> (%2)<br>intensity %3 FLOP/B<br>%4<br>%5<br>time %6 (%7 % of all layers' "
                      "time), %8-bound<br>"
                      "<i>predicted for %9 (%10)</i>")
                       .arg(marker.name.toHtmlEscaped(), marker.op.toHtmlEscaped())
                       .arg(marker.intensity, 0, 'g', 3)
                       .arg(formatSi(marker.flopsPerSecond, QStringLiteral("FLOP/s")))
                       .arg(formatSi(marker.flopsPerJoule, QStringLiteral("FLOP/J")))
                       .arg(models::formatSeconds(marker.seconds))
                       .arg(marker.shareOfTime * 100, 0, 'f', 1)
                       .arg(marker.bound, scene_.activeMode, scene_.provenance);
    const int stacked = stackCount(marker.nodeIndex);
    if (stacked > 1) {
        QStringList others;
        const auto key = positionKey(marker.intensity, layerY(marker));
        for (const LayerMarker& other : scene_.layers)
            if (other.nodeIndex != marker.nodeIndex && layerDrawn(other) &&
                positionKey(other.intensity, layerY(other)) == key && others.size() < 5)
                others << other.name.toHtmlEscaped();
        text +=
            tr("<br>%1 layers at this point, also: %2%3")
                .arg(stacked)
                .arg(others.join(QStringLiteral(", ")), stacked - 1 > others.size() ? tr(", …") : QString());
    }
    return text;
}

QString RooflinePlot::hoverText(int id) const {
    if (id >= kMeasuredPickBase) {
        const size_t index = size_t(id - kMeasuredPickBase);
        return index < scene_.measured.layers.size() ? measuredHoverText(scene_.measured.layers[index])
                                                     : QString();
    }
    if (id == kModelPickId) {
        using models::formatSi;
        const LayerMarker& model = scene_.model;
        return tr("<b>Whole model</b> %1<br>%2, %3 FLOP/B<br>%4<br>%5<br>latency %6, energy %7 per batch<br>"
                  "<i>predicted for %8 (%9)</i>")
            .arg(model.name.toHtmlEscaped(), formatSi(model.flops, QStringLiteral("FLOP")))
            .arg(model.intensity, 0, 'g', 3)
            .arg(formatSi(model.flopsPerSecond, QStringLiteral("FLOP/s")),
                 formatSi(model.flopsPerJoule, QStringLiteral("FLOP/J")),
                 models::formatSeconds(model.seconds), formatSi(model.joules, QStringLiteral("J")),
                 scene_.activeMode, scene_.provenance);
    }
    if (id >= kRidgePickBase) {
        const size_t index = size_t(id - kRidgePickBase);
        return index < roofs_.size() ? roofHoverText(roofs_[index], true) : QString();
    }
    if (id >= kRoofPickBase) {
        const size_t index = size_t(id - kRoofPickBase);
        return index < roofs_.size() ? roofHoverText(roofs_[index], false) : QString();
    }
    const LayerMarker* marker = markerOf(id);
    return marker ? layerHoverText(*marker) : QString();
}

} // namespace rooftop::plots
