// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/nvpmodel_conf.h"

#include "core/common/errors.h"
#include "core/platform/sysfs_root.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace rooftop {

namespace {

std::string trimmed(const std::string& text) {
    size_t begin = 0, end = text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
        ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
        --end;
    return text.substr(begin, end - begin);
}

std::vector<std::string> tokens(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    std::string token;
    while (in >> token)
        out.push_back(token);
    return out;
}

[[noreturn]] void fail(int line, const std::string& what) {
    throw InputError("nvpmodel.conf line " + std::to_string(line) + ": " + what);
}

// "KEY=VALUE" attributes of a header; the first token is the header kind.
std::map<std::string, std::string> attributes(const std::vector<std::string>& words, int line) {
    std::map<std::string, std::string> out;
    for (size_t i = 1; i < words.size(); ++i) {
        const auto eq = words[i].find('=');
        if (eq == std::string::npos || eq == 0)
            fail(line, "expected KEY=VALUE, got '" + words[i].substr(0, 40) + "'");
        out[words[i].substr(0, eq)] = words[i].substr(eq + 1);
    }
    return out;
}

std::optional<int64_t> signedInteger(const std::string& text) {
    if (!text.empty() && text[0] == '-') {
        const auto magnitude = parseStrictInteger(text.substr(1));
        return magnitude ? std::optional<int64_t>(-*magnitude) : std::nullopt;
    }
    return parseStrictInteger(text);
}

} // namespace

std::optional<int64_t> NvpmodelMode::integer(const std::string& param, const std::string& argument) const {
    for (const auto& s : settings)
        if (s.param == param && s.argument == argument) return signedInteger(s.value);
    return std::nullopt;
}

int NvpmodelMode::onlineCores() const {
    std::set<std::string> online;
    bool any = false;
    for (const auto& s : settings)
        if (s.param == "CPU_ONLINE") {
            any = true;
            if (s.value == "1") online.insert(s.argument);
        }
    if (!any) return 0;
    online.insert("CORE_0"); // nvpmodel never offlines core 0
    return static_cast<int>(online.size());
}

int NvpmodelMode::tpcPgMask() const {
    const auto mask = integer("TPC_POWER_GATING", "TPC_PG_MASK");
    return mask && *mask >= 0 && *mask <= 0xffff ? static_cast<int>(*mask) : -1;
}

int NvpmodelMode::gpuPgMask() const {
    const auto mask = integer("GPU_POWER_GATING", "GPU_PG_MASK");
    return mask && *mask >= 0 && *mask <= 0xffff ? static_cast<int>(*mask) : -1;
}

namespace {

const NvpmodelParam* clockParam(const std::vector<NvpmodelParam>& params, const std::string& name) {
    for (const auto& p : params)
        if (p.type == "CLOCK" && p.name == name) return &p;
    return nullptr;
}

std::string maxFreqPath(const NvpmodelParam& p) {
    for (const char* key : {"MAX_FREQ", "MAX_FREQ_KNEXT"})
        if (const auto it = p.arguments.find(key); it != p.arguments.end()) return it->second;
    return {};
}

bool contains(const std::string& text, const char* part) {
    return text.find(part) != std::string::npos;
}

} // namespace

std::string NvpmodelConf::cpuClockParam() const {
    for (const auto& p : params)
        if (p.type == "CLOCK" && p.name.rfind("CPU_", 0) == 0 && contains(maxFreqPath(p), "/cpu0/cpufreq/"))
            return p.name;
    for (const auto& p : params)
        if (p.type == "CLOCK" && p.name.rfind("CPU_", 0) == 0) return p.name;
    return {};
}

std::string NvpmodelConf::gpuClockParam() const {
    if (clockParam(params, "GPU")) return "GPU";
    for (const auto& p : params) {
        const std::string path = maxFreqPath(p);
        if (p.type == "CLOCK" &&
            (contains(path, "gpu-gpc-") || contains(path, "17000000.") || contains(path, "57000000.gpu")))
            return p.name;
    }
    return {};
}

std::string NvpmodelConf::emcClockParam() const {
    if (clockParam(params, "EMC")) return "EMC";
    for (const auto& p : params) {
        const std::string path = maxFreqPath(p);
        if (p.type == "CLOCK" && (contains(path, "emc") || contains(path, "bwmgr"))) return p.name;
    }
    return {};
}

const NvpmodelMode* NvpmodelConf::mode(int id) const {
    for (const auto& m : modes)
        if (m.id == id) return &m;
    return nullptr;
}

NvpmodelConf parseNvpmodelConf(const std::string& text) {
    if (text.size() > (1u << 20)) throw InputError("nvpmodel.conf: larger than 1 MiB");
    NvpmodelConf conf;
    std::istringstream in(text);
    std::string raw;
    int line = 0;
    enum class Block { None, Param, Mode, Other } block = Block::None;
    while (std::getline(in, raw)) {
        ++line;
        std::string content = trimmed(raw.substr(0, raw.find('#')));
        if (content.empty()) continue;
        if (content.front() == '<') {
            if (content.back() != '>') fail(line, "header without a closing '>'");
            const auto words = tokens(content.substr(1, content.size() - 2));
            if (words.empty()) fail(line, "empty header");
            const auto attrs = attributes(words, line);
            const std::string& kind = words[0];
            if (kind == "PARAM") {
                if (!attrs.count("NAME") || attrs.at("NAME").empty()) fail(line, "PARAM without NAME");
                conf.params.push_back({attrs.count("TYPE") ? attrs.at("TYPE") : "", attrs.at("NAME"), {}});
                block = Block::Param;
            } else if (kind == "POWER_MODEL") {
                if (!attrs.count("ID")) fail(line, "POWER_MODEL without ID");
                const auto id = parseStrictInteger(attrs.at("ID"));
                if (!id || *id > 9999)
                    fail(line, "POWER_MODEL ID '" + attrs.at("ID").substr(0, 20) + "' is not a mode number");
                if (conf.mode(static_cast<int>(*id)))
                    fail(line, "duplicate POWER_MODEL ID " + std::to_string(*id));
                if (conf.modes.size() >= 256) fail(line, "more than 256 power modes");
                conf.modes.push_back(
                    {static_cast<int>(*id), attrs.count("NAME") ? attrs.at("NAME") : "", {}});
                block = Block::Mode;
            } else if (kind == "PM_CONFIG") {
                if (attrs.count("DEFAULT")) {
                    const auto id = parseStrictInteger(attrs.at("DEFAULT"));
                    if (!id || *id > 9999) fail(line, "PM_CONFIG DEFAULT is not a mode number");
                    conf.defaultId = static_cast<int>(*id);
                }
                block = Block::Other;
            } else {
                block = Block::Other; // FAN_CONFIG and other blocks this reader does not need
            }
            continue;
        }
        const auto words = tokens(content);
        if (block == Block::Param) {
            if (words.size() < 2) fail(line, "expected ARG PATH inside PARAM " + conf.params.back().name);
            conf.params.back().arguments[words[0]] = words[1];
        } else if (block == Block::Mode) {
            if (words.size() < 3) fail(line, "expected PARAM ARG VALUE inside POWER_MODEL");
            if (conf.modes.back().settings.size() >= 4096) fail(line, "too many settings in one mode");
            conf.modes.back().settings.push_back({words[0], words[1], words[2]});
        } else if (block == Block::None) {
            fail(line, "setting outside any block");
        }
    }
    return conf;
}

std::optional<int> parseNvpmodelStatus(const std::string& text) {
    const auto at = text.find("pmode:");
    if (at == std::string::npos) return std::nullopt;
    std::string digits;
    for (size_t i = at + 6;
         i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && digits.size() < 6; ++i)
        digits += text[i];
    const auto id = parseStrictInteger(digits);
    return id ? std::optional<int>(static_cast<int>(*id)) : std::nullopt;
}

} // namespace rooftop
