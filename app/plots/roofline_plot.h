// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plots/plot_base.h"
#include "plots/roofline_scene.h"

namespace rooftop::plots {

/// The time roofline (FLOP/s against FLOP/B) or the energy roofline (FLOP/J against FLOP/B), log-log: one
/// roof per mode and compute class with its ridge point, the layers of the active mode coloured by op type
/// and sized by their share of time, the whole model as a star, and the selected layer ringed.
class RooflinePlot : public PlotBase {
    Q_OBJECT
public:
    explicit RooflinePlot(RooflineKind kind, QWidget* parent = nullptr);

    /// Replaces everything drawn and fits the view.
    void setScene(const RooflineScene& scene);
    /// Rings the layer with this node index (-1: none); no signal.
    void setSelectedLayer(int nodeIndex);
    /// The ringed layer's node index, or -1.
    int selectedLayer() const { return selectedLayer_; }
    /// The pixel position of a layer's point, or (-1, -1) when it has none; for tests and tooltips.
    QPointF pixelOfLayer(int nodeIndex) const;
    /// How many layer points are drawn.
    int layerPointCount() const { return int(scene_.layers.size()); }
    /// How many measured layers of an imported profile are drawn (hollow markers; time roofline only).
    int measuredPointCount() const { return measuredGraph_ ? measuredGraph_->dataCount() : 0; }
    /// The graph of the hollow measured markers, nullptr when none is drawn.
    QCPGraph* measuredGraph() const { return measuredGraph_; }
    /// The graph of the predicted points the measured markers are joined to, nullptr when none.
    QCPGraph* measuredPredictionGraph() const { return measuredPredictionGraph_; }
    /// The hover text of the i-th measured layer drawn (empty when out of range); for tests.
    QString measuredLayerToolTip(int index) const;
    /// The node index a clicked point stands for (a measured layer: its first covered node), or -1.
    int nodeOfPoint(int id) const;
    /// How many roof lines are drawn (modes x compute classes).
    int roofCount() const { return roofCount_; }
    void resetView() override;
    RooflineKind kind() const { return kind_; }

protected:
    QString hoverText(int id) const override;

private:
    double layerY(const LayerMarker& marker) const;
    void addRoofs(const ModeRoofs& mode, double low, double high);
    void addLayerPoints();
    void addMeasuredLayers();
    QString measuredHoverText(const MeasuredLayerMarker& marker) const;
    const LayerMarker* markerOf(int nodeIndex) const;

    RooflineKind kind_;
    RooflineScene scene_;
    int selectedLayer_ = -1;
    int roofCount_ = 0;
    QCPGraph* selectionGraph_ = nullptr;
    QCPGraph* measuredGraph_ = nullptr;
    QCPGraph* measuredPredictionGraph_ = nullptr;
    QCPRange xFit_{0.01, 1e4};
    QCPRange yFit_{1e6, 1e14};
};

} // namespace rooftop::plots
