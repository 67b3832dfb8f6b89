// SPDX-License-Identifier: GPL-3.0-or-later
// Draws the series of a CSV file (first column x, one column per series, a header naming them) as lines with
// markers into a PNG, for the figures in the README (scripts/plot-learn-accuracy.sh). Not part of Rooftop.
// Usage: plot_csv IN.csv OUT.png [--title T] [--x-label L] [--y-label L] [--log-x] [--size WxH]
#include <QApplication>
#include <QFile>
#include <QTextStream>
#include <cstdio>
#include <qcustomplot.h>

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "plot_csv: %s\n", qPrintable(message));
    return 1;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 3)
        return fail("usage: plot_csv IN.csv OUT.png [--title T] [--x-label L] [--y-label L] "
                    "[--log-x] [--size WxH]");
    QString title, xLabel, yLabel;
    bool logX = false;
    int width = 900, height = 560;
    for (int i = 3; i < args.size(); ++i) {
        auto value = [&]() { return i + 1 < args.size() ? args[++i] : QString(); };
        if (args[i] == "--title")
            title = value();
        else if (args[i] == "--x-label")
            xLabel = value();
        else if (args[i] == "--y-label")
            yLabel = value();
        else if (args[i] == "--log-x")
            logX = true;
        else if (args[i] == "--size") {
            const QStringList size = value().split('x');
            if (size.size() != 2) return fail("--size takes WxH");
            width = size[0].toInt();
            height = size[1].toInt();
        } else
            return fail("unknown option " + args[i]);
    }
    QFile file(args[1]);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return fail("cannot read " + args[1]);
    QTextStream in(&file);
    const QStringList header = in.readLine().split(',');
    if (header.size() < 2) return fail(args[1] + ": the header needs x and at least one series");
    QCustomPlot plot;
    plot.resize(width, height);
    // A series' name chooses its look: "time" blue, "power" red (others cycle); "target" a dashed line
    // without markers; "simulator" dotted with hollow markers; "PowerTrain" (a published figure) a large
    // star, no line.
    const QList<QColor> others = {QColor(0x2C, 0xA0, 0x2C), QColor(0x94, 0x67, 0xBD),
                                  QColor(0xFF, 0x7F, 0x0E)};
    for (int s = 1; s < header.size(); ++s) {
        const QString& name = header[s];
        QCPGraph* graph = plot.addGraph();
        graph->setName(name);
        const QColor color = name.contains("time")    ? QColor(0x1F, 0x77, 0xB4)
                             : name.contains("power") ? QColor(0xD6, 0x27, 0x28)
                                                      : others[(s - 1) % others.size()];
        const bool target = name.contains("target"), simulator = name.contains("simulator"),
                   published = name.contains("PowerTrain");
        graph->setPen(QPen(color, target ? 1.2 : 2,
                           target      ? Qt::DashLine
                           : simulator ? Qt::DotLine
                                       : Qt::SolidLine));
        if (published) {
            graph->setLineStyle(QCPGraph::lsNone);
            graph->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssStar, QPen(color, 2.5), Qt::NoBrush, 16));
        } else if (!target) {
            graph->setScatterStyle(
                QCPScatterStyle(simulator ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssDisc, color,
                                simulator ? QColor(Qt::white) : color, 7));
        }
    }
    QSharedPointer<QCPAxisTickerText> xTicks(new QCPAxisTickerText);
    int line = 1;
    while (!in.atEnd()) {
        ++line;
        const QStringList cells = in.readLine().split(',');
        if (cells.size() != header.size())
            return fail(QString("%1:%2: %3 cells, the header has %4")
                            .arg(args[1])
                            .arg(line)
                            .arg(cells.size())
                            .arg(header.size()));
        bool ok = false;
        const double x = cells[0].toDouble(&ok);
        if (!ok) return fail(QString("%1:%2: x is not a number").arg(args[1]).arg(line));
        xTicks->addTick(x, cells[0]);
        for (int s = 1; s < cells.size(); ++s)
            if (!cells[s].isEmpty()) plot.graph(s - 1)->addData(x, cells[s].toDouble());
    }
    if (logX) plot.xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot.xAxis->setTicker(xTicks); // a tick at every x of the data
    plot.xAxis->setLabel(xLabel);
    plot.yAxis->setLabel(yLabel);
    plot.rescaleAxes();
    plot.yAxis->setRangeLower(0);
    plot.yAxis->setRangeUpper(plot.yAxis->range().upper * 1.6); // room for the legend above the data
    plot.xAxis->scaleRange(logX ? 1.25 : 1.1, plot.xAxis->range().center());
    if (!title.isEmpty()) {
        plot.plotLayout()->insertRow(0);
        plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, title, QFont("sans", 11, QFont::Bold)));
    }
    plot.legend->setVisible(true);
    plot.axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    if (!plot.savePng(args[2], width, height)) return fail("cannot write " + args[2]);
    return 0;
}
