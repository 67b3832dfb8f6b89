// SPDX-License-Identifier: GPL-3.0-or-later
// The device catalog: resources/devices/<id>.json, one file per board (schema in
// resources/devices/README.md). Every file is validated field by field; an error names the file and the field
// ("agx-orin-64gb.json: stock_modes[2].gpu_max_hz: expected an integer").
#include "core/device/catalog.h"

#include "core/common/edit_distance.h"
#include "core/common/errors.h"
#include "core/common/input_file.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <regex>
#include <set>

namespace rooftop {

namespace {

/// Typed access to the fields of one JSON file; every failure throws InputError "FILE: PATH: what".
class JsonFields {
public:
    explicit JsonFields(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const std::string& path, const std::string& message) const {
        throw InputError(file_ + ": " + (path.empty() ? std::string() : path + ": ") + message);
    }

    static std::string join(const std::string& parent, const std::string& key) {
        return parent.empty() ? key : parent + "." + key;
    }
    static std::string index(const std::string& path, size_t i) {
        return path + "[" + std::to_string(i) + "]";
    }

    QJsonObject readFile(const std::string& path) const {
        const QByteArray bytes = QByteArray::fromStdString(readInputFile(path, "a device file"));
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
        if (error.error != QJsonParseError::NoError) {
            int line = 1, column = 1;
            for (int i = 0; i < error.offset && i < bytes.size(); ++i) {
                if (bytes[i] == '\n') {
                    ++line;
                    column = 1;
                } else {
                    ++column;
                }
            }
            fail("", "invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
                         ": " + error.errorString().toStdString());
        }
        if (!document.isObject()) fail("", "expected a JSON object at the top level");
        return document.object();
    }

    QJsonValue field(const QJsonObject& object, const std::string& parent, const char* key) const {
        const auto it = object.constFind(QLatin1String(key));
        if (it == object.constEnd()) fail(join(parent, key), "missing");
        return it.value();
    }

    QJsonObject asObject(const QJsonValue& value, const std::string& path) const {
        if (!value.isObject()) fail(path, "expected an object");
        return value.toObject();
    }
    QJsonObject object(const QJsonObject& object, const std::string& parent, const char* key) const {
        return asObject(field(object, parent, key), join(parent, key));
    }
    QJsonArray array(const QJsonObject& object, const std::string& parent, const char* key) const {
        const QJsonValue value = field(object, parent, key);
        if (!value.isArray()) fail(join(parent, key), "expected an array");
        return value.toArray();
    }

    std::string asText(const QJsonValue& value, const std::string& path, bool allowEmpty = false) const {
        if (!value.isString()) fail(path, "expected a string");
        const std::string text = value.toString().toStdString();
        if (text.empty() && !allowEmpty) fail(path, "expected a non-empty string");
        return text;
    }
    std::string text(const QJsonObject& object, const std::string& parent, const char* key,
                     bool allowEmpty = false) const {
        return asText(field(object, parent, key), join(parent, key), allowEmpty);
    }
    std::vector<std::string> texts(const QJsonObject& object, const std::string& parent,
                                   const char* key) const {
        const QJsonArray values = array(object, parent, key);
        std::vector<std::string> out;
        for (int i = 0; i < values.size(); ++i)
            out.push_back(asText(values.at(i), index(join(parent, key), static_cast<size_t>(i))));
        return out;
    }

    int64_t asInteger(const QJsonValue& value, const std::string& path) const {
        if (!value.isDouble()) fail(path, "expected an integer");
        const double number = value.toDouble();
        if (!std::isfinite(number) || std::trunc(number) != number || std::fabs(number) > 9.0e15)
            fail(path, "expected an integer");
        return static_cast<int64_t>(number);
    }
    int64_t integer(const QJsonObject& object, const std::string& parent, const char* key) const {
        return asInteger(field(object, parent, key), join(parent, key));
    }
    int64_t integerInRange(const QJsonObject& object, const std::string& parent, const char* key,
                           int64_t minimum, int64_t maximum) const {
        const int64_t value = integer(object, parent, key);
        if (value < minimum || value > maximum)
            fail(join(parent, key), "expected an integer from " + std::to_string(minimum) + " to " +
                                        std::to_string(maximum) + ", got " + std::to_string(value));
        return value;
    }
    std::vector<int64_t> integers(const QJsonObject& object, const std::string& parent,
                                  const char* key) const {
        const QJsonArray values = array(object, parent, key);
        std::vector<int64_t> out;
        for (int i = 0; i < values.size(); ++i)
            out.push_back(asInteger(values.at(i), index(join(parent, key), static_cast<size_t>(i))));
        return out;
    }

    double number(const QJsonObject& object, const std::string& parent, const char* key) const {
        const QJsonValue value = field(object, parent, key);
        if (!value.isDouble() || !std::isfinite(value.toDouble()))
            fail(join(parent, key), "expected a number");
        return value.toDouble();
    }
    double positiveNumber(const QJsonObject& object, const std::string& parent, const char* key) const {
        const double value = number(object, parent, key);
        if (value <= 0) fail(join(parent, key), "expected a positive number");
        return value;
    }
    double nonNegativeNumber(const QJsonObject& object, const std::string& parent, const char* key) const {
        const double value = number(object, parent, key);
        if (value < 0) fail(join(parent, key), "expected a number >= 0");
        return value;
    }

    /// Rejects keys the schema does not know (typos), except those starting with '_' (comments).
    void onlyKeys(const QJsonObject& object, const std::string& parent,
                  std::initializer_list<const char*> allowed) const {
        for (auto it = object.begin(); it != object.end(); ++it) {
            const std::string key = it.key().toStdString();
            if (!key.empty() && key[0] == '_') continue;
            if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; }))
                fail(join(parent, key), "unknown field");
        }
    }

private:
    std::string file_;
};

const char* const deviceSchema = "rooftop-device/1";

/// Fields whose citation the "sources" object must carry.
const char* const requiredSources[] = {
    "modules",
    "compute_capability",
    "gpu",
    "gpu.tensor",
    "memory",
    "cpu",
    "ladders.cpu_khz",
    "ladders.gpu_hz",
    "ladders.emc_hz",
    "grid",
    "stock_modes",
    "default_mode",
    "power.rails",
    "power.max_module_watts",
    "energy",
};

std::string hz(int64_t value) {
    return std::to_string(value);
}

/// Reads a ladder: a non-empty, strictly ascending list of positive integers.
std::vector<int64_t> readLadder(const JsonFields& json, const QJsonObject& object, const std::string& parent,
                                const char* key) {
    const std::string path = JsonFields::join(parent, key);
    std::vector<int64_t> ladder = json.integers(object, parent, key);
    if (ladder.empty()) json.fail(path, "expected at least one value");
    for (size_t i = 0; i < ladder.size(); ++i) {
        if (ladder[i] <= 0) json.fail(JsonFields::index(path, i), "expected a positive integer");
        if (i > 0 && ladder[i] <= ladder[i - 1])
            json.fail(JsonFields::index(path, i),
                      "ladder not ascending (" + hz(ladder[i]) + " after " + hz(ladder[i - 1]) + ")");
    }
    return ladder;
}

/// Reads a grid axis: ascending values that all belong to the ladder.
std::vector<int64_t> readGridAxis(const JsonFields& json, const QJsonObject& grid, const char* key,
                                  const std::vector<int64_t>& ladder, const char* ladderName) {
    const std::vector<int64_t> values = readLadder(json, grid, "grid", key);
    for (size_t i = 0; i < values.size(); ++i)
        if (!std::binary_search(ladder.begin(), ladder.end(), values[i]))
            json.fail(JsonFields::index(std::string("grid.") + key, i),
                      hz(values[i]) + " is not in " + ladderName);
    return values;
}

/// resolveNvpmodelCap with the file's field in the error.
int64_t resolveCap(const JsonFields& json, const std::string& path, int64_t cap,
                   const std::vector<int64_t>& ladder, const char* ladderName) {
    if (const auto resolved = resolveNvpmodelCap(cap, ladder, nullptr)) return *resolved;
    if (cap < 0) json.fail(path, "expected a positive clock, or -1 / 0 for no cap");
    if (cap > ladder.back())
        json.fail(path, hz(cap) + " is above the top of " + ladderName + " (" + hz(ladder.back()) +
                            "); write -1 for no cap");
    json.fail(path, hz(cap) + " is below the bottom of " + ladderName + " (" + hz(ladder.front()) + ")");
}

void readGpu(const JsonFields& json, const QJsonObject& root, DeviceSpec& spec) {
    const QJsonObject gpu = json.object(root, "", "gpu");
    json.onlyKeys(gpu, "gpu",
                  {"sm_count", "tpc_count", "tpc_mask_bits", "cuda_cores_per_sm", "tensor_cores_per_sm",
                   "fp16_cuda_core_rate", "tensor_fp16_flops_per_sm_per_clock",
                   "tensor_int8_ops_per_sm_per_clock", "tensor_fp8_flops_per_sm_per_clock",
                   "tensor_fp4_flops_per_sm_per_clock", "tensor_tf32_flops_per_sm_per_clock",
                   "tensor_sparsity"});
    ComputeUnits& u = spec.units;
    u.smCount = static_cast<int>(json.integerInRange(gpu, "gpu", "sm_count", 1, 100000));
    u.tpcCount = static_cast<int>(json.integerInRange(gpu, "gpu", "tpc_count", 1, u.smCount));
    if (u.smCount % u.tpcCount != 0)
        json.fail("gpu.tpc_count",
                  std::to_string(u.tpcCount) + " does not divide sm_count " + std::to_string(u.smCount));
    spec.tpcMaskBits = static_cast<int>(json.integerInRange(gpu, "gpu", "tpc_mask_bits", 0, 30));
    if (spec.tpcMaskBits > 0 && spec.tpcMaskBits < u.tpcCount)
        json.fail("gpu.tpc_mask_bits", "narrower than tpc_count (" + std::to_string(u.tpcCount) + ")");
    u.cudaCoresPerSm = static_cast<int>(json.integerInRange(gpu, "gpu", "cuda_cores_per_sm", 1, 4096));
    u.tensorCoresPerSm = static_cast<int>(json.integerInRange(gpu, "gpu", "tensor_cores_per_sm", 0, 1024));
    u.fp16CudaCoreRate = json.positiveNumber(gpu, "gpu", "fp16_cuda_core_rate");
    u.tensorFp16FlopsPerSmPerClock = json.nonNegativeNumber(gpu, "gpu", "tensor_fp16_flops_per_sm_per_clock");
    u.tensorInt8OpsPerSmPerClock = json.nonNegativeNumber(gpu, "gpu", "tensor_int8_ops_per_sm_per_clock");
    if (u.tensorCoresPerSm > 0 && u.tensorFp16FlopsPerSmPerClock <= 0)
        json.fail("gpu.tensor_fp16_flops_per_sm_per_clock", "expected a positive rate with tensor cores");
    // Optional (Blackwell and later): FP8 / FP4 / TF32 rates and the 2:4 sparsity factor. Absent = the GPU
    // has no such tensor path (FP8 and FP4 on Orin), so a model at that precision is not predicted on it.
    auto optionalRate = [&](const char* key) {
        return gpu.contains(QLatin1String(key)) ? json.nonNegativeNumber(gpu, "gpu", key) : 0.0;
    };
    u.tensorFp8FlopsPerSmPerClock = optionalRate("tensor_fp8_flops_per_sm_per_clock");
    u.tensorFp4FlopsPerSmPerClock = optionalRate("tensor_fp4_flops_per_sm_per_clock");
    u.tensorTf32FlopsPerSmPerClock = optionalRate("tensor_tf32_flops_per_sm_per_clock");
    u.tensorSparsity = gpu.contains(QLatin1String("tensor_sparsity"))
                           ? json.positiveNumber(gpu, "gpu", "tensor_sparsity")
                           : 1.0;
    if (u.tensorSparsity != 1.0 && u.tensorSparsity != 2.0)
        json.fail("gpu.tensor_sparsity", "expected 1 (no sparse figures) or 2 (2:4 structured sparsity)");
    if (u.tensorCoresPerSm == 0 && (u.tensorFp16FlopsPerSmPerClock > 0 || u.tensorInt8OpsPerSmPerClock > 0 ||
                                    u.tensorFp8FlopsPerSmPerClock > 0 || u.tensorFp4FlopsPerSmPerClock > 0 ||
                                    u.tensorTf32FlopsPerSmPerClock > 0))
        json.fail("gpu.tensor_cores_per_sm", "is 0 but tensor rates are given");
    if (u.tensorFp4FlopsPerSmPerClock > 0 && u.tensorFp8FlopsPerSmPerClock <= 0)
        json.fail("gpu.tensor_fp4_flops_per_sm_per_clock", "FP4 without an FP8 rate (NVFP4 scales are FP8)");
}

void readStockModes(const JsonFields& json, const QJsonObject& root, DeviceSpec& spec) {
    const QJsonArray modes = json.array(root, "", "stock_modes");
    if (modes.isEmpty()) json.fail("stock_modes", "expected at least one mode");
    std::set<int> ids;
    std::set<std::string> names;
    for (int i = 0; i < modes.size(); ++i) {
        const std::string path = JsonFields::index("stock_modes", static_cast<size_t>(i));
        const QJsonObject m = json.asObject(modes.at(i), path);
        json.onlyKeys(m, path,
                      {"id", "name", "online_cores", "cpu_max_khz", "gpu_max_hz", "emc_max_hz", "tpc_pg_mask",
                       "caps_estimated"});
        StockMode s;
        s.id = static_cast<int>(json.integerInRange(m, path, "id", 0, 1000));
        if (!ids.insert(s.id).second) json.fail(path + ".id", "duplicate mode id " + std::to_string(s.id));
        s.name = json.text(m, path, "name");
        if (!names.insert(s.name).second) json.fail(path + ".name", "duplicate mode name '" + s.name + "'");
        s.onlineCores = static_cast<int>(json.integerInRange(m, path, "online_cores", 1, spec.cpuCores));
        s.confCpuMaxKhz = json.integer(m, path, "cpu_max_khz");
        s.confGpuMaxHz = json.integer(m, path, "gpu_max_hz");
        s.confEmcMaxHz = json.integer(m, path, "emc_max_hz");
        s.cpuMaxKhz =
            resolveCap(json, path + ".cpu_max_khz", s.confCpuMaxKhz, spec.cpuLadderKhz, "ladders.cpu_khz");
        s.gpuMaxHz =
            resolveCap(json, path + ".gpu_max_hz", s.confGpuMaxHz, spec.gpuLadderHz, "ladders.gpu_hz");
        s.emcMaxHz =
            resolveCap(json, path + ".emc_max_hz", s.confEmcMaxHz, spec.emcLadderHz, "ladders.emc_hz");
        if (spec.tpcMaskBits > 0) {
            s.tpcPgMask = static_cast<int>(
                json.integerInRange(m, path, "tpc_pg_mask", 0, (1LL << spec.tpcMaskBits) - 1));
            s.activeTpcs = activeTpcsOfMask(s.tpcPgMask, spec.tpcMaskBits, spec.units.tpcCount);
            if (s.activeTpcs == 0) json.fail(path + ".tpc_pg_mask", "gates every TPC");
        } else {
            if (m.contains(QLatin1String("tpc_pg_mask")))
                json.fail(path + ".tpc_pg_mask", "given but gpu.tpc_mask_bits is 0 (no TPC gating)");
            s.activeTpcs = spec.units.tpcCount;
        }
        s.budgetWatts = modeBudgetWatts(s.name, spec.maxModuleWatts);
        if (m.contains(QLatin1String("caps_estimated"))) {
            if (!m.value(QLatin1String("caps_estimated")).isBool())
                json.fail(path + ".caps_estimated", "expected true or false");
            s.capsEstimated = m.value(QLatin1String("caps_estimated")).toBool();
        }
        spec.stockModes.push_back(s);
    }
    std::sort(spec.stockModes.begin(), spec.stockModes.end(),
              [](const StockMode& a, const StockMode& b) { return a.id < b.id; });
}

void readPower(const JsonFields& json, const QJsonObject& root, DeviceSpec& spec) {
    const QJsonObject power = json.object(root, "", "power");
    json.onlyKeys(power, "power", {"max_module_watts", "total_rail", "rails"});
    spec.maxModuleWatts = json.positiveNumber(power, "power", "max_module_watts");
    spec.totalRail = json.text(power, "power", "total_rail", true);
    const QJsonArray rails = json.array(power, "power", "rails");
    if (rails.isEmpty()) json.fail("power.rails", "expected at least one rail");
    for (int i = 0; i < rails.size(); ++i) {
        const std::string path = JsonFields::index("power.rails", static_cast<size_t>(i));
        const QJsonObject r = json.asObject(rails.at(i), path);
        json.onlyKeys(r, path, {"label", "sensor", "channel"});
        PowerRail rail;
        rail.label = json.text(r, path, "label");
        rail.sensor = json.text(r, path, "sensor");
        rail.channel = static_cast<int>(json.integerInRange(r, path, "channel", 1, 3));
        for (const auto& other : spec.rails)
            if (other.label == rail.label) json.fail(path + ".label", "duplicate rail '" + rail.label + "'");
        spec.rails.push_back(rail);
    }
    if (!spec.totalRail.empty() &&
        std::none_of(spec.rails.begin(), spec.rails.end(),
                     [&](const PowerRail& r) { return r.label == spec.totalRail; }))
        json.fail("power.total_rail", "'" + spec.totalRail + "' is not one of the rails");
}

void readEnergy(const JsonFields& json, const QJsonObject& root, DeviceSpec& spec) {
    const QJsonObject energy = json.object(root, "", "energy");
    json.onlyKeys(
        energy, "energy",
        {"idle_watts", "cpu_core_watts", "pj_per_flop", "pj_per_byte", "tensor_flop_energy_ratio", "basis"});
    EnergyBasis& e = spec.energy;
    e.idleWatts = json.positiveNumber(energy, "energy", "idle_watts");
    e.cpuCoreWatts = json.nonNegativeNumber(energy, "energy", "cpu_core_watts");
    e.picojoulesPerFlop = json.positiveNumber(energy, "energy", "pj_per_flop");
    e.picojoulesPerByte = json.positiveNumber(energy, "energy", "pj_per_byte");
    e.tensorFlopEnergyRatio = json.positiveNumber(energy, "energy", "tensor_flop_energy_ratio");
    if (e.cpuCoreWatts * spec.cpuCores > e.idleWatts)
        json.fail("energy.cpu_core_watts",
                  "the cores alone exceed idle_watts (idle_watts includes every core online)");
    const QJsonObject basis = json.object(energy, "energy", "basis");
    json.onlyKeys(basis, "energy.basis",
                  {"summary", "idle_watts", "cpu_core_watts", "pj_per_flop", "pj_per_byte",
                   "tensor_flop_energy_ratio"});
    e.basis = json.text(basis, "energy.basis", "summary");
    for (const char* key :
         {"idle_watts", "cpu_core_watts", "pj_per_flop", "pj_per_byte", "tensor_flop_energy_ratio"})
        e.fieldBasis[key] = json.text(basis, "energy.basis", key);
}

bool validId(const std::string& id) {
    if (id.empty()) return false;
    return std::all_of(id.begin(), id.end(),
                       [](unsigned char c) { return std::islower(c) || std::isdigit(c) || c == '-'; });
}

} // namespace

std::optional<int64_t> resolveNvpmodelCap(int64_t cap, const std::vector<int64_t>& ladder, std::string* why) {
    auto refuse = [&](const std::string& reason) -> std::optional<int64_t> {
        if (why) *why = reason;
        return std::nullopt;
    };
    if (ladder.empty()) return refuse("not resolvable: the ladder is empty");
    if (cap == -1 || cap == 0) return ladder.back();
    if (cap < 0) return refuse("not a clock: expected a positive clock, or -1 / 0 for no cap");
    if (cap > ladder.back()) return refuse("above the top (" + hz(ladder.back()) + ")");
    if (cap < ladder.front()) return refuse("below the bottom (" + hz(ladder.front()) + ")");
    const auto upper = std::lower_bound(ladder.begin(), ladder.end(), cap);
    if (*upper == cap || upper == ladder.begin()) return *upper;
    const int64_t lower = *(upper - 1);
    return (cap - lower) <= (*upper - cap) ? lower : *upper;
}

double modeBudgetWatts(const std::string& name, double moduleMaxWatts) {
    std::string upper = name;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return std::toupper(c); });
    if (upper.rfind("MAXN", 0) == 0) return moduleMaxWatts;
    static const std::regex watts("(?:^|_)([0-9]+(?:\\.[0-9]+)?)W(?:_|$)");
    std::smatch match;
    if (std::regex_search(upper, match, watts)) return std::stod(match[1].str());
    return 0.0;
}

int activeTpcsOfMask(int mask, int bits, int tpcCount) {
    int clear = 0;
    for (int bit = 0; bit < bits && bit < 31; ++bit)
        if ((mask & (1 << bit)) == 0) ++clear;
    return std::min(tpcCount, clear);
}

DeviceSpec loadDeviceFile(const std::string& path) {
    const QFileInfo info(QString::fromStdString(path));
    const std::string fileName = info.fileName().toStdString();
    JsonFields json(fileName);
    const QJsonObject root = json.readFile(path);
    json.onlyKeys(root, "",
                  {"schema", "id", "name", "soc", "gpu_arch", "compute_capability", "modules",
                   "model_strings", "nvpmodel_conf", "cpu", "gpu", "memory", "ladders", "grid", "stock_modes",
                   "default_mode", "power", "energy", "sources"});
    const std::string schema = json.text(root, "", "schema");
    if (schema != deviceSchema)
        json.fail("schema", "expected \"" + std::string(deviceSchema) + "\", got \"" + schema + "\"");

    DeviceSpec spec;
    spec.sourceFile = path;
    spec.id = json.text(root, "", "id");
    if (!validId(spec.id)) json.fail("id", "'" + spec.id + "' must use lower-case letters, digits and '-'");
    if (info.completeBaseName().toStdString() != spec.id)
        json.fail("id", "'" + spec.id + "' does not match the file name");
    spec.name = json.text(root, "", "name");
    spec.soc = json.text(root, "", "soc");
    spec.gpuArch = json.text(root, "", "gpu_arch");
    spec.computeCapability = json.text(root, "", "compute_capability");
    static const std::regex capability("[0-9]+\\.[0-9]+");
    if (!std::regex_match(spec.computeCapability, capability))
        json.fail("compute_capability", "expected MAJOR.MINOR, got '" + spec.computeCapability + "'");
    spec.modules = json.texts(root, "", "modules");
    if (spec.modules.empty()) json.fail("modules", "expected at least one module part number");
    spec.modelStrings = json.texts(root, "", "model_strings");
    spec.nvpmodelConf = json.text(root, "", "nvpmodel_conf");

    const QJsonObject cpu = json.object(root, "", "cpu");
    json.onlyKeys(cpu, "cpu", {"cores", "name"});
    spec.cpuCores = static_cast<int>(json.integerInRange(cpu, "cpu", "cores", 1, 1024));
    spec.cpuName = json.text(cpu, "cpu", "name");

    readGpu(json, root, spec);

    const QJsonObject memory = json.object(root, "", "memory");
    json.onlyKeys(memory, "memory", {"type", "bus_bits", "size_gib"});
    spec.memoryType = json.text(memory, "memory", "type");
    spec.memoryBusBits = static_cast<int>(json.integerInRange(memory, "memory", "bus_bits", 8, 65536));
    if (spec.memoryBusBits % 8 != 0) json.fail("memory.bus_bits", "expected a multiple of 8");
    spec.memoryGiB = json.positiveNumber(memory, "memory", "size_gib");

    const QJsonObject ladders = json.object(root, "", "ladders");
    json.onlyKeys(ladders, "ladders", {"cpu_khz", "gpu_hz", "emc_hz", "estimated"});
    if (ladders.contains(QLatin1String("estimated"))) {
        if (!ladders.value(QLatin1String("estimated")).isBool())
            json.fail("ladders.estimated", "expected true or false");
        spec.laddersEstimated = ladders.value(QLatin1String("estimated")).toBool();
    }
    spec.cpuLadderKhz = readLadder(json, ladders, "ladders", "cpu_khz");
    spec.gpuLadderHz = readLadder(json, ladders, "ladders", "gpu_hz");
    spec.emcLadderHz = readLadder(json, ladders, "ladders", "emc_hz");

    const QJsonObject grid = json.object(root, "", "grid");
    json.onlyKeys(grid, "grid", {"cores", "cpu_khz", "gpu_hz", "emc_hz", "basis"});
    for (int64_t cores : readLadder(json, grid, "grid", "cores")) {
        if (cores > spec.cpuCores)
            json.fail("grid.cores",
                      std::to_string(cores) + " cores but the board has " + std::to_string(spec.cpuCores));
        spec.grid.cores.push_back(static_cast<int>(cores));
    }
    spec.grid.cpuKhz = readGridAxis(json, grid, "cpu_khz", spec.cpuLadderKhz, "ladders.cpu_khz");
    spec.grid.gpuHz = readGridAxis(json, grid, "gpu_hz", spec.gpuLadderHz, "ladders.gpu_hz");
    spec.grid.emcHz = readGridAxis(json, grid, "emc_hz", spec.emcLadderHz, "ladders.emc_hz");
    spec.grid.basis = json.text(grid, "grid", "basis");

    readPower(json, root, spec); // before the stock modes: MAXN's budget is the module max
    readStockModes(json, root, spec);
    spec.defaultModeId = static_cast<int>(json.integer(root, "", "default_mode"));
    if (!spec.stockMode(spec.defaultModeId))
        json.fail("default_mode", "no stock mode has id " + std::to_string(spec.defaultModeId));
    readEnergy(json, root, spec);

    const QJsonObject sources = json.object(root, "", "sources");
    for (auto it = sources.begin(); it != sources.end(); ++it) {
        const std::string key = it.key().toStdString();
        spec.sources[key] = json.text(sources, "sources", key.c_str());
    }
    for (const char* key : requiredSources)
        if (!spec.sources.count(key))
            json.fail(std::string("sources.") + key, "missing (every value cites its source)");
    return spec;
}

std::vector<DeviceSpec> loadCatalog(const std::string& folder) {
    const QDir dir(QString::fromStdString(folder));
    if (!dir.exists())
        throw InputError(folder +
                         ": device catalog folder not found (set ROOFTOP_DATA_DIR to the folder holding "
                         "devices/ and runtimes.json)");
    const QStringList files =
        dir.entryList({QStringLiteral("*.json")}, QDir::Files | QDir::Readable, QDir::Name);
    if (files.isEmpty()) throw InputError(folder + ": no device files (*.json)");
    std::vector<DeviceSpec> catalog;
    for (const QString& file : files)
        catalog.push_back(loadDeviceFile(dir.filePath(file).toStdString()));
    std::sort(catalog.begin(), catalog.end(),
              [](const DeviceSpec& a, const DeviceSpec& b) { return a.id < b.id; });
    return catalog;
}

bool isDetectedDeviceId(const std::string& id) {
    return id.rfind("cuda:", 0) == 0;
}

namespace {

/// The folder of the running program: Qt's when an application exists, else the kernel's link to it.
QString programFolder() {
    if (QCoreApplication::instance()) return QCoreApplication::applicationDirPath();
    const QString self = QFileInfo(QStringLiteral("/proc/self/exe")).symLinkTarget();
    return self.isEmpty() ? QString() : QFileInfo(self).absolutePath();
}

} // namespace

std::string defaultDataFolder() {
    if (const char* env = std::getenv("ROOFTOP_DATA_DIR"); env && *env) return env;
    const QString dir = programFolder();
    if (dir.isEmpty()) return "share/rooftop";
    // bin/rooftop and libexec/rooftop/rooftop-window of one installation share share/rooftop; a build tree
    // links BUILD/share/rooftop to the sources' resources (app/ and tests/ one level down, tests/bench two)
    const QStringList candidates{dir + QStringLiteral("/../share/rooftop"),
                                 dir + QStringLiteral("/../../share/rooftop")};
    for (const QString& candidate : candidates)
        if (QFileInfo(candidate + QStringLiteral("/devices")).isDir())
            return QDir::cleanPath(candidate).toStdString();
    return QDir::cleanPath(candidates.front()).toStdString(); // where an installation would have it
}

std::string defaultCatalogFolder() {
    return defaultDataFolder() + "/devices";
}

std::string knownDeviceIds(const std::vector<DeviceSpec>& catalog) {
    std::string ids;
    for (const auto& device : catalog)
        ids += (ids.empty() ? "" : ", ") + device.id;
    return ids;
}

const DeviceSpec& findDevice(const std::vector<DeviceSpec>& catalog, const std::string& id) {
    for (const auto& device : catalog)
        if (device.id == id) return device;
    if (isDetectedDeviceId(id) &&
        (id.size() == 5 || id.find_first_not_of("0123456789", 5) != std::string::npos))
        throw InputError("device '" + id + "': a detected GPU is cuda:N, N its CUDA ordinal (0, 1, ...)");
    if (isDetectedDeviceId(id))
        throw UnavailableError("device '" + id +
                               "': no discrete NVIDIA GPU with that CUDA ordinal on this "
                               "machine (rooftop devices lists the detected ones)");
    std::vector<std::string> ids;
    for (const auto& device : catalog)
        ids.push_back(device.id);
    const std::string near = nearestName(id, ids);
    throw InputError("unknown device '" + id + "'" + (near.empty() ? "" : " (did you mean " + near + "?)") +
                     "; known devices: " + knownDeviceIds(catalog));
}

} // namespace rooftop
