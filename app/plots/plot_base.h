// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QPointF>

#include <vector>

namespace rooftop::plots {

/// What every Rooftop plot shares: palette-following colours, zoom and pan, a title row, the legend outside
/// the axes, point picking for hover and click, and coalesced (queued) replots. One paint path serves the
/// screen and every export.
class PlotBase : public QCustomPlot {
    Q_OBJECT
public:
    explicit PlotBase(QWidget* parent = nullptr);

    /// Sets the title line above the axes.
    void setTitle(const QString& title);
    /// The title line.
    QString title() const;
    /// Fits the axes to the data again (undoes zoom and pan).
    virtual void resetView() = 0;
    /// The hover text at a pixel position (empty: nothing there); what the tooltip shows.
    QString toolTipAt(const QPointF& pixel) const;
    /// Schedules one replot for the next event-loop turn; several calls coalesce into one.
    void requestReplot();

signals:
    /// The user clicked (pressed and released without dragging) on the point with this id.
    void pointClicked(int id);

protected:
    /// A pickable point in plot coordinates with the id reported on click and the text shown on hover; within
    /// the pick radius a higher priority wins over a nearer point (a layer on a roof over the roof).
    struct PickPoint {
        double x = 0.0;
        double y = 0.0;
        int id = -1;
        int priority = 1;
    };
    /// Replaces the pickable points.
    void setPickPoints(std::vector<PickPoint> points);
    /// The id of the pickable point nearest to a pixel position within `radius` pixels, or -1.
    int pickAt(const QPointF& pixel, double radius = 8.0) const;
    /// The hover text of a point id.
    virtual QString hoverText(int id) const = 0;
    /// Re-applies the widget palette to axes, grid, legend and background.
    void applyPalette();
    /// Gives every legend item room beyond its measured text (offscreen and scaled renders measure text slightly
    /// narrower than they draw it, which clipped the last letters and the underscores); call after adding items.
    void padLegendItems();
    /// A pen colour that reads on the current background.
    QColor foregroundColor() const;
    /// Recolours what takes its colour from the palette (rings, stars, labels) after a palette change; the
    /// axes and legends are done by applyPalette().
    virtual void paletteChanged() {}
    /// Splits the legend column in two: `mainHeading` over the main legend, then a second legend under
    /// `secondHeading` (created once; its items are the caller's to add and clear).
    QCPLegend* secondLegend(const QString& mainHeading, const QString& secondHeading);

    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

    QCPTextElement* titleElement_ = nullptr;

private:
    void styleLegend(QCPLegend* legend) const;

    QCPLayoutGrid* legendColumn_ = nullptr;
    QCPLegend* secondLegend_ = nullptr;
    std::vector<QCPTextElement*> legendHeadings_;
    std::vector<PickPoint> pickPoints_;
    QPointF pressPosition_;
    bool pressed_ = false;
};

/// Configures an axis as logarithmic with 10^n tick labels, or with SI-prefixed labels in `unit` ("1
/// TFLOP/s", "100 GFLOP/s") when a unit is given.
void makeLogAxis(QCPAxis* axis, const QString& unit = {});

/// A decade tick label with an SI prefix: siTickLabel(1e12, "FLOP/s") = "1 TFLOP/s", (0.01, "") = "0.01".
QString siTickLabel(double value, const QString& unit);

} // namespace rooftop::plots
