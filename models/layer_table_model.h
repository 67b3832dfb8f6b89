// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparison.h"
#include "core/cost/workload.h"
#include "core/roofline/prediction.h"
#include "models/item_roles.h"

#include <QAbstractTableModel>
#include <QHash>
#include <optional>
#include <vector>

namespace rooftop::models {

/// One row per layer of a Workload, with the selected power mode's per-layer prediction when there is one.
class LayerTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// The columns, in order.
    enum Column {
        Name,
        Op,
        Kind,
        Macs,
        Flops,
        WeightBytes,
        InputBytes,
        OutputBytes,
        Intensity,
        Time,
        Energy,
        Bound,
        TimeShare,
        MeasuredTime,   ///< an imported profile's measured layer time (on the layer's first node)
        LayerPredicted, ///< the predicted time of all the nodes that measured layer covers
        LayerError,     ///< the comparison's (predicted - measured) / measured
        RoofShare,      ///< the measured layer's achieved FLOP/s over the roof at its intensity, %
        ColumnCount
    };
    Q_ENUM(Column)

    /// An empty table.
    explicit LayerTableModel(QObject* parent = nullptr);

    /// Shows the layers of a workload (copied); clears the prediction.
    void setWorkload(const rooftop::Workload& workload);
    /// Shows a prediction (copied; nullptr = none); ignored (treated as none) unless its layers align with
    /// the workload's.
    void setPrediction(const rooftop::ModelPrediction* prediction);

    /// Shows an imported profile's comparison (copied; nullptr = none) in the measured columns. A measured
    /// layer is shown once, on the first ONNX node it covers (topological order); its other nodes name that
    /// row. Nothing is split or spread over nodes.
    void setComparison(const rooftop::Comparison* comparison);
    /// The comparison shown, nullptr when none.
    const rooftop::Comparison* comparison() const { return m_comparison ? &*m_comparison : nullptr; }
    /// The measured layers shown on a row (those whose first covered node it is), indices into
    /// comparison()->layers; empty when none or out of range.
    std::vector<int> measuredLayersAt(int row) const;

    /// The workload shown (empty by default).
    const rooftop::Workload& workload() const { return m_workload; }
    /// The prediction shown, nullptr when none.
    const rooftop::ModelPrediction* prediction() const { return m_prediction ? &*m_prediction : nullptr; }
    /// The layer of a row, nullptr when out of range.
    const rooftop::LayerCount* layerAt(int row) const;
    /// The prediction of a row's layer, nullptr when out of range or without a prediction.
    const rooftop::LayerPrediction* layerPredictionAt(int row) const;
    /// The row of the layer with this node index, -1 when none.
    int rowOfNode(int nodeIndex) const;
    /// The columns in the order the window shows them: name, op, what the prediction says (time, the
    /// measured columns, share, bound, energy), then the counts. The model's own order (exports) is `Column`.
    static std::vector<int> displayOrder();
    /// True for the predicted columns (Time, Energy, Bound, TimeShare).
    static bool isPredictedColumn(int column);
    /// True for the columns of an imported profile (MeasuredTime, LayerPredicted, LayerError, RoofShare).
    static bool isMeasuredColumn(int column);
    /// One-line summary: layers, MACs, FLOPs, bytes, and latency and energy when predicted.
    QString totalsText() const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant displayData(const rooftop::LayerCount& layer, const rooftop::LayerPrediction* predicted,
                         int column) const;
    QVariant sortData(const rooftop::LayerCount& layer, const rooftop::LayerPrediction* predicted,
                      int column) const;
    QString toolTip(const rooftop::LayerCount& layer, const rooftop::LayerPrediction* predicted,
                    int column) const;
    QString predictedHeaderToolTip() const;
    QVariant measuredData(int row, int column, int role) const;
    QString measuredHeaderToolTip(int column) const;
    void indexComparison();
    double timeShare(const rooftop::LayerPrediction& predicted) const;

    rooftop::Workload m_workload;
    std::optional<rooftop::ModelPrediction> m_prediction;
    double m_layersSeconds = 0.0; ///< the predicted layers' summed time: what their shares are of
    QHash<int, int> m_rowOfNode;
    std::optional<rooftop::Comparison> m_comparison;
    std::vector<std::vector<int>> m_layersStartingAt; ///< per row: measured layers whose first node it is
    std::vector<int>
        m_insideLayerOf; ///< per row: a measured layer covering it that starts on another row, or -1
};

} // namespace rooftop::models
