// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/plot_base.h"

#include "plots/label_placement.h"
#include "plots/plot_data_csv.h"
#include "plots/plot_export.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

namespace rooftop::plots {

PlotBase::PlotBase(QWidget* parent) : QCustomPlot(parent) {
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setNoAntialiasingOnDrag(true); // keeps panning fluid over X forwarding
    setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus); // the keys (keyMapText) once the plot was clicked
    setMinimumSize(320, 240);
    setSelectionRectMode(QCP::srmNone); // Shift+drag zooms to a rectangle (mousePressEvent)

    plotLayout()->insertRow(0);
    titleElement_ =
        new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plotLayout()->addElement(0, 0, titleElement_);

    // Legend to the right of the axes, so it never hides points or roofs.
    axisRect()->insetLayout()->take(legend);
    legendColumn_ = new QCPLayoutGrid;
    // room on the right: text measured on screen runs a little wider in a scaled export, and would be cut
    legendColumn_->setMargins(QMargins(0, 0, 14, 0));
    plotLayout()->addElement(1, 1, legendColumn_);
    legendColumn_->addElement(0, 0, legend);
    legendColumn_->addElement(1, 0, new QCPLayoutElement(this)); // keeps the legend at the top, packed
    legendColumn_->setRowStretchFactor(0, 0.001);
    plotLayout()->setColumnStretchFactor(1, 0.001);
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foRowsFirst);
    QFont legendFont = font();
    legendFont.setPointSizeF(std::max(7.0, legendFont.pointSizeF() - 1));
    legend->setFont(legendFont);
    legend->setIconSize(18, 10);
    applyPalette();
    connect(this, &QCustomPlot::afterLayout, this, &PlotBase::afterEachLayout);
}

void PlotBase::setTitle(const QString& title) {
    fullTitle_ = title;
    titleElement_->setText(title);
    fitTitle();
}

QString PlotBase::title() const {
    return fullTitle_;
}

QString PlotBase::shownTitle() const {
    return titleElement_->text();
}

void PlotBase::afterEachLayout() {
    if (relayingOut_) return; // the layout below runs this again
    // each of the three runs, whatever the others found
    const bool legendsMoved = arrangeLegends();
    const bool titleFitted = fitTitle();
    const bool labelsFitted = fitAxisLabels();
    if (legendsMoved || titleFitted || labelsFitted) {
        relayingOut_ = true;
        plotLayout()->update(QCPLayoutElement::upPreparation);
        plotLayout()->update(QCPLayoutElement::upMargins);
        plotLayout()->update(QCPLayoutElement::upLayout);
        relayingOut_ = false;
    }
    placeLabelsNow();
}

bool PlotBase::fitAxisLabels() {
    bool changed = false;
    for (QCPAxis* axis : {xAxis, yAxis}) {
        auto& [full, shown] = axisLabels_[axis];
        if (axis->label() != shown) full = axis->label(); // the plot set a new one
        const QRect rect = axisRect()->rect();
        const int length = (axis->orientation() == Qt::Vertical ? rect.height() : rect.width()) - 4;
        const QFontMetrics metrics(axis->labelFont());
        shown = full;
        // not yet laid out (a hidden tab) is no reason to drop the label: its margin would be laid out empty
        if (length > metrics.height() && metrics.horizontalAdvance(shown) > length) {
            // "Energy per inference (mJ)": "Energy (mJ)", else "(mJ)", elided if even that is too long
            const qsizetype unit = full.lastIndexOf(QLatin1Char('('));
            const QString first = full.section(QLatin1Char(' '), 0, 0);
            if (unit > 0 && full.endsWith(QLatin1Char(')')) && first.size() < unit) {
                shown = first + QLatin1Char(' ') + full.mid(unit);
                if (metrics.horizontalAdvance(shown) > length) shown = full.mid(unit);
            }
            shown = metrics.elidedText(shown, Qt::ElideRight, length);
        }
        if (axis->label() != shown) {
            changed |= axis->label().isEmpty() != shown.isEmpty(); // its margin grows or goes
            axis->setLabel(shown);
        }
    }
    return changed;
}

QStringList PlotBase::wrappedOnce(const QString& line, const QFontMetrics& metrics, int width) {
    if (metrics.horizontalAdvance(line) <= width) return {line};
    // after the last colon whose head fits ("One simulated second of MODE: counts"), else the last space
    qsizetype cut = -1;
    for (const QString& breakAfter : {QStringLiteral(": "), QStringLiteral(" ")}) {
        for (qsizetype at = line.lastIndexOf(breakAfter); at > 0; at = line.lastIndexOf(breakAfter, at - 1))
            if (metrics.horizontalAdvance(line.left(at + 1)) <= width) {
                cut = at + breakAfter.size();
                break;
            }
        if (cut > 0) break;
    }
    if (cut <= 0) return {line};
    return {line.left(cut).trimmed(), line.mid(cut).trimmed()};
}

bool PlotBase::fitTitle() {
    // the title spans the axes' column; beside the legends it has the width they leave
    int width = viewport().width() - 8;
    if (!legendBelow_ && legendColumn_ && plotLayout()->hasElement(1, 1))
        // what the legends need, not what they got: a title wider than its column squeezes them off the plot
        width -= std::max(legendColumn_->outerRect().width(), legendColumn_->minimumOuterSizeHint().width());
    if (width < 40) width = std::max(40, viewport().width() - 8);
    const QFontMetrics metrics(titleElement_->font());
    QStringList lines;
    for (const QString& line : fullTitle_.split(QLatin1Char('\n')))
        for (const QString& part : wrappedOnce(line, metrics, width))
            lines.push_back(metrics.elidedText(part, Qt::ElideRight, width));
    const QString shown = lines.join(QLatin1Char('\n'));
    if (shown == titleElement_->text()) return false;
    titleElement_->setText(shown);
    return true;
}

bool PlotBase::arrangeLegends() {
    if (!legendColumn_ || !plotLayout()->elements(false).contains(legendColumn_.data())) return false;
    const bool below = viewport().width() < kNarrowPlotWidth;
    bool changed = false;
    if (below != legendBelow_) {
        legendBelow_ = below;
        plotLayout()->take(legendColumn_);
        plotLayout()->simplify();
        if (below) {
            plotLayout()->addElement(2, 0, legendColumn_);
            plotLayout()->setRowStretchFactor(2, 0.001);
        } else {
            plotLayout()->addElement(1, 1, legendColumn_);
            plotLayout()->setColumnStretchFactor(1, 0.001);
        }
        changed = true;
    }
    // under the axes the entries run in rows, up to three abreast as the widest entry allows, rather than in
    // one tall column
    for (QCPLegend* target : {legend, secondLegend_}) {
        if (!target) continue;
        int widest = 1;
        for (int i = 0; i < target->itemCount(); ++i)
            if (QCPAbstractLegendItem* item = target->item(i))
                widest = std::max(widest, item->minimumOuterSizeHint().width());
        const int wrap = below ? std::clamp(viewport().width() / widest, 1, 3) : 0;
        const QCPLayoutGrid::FillOrder order =
            below ? QCPLayoutGrid::foColumnsFirst : QCPLayoutGrid::foRowsFirst;
        if (target->wrap() == wrap && target->fillOrder() == order) continue;
        target->setWrap(wrap);
        target->setFillOrder(order,
                             true); // rearranges the entries: taken in the old order, put back in the new
        changed = true;
    }
    return changed;
}

void PlotBase::placeLabel(QCPItemText* label, int priority, std::vector<LabelPlace> places,
                          bool keepOffLines) {
    if (!label || places.empty()) return;
    placedTexts_.erase(std::remove_if(placedTexts_.begin(), placedTexts_.end(),
                                      [](const PlacedText& text) { return text.item.isNull(); }),
                       placedTexts_.end());
    placedTexts_.push_back({label, priority, std::move(places), keepOffLines});
}

namespace {

QRectF boxOf(const QCPItemText& label) {
    return QRectF(label.topLeft->pixelPosition(), label.bottomRight->pixelPosition()).normalized();
}

void applyPlace(QCPItemText& label, const QPointF& coords, Qt::Alignment alignment, const QMargins& padding) {
    label.position->setCoords(coords);
    label.setPositionAlignment(alignment);
    label.setPadding(padding);
}

} // namespace

void PlotBase::placeLabelsNow() {
    std::vector<PlacedText*> live;
    std::vector<LabelCandidates> candidates;
    for (PlacedText& text : placedTexts_) {
        if (text.item.isNull() || !hasItem(text.item.data())) continue;
        LabelCandidates label;
        label.priority = text.priority;
        label.keepOffLines = text.keepOffLines;
        for (const LabelPlace& place : text.places) {
            applyPlace(*text.item, place.coords, place.alignment, place.padding);
            label.boxes.push_back(boxOf(*text.item));
            const QMargins& pad = place.padding;
            label.inks.push_back(
                label.boxes.back().adjusted(pad.left(), pad.top(), -pad.right(), -pad.bottom()));
        }
        live.push_back(&text);
        candidates.push_back(std::move(label));
    }
    labelsStruck_.clear();
    labelsOverMarkers_.clear();
    if (live.empty()) return;
    // the points people pick are drawn as markers, and the lines (roofs) through them: a label covers one
    // or crosses one only when it has nowhere else to go
    std::vector<QRectF> markers;
    std::vector<Polyline> lines;
    markers.reserve(pickPoints_.size());
    int lineId = -1;
    for (const PickPoint& point : pickPoints_) {
        const double px = xAxis->coordToPixel(point.x), py = yAxis->coordToPixel(point.y);
        if (!std::isfinite(px) || !std::isfinite(py)) continue;
        if (point.priority < 1) { // a sample along a line
            if (lines.empty() || point.id != lineId) lines.emplace_back();
            lineId = point.id;
            lines.back().emplace_back(px, py);
            continue;
        }
        const double half = point.size / 2;
        markers.emplace_back(px - half, py - half, 2 * half, 2 * half);
    }
    const std::vector<PlacedLabel> placed =
        placeLabels(candidates, QRectF(axisRect()->rect()), {}, markers, lines);
    for (size_t i = 0; i < live.size(); ++i) {
        QCPItemText& item = *live[i]->item;
        const int choice = placed[i].choice;
        const LabelPlace& place = live[i]->places[size_t(std::max(0, choice))];
        applyPlace(item, place.coords, place.alignment, place.padding);
        item.setVisible(choice >= 0);
        // a label that stays where every free place has a roof through it (the chosen mode's, on a small plot
        // or with a large font) or markers under it (a crowded corner) is drawn over a veil of the plot's
        // background: the roof or the markers pass behind its text, dimmed but still seen (white measured
        // circles on the dark palette showed through a thinner veil as if drawn over the text)
        QColor backing = palette().color(QPalette::Base);
        backing.setAlpha(225);
        const bool veiled = placed[i].struck || placed[i].coveredMarkers > 0;
        item.setBrush(veiled ? QBrush(backing) : QBrush(Qt::NoBrush));
        if (veiled)
            item.setLayer(item.layer()); // over every roof and marker, the chosen mode's drawn last too
        if (placed[i].struck) labelsStruck_ << item.text();
        if (placed[i].coveredMarkers > 0) labelsOverMarkers_ << item.text();
    }
}

std::vector<QRectF> PlotBase::labelBoxes() const {
    std::vector<QRectF> boxes;
    for (int i = 0; i < itemCount(); ++i)
        if (const auto* text = qobject_cast<const QCPItemText*>(item(i));
            text && text->visible() && !text->text().isEmpty())
            boxes.push_back(boxOf(*text));
    return boxes;
}

void PlotBase::requestReplot() {
    replot(QCustomPlot::rpQueuedReplot);
}

void PlotBase::setPickPoints(std::vector<PickPoint> points) {
    pickPoints_ = std::move(points);
}

int PlotBase::pickAt(const QPointF& pixel, double radius) const {
    int best = -1;
    int bestPriority = std::numeric_limits<int>::min();
    double bestDistance = radius * radius;
    for (const PickPoint& point : pickPoints_) {
        const double px = xAxis->coordToPixel(point.x);
        const double py = yAxis->coordToPixel(point.y);
        if (!std::isfinite(px) || !std::isfinite(py)) continue;
        const double distance = (px - pixel.x()) * (px - pixel.x()) + (py - pixel.y()) * (py - pixel.y());
        if (distance > radius * radius) continue;
        if (point.priority > bestPriority || (point.priority == bestPriority && distance <= bestDistance)) {
            bestPriority = point.priority;
            bestDistance = distance;
            best = point.id;
        }
    }
    return best;
}

QString PlotBase::toolTipAt(const QPointF& pixel) const {
    const int id = pickAt(pixel);
    return id >= 0 ? hoverText(id) : QString();
}

QColor PlotBase::foregroundColor() const {
    return palette().color(QPalette::WindowText);
}

QColor PlotBase::readableOnBackground(const QColor& color) const {
    constexpr int kLeastLightnessOnDark = 150; // navy Conv points and a blue roof vanished on the dark base
    if (palette().color(QPalette::Base).lightness() >= 128) return color;
    int hue = 0, saturation = 0, lightness = 0, alpha = 0;
    color.getHsl(&hue, &saturation, &lightness, &alpha);
    return lightness >= kLeastLightnessOnDark
               ? color
               : QColor::fromHsl(hue, saturation, kLeastLightnessOnDark, alpha);
}

void PlotBase::applyPalette() {
    const QColor background = palette().color(QPalette::Base);
    const QColor text = foregroundColor();
    QColor gridColor = text;
    gridColor.setAlpha(40);
    QColor subGridColor = text;
    subGridColor.setAlpha(18);
    setBackground(background);
    for (QCPAxis* axis : {xAxis, yAxis, xAxis2, yAxis2}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(gridColor, 0, Qt::DotLine));
        axis->grid()->setSubGridPen(QPen(subGridColor, 0, Qt::DotLine));
        axis->grid()->setSubGridVisible(true);
    }
    styleLegend(legend);
    if (secondLegend_) styleLegend(secondLegend_);
    for (QCPTextElement* heading : legendHeadings_)
        heading->setTextColor(text);
    titleElement_->setTextColor(text);
}

void PlotBase::styleLegend(QCPLegend* target) const {
    QColor gridColor = foregroundColor();
    gridColor.setAlpha(40);
    target->setBrush(palette().color(QPalette::Base));
    target->setBorderPen(QPen(gridColor));
    target->setTextColor(foregroundColor());
}

QCPLegend* PlotBase::secondLegend(const QString& mainHeading, const QString& secondHeading) {
    if (secondLegend_) {
        legendHeadings_[0]->setText(mainHeading);
        legendHeadings_[1]->setText(secondHeading);
        return secondLegend_;
    }
    // rows: heading, legend, heading, second legend, spacer
    QCPLayoutElement* spacer = legendColumn_->takeAt(1);
    legendColumn_->simplify();
    QFont headingFont = legend->font();
    headingFont.setBold(true);
    auto heading = [&](const QString& text) {
        auto* element = new QCPTextElement(this, text, headingFont);
        element->setLayer(legend->layer());
        legendHeadings_.push_back(element);
        return element;
    };
    legendColumn_->take(legend);
    legendColumn_->simplify();
    legendColumn_->addElement(0, 0, heading(mainHeading));
    legendColumn_->addElement(1, 0, legend);
    legendColumn_->addElement(2, 0, heading(secondHeading));
    secondLegend_ = new QCPLegend;
    legendColumn_->addElement(3, 0, secondLegend_);
    secondLegend_->setLayer(legend->layer());
    secondLegend_->setFont(legend->font());
    secondLegend_->setIconSize(legend->iconSize());
    secondLegend_->setFillOrder(QCPLegend::foRowsFirst);
    legendColumn_->addElement(4, 0, spacer);
    for (int row = 0; row < 4; ++row)
        legendColumn_->setRowStretchFactor(row, 0.001);
    legendColumn_->setRowStretchFactor(4, 1);
    styleLegend(secondLegend_);
    for (QCPTextElement* element : legendHeadings_)
        element->setTextColor(foregroundColor());
    return secondLegend_;
}

void PlotBase::mousePressEvent(QMouseEvent* event) {
    pressPosition_ = event->position();
    pressed_ = true;
    // Shift+drag draws a rectangle to zoom into; a plain drag pans
    setSelectionRectMode(event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)
                             ? QCP::srmZoom
                             : QCP::srmNone);
    QCustomPlot::mousePressEvent(event);
}

void PlotBase::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton) return;
    const int id = pickAt(event->position());
    if (id >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), hoverText(id), this);
    else if (shownTitle() != fullTitle_ && titleElement_->outerRect().contains(event->position().toPoint()))
        QToolTip::showText(event->globalPosition().toPoint(), fullTitle_, this); // the elided title whole
    else
        QToolTip::hideText();
}

void PlotBase::mouseReleaseEvent(QMouseEvent* event) {
    QCustomPlot::mouseReleaseEvent(event);
    if (!pressed_) return;
    pressed_ = false;
    const QPointF moved = event->position() - pressPosition_;
    if (event->button() == Qt::LeftButton && std::abs(moved.x()) + std::abs(moved.y()) < 4) {
        const int id = pickAt(event->position());
        if (id >= 0) emit pointClicked(id);
    }
}

QStringList PlotBase::keyMapLines() {
    return {tr("Keys: R reset · + − zoom · arrows pan · Ctrl+C copy"),
            tr("Shift+drag: zoom into a rectangle")};
}

QMenu* PlotBase::buildContextMenu(QWidget* parent) {
    auto* menu = new QMenu(parent);
    menu->addAction(tr("Reset zoom"), this, &PlotBase::resetView)->setObjectName(QStringLiteral("ResetZoom"));
    if (allowsLogarithmicToggle()) {
        QAction* log = menu->addAction(tr("Logarithmic axes"));
        log->setObjectName(QStringLiteral("LogarithmicAxes"));
        log->setCheckable(true);
        log->setChecked(logarithmicAxes());
        connect(log, &QAction::toggled, this, &PlotBase::setLogarithmicAxes);
    }
    menu->addSeparator();
    menu->addAction(tr("Copy data as CSV"), this,
                    [this] { QApplication::clipboard()->setText(plotDataCsv(*this)); })
        ->setObjectName(QStringLiteral("CopyCsv"));
    menu->addAction(tr("Export this plot…"), this,
                    [this] {
                        const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), QString(),
                                                                          plotExportFilter());
                        if (path.isEmpty()) return;
                        if (const QString error = exportPlot(*this, path, width(), height());
                            !error.isEmpty())
                            QMessageBox::warning(this, tr("Export plot"), error);
                    })
        ->setObjectName(QStringLiteral("ExportPlot"));
    menu->addSeparator();
    for (const QString& line : keyMapLines())
        menu->addAction(line)->setEnabled(false);
    return menu;
}

void PlotBase::contextMenuEvent(QContextMenuEvent* event) {
    QMenu* menu = buildContextMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

void PlotBase::keyPressEvent(QKeyEvent* event) {
    if (event->matches(QKeySequence::Copy)) {
        QApplication::clipboard()->setText(plotDataCsv(*this));
        return;
    }
    switch (event->key()) {
    case Qt::Key_R:
    case Qt::Key_Home:
        resetView();
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(0.8);
        return;
    case Qt::Key_Minus:
        zoomBy(1.25);
        return;
    case Qt::Key_Left:
        panBy(-0.1, 0);
        return;
    case Qt::Key_Right:
        panBy(0.1, 0);
        return;
    case Qt::Key_Up:
        panBy(0, 0.1);
        return;
    case Qt::Key_Down:
        panBy(0, -0.1);
        return;
    default:
        QCustomPlot::keyPressEvent(event);
    }
}

void PlotBase::zoomBy(double factor) {
    for (QCPAxis* axis : {xAxis, yAxis}) {
        const QCPRange range = axis->range();
        const double centre = axis->scaleType() == QCPAxis::stLogarithmic
                                  ? std::sqrt(range.lower * range.upper)
                                  : range.center();
        axis->scaleRange(factor, centre);
    }
    requestReplot();
}

void PlotBase::panBy(double xFraction, double yFraction) {
    for (auto [axis, fraction] : {std::pair{xAxis, xFraction}, std::pair{yAxis, yFraction}}) {
        if (fraction == 0) continue;
        const QCPRange range = axis->range();
        if (axis->scaleType() == QCPAxis::stLogarithmic)
            axis->setRange(range * std::pow(range.upper / range.lower, fraction));
        else
            axis->moveRange(fraction * range.size());
    }
    requestReplot();
}

bool PlotBase::logarithmicAxes() const {
    return xAxis->scaleType() == QCPAxis::stLogarithmic && yAxis->scaleType() == QCPAxis::stLogarithmic;
}

void PlotBase::setLogarithmicAxes(bool logarithmic) {
    const QCPAxis::ScaleType wanted = logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear;
    for (QCPAxis* axis : {xAxis, yAxis}) {
        if (axis->scaleType() == wanted) continue;
        QSharedPointer<QCPAxisTicker> ticker = ownTickers_.take(axis); // the plot's own, switched back to
        if (!ticker) {
            ownTickers_.insert(axis, axis->ticker());
            ticker = logarithmic ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                                 : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker);
        }
        axis->setScaleType(wanted);
        axis->setTicker(ticker);
        if (logarithmic && axis->range().lower <= 0) // a log axis needs positive bounds
            axis->setRange(std::max(axis->range().upper * 1e-3, 1e-12), std::max(axis->range().upper, 1e-9));
    }
    requestReplot();
}

void PlotBase::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        paletteChanged();
        requestReplot();
    }
}

void PlotBase::padLegendItems() {
    for (QCPLegend* target : {legend, secondLegend_}) {
        if (!target) continue;
        for (int i = 0; i < target->itemCount(); ++i)
            if (QCPAbstractLegendItem* item = target->item(i)) // a wrapped legend has empty cells
                item->setMargins(QMargins(6, 1, 28, 3));
    }
}

namespace {

/// Log ticks at decades labelled with SI prefixes.
class SiLogTicker : public QCPAxisTickerLog {
public:
    explicit SiLogTicker(QString unit) : unit_(std::move(unit)) {}

protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return siTickLabel(tick, unit_);
    }

private:
    QString unit_;
};

} // namespace

QString siTickLabel(double value, const QString& unit) {
    if (!std::isfinite(value) || value <= 0) return QString::number(value);
    if (unit.isEmpty()) return QString::number(value, 'g', 3);
    static const struct {
        double scale;
        const char* prefix;
    } prefixes[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"},  {1e6, "M"}, {1e3, "k"},
                    {1.0, ""},   {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}};
    for (const auto& p : prefixes)
        if (value >= p.scale * 0.9995 || p.scale == 1e-9)
            return QStringLiteral("%1 %2%3").arg(QString::number(value / p.scale, 'g', 3),
                                                 QString::fromUtf8(p.prefix), unit);
    return QString::number(value);
}

void makeLogAxis(QCPAxis* axis, const QString& unit) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(unit.isNull() ? new QCPAxisTickerLog : new SiLogTicker(unit));
    ticker->setLogBase(10);
    ticker->setSubTickCount(8);
    axis->setTicker(ticker);
    axis->setNumberFormat("eb");
    axis->setNumberPrecision(0);
}

} // namespace rooftop::plots
