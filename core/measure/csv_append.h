// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/csv_line.h"

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace rooftop {

/// Reads a CSV file that a sweep appends to: `header` gets "PATH:1: " and the first line and returns how many
/// fields a row has (it throws InputError for another header); `row` gets "PATH:LINE: ", the fields of each
/// further non-empty line and its line number. A line with a bad quote or another field count throws
/// InputError naming it, except a last line without its line break (a write cut short), which is dropped
/// when it does not read (`dropped`, when given, gets "PATH:LINE: " and why). A missing file has no lines;
/// a folder, device or pipe is refused as `what` (readInputFile's error).
void readCsvRows(const std::string& path, const std::string& what,
                 const std::function<size_t(const std::string& where, const std::string& line)>& header,
                 const std::function<void(const std::string& where, const std::vector<std::string>& fields,
                                          int line)>& row,
                 const std::function<void(const std::string& where, const std::string& why)>& dropped = {});

/// The process holding a flock() on the file open as `fd` (from /proc/locks), 0 when unknown.
long flockHolder(int fd);

/// The first line of a file without its line break; empty when the file is missing or empty.
std::string firstLine(const std::string& path);

/// Appends lines to a CSV file that a sweep fills as it goes: the header first when the file is new or empty,
/// every write flushed at once, so an interrupted sweep leaves whole lines.
class CsvAppender {
public:
    /// True when a last line (without its line break) is a whole row.
    using RowCheck = std::function<bool(const std::string& line)>;
    /// Opens for appending; a last row cut short (no line break) is ended when `whole` accepts it and cut off
    /// otherwise. With `exclusive`, first takes an exclusive flock() on the file, held until destruction (the
    /// kernel drops it when the process dies). Throws InputError when the file cannot be opened, or "PATH is
    /// being written by another rooftop (pid N); ..." when another open appender holds the lock.
    CsvAppender(std::string path, const std::string& header, const RowCheck& whole, bool exclusive = false);
    /// Closes the file, releasing the lock when it holds one.
    ~CsvAppender();
    CsvAppender(const CsvAppender&) = delete;
    CsvAppender& operator=(const CsvAppender&) = delete;
    /// Writes and flushes text (whole lines with their line breaks); throws InputError when it fails.
    void write(const std::string& text);
    /// The file's path.
    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::FILE* file_ = nullptr;
};

} // namespace rooftop
