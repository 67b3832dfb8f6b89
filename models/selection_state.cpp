// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/selection_state.h"

namespace rooftop::models {

SelectionState::SelectionState(QObject* parent) : QObject(parent) {}

void SelectionState::setCurrentLayer(int nodeIndex) {
    if (nodeIndex < 0) nodeIndex = -1;
    if (nodeIndex == m_layer) return;
    m_layer = nodeIndex;
    emit layerSelected(m_layer);
}

void SelectionState::setCurrentMode(int modeIndex) {
    if (modeIndex < 0) modeIndex = -1;
    if (modeIndex == m_mode) return;
    m_mode = modeIndex;
    emit modeSelected(m_mode);
}

void SelectionState::clear() {
    setCurrentLayer(-1);
    setCurrentMode(-1);
}

} // namespace rooftop::models
