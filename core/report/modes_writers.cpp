// SPDX-License-Identifier: GPL-3.0-or-later
// A board's modes with their ceilings and the provenance of each, as a table, CSV or JSON
// ("rooftop-modes/8").
#include "core/report/modes_writers.h"

#include "core/common/text_format.h"
#include "core/report/json_values.h"
#include "core/report/prediction_bounds.h"
#include "core/report/recommendation_writers.h"
#include "core/report/text_table.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace rooftop {

namespace {

std::string sourced(const SourcedValue& v, double scale, int decimals) {
    return fixed(v.value / scale, decimals) + " " + provenanceName(v.provenance);
}

std::string idText(const DeviceSpec& device, const PowerMode& mode) {
    if (!mode.stock) return "-";
    return std::to_string(mode.stockId) + (mode.stockId == device.defaultModeId ? "*" : "");
}

std::string modeSetDescription(const AnalysisResult& result) {
    const size_t count = result.modeProfiles.size();
    const std::string& modes = result.request.modes;
    if (modes == "grid") {
        std::string stockNamed; // the grid modes with a stock mode's operating point go by its name
        for (const ModeProfile& profile : result.modeProfiles)
            if (profile.mode.stock) stockNamed += (stockNamed.empty() ? "" : ", ") + profile.mode.name;
        return std::to_string(count) + " custom grid modes (" + result.device.grid.basis + ")" +
               (stockNamed.empty()
                    ? ""
                    : "; " + stockNamed + ": the grid mode with its clocks, by its stock name");
    }
    if (modes == "stock")
        return result.device.discrete
                   ? std::string("one operating point (the clocks the CUDA driver reports)")
                   : std::to_string(count) + " nvpmodel stock modes";
    // any other set (all, a list, a sample, current): its stock and custom modes counted apart
    size_t stock = 0;
    for (const ModeProfile& profile : result.modeProfiles)
        stock += profile.mode.stock ? 1 : 0;
    const size_t custom = count - stock;
    const std::string stockText = std::to_string(stock) + " stock mode" + (stock == 1 ? "" : "s");
    const std::string customText = std::to_string(custom) + " custom mode" + (custom == 1 ? "" : "s");
    if (stock == 0) return customText;
    if (custom == 0) return stockText;
    return stockText + " and " + customText;
}

/// The result's prediction of each modeProfiles entry, when the request had a model (null otherwise).
const ModelPrediction* predictionOf(const AnalysisResult& result, size_t index) {
    return result.predictions.size() == result.modeProfiles.size() ? &result.predictions[index] : nullptr;
}

bool extrapolatedAt(const AnalysisResult& result, size_t index) {
    return index < result.extrapolated.size() && result.extrapolated[index];
}

/// What the latency, power and energy columns come from, for the line above the table.
std::string predictionBasis(const AnalysisResult& result) {
    const std::string batch = std::to_string(result.predictions.front().batch);
    if (!result.predictorBasis.empty())
        return "Latency, power and energy of the model at batch " + batch + ": predicted, " +
               result.predictorBasis + " (x: outside the profiled ranges)";
    const bool calibrated = result.runtime.calibrated;
    return "Latency, power and energy of the model at batch " + batch + ": Rooftop's roofline (" +
           std::string(provenanceName(result.predictions.front().provenance)) +
           (calibrated ? ", on the runtime calibrated from runs" : "") + "; --predictor gives learned ones)";
}

// "dense_conv 0.77, depthwise_conv 0.48": the classes a profile fitted; empty when none.
std::string fittedClassesText(const RuntimeProfile& runtime) {
    std::string text;
    for (int k = 0; k < operatorClassCount; ++k)
        if (runtime.classFitted[static_cast<size_t>(k)])
            text += (text.empty() ? "" : ", ") +
                    std::string(operatorClassName(static_cast<OperatorClass>(k))) + " " +
                    general(runtime.classEfficiency[static_cast<size_t>(k)], 3);
    return text;
}

} // namespace

std::string modesTable(const AnalysisResult& result) {
    const double confidence = result.request.constraints.confidence; // of the predictions' bounds
    const DeviceSpec& device = result.device;
    const RuntimeProfile& runtime = result.runtime;
    const std::vector<ModeProfile>& rows = result.modeProfiles;
    const std::string what = modeSetDescription(result);
    std::string out = device.id + " (" + device.name + "): " + what + "\n";
    out += "Runtime " + runtime.name + ": " + fixed(runtime.dispatchSecondsAtMaxCpu * 1e6, 1) +
           " µs per layer at the top CPU clock, peaks x " + fixed(runtime.computeEfficiency, 2) +
           ", bandwidth x " + fixed(runtime.bandwidthEfficiency, 2) +
           (runtime.calibrated && runtime.efficiencyFitted
                ? (runtime.calibratedOnSimulator ? " (" + calibrationWords(runtime) + ")" : " (calibrated)")
            : runtime.name == "ideal" ? " (no runtime)"
                                      : " (estimates)") +
           (runtime.name == "ideal" ? "" : "; --runtime ideal shows the datasheet roofs") + "\n";
    if (device.units.tensorSparsity > 1.0 && !device.stockModes.empty()) {
        // every tensor precision's datasheet peak at the fastest stock mode, dense and 2:4 sparse
        const PowerMode top = powerModeFrom(device, device.fastestStockMode());
        std::string peaks;
        for (const TensorPeak& p : tensorPeaks(device, top))
            if (p.denseFlops > 0)
                peaks += std::string(peaks.empty() ? "" : ", ") + p.precision + " " +
                         fixed(p.denseFlops / 1e12, 1) + " / " + fixed(p.sparseFlops / 1e12, 1);
        out += "Tensor peaks in " + top.name +
               " (datasheet, dense / 2:4 sparse, TFLOP/s; TOP/s for int8): " + peaks + "\n";
    }
    if (const std::string classes = fittedClassesText(runtime); !classes.empty())
        out += "  per operator class, x the roofline time's efficiency: " + classes + " (" +
               (runtime.calibrated ? "fitted" : "estimate") + ", " + runtime.classBasis + ")\n";
    if (runtime.inferenceSecondsAtMaxCpu > 0 || runtime.inferenceFitted)
        out += "  fixed cost per inference " + fixed(runtime.inferenceSecondsAtMaxCpu * 1e6, 1) +
               " µs at the top CPU clock (" +
               (runtime.calibrated && runtime.inferenceFitted ? "fitted" : "estimate") + ")\n";
    if (runtime.power && runtime.calibrated &&
        (runtime.power->constantFitted || runtime.power->flopFitted || runtime.power->byteFitted))
        out += "  power model: the estimate x pi0 " + general(runtime.power->constantScale, 4) +
               ", eps_flop " + general(runtime.power->flopScale, 4) + ", eps_byte " +
               general(runtime.power->byteScale, 4) + " (fitted)\n";
    out += "\n";
    std::vector<std::vector<std::string>> cells = {{"ID", "NAME", "CORES", "CPU MHz", "GPU MHz", "EMC MHz",
                                                    "TPCs", "BUDGET W", "FP32 TFLOP/s", "TENSOR FP16 TFLOP/s",
                                                    "BW GB/s", "DISPATCH µs"}};
    // FP8 and FP4 tensor roofs where the GPU has them (Jetson AGX Thor): two more columns after FP16
    const bool lowPrecision =
        device.units.tensorFp8FlopsPerSmPerClock > 0 || device.units.tensorFp4FlopsPerSmPerClock > 0;
    if (lowPrecision)
        cells.front().insert(cells.front().begin() + 10, {"TENSOR FP8 TFLOP/s", "TENSOR FP4 TFLOP/s"});
    const bool withModel = predictionOf(result, 0) != nullptr && !rows.empty();
    if (withModel) {
        out += predictionBasis(result) + "\n\n";
        for (const char* column : {"LATENCY", "POWER W", "mJ/INF", ""})
            cells.front().push_back(column);
    }
    for (size_t i = 0; i < rows.size(); ++i) {
        const ModeProfile& r = rows[i];
        const PowerMode& m = r.mode;
        cells.push_back({idText(device, m), m.name, std::to_string(m.onlineCores), mhz(m.cpuKhz * 1e3),
                         mhz(double(m.gpuHz)), mhz(double(m.emcHz)), std::to_string(m.activeTpcs),
                         m.budgetWatts > 0 ? fixed(m.budgetWatts, 0) : "-",
                         sourced(r.ceilings.peak(ComputeClass::Fp32CudaCore), 1e12, 4),
                         sourced(r.ceilings.peak(ComputeClass::TensorFp16), 1e12, 2),
                         sourced(r.ceilings.bandwidth, 1e9, 1),
                         sourced(r.ceilings.dispatchOverhead, 1e-6, 1)});
        if (lowPrecision)
            cells.back().insert(cells.back().begin() + 10,
                                {sourced(r.ceilings.peak(ComputeClass::TensorFp8), 1e12, 1),
                                 sourced(r.ceilings.peak(ComputeClass::TensorFp4), 1e12, 1)});
        if (const ModelPrediction* p = withModel ? predictionOf(result, i) : nullptr) {
            const std::string provenance = std::string(" ") + provenanceName(p->provenance);
            const PredictionSpread& s = p->spread;
            cells.back().push_back(durationWithBounds(p->latencySeconds, s.latency, confidence) + provenance);
            cells.back().push_back(
                withBounds(fixed(p->averageWatts, 2), p->averageWatts, s.power, 1.0, confidence) +
                provenance);
            cells.back().push_back(withBounds(fixed(p->energyPerInference() * 1e3, 3),
                                              p->energyPerInference(), s.energy, 1e3, confidence) +
                                   provenance);
            cells.back().push_back(extrapolatedAt(result, i) ? "x" : "");
        }
    }
    std::vector<bool> rightAligned = {false, false, true, true, true, true,
                                      true,  true,  true, true, true, true};
    if (lowPrecision) rightAligned.insert(rightAligned.end(), {true, true});
    if (withModel) rightAligned.insert(rightAligned.end(), {true, true, true, false});
    out += formatTable(cells, rightAligned);
    out += "\n";
    if (std::any_of(rows.begin(), rows.end(), [](const ModeProfile& r) { return r.mode.stock; }))
        out += "* = nvpmodel default mode. ";
    out +=
        "Each ceiling is followed by its provenance (datasheet: arithmetic on vendor figures; estimate: a\n"
        "modelling assumption; fitted: calibrated from runs, --runtime-file). --format json gives the basis "
        "of\n"
        "every number.\n";
    std::string guessed;
    for (const StockMode& stock : result.device.stockModes)
        if (stock.capsEstimated && std::any_of(rows.begin(), rows.end(), [&](const ModeProfile& r) {
                return r.mode.stock && r.mode.name == stock.name;
            }))
            guessed += (guessed.empty() ? "" : ", ") + stock.name;
    if (!guessed.empty())
        out += "Clocks of " + guessed +
               " are estimates: no public source gives their caps (your board's /etc/nvpmodel.conf does).\n";
    if (withModel && confidence > 0.5) out += boundsLegend(result) + "\n"; // at 0.5 no bounds are shown
    return out;
}

std::string modesCsv(const AnalysisResult& result) {
    const double confidence = result.request.constraints.confidence; // of the predictions' bounds
    const DeviceSpec& device = result.device;
    const std::vector<ModeProfile>& rows = result.modeProfiles;
    std::string out =
        "device,stock_id,mode,stock,default,cores,cpu_khz,gpu_hz,emc_hz,active_tpcs,budget_w,"
        "fp32_tflops,fp32_provenance,fp16_tflops,fp16_provenance,tensor_fp16_tflops,"
        "tensor_fp16_provenance,tensor_int8_tops,tensor_int8_provenance,tensor_fp8_tflops,tensor_fp8_"
        "provenance,"
        "tensor_fp4_tflops,tensor_fp4_provenance,bandwidth_gbps,bandwidth_provenance,dispatch_s,"
        "dispatch_provenance";
    const bool withModel = !rows.empty() && predictionOf(result, 0) != nullptr;
    out += withModel
               ? ",batch,latency_ms,power_w,energy_mj,prediction_provenance,extrapolated,latency_ms_low,"
                 "latency_ms_high,power_w_low,power_w_high,energy_mj_low,energy_mj_high,bounds_confidence\n"
               : "\n";
    for (size_t i = 0; i < rows.size(); ++i) {
        const ModeProfile& r = rows[i];
        const PowerMode& m = r.mode;
        std::string line =
            device.id + "," + (m.stock ? std::to_string(m.stockId) : std::string()) + "," + csvField(m.name) +
            "," + (m.stock ? "1" : "0") + "," + (m.stock && m.stockId == device.defaultModeId ? "1" : "0") +
            "," + std::to_string(m.onlineCores) + "," + std::to_string(m.cpuKhz) + "," +
            std::to_string(m.gpuHz) + "," + std::to_string(m.emcHz) + "," + std::to_string(m.activeTpcs) +
            "," + (m.budgetWatts > 0 ? fixed(m.budgetWatts, 1) : std::string()); // a grid mode has no budget
        for (int c = 0; c < computeClassCount; ++c) {
            const SourcedValue& v = r.ceilings.peakFlops[static_cast<size_t>(c)];
            // a unit the board lacks (Orin's FP8 and FP4 tensor cores) is empty, as a grid mode's budget
            line += v.value > 0 ? "," + fixed(v.value / 1e12, 6) + "," + provenanceName(v.provenance) : ",,";
        }
        line += "," + fixed(r.ceilings.bandwidth.value / 1e9, 3) + "," +
                provenanceName(r.ceilings.bandwidth.provenance);
        line += "," + fixed(r.ceilings.dispatchOverhead.value, 9) + "," +
                provenanceName(r.ceilings.dispatchOverhead.provenance);
        if (const ModelPrediction* p = withModel ? predictionOf(result, i) : nullptr)
            line += "," + std::to_string(p->batch) + "," + fixed(p->latencySeconds * 1e3, 6) + "," +
                    fixed(p->averageWatts, 4) + "," + fixed(p->energyPerInference() * 1e3, 6) + "," +
                    provenanceName(p->provenance) + "," + (extrapolatedAt(result, i) ? "1" : "0") +
                    boundsCsv(p->latencySeconds, p->spread.latency, 1e3, confidence) +
                    boundsCsv(p->averageWatts, p->spread.power, 1.0, confidence) +
                    boundsCsv(p->energyPerInference(), p->spread.energy, 1e3, confidence) +
                    boundsConfidenceCsv(confidence);
        out += line + "\n";
    }
    return out;
}

std::string modesJson(const AnalysisResult& result) {
    const double confidence = result.request.constraints.confidence; // of the predictions' bounds
    const DeviceSpec& device = result.device;
    const RuntimeProfile& runtime = result.runtime;
    const std::vector<ModeProfile>& rows = result.modeProfiles;
    QJsonArray modes;
    for (size_t i = 0; i < rows.size(); ++i) {
        const ModeProfile& r = rows[i];
        const PowerMode& m = r.mode;
        QJsonObject mode{{"mode", QString::fromStdString(m.name)},
                         {"stock", m.stock},
                         {"cores", m.onlineCores},
                         {"cpu_khz", static_cast<double>(m.cpuKhz)},
                         {"gpu_hz", static_cast<double>(m.gpuHz)},
                         {"emc_hz", static_cast<double>(m.emcHz)},
                         {"active_tpcs", m.activeTpcs},
                         {"budget_w", m.budgetWatts > 0 ? QJsonValue(m.budgetWatts) : QJsonValue()}};
        insertCeilingsJson(mode,
                           r.ceilings); // peak_flops keyed in snake_case: tensor_fp16 (/3 wrote tensor-fp16)
        if (const ModelPrediction* p = predictionOf(result, i))
            mode.insert("prediction",
                        QJsonObject{{"batch", double(p->batch)},
                                    {"latency_ms", p->latencySeconds * 1e3},
                                    {"latency_ms_interval",
                                     boundsJson(p->latencySeconds, p->spread.latency, 1e3, confidence)},
                                    {"power_w", p->averageWatts},
                                    {"power_w_interval",
                                     boundsJson(p->averageWatts, p->spread.power, 1.0, confidence)},
                                    {"energy_mj", p->energyPerInference() * 1e3},
                                    {"energy_mj_interval",
                                     boundsJson(p->energyPerInference(), p->spread.energy, 1e3, confidence)},
                                    {"provenance", QString::fromStdString(provenanceName(p->provenance))},
                                    {"extrapolated", extrapolatedAt(result, i)}});
        if (m.stock) {
            mode.insert("stock_id", m.stockId);
            mode.insert("default", m.stockId == device.defaultModeId);
        }
        modes.append(mode);
    }
    const StockMode* defaultMode = device.defaultStockMode();
    QJsonObject root{
        {"schema", "rooftop-modes/8"},
        {"device", QString::fromStdString(device.id)},
        {"device_name", QString::fromStdString(device.name)},
        {"default_stock_id", device.defaultModeId},
        {"default_mode", defaultMode ? QJsonValue(QString::fromStdString(defaultMode->name)) : QJsonValue()},
        {"runtime", runtimeSummaryJson(runtime)},
        {"modes", modes}};
    if (!result.predictions.empty() && !rows.empty()) {
        // the workload the predictions are of
        const AnalysisSettings& settings = result.request.settings;
        root.insert("model", QString::fromStdString(result.request.modelPath));
        root.insert("dims", namedDimsJson(settings.dims.named));
        root.insert("precision", QString::fromStdString(precisionName(settings.precision)));
        root.insert("phase", QString::fromStdString(phaseName(settings.phase)));
        if (settings.phase == Phase::Training)
            root.insert("optimizer", QString::fromStdString(optimizerName(settings.optimizer)));
        root.insert("prediction_basis",
                    QString::fromStdString(analysisPredictionBasis(result))); // recommend's
        root.insert("confidence", confidence);
        root.insert("interval_basis", QString::fromStdString(predictionBoundsBasis(result)));
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace rooftop
