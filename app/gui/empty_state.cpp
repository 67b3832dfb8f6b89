// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/empty_state.h"

#include "core/device/catalog.h"
#include "gui/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace rooftop::gui {

namespace {
constexpr int kShownRecent = 6;
// The samples a new user learns most from first: a CNN, a vision transformer, a language model.
const char* const kPreferredSamples[] = {"resnet50.onnx", "vit_b_16.onnx", "bert_base.onnx",
                                         "mobilenet_v2.onnx"};
} // namespace

EmptyState::EmptyState(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("EmptyState"));
    auto* outer = new QVBoxLayout(this);
    outer->addStretch(1);
    auto* title = new QLabel(tr("No model open"), this);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    titleFont.setBold(true);
    title->setFont(titleFont);
    title->setAlignment(Qt::AlignCenter);
    auto* hint =
        new QLabel(tr("Open an ONNX model to see its rooflines, the time of each layer and the power mode "
                      "that meets your limits with the least energy.\nOr drop an .onnx file anywhere on "
                      "this window."),
                   this);
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    auto* open = new QPushButton(tr("Open model… (Ctrl+O)"), this);
    open->setObjectName(QStringLiteral("EmptyStateOpen"));
    open->setDefault(true);
    connect(open, &QPushButton::clicked, this, &EmptyState::openRequested);
    outer->addWidget(title);
    outer->addWidget(hint);
    outer->addSpacing(12);
    outer->addWidget(open, 0, Qt::AlignHCenter);
    outer->addSpacing(12);
    lists_ = new QVBoxLayout;
    outer->addLayout(lists_);
    outer->addStretch(2);
    refresh();
}

QWidget* EmptyState::linkList(const QString& heading, const QStringList& paths) {
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 4, 0, 4);
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(heading.toHtmlEscaped()), box);
    label->setAlignment(Qt::AlignCenter);
    layout->addWidget(label);
    for (const QString& path : paths) {
        auto* link = new QPushButton(QFileInfo(path).fileName(), box);
        link->setFlat(true);
        link->setCursor(Qt::PointingHandCursor);
        link->setToolTip(path);
        connect(link, &QPushButton::clicked, this, [this, path] { emit openPath(path); });
        layout->addWidget(link, 0, Qt::AlignHCenter);
    }
    return box;
}

void EmptyState::refresh() {
    while (QLayoutItem* item = lists_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    QStringList recent;
    for (const QString& path : RecentFiles::paths())
        if (QFileInfo::exists(path) && recent.size() < kShownRecent) recent << path;
    if (!recent.isEmpty()) lists_->addWidget(linkList(tr("Recent files"), recent));

    samples_.clear();
    const QDir models(QString::fromStdString(defaultDataFolder()) + QStringLiteral("/models"));
    for (const char* name : kPreferredSamples)
        if (models.exists(QString::fromLatin1(name))) samples_ << models.filePath(QString::fromLatin1(name));
    if (!samples_.isEmpty()) lists_->addWidget(linkList(tr("Or open a sample network"), samples_));
}

} // namespace rooftop::gui
