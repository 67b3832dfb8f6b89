// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>

namespace rooftop {

/// An option as typed: its name and, for `--name=value`, the value after the first '='.
struct OptionText {
    std::string name;                    ///< the option's name as typed ("--dim", "-o")
    std::optional<std::string> attached; ///< the value after the first '='; none without one
};

/// Splits `--name=value` at its first '=' (`--dim=sequence=128`: `--dim`, `sequence=128`), as every front-end
/// reads its options; anything else (`-o`, `--device`, a positional) is returned whole with no value.
OptionText splitOption(const std::string& arg);

/// The long name of an option that has several ("-o" and "--out" are "--output", "-h" is "--help"); any other
/// name as it is.
std::string longOptionName(const std::string& name);

} // namespace rooftop
