// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/comparison_text.h"

#include "core/compare/compare_writers.h"
#include "core/device/provenance.h"
#include "core/report/prediction_bounds.h"
#include "models/recommendation_text.h"
#include "models/unit_format.h"

#include <QFileInfo>
#include <QStringList>
#include <algorithm>
#include <vector>

namespace rooftop::models {

namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

QString shortLayerName(const std::string& name) {
    constexpr int kWidth = 48;
    const QString text = fromStd(name);
    return text.size() <= kWidth ? text
                                 : text.left(kWidth / 2 - 1) + QStringLiteral("…") + text.right(kWidth / 2);
}

std::optional<double> medianRoofPct(const Comparison& comparison) {
    std::vector<double> shares;
    for (const ComparedLayer& layer : comparison.layers)
        if (layer.roofPct) shares.push_back(*layer.roofPct);
    if (shares.empty()) return std::nullopt;
    const auto middle = shares.begin() + std::ptrdiff_t(shares.size() / 2);
    std::nth_element(shares.begin(), middle, shares.end());
    return *middle;
}

} // namespace

QString comparisonCardHtml(const Comparison& c) {
    const QString mode = fromStd(c.modeLabel.empty() ? c.mode : c.modeLabel);
    QString text =
        QStringLiteral("<b>Measured layer profile</b> %1 (%2, measured), predicted in <b>%3</b> (%4)")
            .arg(QFileInfo(fromStd(c.file)).fileName().toHtmlEscaped(),
                 fromStd(sourceDescription(c.source)).toHtmlEscaped(), mode.toHtmlEscaped(),
                 QString::fromUtf8(provenanceName(c.predictedProvenance)));
    if (c.measuredTotalMs > 0 && c.predictedModelMs > 0)
        text += QStringLiteral(": <b>%1 measured vs %2 predicted (%3)</b>")
                    .arg(formatSeconds(c.measuredTotalMs / 1e3),
                         boundedSeconds(c.predictedModelMs / 1e3, c.predictedSpread, tableBoundsConfidence),
                         fromStd(speedWords(c.measuredTotalMs, c.predictedModelMs)));
    if (const std::optional<double> share = medianRoofPct(c))
        text += QStringLiteral("; the median layer reached %1 % of the roof").arg(*share, 0, 'f', 0);
    text += QLatin1Char('.');
    QStringList misses;
    for (const ComparedLayer& layer : largestMisses(c, 3))
        misses << QStringLiteral("%1 %2 measured vs %3")
                      .arg(shortLayerName(layer.name).toHtmlEscaped(), formatSeconds(layer.measuredMs / 1e3),
                           formatSeconds(*layer.predictedMs / 1e3));
    if (!misses.isEmpty())
        text += QStringLiteral("<br>Largest misses: ") + misses.join(QStringLiteral("; ")) + QLatin1Char('.');
    return text;
}

} // namespace rooftop::models
