// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>

namespace rooftop {

/// Something this machine does not have (a CUDA device, a power monitor): reported as one line, exit code 2.
class UnavailableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace rooftop
