// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointF>
#include <QPointer>
#include <map>
#include <qcustomplot.h>
#include <vector>

namespace rooftop::plots {

/// What every Rooftop plot shares: palette-following colours, zoom and pan, a title row, the legend outside
/// the axes, point picking for hover and click, and coalesced (queued) replots. One paint path serves the
/// screen and every export.
class PlotBase : public QCustomPlot {
    Q_OBJECT
public:
    explicit PlotBase(QWidget* parent = nullptr);

    /// A place a label may take: its position (in the coordinates its position has), alignment and padding.
    struct LabelPlace {
        QPointF coords;
        Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignBottom;
        QMargins padding;
    };

    /// Sets the title line above the axes; each line too long for the plot is elided at the right (the
    /// tooltip of the title has it whole).
    void setTitle(const QString& title);
    /// The title line, whole.
    QString title() const;
    /// The title as drawn (elided to the plot's width), and its font.
    QString shownTitle() const;
    QFont titleFont() const { return titleElement_->font(); }
    /// Whether the legends sit under the axes (a plot narrower than kNarrowPlotWidth) rather than right of
    /// them.
    bool legendBelow() const { return legendBelow_; }
    /// Below this width the legends go under the axes.
    static constexpr int kNarrowPlotWidth = 700;
    /// The boxes (pixels) of the text labels drawn over the axes now; for tests.
    std::vector<QRectF> labelBoxes() const;
    /// The texts of placed labels that a line (a roof) crosses wherever they could go: drawn over a backing.
    QStringList labelsStruck() const { return labelsStruck_; }
    /// The texts of placed labels with markers under them wherever they could go: drawn over a backing.
    QStringList labelsOverMarkers() const { return labelsOverMarkers_; }
    /// Fits the axes to the data again (undoes zoom and pan).
    virtual void resetView() = 0;
    /// The hover text at a pixel position (empty: nothing there); what the tooltip shows.
    QString toolTipAt(const QPointF& pixel) const;
    /// Schedules one replot for the next event-loop turn; several calls coalesce into one.
    void requestReplot();

    /// The right-click menu, built afresh (the caller owns it): reset zoom, logarithmic axes (where the plot
    /// allows them), copy data as CSV, export this plot (plots::exportPlot at its size), and the keys.
    QMenu* buildContextMenu(QWidget* parent);
    /// The keys and drags a plot takes, a few short lines for the foot of its menu.
    static QStringList keyMapLines();
    /// Zooms both axes by `factor` about the centre of the axes (below 1 zooms in).
    void zoomBy(double factor);
    /// Pans by a fraction of the visible range along x and y.
    void panBy(double xFraction, double yFraction);
    /// Whether both axes are logarithmic; setLogarithmicAxes switches them (a plot's own tickers come back
    /// when it returns to its own scale).
    bool logarithmicAxes() const;
    void setLogarithmicAxes(bool logarithmic);
    /// Whether the plot offers the log/linear switch (not for category axes).
    virtual bool allowsLogarithmicToggle() const { return true; }

signals:
    /// The user clicked (pressed and released without dragging) on the point with this id.
    void pointClicked(int id);

protected:
    /// A pickable point in plot coordinates with the id reported on click and the text shown on hover; within
    /// the pick radius a higher priority wins over a nearer point (a layer on a roof over the roof). Points
    /// of priority 1 and up are drawn markers that labels step aside from; priority 0 samples a line (the
    /// consecutive samples of one id join into a line that labels keep off where they can).
    struct PickPoint {
        double x = 0.0;
        double y = 0.0;
        int id = -1;
        int priority = 1;
        double size = 8.0; ///< a marker's width in pixels, for the labels to step aside from
    };
    /// Hands a label to the plot's one placement pass (placeLabels, run after every layout): it takes the
    /// first of its places where its box lies inside the axes and overlaps no label of higher (or equal,
    /// earlier) priority; with none free it is hidden, and what it says must be in the hover text of what it
    /// labels.
    /// With `keepOffLines` it is hidden rather than struck through by a line (LabelCandidates).
    void placeLabel(QCPItemText* label, int priority, std::vector<LabelPlace> places,
                    bool keepOffLines = false);
    /// Replaces the pickable points.
    void setPickPoints(std::vector<PickPoint> points);
    /// The id of the pickable point nearest to a pixel position within `radius` pixels, or -1.
    int pickAt(const QPointF& pixel, double radius = 8.0) const;
    /// The hover text of a point id.
    virtual QString hoverText(int id) const = 0;
    /// Re-applies the widget palette to axes, grid, legend and background.
    void applyPalette();
    /// Gives every legend item room beyond its measured text (offscreen and scaled renders measure text
    /// slightly narrower than they draw it, which clipped the last letters and the underscores); call after
    /// adding items.
    void padLegendItems();
    /// A pen colour that reads on the current background.
    QColor foregroundColor() const;
    /// A data colour as drawn on this plot's background: on a dark one, lifted to a readable lightness.
    QColor readableOnBackground(const QColor& color) const;
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
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

    QCPTextElement* titleElement_ = nullptr;

private:
    void styleLegend(QCPLegend* legend) const;
    /// After each layout (screen and exports alike): the title elided and the legends moved to fit the width
    /// (laid out again when they change), then the labels placed.
    void afterEachLayout();
    /// Wraps each line of the title once where it is too wide, then elides it to the width; true when the
    /// text drawn changed.
    bool fitTitle();
    /// A line too wide for the width broken in two, after a colon where the head fits, else after a space.
    static QStringList wrappedOnce(const QString& line, const QFontMetrics& metrics, int width);
    /// Elides an axis label longer than its axis (a short plot's "Energy per inference (mJ)"), which would
    /// otherwise run past the axes into the title; true when a label appeared or went (its margin changed).
    bool fitAxisLabels();
    /// Puts the legends right of the axes or, on a narrow plot, under them; true when they moved.
    bool arrangeLegends();
    void placeLabelsNow();

    struct PlacedText {
        QPointer<QCPItemText> item;
        int priority = 0;
        std::vector<LabelPlace> places;
        bool keepOffLines = false;
    };
    std::vector<PlacedText> placedTexts_;
    QStringList labelsStruck_;
    QStringList labelsOverMarkers_;
    QString fullTitle_;
    std::map<QCPAxis*, std::pair<QString, QString>> axisLabels_; ///< per axis: the label set, the one shown
    bool legendBelow_ = false;
    bool relayingOut_ = false;

    QPointer<QCPLayoutGrid> legendColumn_; ///< null once a plot lays its legend out itself
    QCPLegend* secondLegend_ = nullptr;
    std::vector<QCPTextElement*> legendHeadings_;
    std::vector<PickPoint> pickPoints_;
    QPointF pressPosition_;
    bool pressed_ = false;
    QMap<QCPAxis*, QSharedPointer<QCPAxisTicker>> ownTickers_; ///< a plot's tickers while switched away
};

/// Configures an axis as logarithmic with 10^n tick labels, or with SI-prefixed labels in `unit` ("1
/// TFLOP/s", "100 GFLOP/s") when a unit is given.
void makeLogAxis(QCPAxis* axis, const QString& unit = {});

/// A decade tick label with an SI prefix: siTickLabel(1e12, "FLOP/s") = "1 TFLOP/s", (0.01, "") = "0.01".
QString siTickLabel(double value, const QString& unit);

} // namespace rooftop::plots
