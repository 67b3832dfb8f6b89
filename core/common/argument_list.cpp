// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/argument_list.h"

#include "core/common/decimal_text.h"
#include "core/common/errors.h"
#include "core/common/option_text.h"

#include <cmath>

namespace rooftop {

bool ArgumentList::nextIsOption() const {
    const std::string& next = args_[position_];
    return next.size() > 1 && next[0] == '-';
}

bool ArgumentList::more() const {
    if (position_ < args_.size()) return true;
    refuseUnusedValue();
    return false;
}

void ArgumentList::refuseUnusedValue() const {
    // a flag with a value would be read as the flag alone: --no-switch=no switching nonetheless
    if (attached_)
        throw InputError(option_ + " takes no value; give it as " + option_ + ", without '=" + *attached_ +
                         "'");
}

std::string ArgumentList::takeOption() {
    refuseUnusedValue();
    OptionText typed = splitOption(args_[position_++]);
    option_ = typed.name;
    attached_ = std::move(typed.attached);
    // the last of two values would win without a word: --power-cap 10 ... --power-cap 30
    taken_.insert(option_);
    const auto [earlier, first] = givenAs_.emplace(longOptionName(option_), option_);
    if (!first && repeatable_.count(option_) == 0)
        throw InputError(earlier->second == option_ ? option_ + " is given twice; give it once"
                                                    : earlier->second + " and " + option_ +
                                                          " name one option, given twice; give it once");
    return option_;
}

std::string ArgumentList::takePositional() {
    refuseUnusedValue();
    return args_[position_++];
}

void ArgumentList::allowRepeated(std::initializer_list<const char*> options) {
    for (const char* option : options)
        repeatable_.insert(option);
}

std::string ArgumentList::takeValue(const std::string& option) {
    std::string value;
    if (attached_) {
        value = std::move(*attached_);
        attached_.reset();
    } else {
        if (position_ >= args_.size()) throw InputError(option + " needs a value");
        value = args_[position_++];
    }
    // an empty value is no value: --device "" read as no board, --runner "" as the default runner
    if (value.empty()) throw InputError(option + " needs a value, got an empty one");
    return value;
}

int64_t ArgumentList::takeInteger(const std::string& option, int64_t minimum, int64_t maximum) {
    const std::string text = takeValue(option);
    const std::optional<int64_t> value = readInteger(text);
    if (!value || *value < minimum || *value > maximum)
        throw InputError(option + " expects an integer from " + std::to_string(minimum) + " to " +
                         std::to_string(maximum) + ", got '" + text + "'");
    return *value;
}

double ArgumentList::takeNumber(const std::string& option, double minimum, bool inclusive, const char* what) {
    const std::string text = takeValue(option);
    const std::optional<double> value = readDecimal(text);
    if (!value || !(inclusive ? *value >= minimum : *value > minimum))
        throw InputError(option + " expects " + what + ", got '" + text + "'");
    return *value;
}

} // namespace rooftop
