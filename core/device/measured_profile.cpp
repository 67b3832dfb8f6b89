// SPDX-License-Identifier: GPL-3.0-or-later
// Measured profiles: what `rooftop bench` writes and the rooflines read. docs/profile-format.md has the full
// description; the schema, "rooftop-profile/1", is:
//
// {
//   "schema": "rooftop-profile/1",                 required, exactly this text
//   "device": "agx-orin-64gb",                     required, a catalog id
//   "board": {"model": "...", "l4t": "36.4.0",      optional strings: /proc/device-tree/model, L4T release,
//             "driver": "...", "cuda": "12.6"},        driver and CUDA versions
//   "created": "2025-01-31T12:00:00Z",             optional, ISO 8601
//   "modes": [{                                    required array (may be empty)
//     "name": "MAXN", "stock_id": 0,               name required; stock_id optional (-1 or absent: custom)
//     "cores": 12, "cpu_khz": 2201600,             required: the requested operating point
//     "gpu_hz": 1300500000, "emc_hz": 3199000000,
//     "active_tpcs": 8,                            required (0: all TPCs)
//     "observed": {"cpu_khz", "gpu_hz", "emc_hz"}, optional: clocks read back during the run
//     "ceilings": {                                required object; every key optional, >= 0, 0 = not measured
//       "fp32_flops", "fp16_flops", "tensor_fp16_flops", "tensor_int8_ops",   FLOP/s (op/s)
//       "bandwidth",                               bytes/s, best of the DRAM patterns
//       "dispatch_s"},                             seconds, empty-kernel launch
//     "bandwidth_by_pattern": {"read", "write", "copy", "triad"},   optional, bytes/s
//     "percent_of_theoretical": {"fp32_flops": 97.1, ...},          optional, informative
//     "power_model": {"constant_w", "j_per_flop", "j_per_byte",     optional (absent or null: not sampled);
//                     "r_squared", "tensor_flop_energy_ratio"},     the first three required, >= 0
//     "samples": [{"kernel", "flops", "bytes", "seconds", "joules"}]  optional, the fit's inputs
//   }]
// }
//
// Resolving the profile of a requested mode (resolveModeProfiles):
// - measured: a mode of the profile at the same operating point. Its measured ceilings (provenance measured;
//   times the runtime's efficiencies, which makes them estimates, or fitted for a calibrated runtime, when
//   those are not 1) and its fitted power model (or a fit of its samples). The dispatch overhead is the larger
//   of the measured empty-kernel launch and the runtime's estimate: a framework never launches faster than
//   the hardware, and the launch test does not see the framework's own cost. In other modes the launch is
//   predicted from the measured ones with the runtime's CPU-clock law (1 / CPU clock).
// - predicted: any other mode when the profile has measured modes. Each ceiling is the derived one times the
//   mean measured / derived ratio of that quantity over the measured modes. The power model's coefficients
//   are regressed on the estimate's clock features (pi0 on online cores x CPU clock ratio, eps_flop on the
//   GPU's and eps_byte on the EMC's DVFS scale, each with an intercept, non-negative) when 3 or more
//   measured modes have a power model and those features vary; otherwise each is the estimate times the mean
//   measured / estimate ratio.
// - derived: no profile, or a quantity no measured mode has: datasheet ceilings and the estimated power model.
#include "core/device/measured_profile.h"

#include "core/onnx/input_error.h"
#include "core/roofline/energy_fit.h"
#include "core/roofline/least_squares.h"
#include "core/roofline/prediction.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rooftop {

namespace {

const char* const schemaName = "rooftop-profile/1";
const char* const ceilingKeys[computeClassCount] = {"fp32_flops", "fp16_flops", "tensor_fp16_flops", "tensor_int8_ops"};

std::string num(double value, int digits = 4) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return buffer;
}

// ---- reading ------------------------------------------------------------------------------------------------

class Reader {
public:
    explicit Reader(std::string source) : source_(std::move(source)) {}

    [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
        throw InputError(source_ + ": " + field + ": " + problem);
    }

    QJsonValue value(const QJsonObject& object, const char* key, const std::string& path, bool required) const {
        const QJsonValue v = object.value(QLatin1String(key));
        if (required && (v.isUndefined() || v.isNull())) fail(path + key, "missing");
        return v;
    }

    std::string text(const QJsonObject& object, const char* key, const std::string& path, bool required) const {
        const QJsonValue v = value(object, key, path, required);
        if (v.isUndefined() || v.isNull()) return {};
        if (!v.isString()) fail(path + key, "expected a string");
        const std::string s = v.toString().toStdString();
        if (required && s.empty()) fail(path + key, "empty");
        return s;
    }

    double number(const QJsonObject& object, const char* key, const std::string& path, bool required,
                  double fallback = 0.0) const {
        const QJsonValue v = value(object, key, path, required);
        if (v.isUndefined() || v.isNull()) return fallback;
        if (!v.isDouble() || !std::isfinite(v.toDouble())) fail(path + key, "expected a number");
        if (v.toDouble() < 0) fail(path + key, "expected a non-negative number, got " + num(v.toDouble(), 6));
        return v.toDouble();
    }

    int64_t integer(const QJsonObject& object, const char* key, const std::string& path, bool required,
                    int64_t fallback, int64_t minimum) const {
        const QJsonValue v = value(object, key, path, required);
        if (v.isUndefined() || v.isNull()) return fallback;
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || std::floor(d) != d || std::fabs(d) > 9007199254740992.0)
            fail(path + key, "expected an integer");
        if (d < static_cast<double>(minimum)) fail(path + key, "expected at least " + std::to_string(minimum));
        return static_cast<int64_t>(d);
    }

    QJsonObject object(const QJsonObject& parent, const char* key, const std::string& path, bool required) const {
        const QJsonValue v = value(parent, key, path, required);
        if (v.isUndefined() || v.isNull()) return {};
        if (!v.isObject()) fail(path + key, "expected an object");
        return v.toObject();
    }

    QJsonArray array(const QJsonObject& parent, const char* key, const std::string& path, bool required) const {
        const QJsonValue v = value(parent, key, path, required);
        if (v.isUndefined() || v.isNull()) return {};
        if (!v.isArray()) fail(path + key, "expected an array");
        return v.toArray();
    }

private:
    std::string source_;
};

MeasuredMode readMode(const Reader& r, const QJsonValue& value, const std::string& at) {
    if (!value.isObject()) r.fail(at, "expected an object");
    const QJsonObject o = value.toObject();
    const std::string p = at + ".";
    MeasuredMode m;
    PowerMode& mode = m.mode;
    mode.name = r.text(o, "name", p, true);
    mode.stockId = static_cast<int>(r.integer(o, "stock_id", p, false, -1, -1));
    mode.stock = mode.stockId >= 0;
    mode.onlineCores = static_cast<int>(r.integer(o, "cores", p, true, 0, 1));
    mode.cpuKhz = r.integer(o, "cpu_khz", p, true, 0, 1);
    mode.gpuHz = r.integer(o, "gpu_hz", p, true, 0, 1);
    mode.emcHz = r.integer(o, "emc_hz", p, true, 0, 1);
    mode.activeTpcs = static_cast<int>(r.integer(o, "active_tpcs", p, true, 0, 0));

    const QJsonObject observed = r.object(o, "observed", p, false);
    m.observedCpuKhz = r.integer(observed, "cpu_khz", p + "observed.", false, 0, 0);
    m.observedGpuHz = r.integer(observed, "gpu_hz", p + "observed.", false, 0, 0);
    m.observedEmcHz = r.integer(observed, "emc_hz", p + "observed.", false, 0, 0);

    const QJsonObject ceilings = r.object(o, "ceilings", p, true);
    const std::string cp = p + "ceilings.";
    for (int c = 0; c < computeClassCount; ++c)
        m.peakFlops[static_cast<size_t>(c)] = r.number(ceilings, ceilingKeys[c], cp, false);
    m.bandwidth = r.number(ceilings, "bandwidth", cp, false);
    m.dispatchSeconds = r.number(ceilings, "dispatch_s", cp, false);

    const QJsonObject patterns = r.object(o, "bandwidth_by_pattern", p, false);
    const std::string bp = p + "bandwidth_by_pattern.";
    m.readBandwidth = r.number(patterns, "read", bp, false);
    m.writeBandwidth = r.number(patterns, "write", bp, false);
    m.copyBandwidth = r.number(patterns, "copy", bp, false);
    m.triadBandwidth = r.number(patterns, "triad", bp, false);

    const QJsonObject percent = r.object(o, "percent_of_theoretical", p, false);
    for (auto it = percent.begin(); it != percent.end(); ++it) {
        const std::string key = it.key().toStdString();
        m.percentOfTheoretical[key] = r.number(percent, key.c_str(), p + "percent_of_theoretical.", false);
    }

    const QJsonValue powerValue = o.value(QLatin1String("power_model"));
    if (!powerValue.isUndefined() && !powerValue.isNull()) {
        const QJsonObject power = r.object(o, "power_model", p, false);
        const std::string pp = p + "power_model.";
        PowerModel model;
        model.constantPower.value = r.number(power, "constant_w", pp, true);
        model.energyPerFlop.value = r.number(power, "j_per_flop", pp, true);
        model.energyPerByte.value = r.number(power, "j_per_byte", pp, true);
        const QJsonValue rsq = power.value(QLatin1String("r_squared"));
        if (!rsq.isUndefined() && !rsq.isNull()) {
            if (!rsq.isDouble() || !std::isfinite(rsq.toDouble()) || rsq.toDouble() > 1.0)
                r.fail(pp + "r_squared", "expected a number of at most 1");
            model.rSquared = rsq.toDouble();
        }
        model.tensorFlopEnergyRatio = r.number(power, "tensor_flop_energy_ratio", pp, false, model.tensorFlopEnergyRatio);
        const std::string basis = "fitted on the board to measured kernels" +
                                  (model.rSquared >= 0 ? ", R^2 " + num(model.rSquared) : std::string());
        for (SourcedValue* v : {&model.constantPower, &model.energyPerFlop, &model.energyPerByte}) {
            v->provenance = Provenance::Fitted;
            v->basis = basis;
        }
        m.power = model;
    }

    const QJsonArray samples = r.array(o, "samples", p, false);
    for (int i = 0; i < samples.size(); ++i) {
        const std::string sp = p + "samples[" + std::to_string(i) + "]";
        if (!samples[i].isObject()) r.fail(sp, "expected an object");
        const QJsonObject s = samples[i].toObject();
        EnergySample sample;
        sample.kernel = r.text(s, "kernel", sp + ".", false);
        sample.flops = r.number(s, "flops", sp + ".", true);
        sample.bytes = r.number(s, "bytes", sp + ".", true);
        sample.seconds = r.number(s, "seconds", sp + ".", true);
        sample.joules = r.number(s, "joules", sp + ".", true);
        m.samples.push_back(sample);
    }
    return m;
}

// ---- writing ------------------------------------------------------------------------------------------------

QJsonObject writeMode(const MeasuredMode& m) {
    QJsonObject o;
    o["name"] = QString::fromStdString(m.mode.name);
    o["stock_id"] = m.mode.stock ? m.mode.stockId : -1;
    o["cores"] = m.mode.onlineCores;
    o["cpu_khz"] = static_cast<qint64>(m.mode.cpuKhz);
    o["gpu_hz"] = static_cast<qint64>(m.mode.gpuHz);
    o["emc_hz"] = static_cast<qint64>(m.mode.emcHz);
    o["active_tpcs"] = m.mode.activeTpcs;
    o["observed"] = QJsonObject{{"cpu_khz", static_cast<qint64>(m.observedCpuKhz)},
                                {"gpu_hz", static_cast<qint64>(m.observedGpuHz)},
                                {"emc_hz", static_cast<qint64>(m.observedEmcHz)}};
    QJsonObject ceilings;
    for (int c = 0; c < computeClassCount; ++c) ceilings[ceilingKeys[c]] = m.peakFlops[static_cast<size_t>(c)];
    ceilings["bandwidth"] = m.bandwidth;
    ceilings["dispatch_s"] = m.dispatchSeconds;
    o["ceilings"] = ceilings;
    o["bandwidth_by_pattern"] = QJsonObject{{"read", m.readBandwidth},
                                            {"write", m.writeBandwidth},
                                            {"copy", m.copyBandwidth},
                                            {"triad", m.triadBandwidth}};
    if (!m.percentOfTheoretical.empty()) {
        QJsonObject percent;
        for (const auto& [key, value] : m.percentOfTheoretical) percent[QString::fromStdString(key)] = value;
        o["percent_of_theoretical"] = percent;
    }
    if (m.power) {
        o["power_model"] = QJsonObject{{"constant_w", m.power->constantPower.value},
                                       {"j_per_flop", m.power->energyPerFlop.value},
                                       {"j_per_byte", m.power->energyPerByte.value},
                                       {"r_squared", m.power->rSquared},
                                       {"tensor_flop_energy_ratio", m.power->tensorFlopEnergyRatio}};
    } else {
        o["power_model"] = QJsonValue::Null;
    }
    QJsonArray samples;
    for (const EnergySample& s : m.samples)
        samples.append(QJsonObject{{"kernel", QString::fromStdString(s.kernel)},
                                   {"flops", s.flops},
                                   {"bytes", s.bytes},
                                   {"seconds", s.seconds},
                                   {"joules", s.joules}});
    o["samples"] = samples;
    return o;
}

// ---- resolving ----------------------------------------------------------------------------------------------

// Mean measured / derived ratio of one quantity over the measured modes that have it.
struct Ratio {
    double sum = 0.0;
    int count = 0;
    void add(double measured, double derived) {
        if (measured > 0 && derived > 0) {
            sum += measured / derived;
            ++count;
        }
    }
    bool known() const { return count > 0; }
    double mean() const { return count > 0 ? sum / count : 1.0; }
};

constexpr int dispatchQuantity = computeClassCount + 1;
constexpr int bandwidthQuantity = computeClassCount;
constexpr int quantityCount = computeClassCount + 2;

struct MeasuredPower {
    PowerFeatures features;
    PowerModel estimate;
    PowerModel fitted;
};

// A measured mode's power model: the stored fit, else a fit of its samples; nullopt when neither.
std::optional<PowerModel> fittedPower(const MeasuredMode& m, const DeviceSpec& device) {
    if (m.power) return m.power;
    if (m.samples.size() < 3) return std::nullopt;
    try {
        const EnergyFit fit = fitEnergyModel(m.samples);
        PowerModel p;
        p.constantPower.value = fit.constantPower;
        p.energyPerFlop.value = fit.energyPerFlop;
        p.energyPerByte.value = fit.energyPerByte;
        p.rSquared = fit.rSquared;
        p.tensorFlopEnergyRatio = device.energy.tensorFlopEnergyRatio;
        const std::string basis = "fitted to " + std::to_string(m.samples.size()) + " measured kernels, R^2 " +
                                  num(fit.rSquared);
        for (SourcedValue* v : {&p.constantPower, &p.energyPerFlop, &p.energyPerByte}) {
            v->provenance = Provenance::Fitted;
            v->basis = basis;
        }
        return p;
    } catch (const InputError&) {
        return std::nullopt;
    }
}

// One power coefficient for a new mode from the measured ones: least squares on [1, feature] (non-negative)
// with 3+ modes whose feature varies, else the estimate times the mean measured / estimate ratio.
SourcedValue predictCoefficient(const std::vector<double>& measured, const std::vector<double>& features,
                                const std::vector<double>& estimates, double feature, double estimate,
                                const char* featureName) {
    SourcedValue v;
    v.provenance = Provenance::Predicted;
    const size_t n = measured.size();
    if (n >= 3) {
        Eigen::MatrixXd design(static_cast<Eigen::Index>(n), 2);
        Eigen::VectorXd target(static_cast<Eigen::Index>(n));
        for (size_t i = 0; i < n; ++i) {
            design(static_cast<Eigen::Index>(i), 0) = 1.0;
            design(static_cast<Eigen::Index>(i), 1) = features[i];
            target(static_cast<Eigen::Index>(i)) = measured[i];
        }
        if (scaledRank(design) == 2) {
            const Eigen::VectorXd x = nonNegativeLeastSquares(design, target);
            v.value = x(0) + x(1) * feature;
            v.basis = "predicted from " + std::to_string(n) + " measured modes: " + num(x(0)) + " + " + num(x(1)) +
                      " x " + featureName + " (" + num(feature) + "), least squares";
            return v;
        }
    }
    Ratio ratio;
    double plainMean = 0.0;
    for (size_t i = 0; i < n; ++i) {
        ratio.add(measured[i], estimates[i]);
        plainMean += measured[i] / static_cast<double>(n);
    }
    if (ratio.known() && estimate > 0) {
        v.value = estimate * ratio.mean();
        v.basis = "predicted: estimate " + num(estimate) + " x " + num(ratio.mean()) + " (mean measured / estimate of " +
                  std::to_string(ratio.count) + " measured mode" + (ratio.count == 1 ? ")" : "s)");
    } else {
        v.value = plainMean;
        v.basis = "predicted: mean of " + std::to_string(n) + " measured mode" + (n == 1 ? "" : "s");
    }
    return v;
}

PowerModel predictPower(const std::vector<MeasuredPower>& measured, const DeviceSpec& device, const PowerMode& mode) {
    const PowerFeatures f = powerFeatures(device, mode);
    const PowerModel estimate = estimatePowerModel(device, mode);
    std::vector<double> pi0, epsFlop, epsByte, cpu, gpu, emc, pi0Est, flopEst, byteEst;
    double tensorRatio = 0.0;
    for (const MeasuredPower& m : measured) {
        pi0.push_back(m.fitted.constantPower.value);
        epsFlop.push_back(m.fitted.energyPerFlop.value);
        epsByte.push_back(m.fitted.energyPerByte.value);
        cpu.push_back(m.features.cpuLoad);
        gpu.push_back(m.features.gpuScale);
        emc.push_back(m.features.emcScale);
        pi0Est.push_back(m.estimate.constantPower.value);
        flopEst.push_back(m.estimate.energyPerFlop.value);
        byteEst.push_back(m.estimate.energyPerByte.value);
        tensorRatio += m.fitted.tensorFlopEnergyRatio / static_cast<double>(measured.size());
    }
    PowerModel p;
    p.constantPower = predictCoefficient(pi0, cpu, pi0Est, f.cpuLoad, estimate.constantPower.value,
                                         "online cores x CPU clock ratio");
    p.energyPerFlop = predictCoefficient(epsFlop, gpu, flopEst, f.gpuScale, estimate.energyPerFlop.value,
                                         "GPU DVFS scale");
    p.energyPerByte = predictCoefficient(epsByte, emc, byteEst, f.emcScale, estimate.energyPerByte.value,
                                         "EMC DVFS scale");
    // A regression line can cross zero outside the measured range; fall back to the ratio there.
    if (p.constantPower.value < 0 || p.energyPerFlop.value < 0 || p.energyPerByte.value < 0) {
        auto ratioOnly = [&](const std::vector<double>& values, const std::vector<double>& estimates, double est) {
            return predictCoefficient(values, std::vector<double>(values.size(), 0.0), estimates, 0.0, est, "");
        };
        if (p.constantPower.value < 0) p.constantPower = ratioOnly(pi0, pi0Est, estimate.constantPower.value);
        if (p.energyPerFlop.value < 0) p.energyPerFlop = ratioOnly(epsFlop, flopEst, estimate.energyPerFlop.value);
        if (p.energyPerByte.value < 0) p.energyPerByte = ratioOnly(epsByte, byteEst, estimate.energyPerByte.value);
    }
    p.tensorFlopEnergyRatio = tensorRatio > 0 ? tensorRatio : device.energy.tensorFlopEnergyRatio;
    p.rSquared = -1.0;
    return p;
}

Provenance efficiencyProvenance(double efficiency, const RuntimeProfile& runtime, Provenance base) {
    if (efficiency == 1.0) return base;
    return weakerProvenance(base, runtime.calibrated ? Provenance::Fitted : Provenance::Estimate);
}

} // namespace

MeasuredProfile measuredProfileFromJson(const std::string& text, const std::string& source) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError)
        throw InputError(source + ": not JSON (" + error.errorString().toStdString() + " at offset " +
                         std::to_string(error.offset) + ")");
    if (!document.isObject()) throw InputError(source + ": expected a JSON object");
    const QJsonObject root = document.object();
    const Reader r(source);
    const std::string schema = r.text(root, "schema", "", true);
    if (schema != schemaName)
        r.fail("schema", "is \"" + schema + "\"; this Rooftop reads " + schemaName);
    MeasuredProfile profile;
    profile.deviceId = r.text(root, "device", "", true);
    const QJsonObject board = r.object(root, "board", "", false);
    profile.boardModel = r.text(board, "model", "board.", false);
    profile.l4tRelease = r.text(board, "l4t", "board.", false);
    profile.driverVersion = r.text(board, "driver", "board.", false);
    profile.cudaVersion = r.text(board, "cuda", "board.", false);
    profile.created = r.text(root, "created", "", false);
    const QJsonArray modes = r.array(root, "modes", "", true);
    for (int i = 0; i < modes.size(); ++i)
        profile.modes.push_back(readMode(r, modes[i], "modes[" + std::to_string(i) + "]"));
    return profile;
}

std::string measuredProfileToJson(const MeasuredProfile& profile) {
    QJsonObject root;
    root["schema"] = schemaName;
    root["device"] = QString::fromStdString(profile.deviceId);
    root["board"] = QJsonObject{{"model", QString::fromStdString(profile.boardModel)},
                                {"l4t", QString::fromStdString(profile.l4tRelease)},
                                {"driver", QString::fromStdString(profile.driverVersion)},
                                {"cuda", QString::fromStdString(profile.cudaVersion)}};
    root["created"] = QString::fromStdString(profile.created);
    QJsonArray modes;
    for (const MeasuredMode& m : profile.modes) modes.append(writeMode(m));
    root["modes"] = modes;
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

MeasuredProfile loadMeasuredProfile(const std::string& path) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        throw InputError(path + ": cannot open (" + file.errorString().toStdString() + ")");
    return measuredProfileFromJson(file.readAll().toStdString(), path);
}

void saveMeasuredProfile(const MeasuredProfile& profile, const std::string& path) {
    const std::string text = measuredProfileToJson(profile);
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit())
        throw InputError(path + ": cannot write (" + file.errorString().toStdString() + ")");
}

bool sameOperatingPoint(const PowerMode& a, const PowerMode& b) {
    return a.onlineCores == b.onlineCores && a.cpuKhz == b.cpuKhz && a.gpuHz == b.gpuHz && a.emcHz == b.emcHz &&
           a.activeTpcs == b.activeTpcs;
}

const MeasuredMode* findMeasuredMode(const MeasuredProfile& profile, const PowerMode& mode) {
    for (const MeasuredMode& m : profile.modes)
        if (sameOperatingPoint(m.mode, mode)) return &m;
    return nullptr;
}

void fillPercentOfTheoretical(MeasuredMode& mode, const DeviceSpec& device) {
    RuntimeProfile ideal;
    ideal.name = "datasheet";
    const Ceilings derived = deriveCeilings(device, mode.mode, ideal);
    mode.percentOfTheoretical.clear();
    for (int c = 0; c < computeClassCount; ++c) {
        const double measured = mode.peakFlops[static_cast<size_t>(c)];
        const double theoretical = derived.peakFlops[static_cast<size_t>(c)].value;
        if (measured > 0 && theoretical > 0) mode.percentOfTheoretical[ceilingKeys[c]] = 100.0 * measured / theoretical;
    }
    if (mode.bandwidth > 0 && derived.bandwidth.value > 0)
        mode.percentOfTheoretical["bandwidth"] = 100.0 * mode.bandwidth / derived.bandwidth.value;
}

std::vector<ModeProfile> resolveModeProfiles(const DeviceSpec& device, const std::vector<PowerMode>& modes,
                                             const RuntimeProfile& runtime, const MeasuredProfile* profile) {
    std::vector<ModeProfile> result;
    result.reserve(modes.size());
    if (!profile || profile->modes.empty()) {
        for (const PowerMode& mode : modes) result.push_back(deriveModeProfile(device, mode, runtime));
        return result;
    }
    if (!profile->deviceId.empty() && !device.id.empty() && profile->deviceId != device.id)
        throw InputError("the measured profile is for device '" + profile->deviceId + "', not '" + device.id + "'");

    // Hardware ratios: measured / derived with the runtime's efficiencies left out (they multiply afterwards);
    // the launch time against 1 / CPU clock.
    RuntimeProfile hardware = runtime;
    hardware.computeEfficiency = 1.0;
    hardware.bandwidthEfficiency = 1.0;
    // The launch follows the runtime's CPU-clock law (1 / CPU clock) whatever the runtime's own cost.
    RuntimeProfile unitDispatch = runtime;
    unitDispatch.dispatchSecondsAtMaxCpu = 1.0;
    const double maxCpuKhz = device.cpuLadderKhz.empty() ? 0.0 : static_cast<double>(device.cpuLadderKhz.back());
    auto launchScale = [&](const PowerMode& m) {
        return dispatchSeconds(unitDispatch, static_cast<double>(m.cpuKhz), maxCpuKhz);
    };
    Ratio ratios[quantityCount];
    std::vector<MeasuredPower> powers;
    for (const MeasuredMode& m : profile->modes) {
        const Ceilings derived = deriveCeilings(device, m.mode, hardware);
        for (int c = 0; c < computeClassCount; ++c)
            ratios[c].add(m.peakFlops[static_cast<size_t>(c)], derived.peakFlops[static_cast<size_t>(c)].value);
        ratios[bandwidthQuantity].add(m.bandwidth, derived.bandwidth.value);
        ratios[dispatchQuantity].add(m.dispatchSeconds, launchScale(m.mode));
        if (auto fitted = fittedPower(m, device))
            powers.push_back({powerFeatures(device, m.mode), estimatePowerModel(device, m.mode), *fitted});
    }
    const std::string measuredCount = std::to_string(profile->modes.size()) + " measured mode" +
                                      (profile->modes.size() == 1 ? "" : "s");

    for (const PowerMode& mode : modes) {
        ModeProfile out;
        out.mode = mode;
        const Ceilings derived = deriveCeilings(device, mode, hardware);
        const MeasuredMode* match = findMeasuredMode(*profile, mode);

        // One ceiling: measured, else predicted from the ratio, else derived; then the runtime's efficiency.
        auto resolve = [&](double measured, const SourcedValue& fromDatasheet, const Ratio& ratio, double efficiency,
                           const char* what) {
            SourcedValue v;
            if (measured > 0) {
                v = {measured, Provenance::Measured, std::string("measured by rooftop bench")};
            } else if (ratio.known()) {
                v.value = fromDatasheet.value * ratio.mean();
                v.provenance = Provenance::Predicted;
                v.basis = "predicted: " + num(fromDatasheet.value) + " derived x " + num(ratio.mean()) +
                          " (mean measured / derived over " + std::to_string(ratio.count) + " of " + measuredCount + ")";
            } else {
                v = fromDatasheet;
            }
            if (efficiency != 1.0) {
                v.value *= efficiency;
                v.provenance = efficiencyProvenance(efficiency, runtime, v.provenance);
                v.basis += "; x " + num(efficiency) + " " + what + " efficiency of " + runtime.name;
            }
            return v;
        };
        for (int c = 0; c < computeClassCount; ++c)
            out.ceilings.peakFlops[static_cast<size_t>(c)] =
                resolve(match ? match->peakFlops[static_cast<size_t>(c)] : 0.0,
                        derived.peakFlops[static_cast<size_t>(c)], ratios[c], runtime.computeEfficiency, "compute");
        out.ceilings.bandwidth = resolve(match ? match->bandwidth : 0.0, derived.bandwidth, ratios[bandwidthQuantity],
                                         runtime.bandwidthEfficiency, "bandwidth");

        // Dispatch: the larger of the (measured or predicted) launch floor and the runtime's estimate.
        const SourcedValue& estimate = derived.dispatchOverhead;
        SourcedValue launch;
        if (match && match->dispatchSeconds > 0) {
            launch = {match->dispatchSeconds, Provenance::Measured, "measured empty-kernel launch"};
        } else if (ratios[dispatchQuantity].known()) {
            launch = {launchScale(mode) * ratios[dispatchQuantity].mean(), Provenance::Predicted,
                      "predicted empty-kernel launch: " + num(ratios[dispatchQuantity].mean() * 1e6) +
                          " us at the top CPU clock (mean over " + measuredCount + ") x 1 / CPU clock ratio"};
        }
        if (launch.value > estimate.value) {
            out.ceilings.dispatchOverhead = launch;
            out.ceilings.dispatchOverhead.basis += " (above the " + runtime.name + " estimate " +
                                                   num(estimate.value * 1e6) + " us)";
        } else {
            out.ceilings.dispatchOverhead = estimate;
            if (launch.value > 0)
                out.ceilings.dispatchOverhead.basis += " (above the " + launch.basis + ", " +
                                                       num(launch.value * 1e6) + " us)";
        }

        std::optional<PowerModel> power = match ? fittedPower(*match, device) : std::nullopt;
        if (power) {
            out.power = *power;
        } else if (!powers.empty()) {
            out.power = predictPower(powers, device, mode);
        } else {
            out.power = estimatePowerModel(device, mode);
        }
        result.push_back(std::move(out));
    }
    return result;
}

} // namespace rooftop
