// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window_exports.h"

#include "core/report/netron_metrics.h"
#include "gui/layer_panel.h"
#include "gui/modes_panel.h"
#include "gui/result_views.h"
#include "models/layer_filter_proxy_model.h"
#include "models/layer_table_model.h"
#include "models/model_export.h"
#include "plots/plot_base.h"
#include "plots/plot_export.h"
#include "report/report_builder.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSpinBox>

namespace rooftop::gui {

namespace {

QString writeText(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    file.write(bytes);
    if (!file.commit()) return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

QString exportTable(const QAbstractItemModel& view, const QString& path, const QString& schema) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("json")) return writeText(path, models::modelToJson(view, schema));
    if (suffix == QLatin1String("csv")) return writeText(path, models::modelToCsv(view).toUtf8());
    return QObject::tr("the table file must end in .csv or .json, got '%1'").arg(path);
}

/// Asks for an export size; false when cancelled.
bool askExportSize(QWidget* parent, int& width, int& height) {
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Export size"));
    auto* form = new QFormLayout(&dialog);
    auto* widthBox = new QSpinBox(&dialog);
    auto* heightBox = new QSpinBox(&dialog);
    for (QSpinBox* box : {widthBox, heightBox}) {
        box->setRange(64, 10000);
        box->setSuffix(QObject::tr(" px"));
    }
    widthBox->setValue(width);
    heightBox->setValue(height);
    form->addRow(QObject::tr("Width"), widthBox);
    form->addRow(QObject::tr("Height"), heightBox);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) return false;
    width = widthBox->value();
    height = heightBox->value();
    return true;
}

} // namespace

WindowExports::WindowExports(ResultViews& views, QWidget* dialogParent)
    : QObject(dialogParent), views_(views), dialogParent_(dialogParent) {}

QString WindowExports::exportCurrentPlot(const QString& path, int width, int height) const {
    return plots::exportPlot(*views_.currentPlot(), path, width, height);
}

QString WindowExports::exportLayerTable(const QString& path) const {
    return exportTable(*views_.layers()->proxy(), path, QStringLiteral("rooftop-window-layers/1"));
}

QString WindowExports::exportModesTable(const QString& path) const {
    return exportTable(*views_.modes()->proxy(), path, QStringLiteral("rooftop-window-modes/1"));
}

QString WindowExports::exportNetronMetrics(const QString& path) const {
    if (!result_) return tr("no analysis to export yet");
    return writeText(path, QByteArray::fromStdString(netronMetricsJson(
                               result_->workload(), views_.layers()->model()->prediction())));
}

QString WindowExports::exportReport(const QString& path) const {
    if (!result_) return tr("no analysis to report yet");
    if (!sceneChoice_) return report::writeReport(*result_, path);
    const report::SceneChoice shown = sceneChoice_();
    return report::writeReport(*result_, path, &shown);
}

void WindowExports::chooseAndExportPlot() {
    int width = 1200, height = 800;
    const QString path =
        QFileDialog::getSaveFileName(dialogParent_, tr("Export plot"),
                                     views_.currentPlot()->objectName() + ".png", plots::plotExportFilter());
    if (path.isEmpty() || !askExportSize(dialogParent_, width, height)) return;
    if (const QString error = exportCurrentPlot(path, width, height); !error.isEmpty())
        emit failed(tr("Export"), error);
}

void WindowExports::chooseAndExportTable(bool modes) {
    const QString path = QFileDialog::getSaveFileName(
        dialogParent_, modes ? tr("Export power modes table") : tr("Export layer table"),
        modes ? QStringLiteral("modes.csv") : QStringLiteral("layers.csv"), tr("CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty()) return;
    const QString error = modes ? exportModesTable(path) : exportLayerTable(path);
    if (!error.isEmpty()) emit failed(tr("Export"), error);
}

void WindowExports::chooseAndExportNetron() {
    const QString base =
        result_ ? QFileInfo(QString::fromStdString(result_->request.modelPath)).completeBaseName()
                : QStringLiteral("model");
    const QString path = QFileDialog::getSaveFileName(dialogParent_, tr("Export Netron metrics"),
                                                      base + ".metrics.json", tr("Netron metrics (*.json)"));
    if (path.isEmpty()) return;
    if (const QString error = exportNetronMetrics(path); !error.isEmpty()) emit failed(tr("Export"), error);
}

void WindowExports::chooseAndExportReport() {
    const QString path =
        QFileDialog::getSaveFileName(dialogParent_, tr("Write report"), QStringLiteral("rooftop-report.pdf"),
                                     tr("PDF (*.pdf);;HTML (*.html)"));
    if (path.isEmpty()) return;
    if (const QString error = exportReport(path); !error.isEmpty()) emit failed(tr("Report"), error);
}

} // namespace rooftop::gui
