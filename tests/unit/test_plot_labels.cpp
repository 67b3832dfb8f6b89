// SPDX-License-Identifier: GPL-3.0-or-later
// Labels never collide in the window's plots: in the scenes of ResNet-50, ViT-B/16 and BERT-base, light and
// dark, at 1280 x 800 and 1920 x 1080, every text label of the time and energy rooflines and the power-modes
// plot lies inside its axes and overlaps no other; titles are elided to the plot's width; a narrow plot has
// its legends under the axes; axis labels are elided to their axes. With a 10 or 12 pt font at 1280 x 800 as
// well, and no label has a roof through it. With a measured layer profile, no bare label covers a measured
// layer, its prediction or the whole model's star.
#include "core/advisor/advisor.h"
#include "gui/advisor_panel.h"
#include "gui/layer_profile_import.h"
#include "gui/main_window.h"
#include "gui/model_attachments.h"
#include "gui/modes_panel.h"
#include "gui/result_views.h"
#include "gui/theme.h"
#include "plots/pareto_plot.h"
#include "plots/roofline_plot.h"
#include "support/compare_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QComboBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
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
    // a label with markers under it wherever it could go keeps its text readable over a veil (two stacks
    // may read alike: as many veiled labels of a text as were placed over markers)
    for (const QString& covering : plot->labelsOverMarkers()) {
        int veiled = 0;
        for (int i = 0; i < plot->itemCount(); ++i) {
            const auto* text = qobject_cast<const QCPItemText*>(plot->item(i));
            veiled +=
                text && text->visible() && text->text() == covering && text->brush().style() != Qt::NoBrush;
        }
        QVERIFY2(veiled >= plot->labelsOverMarkers().count(covering),
                 qPrintable(where + QStringLiteral(": markers under the bare text ") + covering));
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

    void labelsKeepOffMeasuredLayersAndTheWholeModel() {
        QTemporaryDir folder;
        const QString profile = folder.filePath(QStringLiteral("resnet18-trt86.json"));
        QVERIFY(test::writeText(profile, test::trtexecProfileJson(test::resnet18Trt86Layers())));
        MainWindow window;
        openAnalysed(window, "resnet18");
        QCOMPARE(window.parts().attachments->importLayerProfile(profile), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!window.parts().layerImport->running() && !window.runner().busy(), 60000);
        for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
            window.setGeometry(QRect(QPoint(0, 0), size));
            QTRY_COMPARE(window.size(), size);
            plots::RooflinePlot* plot = window.parts().timePlot;
            const QString where =
                QStringLiteral("resnet18 measured %1x%2").arg(size.width()).arg(size.height());
            verifyLabelsApart(plot, where);
            if (QTest::currentTestFailed()) return;
            // the pixel boxes of the star, the measured circles and their predictions' pluses, as drawn
            std::vector<QRectF> marks;
            for (int g = 0; g < plot->graphCount(); ++g) {
                QCPGraph* graph = plot->graph(g);
                const QString name = graph->name();
                if (name != QLatin1String("whole model") && !name.startsWith(QLatin1String("measured")) &&
                    !name.startsWith(QLatin1String("predicted (same")))
                    continue;
                const double half = graph->scatterStyle().size() / 2;
                for (auto point = graph->data()->constBegin(); point != graph->data()->constEnd(); ++point) {
                    const QPointF at(plot->xAxis->coordToPixel(point->key),
                                     plot->yAxis->coordToPixel(point->value));
                    marks.emplace_back(at.x() - half, at.y() - half, 2 * half, 2 * half);
                }
            }
            QVERIFY(marks.size() > 20);
            for (int i = 0; i < plot->itemCount(); ++i) {
                const auto* text = qobject_cast<const QCPItemText*>(plot->item(i));
                if (!text || !text->visible() || text->text().isEmpty() ||
                    text->brush().style() != Qt::NoBrush)
                    continue; // a veiled label is drawn over what it covers, readable
                const QMargins pad = text->padding();
                const QRectF ink = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition())
                                       .normalized()
                                       .adjusted(pad.left(), pad.top(), -pad.right(), -pad.bottom());
                for (const QRectF& mark : marks)
                    QVERIFY2(!ink.intersects(mark),
                             qPrintable(QStringLiteral("%1: \"%2\" over a point at %3,%4")
                                            .arg(where, text->text())
                                            .arg(mark.center().x())
                                            .arg(mark.center().y())));
            }
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

    void titlesWrapOnceThenAreElidedAndANarrowPlotHasItsLegendsBelow() {
        plots::ParetoPlot plot;
        plot.resize(500, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        const QFontMetrics metrics(plot.titleFont());
        // too wide for one line: two, broken after the colon, each within the plot, nothing cut
        const QString head = QStringLiteral("Time of GPU 1301 · EMC 3199 at batch 4:");
        const QString tail = QStringLiteral("9 inference batches, 26 training minibatches");
        QVERIFY(metrics.horizontalAdvance(head + QLatin1Char(' ') + tail) > 500);
        plot.setTitle(head + QLatin1Char(' ') + tail);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(plot.legendBelow());
        QCOMPARE(plot.shownTitle(), head + QLatin1Char('\n') + tail);
        // too wide for two: the second line elided
        plot.setTitle(QStringLiteral(
            "Latency against energy — NVIDIA Jetson AGX Orin 64GB, MODE_50W, MODE_30W, MODE_15W, "
            "MAXN and the custom modes of the grid at every batch"));
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QStringList lines = plot.shownTitle().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[1].endsWith(QStringLiteral("…")), qPrintable(plot.shownTitle()));
        QVERIFY(plot.title().endsWith(QStringLiteral("every batch"))); // whole
        for (const QString& line : lines)
            QVERIFY(metrics.horizontalAdvance(line) <= 500);
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
