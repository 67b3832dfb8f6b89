// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/comparison_card.h"

#include "models/comparison_text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace rooftop::gui {

ComparisonCard::ComparisonCard(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("ComparisonCard"));
    setFrameShape(QFrame::StyledPanel);
    text_ = new QLabel(this);
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("MeasuredModeBox"));
    mode_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    mode_->setToolTip(tr("The power mode the board was in while the profile was taken: the layers are "
                         "predicted in it"));
    clear_ = new QPushButton(tr("Clear"), this);
    clear_->setToolTip(tr("Drop the measured layer profile (File → Clear measured layer profile)"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Measured in:"), this));
    controls->addWidget(mode_);
    controls->addStretch(1);
    controls->addWidget(clear_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(2);
    layout->addWidget(text_);
    layout->addLayout(controls);
    connect(mode_, &QComboBox::activated, this,
            [this] { emit measuredModeChosen(mode_->currentData().toString()); });
    connect(clear_, &QPushButton::clicked, this, &ComparisonCard::clearRequested);
    hide();
}

void ComparisonCard::showComparison(const Comparison* comparison, const QList<ModeChoice>& modes,
                                    const QString& measuredMode) {
    if (!comparison) {
        text_->clear();
        hide();
        return;
    }
    text_->setText(models::comparisonCardHtml(*comparison));
    const QSignalBlocker quiet(mode_);
    mode_->clear();
    mode_->addItem(tr("Not known: the mode the plots show"), QString());
    bool listed = measuredMode.isEmpty();
    for (const ModeChoice& choice : modes) {
        mode_->addItem(choice.label, choice.name);
        listed = listed || choice.name == measuredMode;
    }
    if (!listed) mode_->addItem(QString::fromStdString(comparison->modeLabel), measuredMode);
    mode_->setCurrentIndex(std::max(0, mode_->findData(measuredMode)));
    show();
}

QString ComparisonCard::text() const {
    return isHidden() ? QString() : text_->text();
}

} // namespace rooftop::gui
