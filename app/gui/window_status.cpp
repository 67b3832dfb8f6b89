// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window_status.h"

#include "models/unit_format.h"

#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

namespace rooftop::gui {

WindowStatus::WindowStatus(QStatusBar* bar) : QObject(bar) {
    progress_ = new QProgressBar(bar);
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(160);
    progress_->setVisible(false);
    line_ = new QLabel(tr("Open a model (Ctrl+O) or drop an .onnx file here."), bar);
    bar->addWidget(line_, 1);
    bar->addPermanentWidget(progress_);
}

QString WindowStatus::text() const {
    return line_->text();
}

void WindowStatus::setText(const QString& text) {
    line_->setText(text);
}

void WindowStatus::setBusy(bool busy) {
    progress_->setVisible(busy);
}

void WindowStatus::showModelFacts(const AnalysisResult& result, const QString& modelPath) {
    const WorkloadTotals& totals = result.workload().totals;
    QStringList assumed;
    for (const std::string& dim : result.workload().info.assumedShapeDims())
        assumed << QString::fromStdString(dim);
    const QString assumedText =
        assumed.isEmpty() ? QString() : tr("; assumed %1").arg(assumed.join(QStringLiteral(", ")));
    const QString ceilings =
        result.request.profilePath.empty()
            ? tr(" (derived ceilings)")
            : tr(" (profile %1; modes it lacks are predicted)")
                  .arg(QFileInfo(QString::fromStdString(result.request.profilePath)).fileName());
    const QString predictor =
        result.predictorBasis.empty()
            ? QString()
            : tr("; latency, energy and power predicted by %1: %2")
                  .arg(QFileInfo(QString::fromStdString(result.request.predictorPath)).fileName(),
                       QString::fromStdString(result.predictorBasis));
    setText(tr("%1: %2 layers, %3 on %4%5%6%7")
                .arg(QFileInfo(modelPath).fileName())
                .arg(totals.layers)
                .arg(models::formatSi(double(totals.macs), QStringLiteral("MAC")))
                .arg(QString::fromStdString(result.device.name), ceilings, predictor, assumedText));
}

} // namespace rooftop::gui
