// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rooftop {

/// Walks a command line's arguments (a command's, or the window's): options with values ("--batch 4" or
/// "--batch=4"), flags and positionals. Every malformed use throws InputError with a one-line message.
class ArgumentList {
public:
    /// Walks `args` in order, from the first.
    explicit ArgumentList(std::vector<std::string> args) : args_(std::move(args)) {}

    /// True while arguments remain; at the end, throws InputError when the last option was given a value it
    /// does not take ("--no-switch=no").
    bool more() const;
    /// True when the next argument is an option (starts with "-" and is not "-").
    bool nextIsOption() const;
    /// Takes the next option's name ("--batch"), splitting "--name=value" forms; an option given before,
    /// under any of its names (-o, --out, --output), throws InputError unless it is repeatable (--dim and the
    /// like, or allowRepeated).
    std::string takeOption();
    /// Lets this command take `options` more than once (it gathers their values).
    void allowRepeated(std::initializer_list<const char*> options);
    /// The next value of `option`; throws InputError when there is none or it is empty.
    std::string takeValue(const std::string& option);
    /// Takes the option value as an integer in [minimum, maximum].
    int64_t takeInteger(const std::string& option, int64_t minimum, int64_t maximum);
    /// Takes the option value as a finite number above `minimum` (or equal to it when inclusive); `what`
    /// names the expected value in the error ("a positive number of watts").
    double takeNumber(const std::string& option, double minimum, bool inclusive, const char* what);
    /// Takes a positional argument.
    std::string takePositional();
    /// True when `option` was taken ("--optimizer"), with or without a value.
    bool wasGiven(const std::string& option) const { return taken_.count(option) > 0; }

private:
    std::vector<std::string> args_;
    size_t position_ = 0;
    std::string option_;                  ///< the option taken last
    std::optional<std::string> attached_; ///< its "--name=value" value, until takeValue takes it
    std::set<std::string> taken_;
    std::map<std::string, std::string> givenAs_; ///< each option taken, by its long name: the name typed
    /// Throws InputError when the option taken last had an attached value that no takeValue took.
    void refuseUnusedValue() const;
    std::set<std::string> repeatable_ = {"--dim", "--training-dim", "--context", "--llama-bench",
                                         "--mlc-bench"};
};

} // namespace rooftop
