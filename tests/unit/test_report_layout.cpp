// SPDX-License-Identifier: GPL-3.0-or-later
// The PDF report's layout: headings kept with what follows, table headers repeated and never broken inside a
// word, checked on the paginated document of a real report and on documents made to fail.
#include "core/session/analysis_session.h"
#include "report/report_builder.h"
#include "report/report_document.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QAbstractTextDocumentLayout>
#include <QTextBlock>
#include <QTextFrame>
#include <QTextTable>
#include <QtTest>

using namespace rooftop;

namespace {

AnalysisResult analysed(const std::string& model) {
    AnalysisRequest request;
    request.modelPath = test::samplePath(model);
    request.deviceId = "agx-orin-64gb";
    report::askForReport(request);
    return runAnalysis(request);
}

int headerRowsOfGridTables(QTextDocument& document, int& tables) {
    int withHeader = 0;
    tables = 0;
    for (QTextFrame::iterator it = document.rootFrame()->begin(); !it.atEnd(); ++it)
        if (auto* table = qobject_cast<QTextTable*>(it.currentFrame())) {
            ++tables;
            if (table->format().headerRowCount() >= 1) ++withHeader;
        }
    return withHeader;
}

} // namespace

class TestReportLayout : public QObject {
    Q_OBJECT
private slots:
    void reportPagesKeepHeadingsAndWholeHeaderWords() {
        for (const std::string model : {"resnet50", "vit_b_16"}) {
            const AnalysisResult result = analysed(model);
            const report::ReportImages images = report::renderReportPlots(result, 300, 180);
            const std::unique_ptr<QTextDocument> document = report::reportPdfDocument(result, images);
            QVERIFY(document->pageCount() >= 2);
            const QStringList broken = report::brokenHeaderWords(*document);
            QVERIFY2(broken.isEmpty(), qPrintable(broken.join(QStringLiteral("; "))));
            const QStringList stranded = report::strandedHeadings(*document);
            QVERIFY2(stranded.isEmpty(), qPrintable(stranded.join(QStringLiteral("; "))));
            int tables = 0;
            QCOMPARE(headerRowsOfGridTables(*document, tables), 2); // the modes and the top-layers tables
            QVERIFY(tables >= 3);                                   // and the key-value model table
        }
    }

    void theChecksFindBrokenWordsAndStrandedHeadings() {
        // A narrow column breaks a long header word; a heading at the foot of a page strands.
        QTextDocument narrow;
        narrow.setHtml(QStringLiteral("<table width=\"100%\" border=1><thead><tr><th>Bandwidth</th><th>x</th>"
                                      "</tr></thead><tr><td>1</td><td>2</td></tr></table>"));
        narrow.setTextWidth(40);
        QVERIFY(!report::brokenHeaderWords(narrow).isEmpty());

        QString html;
        for (int i = 0; i < 30; ++i)
            html += QStringLiteral("<p>paragraph %1</p>").arg(i);
        html +=
            QStringLiteral("<h2>Stranded</h2><p>%1</p>")
                .arg(QString(400, QLatin1Char('w')).replace(QStringLiteral("www"), QStringLiteral("ww ")));
        QTextDocument pages;
        pages.setHtml(html);
        // a page that ends just below the heading
        pages.setPageSize(QSizeF(400, 100000));
        pages.documentLayout()->documentSize();
        QTextBlock heading;
        for (QTextBlock block = pages.begin(); block.isValid(); block = block.next())
            if (block.blockFormat().headingLevel() > 0) heading = block;
        QVERIFY(heading.isValid());
        const QRectF rect = pages.documentLayout()->blockBoundingRect(heading);
        pages.setPageSize(QSizeF(400, rect.bottom() + 4));
        QCOMPARE(report::strandedHeadings(pages), QStringList{QStringLiteral("Stranded")});
        report::paginate(pages, pages.pageSize());
        QVERIFY(report::strandedHeadings(pages).isEmpty());
    }
};

ROOFTOP_TEST_CLASS(TestReportLayout)
#include "test_report_layout.moc"
