// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>

namespace rooftop {

/// A problem with what the user gave us (file, model, option): reported as one line, exit code 1.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Something this machine does not have (a CUDA device, a power monitor): reported as one line, exit code 2.
class UnavailableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A computation that has no answer for its data (a rank-deficient fit, a singular system): a program or data
/// limit, not a bad option; callers that can go on without the result get std::optional instead.
class NumericalError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace rooftop
