// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/restore_journal.h"

#include "core/common/errors.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace rooftop {

namespace {
const char* const journalTag = "rooftop-mode-journal/1 stock=";
}

RestoreJournal::RestoreJournal(std::string path) : path_(std::move(path)) {}

std::string RestoreJournal::defaultPath() {
    if (const char* path = std::getenv("ROOFTOP_MODE_JOURNAL"); path && *path) return path;
    return (QDir::homePath() + "/.local/state/rooftop/mode-journal").toStdString();
}

void RestoreJournal::record(int originalStockId) {
    const QString path = QString::fromStdString(path_);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    const QByteArray text = QByteArray(journalTag) + QByteArray::number(originalStockId) + "\n";
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit())
        throw UnavailableError("cannot write the mode journal " + path_ + "; no mode was changed");
}

std::optional<int> RestoreJournal::pending() const {
    QFile file(QString::fromStdString(path_));
    if (!file.open(QIODevice::ReadOnly)) return std::nullopt;
    const QByteArray text = file.read(256).trimmed();
    if (!text.startsWith(journalTag)) return std::nullopt;
    bool ok = false;
    const int id = text.mid(static_cast<int>(std::strlen(journalTag))).toInt(&ok);
    return ok && id >= 0 && id <= 9999 ? std::optional<int>(id) : std::nullopt;
}

void RestoreJournal::clear() {
    QFile::remove(QString::fromStdString(path_));
}

JournalLock::JournalLock(const std::string& journalPath) {
    const std::string path = lockPath(journalPath);
    QDir().mkpath(QFileInfo(QString::fromStdString(path)).absolutePath());
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        return;
    }
    fd_ = fd;
}

JournalLock::~JournalLock() {
    if (fd_ >= 0) ::close(fd_); // closing drops the flock; the file stays (removing it would race)
}

std::unique_ptr<JournalLock> lockBenchSession(const RestoreJournal& journal) {
    auto lock = std::make_unique<JournalLock>(journal.path());
    if (!lock->held())
        throw UnavailableError("another rooftop bench is running (it holds " +
                               JournalLock::lockPath(journal.path()) + "); no mode was changed");
    return lock;
}

bool replayRestoreJournal(RestoreJournal& journal, ModeSwitcher& switcher) {
    const auto id = journal.pending();
    if (!id) {
        journal.clear(); // a malformed journal names nothing to restore
        return false;
    }
    releaseThenSetStock(switcher, *id);
    journal.clear();
    return true;
}

RestoreGuard::RestoreGuard(ModeSwitcher& switcher, RestoreJournal& journal)
    : switcher_(switcher), journal_(journal) {}

RestoreGuard::~RestoreGuard() {
    try {
        restore();
    } catch (const std::exception&) {
        // the journal stays: the next start restores
    }
}

void RestoreGuard::beforeChange() {
    if (changed_) return;
    const auto current = switcher_.currentStockId();
    if (!current) throw UnavailableError("cannot read the current nvpmodel mode; no mode was changed");
    journal_.record(*current);
    original_ = *current;
    changed_ = true;
}

void RestoreGuard::restore() {
    if (!changed_) return;
    releaseThenSetStock(switcher_, original_);
    journal_.clear();
    changed_ = false;
}

} // namespace rooftop
