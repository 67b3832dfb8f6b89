// SPDX-License-Identifier: GPL-3.0-or-later
// Labels never collide in the window's plots: in the scenes of ResNet-50, ViT-B/16 and BERT-base, light and
// dark, at 1280 x 800 and 1920 x 1080, every text label of the time and energy rooflines and the power-modes
// plot lies inside its axes and overlaps no other; titles are elided to the plot's width; a narrow plot has
// its legends under the axes; axis labels are elided to their axes. With a 10 or 12 pt font at 1280 x 800 as
// well, and no label has a roof through it.
#include "core/advisor/advisor.h"
#include "gui/advisor_panel.h"
#include "gui/main_window.h"
#include "gui/modes_panel.h"
#include "gui/result_views.h"
#include "gui/theme.h"
#include "plots/pareto_plot.h"
#include "plots/roofline_plot.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QComboBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::gui;
using rooftop::test::rectsOverlap;

namespace {

/// Shows the tab of `plot`, lays it out and draws it once.
void drawShown(plots::PlotBase* plot) {
    QWidget* page = plot;
    while (page->parentWidget() && !qobject_cast<QTabWidget*>(page->parentWidget()->parentWidget()))
        page = page->parentWidget();
    if (auto* tabs =
            qobject_cast<QTabWidget*>(page->parentWidget() ? page->parentWidget()->parentWidget() : nullptr))
        tabs->setCurrentWidget(page);
    QCoreApplication::processEvents();
    plot->replot(QCustomPlot::rpImmediateRefresh);
}

/// The boxes of the text labels drawn over the axes, from the items themselves.
std::vector<QRectF> drawnLabelBoxes(const QCustomPlot& plot) {
    std::vector<QRectF> boxes;
    for (int i = 0; i < plot.itemCount(); ++i) {
        const auto* text = qobject_cast<const QCPItemText*>(plot.item(i));
        if (!text || !text->visible() || text->text().isEmpty()) continue;
        boxes.push_back(
            QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized());
    }
    return boxes;
}

/// Every label inside the axes and apart from every other, and none with a roof drawn over its text.
void verifyLabelsApart(plots::PlotBase* plot, const QString& where) {
    drawShown(plot);
    for (int i = 0; i < plot->itemCount(); ++i) {
        const auto* text = qobject_cast<const QCPItemText*>(plot->item(i));
        if (!text || !text->visible() || !plot->labelsStruck().contains(text->text())) continue;
        // only the chosen mode's labels (bold) stay where a roof crosses them, and the roof passes behind
        QVERIFY2(text->font().bold() && text->brush().style() != Qt::NoBrush,
                 qPrintable(where + QStringLiteral(": a roof runs through ") + text->text()));
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        const auto* text = qobject_cast<const QCPItemText*>(plot->item(i));
        if (!text || !text->visible() || !plot->labelsOverMarkers().contains(text->text())) continue;
        // a label with markers under it wherever it could go keeps its text readable over a veil
        QVERIFY2(text->brush().style() != Qt::NoBrush,
                 qPrintable(where + QStringLiteral(": markers under the bare text ") + text->text()));
    }
    const std::vector<QRectF> boxes = drawnLabelBoxes(*plot);
    QCOMPARE(boxes.size(), plot->labelBoxes().size());
    const QRectF axes(plot->axisRect()->rect());
    for (size_t a = 0; a < boxes.size(); ++a) {
        QVERIFY2(axes.contains(boxes[a]),
                 qPrintable(QStringLiteral("%1: label %2 at %3,%4 %5x%6 outside the axes %7,%8 %9x%10")
                                .arg(where)
                                .arg(a)
                                .arg(boxes[a].x())
                                .arg(boxes[a].y())
                                .arg(boxes[a].width())
                                .arg(boxes[a].height())
                                .arg(axes.x())
                                .arg(axes.y())
                                .arg(axes.width())
                                .arg(axes.height())));
        for (size_t b = a + 1; b < boxes.size(); ++b)
            QVERIFY2(!rectsOverlap(boxes[a], boxes[b]),
                     qPrintable(QStringLiteral("%1: labels %2 and %3 overlap").arg(where).arg(a).arg(b)));
    }
}

/// The window with `sample` opened and analysed.
void openAnalysed(MainWindow& window, const char* sample) {
    window.show();
    window.openModel(QString::fromStdString(test::samplePath(sample)), QStringLiteral("agx-orin-64gb"));
    QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 60000);
}

/// The window at `size`, its three plots' labels apart.
void verifyWindowLabels(MainWindow& window, const QSize& size, const QString& where) {
    window.setGeometry(QRect(QPoint(0, 0), size));
    QTRY_COMPARE(window.size(), size);
    verifyLabelsApart(window.parts().timePlot, where + QStringLiteral(" time"));
    verifyLabelsApart(window.parts().energyPlot, where + QStringLiteral(" energy"));
    verifyLabelsApart(window.parts().paretoPlot, where + QStringLiteral(" modes"));
}

} // namespace

class TestPlotLabels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void labelsNeverCollideInTheWindowsPlots() {
        for (const char* sample : {"resnet50", "vit_b_16", "bert_base"}) {
            MainWindow window;
            openAnalysed(window, sample);
            if (QTest::currentTestFailed()) return;
            // limits draw their lines and labels on the power-modes plot
            const AnalysisResult* before = window.result();
            Constraints limits;
            limits.latencySloSeconds = 10e-3;
            limits.powerCapWatts = 20;
            window.parts().advisor->setQuestion(limits, Objective::Energy);
            QTRY_VERIFY_WITH_TIMEOUT(window.result() != before && !window.runner().busy(), 60000);
            for (const Theme theme : {Theme::Light, Theme::Dark}) {
                window.setTheme(theme);
                for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
                    verifyWindowLabels(window, size,
                                       QStringLiteral("%1 %2 %3x%4")
                                           .arg(QLatin1String(sample))
                                           .arg(theme == Theme::Dark ? "dark" : "light")
                                           .arg(size.width())
                                           .arg(size.height()));
                    if (QTest::currentTestFailed()) return;
                }
            }
            window.setTheme(Theme::Light);
        }
    }

    // A user's larger font on the small screen: 10 and 12 pt (9 pt is Qt's usual default).
    void labelsStayApartWithLargerFonts() {
        const QFont before = QApplication::font();
        for (const qreal points : {10.0, 12.0}) {
            QFont larger = before;
            larger.setPointSizeF(points);
            QApplication::setFont(larger);
            for (const char* sample : {"resnet50", "vit_b_16", "bert_base"}) {
                MainWindow window;
                openAnalysed(window, sample);
                if (!QTest::currentTestFailed())
                    verifyWindowLabels(window, QSize(1280, 800),
                                       QStringLiteral("%1 %2 pt").arg(QLatin1String(sample)).arg(points));
                if (QTest::currentTestFailed()) break;
            }
            if (QTest::currentTestFailed()) break;
        }
        QApplication::setFont(before);
    }

    void titlesAreElidedAndANarrowPlotHasItsLegendsBelow() {
        plots::ParetoPlot plot;
        plot.resize(500, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.setTitle(
            QStringLiteral("Latency against energy — NVIDIA Jetson AGX Orin 64GB, MODE_50W and more"));
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(plot.legendBelow());
        QVERIFY2(plot.shownTitle().endsWith(QStringLiteral("…")), qPrintable(plot.shownTitle()));
        QVERIFY(plot.title().endsWith(QStringLiteral("and more"))); // whole
        QVERIFY(QFontMetrics(plot.titleFont()).horizontalAdvance(plot.shownTitle()) <= 500);
        plot.resize(1200, 600);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(!plot.legendBelow());
        QCOMPARE(plot.shownTitle(), plot.title());
        // an axis label longer than a short plot's axis is elided to it, and whole again when there is room
        const QString energy = QStringLiteral("Energy per inference (mJ) at the chosen batch and precision");
        plot.yAxis->setLabel(energy);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(plot.yAxis->label(), energy);
        plot.resize(1200, 240);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY2(plot.yAxis->label().endsWith(QStringLiteral("…")), qPrintable(plot.yAxis->label()));
        QVERIFY(QFontMetrics(plot.yAxis->labelFont()).horizontalAdvance(plot.yAxis->label()) <=
                plot.axisRect()->rect().height());
        plot.resize(1200, 600);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(plot.yAxis->label(), energy);
    }
};

ROOFTOP_TEST_CLASS(TestPlotLabels)
#include "test_plot_labels.moc"
