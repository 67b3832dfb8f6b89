// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/sysfs_root.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rooftop {

namespace fs = std::filesystem;

SysfsRoot::SysfsRoot(std::string root) : root_(root.empty() ? "/" : std::move(root)) {}

SysfsRoot SysfsRoot::fromEnvironment() {
    if (const char* root = std::getenv("ROOFTOP_SYSFS_ROOT"); root && *root) return SysfsRoot(root);
    return SysfsRoot("/");
}

std::string SysfsRoot::path(const std::string& path) const {
    std::string relative = path;
    while (!relative.empty() && relative.front() == '/')
        relative.erase(relative.begin());
    if (root_ == "/") return "/" + relative;
    return (fs::path(root_) / relative).string();
}

bool SysfsRoot::exists(const std::string& p) const {
    std::error_code error;
    return fs::exists(path(p), error);
}

std::optional<std::string> SysfsRoot::read(const std::string& p) const {
    std::error_code error;
    const std::string full = path(p);
    if (!fs::is_regular_file(full, error)) return std::nullopt;
    std::ifstream in(full, std::ios::binary);
    if (!in) return std::nullopt;
    constexpr size_t limit = 1 << 20;
    std::string text;
    char chunk[4096]; // sysfs files are tiny: no 1 MiB buffer per read (the power sampler reads every 20 ms)
    while (in) {
        in.read(chunk, sizeof chunk);
        text.append(chunk, static_cast<size_t>(in.gcount()));
        if (text.size() > limit) return std::nullopt;
    }
    while (!text.empty() && (text.back() == '\0' || std::isspace(static_cast<unsigned char>(text.back()))))
        text.pop_back();
    return text;
}

std::optional<int64_t> parseStrictInteger(const std::string& text) {
    size_t begin = 0, end = text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
        ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
        --end;
    if (begin == end || end - begin > 18) return std::nullopt;
    int64_t value = 0;
    for (size_t i = begin; i < end; ++i) {
        if (text[i] < '0' || text[i] > '9') return std::nullopt;
        value = value * 10 + (text[i] - '0');
    }
    return value;
}

std::optional<int64_t> SysfsRoot::readInteger(const std::string& p) const {
    const auto text = read(p);
    return text ? parseStrictInteger(*text) : std::nullopt;
}

std::vector<int64_t> SysfsRoot::readIntegerList(const std::string& p) const {
    const auto text = read(p);
    if (!text) return {};
    std::istringstream in(*text);
    std::vector<int64_t> values;
    std::string token;
    while (in >> token) {
        const auto value = parseStrictInteger(token);
        if (!value || values.size() > 4096) return {};
        values.push_back(*value);
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

std::vector<std::string> SysfsRoot::list(const std::string& p) const {
    std::error_code error;
    std::vector<std::string> names;
    fs::directory_iterator it(path(p), error), end;
    for (; !error && it != end; it.increment(error))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

bool SysfsRoot::write(const std::string& p, const std::string& text) const {
    std::error_code error;
    const std::string full = path(p);
    if (!fs::is_regular_file(full, error)) return false;
    std::ofstream out(full, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    return static_cast<bool>(out);
}

} // namespace rooftop
