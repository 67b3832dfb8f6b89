// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

namespace rooftop::models {

/// The selection the layer table, the mode table and the plots share; setters emit only on a real change.
class SelectionState : public QObject {
    Q_OBJECT
public:
    /// Nothing selected.
    explicit SelectionState(QObject* parent = nullptr);

    /// The selected layer's node index (LayerCount::nodeIndex), -1 when none.
    int currentLayer() const { return m_layer; }
    /// The selected mode's row in the mode list (PowerModeTableModel source row), -1 when none.
    int currentMode() const { return m_mode; }

public slots:
    /// Selects a layer by node index (-1 = none); emits layerSelected only when it changes.
    void setCurrentLayer(int nodeIndex);
    /// Selects a mode by row (-1 = none); emits modeSelected only when it changes.
    void setCurrentMode(int modeIndex);
    /// Selects no layer and no mode (emitting for each that changes).
    void clear();

signals:
    /// The selected layer changed (-1 = none).
    void layerSelected(int nodeIndex);
    /// The selected mode changed (-1 = none).
    void modeSelected(int modeIndex);

private:
    int m_layer = -1;
    int m_mode = -1;
};

} // namespace rooftop::models
