// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/csv_append.h"

#include "core/common/errors.h"
#include "core/common/input_file.h"
#include "core/common/text_format.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace rooftop {

void readCsvRows(const std::string& path, const std::string& what,
                 const std::function<size_t(const std::string& where, const std::string& line)>& header,
                 const std::function<void(const std::string& where, const std::vector<std::string>& fields,
                                          int line)>& row,
                 const std::function<void(const std::string& where, const std::string& why)>& dropped) {
    refuseIrregularFile(path, what);
    std::ifstream in(path, std::ios::binary);
    if (!in) return;
    std::string line;
    int number = 0;
    size_t columns = 0; // of the header, once read
    std::vector<std::string> fields;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::string where = path + ":" + std::to_string(number) + ": ";
        if (number == 1) {
            dropUtf8Bom(line);
            columns = header(where, line);
            continue;
        }
        if (line.empty()) continue;
        // a last line without its newline is a row whose write was cut short (a kill, a full disk): when it
        // does not read it is dropped, and the run is done again, rather than making the file unusable
        const bool unterminated = in.eof();
        try {
            std::string why;
            if (!splitCsvLine(line, fields, &why)) throw InputError(where + why);
            if (fields.size() != columns)
                throw InputError(where + "expected " + std::to_string(columns) + " fields, got " +
                                 std::to_string(fields.size()) + " (a truncated line?)");
            row(where, fields, number);
        } catch (const InputError& error) {
            if (!unterminated) throw;
            if (dropped) {
                const std::string message = error.what();
                dropped(where, message.rfind(where, 0) == 0 ? message.substr(where.size()) : message);
            }
        }
    }
}

std::string firstLine(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    if (!in || !std::getline(in, line)) return {};
    if (!line.empty() && line.back() == '\r') line.pop_back();
    dropUtf8Bom(line);
    return line;
}

namespace {

// A last row without its newline was cut short (a kill, a full disk) or written by hand. One that is whole is
// ended with its newline; one that is not is cut off, so the next row starts on a line of its own and a
// reader never meets a broken row in the middle of the file.
void endLastRow(const std::string& path, const CsvAppender::RowCheck& whole) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    if (text.empty() || text.back() == '\n') return;
    const size_t newline = text.rfind('\n');
    const size_t keep = newline == std::string::npos ? 0 : newline + 1;
    std::string tail = text.substr(keep);
    if (!tail.empty() && tail.back() == '\r') tail.pop_back();
    if (keep > 0 && whole(tail)) { // a header alone is not a row
        std::ofstream(path, std::ios::binary | std::ios::app) << '\n';
        return;
    }
    std::error_code error;
    std::filesystem::resize_file(path, keep, error);
    if (error) throw InputError(path + ": cannot drop its unfinished last row (" + error.message() + ")");
}

} // namespace

long flockHolder(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return 0;
    std::ifstream locks("/proc/locks");
    std::string line;
    long byInode = 0; // overlay file systems show another device than stat(): the inode alone, when unique
    int inodeMatches = 0;
    while (std::getline(locks, line)) {
        // "1: FLOCK  ADVISORY  WRITE 1234 08:02:5678 0 EOF"; a waiter's line has "->" after the number
        std::istringstream fields(line);
        std::string number, kind, mode, access, device;
        long pid = 0;
        if (!(fields >> number >> kind) || kind != "FLOCK" || !(fields >> mode >> access >> pid >> device))
            continue;
        unsigned deviceMajor = 0, deviceMinor = 0;
        unsigned long long inode = 0;
        if (std::sscanf(device.c_str(), "%x:%x:%llu", &deviceMajor, &deviceMinor, &inode) != 3 ||
            inode != st.st_ino)
            continue;
        if (deviceMajor == major(st.st_dev) && deviceMinor == minor(st.st_dev)) return pid;
        byInode = pid;
        ++inodeMatches;
    }
    return inodeMatches == 1 ? byInode : 0;
}

CsvAppender::CsvAppender(std::string path, const std::string& header, const RowCheck& whole, bool exclusive)
    : path_(std::move(path)) {
    file_ = std::fopen(path_.c_str(), "abe"); // close-on-exec: a runner's process must not inherit the lock
    if (!file_) throw InputError(path_ + ": cannot open for appending (" + std::strerror(errno) + ")");
    // the lock before any change: a second writer would interleave its rows, or plan from rows the first one
    // is still adding
    if (exclusive && ::flock(::fileno(file_), LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        const long holder = error == EWOULDBLOCK ? flockHolder(::fileno(file_)) : 0;
        std::fclose(file_);
        file_ = nullptr;
        if (error != EWOULDBLOCK)
            throw InputError(path_ + ": cannot lock for appending (" + std::strerror(error) + ")");
        throw InputError(path_ + " is being written by another rooftop" +
                         (holder > 0 ? " (pid " + std::to_string(holder) + ")" : std::string()) +
                         "; wait for it or use another runs file");
    }
    try {
        endLastRow(path_, whole);
    } catch (...) {
        std::fclose(file_);
        file_ = nullptr;
        throw;
    }
    std::fseek(file_, 0, SEEK_END);
    if (std::ftell(file_) == 0) write(header + "\n");
}

CsvAppender::~CsvAppender() {
    if (file_) std::fclose(file_);
}

void CsvAppender::write(const std::string& text) {
    if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fflush(file_) != 0)
        throw InputError(path_ + ": cannot write (" + std::strerror(errno) + ")");
}

} // namespace rooftop
