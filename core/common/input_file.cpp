// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/input_file.h"

#include "core/common/errors.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace rooftop {

namespace {

std::string mebibytes(int64_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

} // namespace

std::string cutShortLineNote(const std::string& where, const std::string& why) {
    return where + "its last line, without a line break (a write cut short), was left out: " + why;
}

void refuseIrregularFile(const std::string& path, const std::string& what) {
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);
    if (error || !std::filesystem::exists(status)) return;
    if (std::filesystem::is_directory(status)) throw InputError(path + ": a folder, not " + what);
    if (!std::filesystem::is_regular_file(status))
        throw InputError(path + ": not a regular file (a device or a pipe), not " + what);
}

std::string readInputFile(const std::string& path, const std::string& what, int64_t limitBytes) {
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);
    if (!std::filesystem::exists(status))
        throw InputError(
            path + ": cannot read " + what + " (" +
            (error && error != std::errc::no_such_file_or_directory ? error.message() : "no such file") +
            ")");
    refuseIrregularFile(path, what);
    const auto size = std::filesystem::file_size(path, error);
    if (!error && int64_t(size) > limitBytes)
        throw InputError(path + ": larger than " + mebibytes(limitBytes) + ", not " + what);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot read " + what + " (" + std::strerror(errno) + ")");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw InputError(path + ": cannot read " + what + " (a read failed)");
    return text;
}

} // namespace rooftop
