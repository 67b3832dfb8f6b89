// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/recommendation_text.h"

#include "core/advisor/explanation.h"
#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "models/unit_format.h"

#include <QObject>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace rooftop::models {

namespace {

QString escaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

QString withBound(const QString& value, const QString& high, double confidence) {
    if (value == high || confidence <= 0.5) return value;
    return QObject::tr("%1 (≤ %2 at %3)")
        .arg(value, high, QString::fromStdString(confidenceText(confidence)));
}

} // namespace

QString boundedSeconds(const Candidate& c, double confidence) {
    return withBound(formatSeconds(c.summary.latencySeconds),
                     formatSeconds(candidateBounds(c, confidence).latencySeconds.high), confidence);
}

QString boundedSeconds(double seconds, double spread, double confidence) {
    return withBound(formatSeconds(seconds), formatSeconds(upperBound(seconds, spread, confidence)),
                     confidence);
}

QString boundedWatts(const Candidate& c, double confidence) {
    return withBound(formatSi(c.summary.averageWatts, QStringLiteral("W")),
                     formatSi(candidateBounds(c, confidence).averageWatts.high, QStringLiteral("W")),
                     confidence);
}

QString boundedJoules(const Candidate& c, double confidence) {
    return withBound(formatSi(c.energyPerInference(), QStringLiteral("J")),
                     formatSi(candidateBounds(c, confidence).energyPerInference.high, QStringLiteral("J")),
                     confidence);
}

// "predicted from predicted ceilings" would say nothing more (a learned predictor, ceilings a profile
// predicts)
QString predictedFrom(Provenance provenance) {
    switch (provenance) {
    case Provenance::Predicted:
        return QObject::tr("predicted");
    case Provenance::Datasheet:
        return QObject::tr("predicted from datasheet figures");
    case Provenance::Estimate:
        return QObject::tr("predicted from estimates");
    case Provenance::Measured:
        return QObject::tr("predicted from measured ceilings");
    case Provenance::Fitted:
        return QObject::tr("predicted from fitted ceilings");
    }
    return QObject::tr("predicted");
}

QString predictedFrom(const Candidate& candidate) {
    const QString from = predictedFrom(candidate.provenance);
    return candidate.extrapolated ? QObject::tr("%1, extrapolated").arg(from) : from;
}

QString confidenceHtml(const Recommendation& recommendation, bool brief) {
    const std::string sentence = confidenceSentence(recommendation, brief);
    return sentence.empty() ? QString() : QStringLiteral(" ") + escaped(sentence);
}

QString closeCallHtml(const Recommendation& r, Objective objective) {
    if (!r.recommended || r.closeCalls.empty()) return {};
    const auto [value, spread] = objectiveQuantity(r.candidates[*r.recommended], objective);
    const auto named = [&, value = value](size_t k) {
        const Candidate& c = r.candidates[r.closeCalls[k]];
        const double change = 100.0 * (objectiveQuantity(c, objective).first / value - 1.0);
        return QObject::tr("%1 (%2%3 %)")
            .arg(QString::fromStdString(readableModeName(c.profile.mode)).toHtmlEscaped(),
                 change >= 0 ? QStringLiteral("+") : QString(), QString::number(change, 'f', 1));
    };
    const QString quantity = objective == Objective::Latency ? QObject::tr("latency")
                                                             : perItemWords(r.training).prepend("energy ");
    const QString error = QString::number(100.0 * spread, 'f', 1);
    // a few are worth profiling one by one; many are a search's work
    if (r.closeCalls.size() > closeCallsNamed)
        return QObject::tr(
                   "%1 other candidates lie within its %2 % error (1 sigma) of its %3, the nearest %4: "
                   "tune to tell which (Device → Tune this model)")
            .arg(r.closeCalls.size())
            .arg(error, quantity, named(0));
    QStringList names;
    for (size_t k = 0; k < r.closeCalls.size(); ++k)
        names << named(k);
    return QObject::tr(
               "%1 %2 within its %3 % error (1 sigma) of its %4: profile them to tell which (Device → "
               "Profile this model)")
        .arg(names.join(QStringLiteral(", ")),
             r.closeCalls.size() == 1 ? QObject::tr("lies") : QObject::tr("lie"), error, quantity);
}

QString energyChangeText(double savingPercent) {
    const QString amount = QString::number(std::abs(savingPercent), 'f', 1);
    if (amount == QStringLiteral("0.0")) return QObject::tr("the same energy");
    return savingPercent > 0 ? QObject::tr("%1 % less energy").arg(amount)
                             : QObject::tr("%1 % more energy").arg(amount);
}

QString energyComparedTo(double savingPercent, const QString& other) {
    const QString change = energyChangeText(savingPercent);
    return change == QObject::tr("the same energy") ? QObject::tr("the same energy as %1").arg(other)
                                                    : QObject::tr("%1 than %2").arg(change, other);
}

QString perBatchWords(bool training) {
    return training ? QObject::tr("per minibatch") : QObject::tr("per batch");
}

QString perItemWords(bool training) {
    return training ? QObject::tr("per sample") : QObject::tr("per inference");
}

QString recommendationHeadline(const Recommendation& recommendation, const QString& headlineStyle) {
    const QString style =
        headlineStyle.isEmpty() ? QString() : QStringLiteral(" style='%1'").arg(headlineStyle);
    if (recommendation.recommended) {
        const Candidate& chosen = recommendation.candidates[*recommendation.recommended];
        const bool training = recommendation.training;
        return QObject::tr("<b%1>Use %2</b>: %3 %8, %4 %9, %5 average — %6 (%7).")
                   .arg(style, escaped(readableModeName(chosen.profile.mode)),
                        boundedSeconds(chosen, recommendation.confidence).toHtmlEscaped(),
                        boundedJoules(chosen, recommendation.confidence).toHtmlEscaped(),
                        boundedWatts(chosen, recommendation.confidence).toHtmlEscaped())
                   .arg(energyComparedTo(recommendation.savingPercent,
                                         escaped(recommendation.baseline.profile.mode.name)))
                   .arg(predictedFrom(chosen), perBatchWords(training), perItemWords(training)) +
               confidenceHtml(recommendation);
    }
    QString html =
        (recommendation.limited
             ? QObject::tr("<b%1>No mode meets the limits.</b> Closest:<ul>")
             : QObject::tr("<b%1>No mode can run here: none fits the board's memory.</b> Closest:<ul>"))
            .arg(style);
    for (size_t index : recommendation.closest) {
        const Candidate& candidate = recommendation.candidates[index];
        html += QStringLiteral("<li>%1: %2, %3 (%4)</li>")
                    .arg(escaped(readableModeName(candidate.profile.mode)),
                         boundedSeconds(candidate, recommendation.confidence).toHtmlEscaped(),
                         boundedWatts(candidate, recommendation.confidence).toHtmlEscaped(),
                         predictedFrom(candidate));
    }
    return html + QStringLiteral("</ul>") + confidenceHtml(recommendation);
}

QString gridHintHtml(const GridHint& hint, const Recommendation& stock) {
    return QObject::tr(
               "<b>Custom clocks would save %1 %</b> against %2 (the stock answer: %3 %): %4, %5 %7, %6.")
        .arg(hint.savingPercent, 0, 'f', 1)
        .arg(QString::fromStdString(stock.baseline.profile.mode.name).toHtmlEscaped())
        .arg(stock.savingPercent, 0, 'f', 1)
        .arg(QString::fromStdString(readableModeName(hint.best.profile.mode)).toHtmlEscaped(),
             boundedSeconds(hint.best, stock.confidence).toHtmlEscaped(), predictedFrom(hint.best),
             perBatchWords(stock.training));
}

QString precisionHintHtml(const PrecisionHint& hint, const Recommendation& asked, Precision askedPrecision) {
    const QString name = QString::fromStdString(precisionName(hint.precision)).toUpper();
    QString html =
        QObject::tr("<b>At %1</b> (TensorRT engines run FP16 or INT8): %2, %3 %4, %5 %6 — %7 (%8).")
            .arg(name, escaped(readableModeName(hint.best.profile.mode)),
                 boundedSeconds(hint.best, asked.confidence).toHtmlEscaped(), perBatchWords(asked.training),
                 boundedJoules(hint.best, asked.confidence).toHtmlEscaped(), perItemWords(asked.training),
                 energyComparedTo(hint.savingPercent,
                                  QObject::tr("the answer at %1")
                                      .arg(QString::fromStdString(precisionName(askedPrecision)))),
                 predictedFrom(hint.best.provenance));
    if (hint.precision == Precision::INT8)
        html += QObject::tr(" INT8 needs calibration data and may cost accuracy.");
    return html;
}

} // namespace rooftop::models
