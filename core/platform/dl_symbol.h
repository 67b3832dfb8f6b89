// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <dlfcn.h>

namespace rooftop {

/// Sets `function` to the dlopen()ed library's symbol of this name; false when the library lacks it.
template <typename Function> bool resolveSymbol(void* library, const char* symbol, Function& function) {
    function = reinterpret_cast<Function>(dlsym(library, symbol));
    return function != nullptr;
}

} // namespace rooftop
