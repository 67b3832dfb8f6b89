// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QCheckBox;

namespace rooftop::plots {
class RooflinePlot;
}

namespace rooftop::gui {

/// The row of roofline options over the plots: "only the chosen mode's roofs" (on by default when the model
/// uses several compute classes, as at fp16) and "show near-free ops"; both rooflines follow it.
class RooflineOptions : public QWidget {
    Q_OBJECT
public:
    RooflineOptions(std::initializer_list<plots::RooflinePlot*> plots, QWidget* parent = nullptr);

    /// Shows the plots' automatic choice of roofs until the user has made one.
    void showAutomaticChoice();

    QCheckBox* onlyChosenRoofsBox() const { return onlyChosen_; }
    QCheckBox* nearFreeBox() const { return nearFree_; }

private:
    std::vector<plots::RooflinePlot*> plots_;
    QCheckBox* onlyChosen_ = nullptr;
    QCheckBox* nearFree_ = nullptr;
    bool userChoseRoofs_ = false;
};

} // namespace rooftop::gui
