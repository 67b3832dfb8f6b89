// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rooftop {

/// SplitMix64: a tiny seeded generator whose sequence is the same on every platform and compiler (unlike the
/// standard distributions), for mode sampling and the simulated board's noise.
class SplitMix64 {
public:
    /// A generator whose state starts at `seed` (unmixed: see keyed).
    explicit SplitMix64(uint64_t seed) : state_(seed) {}
    /// A generator whose state is `key` mixed first: keys that differ by one give unrelated sequences (a
    /// state of key x 0x9e3779b97f4a7c15 would give the same sequence one draw later).
    static SplitMix64 keyed(uint64_t key) { return SplitMix64(SplitMix64(key).next()); }
    /// The next 64 random bits.
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// A uniform integer in [0, bound) (bound > 0), by the multiply-shift reduction.
    uint64_t below(uint64_t bound) { return mulHigh(next(), bound); }
    /// A uniform double in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    /// The high 64 bits of a x b, from 32-bit halves (no 128-bit type needed).
    static uint64_t mulHigh(uint64_t a, uint64_t b) {
        const uint64_t aLo = a & 0xffffffffULL, aHi = a >> 32, bLo = b & 0xffffffffULL, bHi = b >> 32;
        const uint64_t lolo = aLo * bLo, hilo = aHi * bLo, lohi = aLo * bHi, hihi = aHi * bHi;
        const uint64_t middle = (lolo >> 32) + (hilo & 0xffffffffULL) + lohi;
        return hihi + (hilo >> 32) + (middle >> 32);
    }
    uint64_t state_;
};

/// 0 .. n-1 in a seeded random order (Fisher-Yates, from the back, with SplitMix64).
inline std::vector<size_t> shuffledIndices(size_t n, uint64_t seed) {
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i)
        order[i] = i;
    SplitMix64 random(seed);
    for (size_t i = n; i > 1; --i)
        std::swap(order[i - 1], order[random.below(i)]);
    return order;
}

} // namespace rooftop
