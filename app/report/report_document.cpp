// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_document.h"

#include <QAbstractTextDocumentLayout>
#include <QPageLayout>
#include <QPageSize>
#include <QTextBlock>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <cmath>
#include <vector>

namespace rooftop::report {

namespace {

/// A top-level piece of the document: a block or a table (with its header row count).
struct Piece {
    QTextBlock block; ///< valid for a block
    QTextTable* table = nullptr;
};

std::vector<Piece> pieces(QTextDocument& document) {
    std::vector<Piece> out;
    for (QTextFrame::iterator it = document.rootFrame()->begin(); !it.atEnd(); ++it) {
        if (QTextFrame* frame = it.currentFrame()) {
            if (auto* table = qobject_cast<QTextTable*>(frame)) out.push_back({QTextBlock(), table});
        } else if (it.currentBlock().isValid()) {
            out.push_back({it.currentBlock(), nullptr});
        }
    }
    return out;
}

bool isHeading(const Piece& piece) {
    return piece.block.isValid() && piece.block.blockFormat().headingLevel() > 0;
}

bool isEmptyBlock(const Piece& piece) {
    return piece.block.isValid() && piece.block.text().trimmed().isEmpty() &&
           !piece.block.text().contains(QChar::ObjectReplacementCharacter);
}

double pageHeight(QTextDocument& document) {
    return document.pageSize().height();
}

int pageOf(QTextDocument& document, double y) {
    return int(std::floor(y / pageHeight(document)));
}

/// The bottom of what must share the heading's page: a paragraph's first line, a table's first data row, or
/// the whole table when it fits on one page.
double keepBottom(QTextDocument& document, const Piece& next) {
    QAbstractTextDocumentLayout* layout = document.documentLayout();
    if (next.table) {
        const QRectF whole = layout->frameBoundingRect(next.table);
        if (whole.height() < pageHeight(document) * 0.8) return whole.bottom() - 1;
        const int row = std::min(next.table->rows() - 1, std::max(1, next.table->format().headerRowCount()));
        const QRectF cell =
            layout->blockBoundingRect(next.table->cellAt(row, 0).firstCursorPosition().block());
        return cell.bottom() - 1;
    }
    const QRectF rect = layout->blockBoundingRect(next.block);
    const QTextLayout* text = next.block.layout();
    if (text && text->lineCount() > 0) return rect.top() + text->lineAt(0).rect().bottom() - 1;
    return rect.bottom() - 1;
}

double topOf(QTextDocument& document, const Piece& piece) {
    QAbstractTextDocumentLayout* layout = document.documentLayout();
    return piece.table ? layout->frameBoundingRect(piece.table).top()
                       : layout->blockBoundingRect(piece.block).top();
}

/// The first non-empty piece after `index`, or -1.
int nextPiece(const std::vector<Piece>& all, size_t index) {
    for (size_t i = index + 1; i < all.size(); ++i)
        if (!isEmptyBlock(all[i])) return int(i);
    return -1;
}

} // namespace

QStringList strandedHeadings(QTextDocument& document) {
    QStringList stranded;
    document.documentLayout()->documentSize(); // lays the document out
    const std::vector<Piece> all = pieces(document);
    for (size_t i = 0; i < all.size(); ++i) {
        if (!isHeading(all[i])) continue;
        const int next = nextPiece(all, i);
        if (next < 0) continue;
        if (pageOf(document, topOf(document, all[i])) !=
            pageOf(document, keepBottom(document, all[size_t(next)])))
            stranded << all[i].block.text();
    }
    return stranded;
}

void paginate(QTextDocument& document, const QSizeF& pageSize) {
    document.setPageSize(pageSize);
    for (const Piece& piece : pieces(document)) {
        if (!piece.table) continue;
        // a table whose first row is all header cells repeats it on every page
        QTextTableFormat format = piece.table->format();
        bool headerRow = piece.table->rows() > 1;
        for (int column = 0; column < piece.table->columns() && headerRow; ++column) {
            const QTextCharFormat cellFormat = piece.table->cellAt(0, column).format();
            headerRow =
                cellFormat.fontWeight() >= QFont::Bold ||
                piece.table->cellAt(0, column).firstCursorPosition().charFormat().fontWeight() >= QFont::Bold;
        }
        if (headerRow && format.headerRowCount() < 1) {
            format.setHeaderRowCount(1);
            piece.table->setFormat(format);
        }
    }
    // One heading at a time from the top: moving one moves everything after it.
    for (int round = 0; round < 64; ++round) {
        document.documentLayout()->documentSize();
        const std::vector<Piece> all = pieces(document);
        bool moved = false;
        for (size_t i = 0; i < all.size() && !moved; ++i) {
            if (!isHeading(all[i])) continue;
            const int next = nextPiece(all, i);
            if (next < 0) continue;
            const double top = topOf(document, all[i]);
            if (pageOf(document, top) == pageOf(document, keepBottom(document, all[size_t(next)]))) continue;
            QTextBlockFormat format = all[i].block.blockFormat();
            if (format.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore) continue; // moved already
            format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            QTextCursor(all[i].block).setBlockFormat(format);
            moved = true;
        }
        if (!moved) break;
    }
}

QStringList brokenHeaderWords(QTextDocument& document) {
    QStringList broken;
    document.documentLayout()->documentSize();
    for (const Piece& piece : pieces(document)) {
        if (!piece.table) continue;
        const int headerRows = std::max(1, piece.table->format().headerRowCount());
        for (int row = 0; row < std::min(headerRows, piece.table->rows()); ++row)
            for (int column = 0; column < piece.table->columns(); ++column) {
                const QTextTableCell cell = piece.table->cellAt(row, column);
                for (QTextBlock block = cell.firstCursorPosition().block();
                     block.isValid() && block.position() < cell.lastCursorPosition().position() + 1;
                     block = block.next()) {
                    const QTextLayout* layout = block.layout();
                    const QString text = block.text();
                    for (int line = 1; layout && line < layout->lineCount(); ++line) {
                        const int start = layout->lineAt(line).textStart();
                        if (start <= 0 || start > text.size()) continue;
                        const QChar before = text.at(start - 1);
                        if (!before.isSpace() && before != QChar::LineSeparator && before != u'/' &&
                            before != u'-')
                            broken << text.left(start) + QStringLiteral("|") + text.mid(start);
                    }
                }
            }
    }
    return broken;
}

QSizeF reportPageSize() {
    const QPageLayout page(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 15, 15, 15),
                           QPageLayout::Millimeter);
    return page.paintRect(QPageLayout::Point).size() * (96.0 / 72.0); // points to document pixels at 96 dpi
}

} // namespace rooftop::report
