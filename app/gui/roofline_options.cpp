// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/roofline_options.h"

#include "plots/roofline_plot.h"

#include <QCheckBox>
#include <QHBoxLayout>

namespace rooftop::gui {

RooflineOptions::RooflineOptions(std::initializer_list<plots::RooflinePlot*> plots, QWidget* parent)
    : QWidget(parent), plots_(plots) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    onlyChosen_ = new QCheckBox(tr("Only the chosen mode's roofs"), this);
    onlyChosen_->setObjectName(QStringLiteral("onlyChosenRoofs"));
    onlyChosen_->setToolTip(tr("Draw the roofs of the mode the points are for only (on by default when the "
                               "model runs on several compute classes, as at fp16)"));
    nearFree_ = new QCheckBox(tr("Show near-free ops"), this);
    nearFree_->setObjectName(QStringLiteral("showNearFree"));
    nearFree_->setToolTip(tr("Layers with next to no FLOPs and time (shape arithmetic) sit decades below the "
                             "roofs; hidden, they do not stretch the y axis"));
    layout->addWidget(onlyChosen_);
    layout->addWidget(nearFree_);
    layout->addStretch(1);
    connect(onlyChosen_, &QCheckBox::clicked, this, [this](bool on) {
        userChoseRoofs_ = true;
        for (plots::RooflinePlot* plot : plots_)
            plot->setRoofChoice(on ? plots::RooflinePlot::RoofChoice::OnlyChosen
                                   : plots::RooflinePlot::RoofChoice::All);
    });
    connect(nearFree_, &QCheckBox::toggled, this, [this](bool on) {
        for (plots::RooflinePlot* plot : plots_)
            plot->setShowNearFree(on);
    });
}

void RooflineOptions::showAutomaticChoice() {
    if (userChoseRoofs_ || plots_.empty()) return;
    const QSignalBlocker block(onlyChosen_);
    onlyChosen_->setChecked(plots_.front()->onlyChosenRoofs());
}

} // namespace rooftop::gui
