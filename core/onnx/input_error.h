// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>

namespace rooftop {

/// A problem with what the user gave us (file, model, option): reported as one line, exit code 1.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace rooftop
