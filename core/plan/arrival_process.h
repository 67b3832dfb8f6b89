// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// How inference requests arrive: at a fixed rate, as a Poisson process, in bursts, or as a recorded trace.
struct ArrivalSpec {
    enum class Kind { Uniform, Poisson, Bursty, Trace };
    Kind kind = Kind::Poisson;
    double rate = 0.0;         ///< mean requests per second (uniform, poisson, bursty; a trace's own mean)
    std::string traceFile;     ///< trace: a CSV of arrival times in seconds
    std::vector<double> trace; ///< trace: the file's times, read by parseArrivalSpec
};

/// "uniform", "poisson", "bursty" or "trace".
const char* arrivalKindName(ArrivalSpec::Kind kind);

/// Parses uniform:RATE, poisson:RATE, bursty:RATE or trace:FILE (reading the file); throws InputError for
/// another kind, a rate that is not a positive number, or a bad trace (readArrivalTrace).
ArrivalSpec parseArrivalSpec(const std::string& text);

/// Arrival times in seconds from a CSV text: one time per line, in the first column; an optional header
/// line; blank lines and #-comments skipped. Throws InputError (naming `source` and the line) for a time
/// that is not a finite number >= 0, times out of order, or no time at all.
std::vector<double> parseArrivalTrace(const std::string& text, const std::string& source);

/// parseArrivalTrace of a file; throws InputError when it cannot be read.
std::vector<double> readArrivalTrace(const std::string& path);

/// The arrival times in [0, durationSeconds), sorted: uniform at 1/rate spacing, Poisson with exponential
/// gaps, bursty as a two-state Markov-modulated Poisson process (bursts of mean 2 s at 4x the rate between
/// calm spells at 0.25x, with the mean rate `rate`), or the trace's times below the duration. The same
/// seed gives the same times on every platform.
std::vector<double> generateArrivals(const ArrivalSpec& spec, double durationSeconds, uint64_t seed);

/// "poisson at 100 req/s", "trace requests.csv (6000 requests, 98.7 req/s)".
std::string describeArrivals(const ArrivalSpec& spec);

} // namespace rooftop
