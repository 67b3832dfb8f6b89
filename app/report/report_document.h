// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSizeF>
#include <QStringList>
#include <QTextDocument>
#include <memory>

namespace rooftop::report {

/// Lays a report document out on pages of `pageSize` (document pixels): every heading is moved to the next
/// page when what follows it (a paragraph, an image, the first rows of a table, a whole table that fits on a
/// page) would start on another; table header rows repeat on each page.
void paginate(QTextDocument& document, const QSizeF& pageSize);

/// The headings of a paginated document that sit on another page than the start of what follows them
/// (their text); empty when none.
QStringList strandedHeadings(QTextDocument& document);

/// The header cells of the document's tables whose text is broken inside a word ("Bandw|idth"); empty when
/// none.
QStringList brokenHeaderWords(QTextDocument& document);

/// The page size, in document pixels, of the PDF report's A4 pages with 15 mm margins.
QSizeF reportPageSize();

} // namespace rooftop::report
