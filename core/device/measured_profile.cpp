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
//     "ceilings": {                                required object; every key optional, >= 0, 0 = not
//     measured
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
#include "core/device/measured_profile.h"

#include "core/common/errors.h"
#include "core/common/input_file.h"
#include "core/common/text_format.h"

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
const char* const ceilingKeys[computeClassCount] = {"fp32_flops",        "fp16_flops",
                                                    "tensor_fp16_flops", "tensor_int8_ops",
                                                    "tensor_fp8_flops",  "tensor_fp4_flops"};

// ---- reading
// ------------------------------------------------------------------------------------------------

class Reader {
public:
    explicit Reader(std::string source) : source_(std::move(source)) {}

    [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
        throw InputError(source_ + ": " + field + ": " + problem);
    }

    QJsonValue value(const QJsonObject& object, const char* key, const std::string& path,
                     bool required) const {
        const QJsonValue v = object.value(QLatin1String(key));
        if (required && (v.isUndefined() || v.isNull())) fail(path + key, "missing");
        return v;
    }

    std::string text(const QJsonObject& object, const char* key, const std::string& path,
                     bool required) const {
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
        if (v.toDouble() < 0)
            fail(path + key, "expected a non-negative number, got " + general(v.toDouble(), 6));
        return v.toDouble();
    }

    int64_t integer(const QJsonObject& object, const char* key, const std::string& path, bool required,
                    int64_t fallback, int64_t minimum) const {
        const QJsonValue v = value(object, key, path, required);
        if (v.isUndefined() || v.isNull()) return fallback;
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || std::floor(d) != d || std::fabs(d) > 9007199254740992.0)
            fail(path + key, "expected an integer");
        if (d < static_cast<double>(minimum))
            fail(path + key, "expected at least " + std::to_string(minimum));
        return static_cast<int64_t>(d);
    }

    QJsonObject object(const QJsonObject& parent, const char* key, const std::string& path,
                       bool required) const {
        const QJsonValue v = value(parent, key, path, required);
        if (v.isUndefined() || v.isNull()) return {};
        if (!v.isObject()) fail(path + key, "expected an object");
        return v.toObject();
    }

    QJsonArray array(const QJsonObject& parent, const char* key, const std::string& path,
                     bool required) const {
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
        model.tensorFlopEnergyRatio =
            r.number(power, "tensor_flop_energy_ratio", pp, false, model.tensorFlopEnergyRatio);
        const std::string basis =
            "fitted on the board to measured kernels" +
            (model.rSquared >= 0 ? ", R^2 " + general(model.rSquared, 4) : std::string());
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

// ---- writing
// ------------------------------------------------------------------------------------------------

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
    for (int c = 0; c < computeClassCount;
         ++c) // FP8 / FP4 only where measured (Thor): older files stay as they were
        if (c < static_cast<int>(ComputeClass::TensorFp8) || m.peakFlops[static_cast<size_t>(c)] > 0)
            ceilings[ceilingKeys[c]] = m.peakFlops[static_cast<size_t>(c)];
    ceilings["bandwidth"] = m.bandwidth;
    ceilings["dispatch_s"] = m.dispatchSeconds;
    o["ceilings"] = ceilings;
    o["bandwidth_by_pattern"] = QJsonObject{{"read", m.readBandwidth},
                                            {"write", m.writeBandwidth},
                                            {"copy", m.copyBandwidth},
                                            {"triad", m.triadBandwidth}};
    if (!m.percentOfTheoretical.empty()) {
        QJsonObject percent;
        for (const auto& [key, value] : m.percentOfTheoretical)
            percent[QString::fromStdString(key)] = value;
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
    if (!root.contains(QLatin1String("schema")))
        r.fail("schema", std::string("missing: not a measured profile (\"") + schemaName +
                             "\", as rooftop bench -o writes it)");
    const std::string schema = r.text(root, "schema", "", true);
    if (schema != schemaName) r.fail("schema", "is \"" + schema + "\"; this Rooftop reads " + schemaName);
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
    for (const MeasuredMode& m : profile.modes)
        modes.append(writeMode(m));
    root["modes"] = modes;
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

MeasuredProfile loadMeasuredProfile(const std::string& path) {
    return measuredProfileFromJson(readInputFile(path, "a measured profile"), path);
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
    return a.onlineCores == b.onlineCores && a.cpuKhz == b.cpuKhz && a.gpuHz == b.gpuHz &&
           a.emcHz == b.emcHz && a.activeTpcs == b.activeTpcs;
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
        if (measured > 0 && theoretical > 0)
            mode.percentOfTheoretical[ceilingKeys[c]] = 100.0 * measured / theoretical;
    }
    if (mode.bandwidth > 0 && derived.bandwidth.value > 0)
        mode.percentOfTheoretical["bandwidth"] = 100.0 * mode.bandwidth / derived.bandwidth.value;
}

} // namespace rooftop
