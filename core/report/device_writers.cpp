// SPDX-License-Identifier: GPL-3.0-or-later
// The board catalog and the GPUs detected on this machine, as a table or JSON ("rooftop-devices/6").
#include "core/report/device_writers.h"

#include "core/common/text_format.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/report/json_values.h"
#include "core/report/text_table.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace rooftop {

namespace {

std::string defaultModeText(const DeviceSpec& d) {
    const StockMode* mode = d.defaultStockMode();
    return mode ? std::to_string(mode->id) + " " + mode->name : "-";
}

std::string deviceRows(const std::vector<DeviceSpec>& catalog) {
    std::vector<std::vector<std::string>> rows = {{"ID", "NAME", "SMs", "CORES", "GPU MHz", "FP32 TFLOP/s",
                                                   "MEMORY", "BW GB/s", "MODES", "GRID", "DEFAULT"}};
    for (const auto& d : catalog) {
        const double fp32 = 2.0 * d.cudaCores() * static_cast<double>(d.maxGpuHz());
        rows.push_back({d.id, d.name, std::to_string(d.units.smCount), std::to_string(d.cudaCores()),
                        mhz(static_cast<double>(d.maxGpuHz())), fixed(fp32 / 1e12, 3),
                        std::to_string(d.memoryBusBits) + "-bit " + d.memoryType,
                        fixed(d.peakBandwidth() / 1e9, 1), std::to_string(d.stockModes.size()),
                        std::to_string(d.grid.size()), defaultModeText(d)});
    }
    return formatTable(rows, {false, false, true, true, true, true, false, true, true, true, false});
}

QJsonArray int64Array(const std::vector<int64_t>& values) {
    QJsonArray array;
    for (int64_t v : values)
        array.append(static_cast<double>(v));
    return array;
}

QJsonArray devicesArray(const std::vector<DeviceSpec>& catalog) {
    QJsonArray devices;
    for (const auto& d : catalog) {
        QJsonObject gpu{{"arch", QString::fromStdString(d.gpuArch)},
                        {"compute_capability", QString::fromStdString(d.computeCapability)},
                        {"sm_count", d.units.smCount},
                        {"tpc_count", d.units.tpcCount},
                        {"cuda_cores", d.cudaCores()},
                        {"tensor_cores", d.units.smCount * d.units.tensorCoresPerSm},
                        {"max_hz", static_cast<double>(d.maxGpuHz())},
                        {"ladder_hz", int64Array(d.gpuLadderHz)}};
        // datasheet peaks keyed as every peak_flops object (devices/4: fp32_peak_flops and tensor_peaks):
        // FP32 at the top GPU clock, each tensor precision at the fastest stock mode, dense and 2:4 sparse
        QJsonObject peaks, sparse;
        peaks.insert(peakFlopsKey(ComputeClass::Fp32CudaCore),
                     2.0 * d.cudaCores() * static_cast<double>(d.maxGpuHz()));
        if (!d.stockModes.empty())
            for (const TensorPeak& p : tensorPeaks(d, powerModeFrom(d, d.fastestStockMode()))) {
                const QString key = QStringLiteral("tensor_") + QLatin1String(p.precision);
                if (p.denseFlops > 0) peaks.insert(key, p.denseFlops);
                if (p.sparseFlops > 0) sparse.insert(key, p.sparseFlops);
            }
        gpu.insert("peak_flops", peaks);
        gpu.insert("sparse_peak_flops", sparse);
        QJsonObject memory{{"type", QString::fromStdString(d.memoryType)},
                           {"bus_bits", d.memoryBusBits},
                           {"size_gib", d.memoryGiB},
                           {"max_emc_hz", static_cast<double>(d.maxEmcHz())},
                           {"peak_bandwidth", d.peakBandwidth()},
                           {"ladder_hz", int64Array(d.emcLadderHz)}};
        QJsonObject cpu{{"cores", d.cpuCores},
                        {"name", QString::fromStdString(d.cpuName)},
                        {"max_khz", static_cast<double>(d.maxCpuKhz())},
                        {"ladder_khz", int64Array(d.cpuLadderKhz)}};
        QJsonArray modes;
        for (const auto& m : d.stockModes)
            modes.append(QJsonObject{{"stock_id", m.id},
                                     {"mode", QString::fromStdString(m.name)},
                                     {"cores", m.onlineCores},
                                     {"cpu_khz", static_cast<double>(m.cpuMaxKhz)},
                                     {"gpu_hz", static_cast<double>(m.gpuMaxHz)},
                                     {"emc_hz", static_cast<double>(m.emcMaxHz)},
                                     {"active_tpcs", m.activeTpcs},
                                     {"budget_w", m.budgetWatts},
                                     {"caps_estimated", m.capsEstimated}});
        const StockMode* def = d.defaultStockMode();
        devices.append(
            QJsonObject{{"id", QString::fromStdString(d.id)},
                        {"name", QString::fromStdString(d.name)},
                        {"soc", QString::fromStdString(d.soc)},
                        {"gpu", gpu},
                        {"memory", memory},
                        {"cpu", cpu},
                        {"stock_modes", modes},
                        {"default_stock_id", def ? QJsonValue(def->id) : QJsonValue()},
                        {"default_mode", def ? QJsonValue(QString::fromStdString(def->name)) : QJsonValue()},
                        {"grid_size", static_cast<double>(d.grid.size())},
                        {"max_module_w", d.maxModuleWatts},
                        {"nvpmodel_conf", QString::fromStdString(d.nvpmodelConf)},
                        {"discrete", d.discrete},
                        {"source_file", QString::fromStdString(d.sourceFile)}});
    }
    return devices;
}

} // namespace

std::string devicesTable(const DeviceCatalog& devices) {
    const std::vector<DeviceSpec>& catalog = devices.boards;
    const std::vector<DeviceSpec>& detected = devices.detected;
    std::string out = deviceRows(catalog) +
                      "\nGPU MHz, FP32 and BW are the top of each board's ladders (datasheet arithmetic: "
                      "2 x cores x clock, EMC x 2 x bus bytes).\n"
                      "rooftop modes --device ID lists the stock modes and their ceilings.\n";
    if (!detected.empty())
        out += "\nDetected on this machine (discrete NVIDIA GPUs through the CUDA driver; generic entries "
               "from their device properties,\n"
               "one mode at the clocks the driver reports; use --device cuda:N):\n" +
               deviceRows(detected);
    return out;
}

std::string devicesJson(const DeviceCatalog& devices) {
    const std::vector<DeviceSpec>& catalog = devices.boards;
    const std::vector<DeviceSpec>& detected = devices.detected;
    const QJsonObject root{{"schema", "rooftop-devices/6"},
                           {"devices", devicesArray(catalog)},
                           {"detected", devicesArray(detected)}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace rooftop
