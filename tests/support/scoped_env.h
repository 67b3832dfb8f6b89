// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace rooftop::test {

/// Sets (or unsets) an environment variable for a scope and restores its previous value or absence
/// afterwards, also when a failed check returns early: test classes share one process.
class ScopedEnv {
public:
    /// Sets `name` to `value`.
    ScopedEnv(const char* name, const QByteArray& value) : ScopedEnv(name) { qputenv(name_, value); }
    /// Unsets `name`.
    explicit ScopedEnv(const char* name)
        : name_(name), had_(qEnvironmentVariableIsSet(name)), saved_(qgetenv(name)) {
        qunsetenv(name_);
    }
    ~ScopedEnv() {
        if (had_)
            qputenv(name_, saved_);
        else
            qunsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    bool had_;
    QByteArray saved_;
};

} // namespace rooftop::test
