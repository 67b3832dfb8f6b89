// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/arrival_process.h"

#include "core/common/errors.h"
#include "core/common/input_file.h"
#include "core/common/splitmix.h"

#include <QFileInfo>
#include <QString>
#include <cmath>
#include <sstream>

namespace rooftop {

namespace {

double parseRate(const std::string& kind, const std::string& value) {
    const QString text = QString::fromStdString(value).trimmed();
    bool ok = false;
    const double rate = text.toDouble(&ok);
    if (!ok || !std::isfinite(rate) || rate <= 0)
        throw InputError("--arrival " + kind + ":RATE needs a rate above 0 requests per second, got '" +
                         value + "'");
    return rate;
}

// An exponential gap of mean 1 / rate; 1 - u avoids log(0).
double exponentialGap(SplitMix64& random, double rate) {
    return -std::log(1.0 - random.uniform()) / rate;
}

std::string formatRate(double rate) {
    std::ostringstream out;
    out.precision(rate >= 100 ? 4 : 3);
    out << rate;
    return out.str();
}

} // namespace

const char* arrivalKindName(ArrivalSpec::Kind kind) {
    switch (kind) {
    case ArrivalSpec::Kind::Uniform:
        return "uniform";
    case ArrivalSpec::Kind::Poisson:
        return "poisson";
    case ArrivalSpec::Kind::Bursty:
        return "bursty";
    case ArrivalSpec::Kind::Trace:
        return "trace";
    }
    return "poisson";
}

ArrivalSpec parseArrivalSpec(const std::string& text) {
    const size_t colon = text.find(':');
    const std::string kind = text.substr(0, colon);
    const std::string value = colon == std::string::npos ? std::string() : text.substr(colon + 1);
    ArrivalSpec spec;
    if (kind == "trace") {
        if (value.empty()) throw InputError("--arrival trace:FILE needs a file");
        spec.kind = ArrivalSpec::Kind::Trace;
        spec.traceFile = value;
        spec.trace = readArrivalTrace(value);
        const double span = spec.trace.back() - spec.trace.front();
        spec.rate = span > 0 ? static_cast<double>(spec.trace.size() - 1) / span : 0.0;
        return spec;
    }
    if (kind == "uniform")
        spec.kind = ArrivalSpec::Kind::Uniform;
    else if (kind == "poisson")
        spec.kind = ArrivalSpec::Kind::Poisson;
    else if (kind == "bursty")
        spec.kind = ArrivalSpec::Kind::Bursty;
    else
        throw InputError("--arrival must be uniform:RATE, poisson:RATE, bursty:RATE or trace:FILE, got '" +
                         text + "'");
    spec.rate = parseRate(kind, value);
    return spec;
}

std::vector<double> parseArrivalTrace(const std::string& text, const std::string& source) {
    std::vector<double> times;
    std::istringstream lines(text);
    std::string line;
    int number = 0;
    bool headerAllowed = true;
    while (std::getline(lines, line)) {
        ++number;
        QString cell = QString::fromStdString(line).trimmed();
        if (cell.isEmpty() || cell.startsWith('#')) continue;
        const int comma = cell.indexOf(',');
        if (comma >= 0) cell = cell.left(comma).trimmed();
        bool ok = false;
        const double time = cell.toDouble(&ok);
        if (!ok && headerAllowed && times.empty() && !cell.isEmpty() && !cell.at(0).isDigit() &&
            cell.at(0) != '-' && cell.at(0) != '.' && cell.at(0) != '+') {
            headerAllowed = false; // a header line such as "arrival_s"
            continue;
        }
        const std::string where = source + ":" + std::to_string(number) + ": ";
        if (!ok || !std::isfinite(time))
            throw InputError(where + "an arrival time must be a number of seconds, got '" +
                             cell.toStdString() + "'");
        if (time < 0) throw InputError(where + "an arrival time cannot be negative");
        if (!times.empty() && time < times.back())
            throw InputError(where +
                             "arrival times must be sorted (this one is earlier than the one before)");
        times.push_back(time);
        headerAllowed = false;
    }
    if (times.empty()) throw InputError(source + ": no arrival times in the trace");
    return times;
}

std::vector<double> readArrivalTrace(const std::string& path) {
    return parseArrivalTrace(readInputFile(path, "an arrival trace"), path);
}

std::vector<double> generateArrivals(const ArrivalSpec& spec, double durationSeconds, uint64_t seed) {
    std::vector<double> times;
    if (!(durationSeconds > 0)) return times;
    if (spec.kind == ArrivalSpec::Kind::Trace) {
        for (double t : spec.trace)
            if (t < durationSeconds) times.push_back(t);
        return times;
    }
    if (!(spec.rate > 0)) throw InputError("an arrival rate must be above 0");
    const double expected = spec.rate * durationSeconds;
    if (expected > 5e7)
        throw InputError("more than 50 million arrivals: shorten --duration or lower the rate");
    times.reserve(static_cast<size_t>(expected * 1.1) + 16);
    SplitMix64 random = SplitMix64::keyed(seed ^ 0x632be59bd9b4e019ULL);
    if (spec.kind == ArrivalSpec::Kind::Uniform) {
        const double gap = 1.0 / spec.rate;
        const double phase = random.uniform() * gap; // the stream does not start exactly at 0
        for (double t = phase; t < durationSeconds; t += gap)
            times.push_back(t);
        return times;
    }
    if (spec.kind == ArrivalSpec::Kind::Poisson) {
        for (double t = exponentialGap(random, spec.rate); t < durationSeconds;
             t += exponentialGap(random, spec.rate))
            times.push_back(t);
        return times;
    }
    // bursty: bursts at 4x the rate (mean 2 s) and calm spells at 0.25x (mean 8 s): the time-weighted mean
    // rate is (2 x 4 + 8 x 0.25) / 10 = 1 x the rate
    constexpr double burstFactor = 4.0, calmFactor = 0.25, burstMean = 2.0, calmMean = 8.0;
    bool burst = random.uniform() < burstMean / (burstMean + calmMean);
    double t = 0.0;
    double spellEnd = exponentialGap(random, 1.0 / (burst ? burstMean : calmMean));
    while (t < durationSeconds) {
        const double rate = spec.rate * (burst ? burstFactor : calmFactor);
        const double next = t + exponentialGap(random, rate);
        if (next >= spellEnd) { // memoryless: the next arrival is drawn again from the new spell's rate
            t = spellEnd;
            burst = !burst;
            spellEnd = t + exponentialGap(random, 1.0 / (burst ? burstMean : calmMean));
            continue;
        }
        t = next;
        if (t < durationSeconds) times.push_back(t);
    }
    return times;
}

std::string describeArrivals(const ArrivalSpec& spec) {
    if (spec.kind == ArrivalSpec::Kind::Trace)
        return "trace " + QFileInfo(QString::fromStdString(spec.traceFile)).fileName().toStdString() + " (" +
               std::to_string(spec.trace.size()) + " requests, " + formatRate(spec.rate) + " req/s)";
    return std::string(arrivalKindName(spec.kind)) + " at " + formatRate(spec.rate) + " req/s";
}

} // namespace rooftop
