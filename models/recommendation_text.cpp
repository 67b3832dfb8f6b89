// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/recommendation_text.h"

#include "core/device/provenance.h"
#include "models/unit_format.h"

#include <QObject>

namespace rooftop::models {

namespace {

QString escaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

} // namespace

// "predicted, predicted" would say nothing more (a learned predictor, ceilings a profile predicts)
QString predictedFrom(Provenance provenance) {
    if (provenance == Provenance::Predicted) return QObject::tr("predicted");
    return QObject::tr("predicted, %1").arg(QString::fromUtf8(provenanceName(provenance)));
}

QString recommendationHeadline(const Recommendation& recommendation, const QString& headlineStyle) {
    const QString style =
        headlineStyle.isEmpty() ? QString() : QStringLiteral(" style='%1'").arg(headlineStyle);
    if (recommendation.recommended) {
        const Candidate& chosen = recommendation.candidates[*recommendation.recommended];
        return QObject::tr(
                   "<b%1>Use %2</b>: %3 per batch, %4 per inference, %5 average — %6 % less energy than %7 "
                   "(%8).")
            .arg(style, escaped(chosen.profile.mode.name), formatSeconds(chosen.summary.latencySeconds),
                 formatSi(chosen.energyPerInference(), QStringLiteral("J")),
                 formatSi(chosen.summary.averageWatts, QStringLiteral("W")))
            .arg(recommendation.savingPercent, 0, 'f', 1)
            .arg(escaped(recommendation.baseline.profile.mode.name), predictedFrom(chosen.provenance));
    }
    QString html = QObject::tr("<b%1>No mode meets the limits.</b> Closest:<ul>").arg(style);
    for (size_t index : recommendation.closest) {
        const Candidate& candidate = recommendation.candidates[index];
        html +=
            QStringLiteral("<li>%1: %2, %3 (%4)</li>")
                .arg(escaped(candidate.profile.mode.name), formatSeconds(candidate.summary.latencySeconds),
                     formatSi(candidate.summary.averageWatts, QStringLiteral("W")),
                     predictedFrom(candidate.provenance));
    }
    return html + QStringLiteral("</ul>");
}

} // namespace rooftop::models
