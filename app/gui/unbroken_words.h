// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace rooftop::gui {

/// The text with a word joiner after each hyphen inside a word, so that a wrapping label never breaks a
/// mode id ("c2-cpu2201.6-gpu1300.5-emc3199") at its hyphens; the text reads the same.
QString unbrokenAtHyphens(const QString& text);

/// The text with a no-break space between a number and its unit ("12.1&nbsp;ms", "35.0&nbsp;%"), so that a
/// narrow card never puts the unit at the start of the next line; HTML in, HTML out.
QString unbrokenUnits(const QString& html);

} // namespace rooftop::gui
