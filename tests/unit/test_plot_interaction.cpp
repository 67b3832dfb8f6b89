// SPDX-License-Identifier: GPL-3.0-or-later
// What a person does with a plot: the right-click menu (reset zoom, logarithmic axes, copy data as CSV,
// export through plots::exportPlot, which TestMainWindow checks through File → Export plot), the keys, and
// Shift+drag to zoom into a rectangle (app/plots/plot_base.h).
#include "plots/op_time_chart.h"
#include "plots/plot_base.h"
#include "plots/plot_data_csv.h"
#include "support/test_registry.h"

#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QtTest>

using namespace rooftop;

namespace {

/// A plot of two series on linear axes whose fitted view is x 0-10, y 0-100.
class TwoSeriesPlot : public plots::PlotBase {
public:
    TwoSeriesPlot() {
        QCPGraph* line = addGraph();
        line->setName(QStringLiteral("line"));
        line->setData({1, 2, 4}, {10, 20, 40});
        QCPGraph* quoted = addGraph();
        quoted->setName(QStringLiteral("a, \"b\""));
        quoted->setData({3}, {0.5});
        resize(800, 500);
        resetView();
        replot(rpImmediateRefresh);
    }
    void resetView() override {
        xAxis->setRange(0, 10);
        yAxis->setRange(0, 100);
    }

protected:
    QString hoverText(int) const override { return {}; }
};

QAction* action(QMenu* menu, const char* name) {
    for (QAction* a : menu->actions())
        if (a->objectName() == QLatin1String(name)) return a;
    return nullptr;
}

void sendMouse(QWidget* widget, QEvent::Type type, QPoint at, Qt::MouseButtons buttons,
               Qt::KeyboardModifiers keys) {
    QMouseEvent event(type, QPointF(at), widget->mapToGlobal(QPointF(at)), Qt::LeftButton, buttons, keys);
    QApplication::sendEvent(widget, &event);
}

} // namespace

class TestPlotInteraction : public QObject {
    Q_OBJECT

private slots:
    void menuOffersWhatPeopleExpect() {
        TwoSeriesPlot plot;
        std::unique_ptr<QMenu> menu(plot.buildContextMenu(nullptr));
        for (const char* name : {"ResetZoom", "LogarithmicAxes", "CopyCsv", "ExportPlot"})
            QVERIFY2(action(menu.get(), name), name);
        QVERIFY(!action(menu.get(), "LogarithmicAxes")->isChecked()); // the plot's axes are linear
        for (const QString& line : plots::PlotBase::keyMapLines()) {
            bool shown = false;
            for (QAction* a : menu->actions())
                shown = shown || (a->text() == line && !a->isEnabled());
            QVERIFY2(shown, qPrintable(line));
        }
        // a bar chart of op types has a category axis: no log switch there
        plots::OpTimeChart bars;
        std::unique_ptr<QMenu> barMenu(bars.buildContextMenu(nullptr));
        QVERIFY(!action(barMenu.get(), "LogarithmicAxes"));
        QVERIFY(action(barMenu.get(), "CopyCsv"));
    }

    void copiesEverySeriesAsCsv() {
        TwoSeriesPlot plot;
        QCOMPARE(plots::plotDataCsv(plot), QStringLiteral("series,x,y\nline,1,10\nline,2,20\nline,4,40\n"
                                                          "\"a, \"\"b\"\"\",3,0.5\n"));
        std::unique_ptr<QMenu> menu(plot.buildContextMenu(nullptr));
        QApplication::clipboard()->clear();
        action(menu.get(), "CopyCsv")->trigger();
        QCOMPARE(QApplication::clipboard()->text(), plots::plotDataCsv(plot));
    }

    void keysZoomPanAndReset() {
        TwoSeriesPlot plot;
        QTest::keyClick(&plot, Qt::Key_Plus);
        QVERIFY(std::abs(plot.xAxis->range().size() - 8.0) < 1e-9); // 0.8 x 10 about the centre
        QVERIFY(std::abs(plot.xAxis->range().center() - 5.0) < 1e-9);
        QTest::keyClick(&plot, Qt::Key_Right);
        QVERIFY(std::abs(plot.xAxis->range().center() - 5.8) < 1e-9); // a tenth of the 8 shown
        QTest::keyClick(&plot, Qt::Key_Minus);
        QVERIFY(std::abs(plot.xAxis->range().size() - 10.0) < 1e-9);
        QTest::keyClick(&plot, Qt::Key_R);
        QCOMPARE(plot.xAxis->range().lower, 0.0);
        QCOMPARE(plot.xAxis->range().upper, 10.0);
        QCOMPARE(plot.yAxis->range().upper, 100.0);
        QApplication::clipboard()->clear();
        QTest::keyClick(&plot, Qt::Key_C, Qt::ControlModifier);
        QVERIFY(QApplication::clipboard()->text().startsWith(QStringLiteral("series,x,y\nline,1,10")));
    }

    void logarithmicAxesSwitchAndComeBack() {
        TwoSeriesPlot plot;
        const QSharedPointer<QCPAxisTicker> own = plot.yAxis->ticker();
        std::unique_ptr<QMenu> menu(plot.buildContextMenu(nullptr));
        action(menu.get(), "LogarithmicAxes")->trigger();
        QVERIFY(plot.logarithmicAxes());
        QVERIFY(plot.xAxis->range().lower > 0); // a log axis cannot start at 0
        QVERIFY(!plot.yAxis->ticker().dynamicCast<QCPAxisTickerLog>().isNull());
        plot.setLogarithmicAxes(false);
        QVERIFY(!plot.logarithmicAxes());
        QCOMPARE(plot.yAxis->ticker(), own); // the plot's own ticker is back
        std::unique_ptr<QMenu> again(plot.buildContextMenu(nullptr));
        QVERIFY(!action(again.get(), "LogarithmicAxes")->isChecked());
    }

    void shiftDragZoomsIntoTheRectangle() {
        TwoSeriesPlot plot;
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QRect axes = plot.axisRect()->rect();
        const QPoint from = axes.topLeft() + QPoint(axes.width() / 4, axes.height() / 4);
        const QPoint to = axes.topLeft() + QPoint(axes.width() / 2, axes.height() / 2);
        sendMouse(&plot, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(&plot, QEvent::MouseMove, (from + to) / 2, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(&plot, QEvent::MouseMove, to, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(&plot, QEvent::MouseButtonRelease, to, Qt::NoButton, Qt::ShiftModifier);
        // a quarter of each axis: x from about 2.5 to 5, y from about 50 to 75
        QVERIFY2(std::abs(plot.xAxis->range().size() - 2.5) < 0.2,
                 qPrintable(QString::number(plot.xAxis->range().size())));
        QVERIFY(std::abs(plot.xAxis->range().lower - 2.5) < 0.2);
        QVERIFY(std::abs(plot.yAxis->range().size() - 25.0) < 2.0);
        // a plain drag pans: the range keeps its size
        plot.resetView();
        sendMouse(&plot, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::NoModifier);
        sendMouse(&plot, QEvent::MouseMove, to, Qt::LeftButton, Qt::NoModifier);
        sendMouse(&plot, QEvent::MouseButtonRelease, to, Qt::NoButton, Qt::NoModifier);
        QVERIFY(std::abs(plot.xAxis->range().size() - 10.0) < 1e-6);
        QVERIFY(plot.xAxis->range().lower < -1.0);
    }
};

ROOFTOP_TEST_CLASS(TestPlotInteraction)
#include "test_plot_interaction.moc"
