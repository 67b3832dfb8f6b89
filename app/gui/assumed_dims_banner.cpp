// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/assumed_dims_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

namespace rooftop::gui {

AssumedDimsBanner::AssumedDimsBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("AssumedDimsBanner"));
    setFrameShape(QFrame::StyledPanel);
    // amber in both palettes: the text stays dark on it
    setStyleSheet(QStringLiteral("#AssumedDimsBanner { background: #fff3cd; border: 1px solid #e0b252; "
                                 "border-radius: 3px; } #AssumedDimsBanner QLabel { color: #5c4400; }"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    auto* icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(18, 18));
    text_ = new QLabel(this);
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    edit_ = new QPushButton(tr("Set dims…"), this);
    edit_->setObjectName(QStringLiteral("SetDimsButton"));
    layout->addWidget(icon);
    layout->addWidget(text_, 1);
    layout->addWidget(edit_);
    connect(edit_, &QPushButton::clicked, this, &AssumedDimsBanner::editRequested);
    hide();
}

void AssumedDimsBanner::setAssumedDims(const QStringList& dims) {
    if (dims.isEmpty()) {
        text_->clear();
        hide();
        return;
    }
    QStringList names;
    for (const QString& dim : dims)
        names << QStringLiteral("<b>%1</b>").arg(dim.section(QLatin1Char('='), 0, 0).toHtmlEscaped());
    text_->setText(
        tr("Assumed %1: the model leaves %2 symbolic, so the counts, times and the advice are for "
           "a workload of that size. Set the real values (e.g. %3).")
            .arg(dims.join(QStringLiteral(", ")).toHtmlEscaped(), names.join(QStringLiteral(", ")),
                 QStringLiteral("%1=128").arg(dims.front().section(QLatin1Char('='), 0, 0).toHtmlEscaped())));
    show();
}

QString AssumedDimsBanner::text() const {
    return isHidden() ? QString() : text_->text();
}

} // namespace rooftop::gui
