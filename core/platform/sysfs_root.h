// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// The filesystem root that Jetson paths (/proc, /sys, /etc, /var) are read under: "/" on a board, a fake
/// tree in tests. Every platform reader takes one, so no code names an absolute machine path directly.
class SysfsRoot {
public:
    /// A root at `root` ("/" for the real system).
    explicit SysfsRoot(std::string root = "/");
    /// $ROOFTOP_SYSFS_ROOT when set (tests), else "/".
    static SysfsRoot fromEnvironment();

    /// The root folder.
    const std::string& root() const { return root_; }
    /// The real path of `path` ("sys/class/devfreq" or "/sys/class/devfreq") under the root.
    std::string path(const std::string& path) const;
    /// True when the path exists (file or folder).
    bool exists(const std::string& path) const;
    /// The file's text with trailing whitespace and NULs removed (device-tree strings), or nothing when it
    /// cannot be read or is larger than 1 MiB.
    std::optional<std::string> read(const std::string& path) const;
    /// The file's value as a non-negative integer (strict: digits only around whitespace), or nothing.
    std::optional<int64_t> readInteger(const std::string& path) const;
    /// Whitespace-separated non-negative integers of the file (available_frequencies), ascending, without
    /// duplicates; empty when the file is missing or any token is not an integer.
    std::vector<int64_t> readIntegerList(const std::string& path) const;
    /// Names in a folder, sorted; empty when it is not one.
    std::vector<std::string> list(const std::string& path) const;
    /// Writes text to an existing file; false when it cannot.
    bool write(const std::string& path, const std::string& text) const;

private:
    std::string root_;
};

/// Parses a non-negative decimal integer (no sign, at most 18 digits, surrounding whitespace allowed).
std::optional<int64_t> parseStrictInteger(const std::string& text);

} // namespace rooftop
