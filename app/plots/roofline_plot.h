// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plots/plot_base.h"
#include "plots/roofline_scene.h"

#include <QPointer>
#include <functional>
#include <map>

namespace rooftop::plots {

/// The time roofline (FLOP/s against FLOP/B) or the energy roofline (FLOP/J against FLOP/B), log-log: one
/// roof per mode and compute class with its peak and ridge point labelled, the layers of the active mode
/// coloured and shaped by op type and sized by their share of time (stacked layers counted), the whole
/// model as a star, and the selected layer ringed. Modes and op types have a legend each.
class RooflinePlot : public PlotBase {
    Q_OBJECT
public:
    /// Which modes get roofs: all of the scene, only the mode the points are for, or (Auto) only that mode
    /// when the workload uses more than one compute class (fp16: 3 roofs per mode crowd the plot).
    enum class RoofChoice { Auto, OnlyChosen, All };
    /// Which layers are drawn (true: drawn); empty: all.
    using LayerFilter = std::function<bool(const LayerMarker&)>;

    explicit RooflinePlot(RooflineKind kind, QWidget* parent = nullptr);

    /// Replaces everything drawn and fits the view.
    void setScene(const RooflineScene& scene);
    /// Draws only the layers the filter keeps (the layer table's filter); redraws, keeping the view.
    void setLayerFilter(LayerFilter filter);
    /// Draws the near-free layers (off by default: they stretch the y axis over decades); refits.
    void setShowNearFree(bool show);
    bool showNearFree() const { return showNearFree_; }
    /// Chooses the roofs drawn; refits.
    void setRoofChoice(RoofChoice choice);
    RoofChoice roofChoice() const { return roofChoice_; }
    /// Whether only the chosen mode's roofs are drawn now (RoofChoice::Auto resolved).
    bool onlyChosenRoofs() const;
    /// Rings the layer with this node index (-1: none); no signal.
    void setSelectedLayer(int nodeIndex);
    /// The ringed layer's node index, or -1.
    int selectedLayer() const { return selectedLayer_; }
    /// The pixel position of a layer's point, or (-1, -1) when it has none; for tests and tooltips.
    QPointF pixelOfLayer(int nodeIndex) const;
    /// How many layer points the scene has (drawn or hidden by the filter or as near-free).
    int layerPointCount() const { return int(scene_.layers.size()); }
    /// How many layer points are drawn.
    int drawnPointCount() const { return drawnPoints_; }
    /// How many drawn layers sit at the same position as this layer's point (1: alone, 0: not drawn).
    int stackCount(int nodeIndex) const;
    /// How many "×N" count labels are drawn on stacked points (stacks a few pixels apart share one).
    int stackLabelCount() const { return stackLabels_; }
    /// How many measured layers of an imported profile are drawn (hollow markers; time roofline only).
    int measuredPointCount() const { return measuredGraph_ ? measuredGraph_->dataCount() : 0; }
    /// The graph of the hollow measured markers, nullptr when none is drawn.
    QCPGraph* measuredGraph() const { return measuredGraph_; }
    /// The graph of the predicted points the measured markers are joined to, nullptr when none.
    QCPGraph* measuredPredictionGraph() const { return measuredPredictionGraph_; }
    /// The graph of the selection ring and of the whole-model star (nullptr before a scene); for tests.
    QCPGraph* selectionGraph() const { return selectionGraph_; }
    QCPGraph* modelGraph() const { return modelGraph_; }
    /// The legend of the op types (the main legend holds the modes).
    QCPLegend* opLegend() const { return opLegend_; }
    /// The hover text of the i-th measured layer drawn (empty when out of range); for tests.
    QString measuredLayerToolTip(int index) const;
    /// The node index a clicked point stands for (a measured layer: its first covered node), or -1.
    int nodeOfPoint(int id) const;
    /// How many roof lines are drawn (modes x compute classes).
    int roofCount() const { return roofCount_; }
    /// The roof lines drawn, each named by its mode; for tests.
    const std::vector<QCPGraph*>& roofGraphs() const { return roofGraphs_; }
    /// The name of the mode whose roofs are highlighted (the mode the points are for), empty when none.
    QString highlightedMode() const {
        return highlightedMode_ >= 0 ? scene_.modes[size_t(highlightedMode_)].name : QString();
    }
    /// The y range the view fits to.
    QCPRange yFitRange() const { return yFit_; }
    void resetView() override;
    RooflineKind kind() const { return kind_; }

protected:
    QString hoverText(int id) const override;
    void paletteChanged() override;

private:
    /// One drawn roof, for its hover text.
    struct RoofInfo {
        int mode = 0;
        ComputeClass computeClass = ComputeClass::Fp32CudaCore;
        double peak = 0.0;  ///< the flat part (FLOP/s or FLOP/J)
        double ridge = 0.0; ///< FLOP/B, 0 when none
        double ridgeY = 0.0;
    };

    void rebuild(bool fit);
    bool layerDrawn(const LayerMarker& marker) const;
    double layerY(const LayerMarker& marker) const;
    void addRoofs(int modeIndex, double low, double high, std::vector<PickPoint>& picks);
    void addClassKey();
    void addLayerPoints(std::vector<PickPoint>& picks);
    void addStackLabels(const std::vector<const LayerMarker*>& drawn);
    void addMeasuredLayers();
    QString roofHoverText(const RoofInfo& roof, bool ridge) const;
    QString layerHoverText(const LayerMarker& marker) const;
    QString measuredHoverText(const MeasuredLayerMarker& marker) const;
    const LayerMarker* markerOf(int nodeIndex) const;

    RooflineKind kind_;
    RooflineScene scene_;
    LayerFilter filter_;
    bool showNearFree_ = false;
    RoofChoice roofChoice_ = RoofChoice::Auto;
    int selectedLayer_ = -1;
    int roofCount_ = 0;
    int drawnPoints_ = 0;
    int hiddenNearFree_ = 0;
    int stackLabels_ = 0;
    std::vector<RoofInfo> roofs_;
    std::vector<QCPGraph*> roofGraphs_; ///< parallel to roofs_
    int highlightedMode_ = -1;          ///< index into scene_.modes of the mode the points are for
    std::map<int, int> stackOf_;        ///< node index -> layers drawn at its position
    QCPLegend* opLegend_ = nullptr;
    QCPGraph* selectionGraph_ = nullptr;
    QCPGraph* modelGraph_ = nullptr;
    QCPGraph* measuredGraph_ = nullptr;
    QCPGraph* measuredPredictionGraph_ = nullptr;
    QCPRange xFit_{0.01, 1e4};
    QCPRange yFit_{1e6, 1e14};
};

} // namespace rooftop::plots
