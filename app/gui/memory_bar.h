// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/llm_memory.h"

#include <QWidget>

namespace rooftop::gui {

/// A decoder's memory against the board's: weights, KV cache and activations as parts of one bar whose length
/// is the memory usable beside the OS; red past the end when it does not fit.
class MemoryBar : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBar(QWidget* parent = nullptr);
    /// Shows a footprint.
    void setMemory(const LlmMemory& memory);
    /// The parts' shares of the usable memory (weights, KV cache, activations); for tests.
    double weightShare() const;
    double kvShare() const;
    double activationShare() const;
    QSize sizeHint() const override { return {320, 26}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    double share(int64_t bytes) const;
    LlmMemory memory_;
};

} // namespace rooftop::gui
