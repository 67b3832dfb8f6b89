// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop tune's search against random search on the other physics (tests/support/other_physics_board.h),
// AGX Orin 64GB grid x batch {1,2,4,8,16} (21,840 configurations), three models, latency SLOs of 1.5x and 4x
// the MAXN batch-1 latency, 20 noise seeds each: the runs needed until the best measured configuration
// within the SLO is truly within 5 % of the true least energy per inference (and truly within the SLO),
// mean and standard deviation; the time cbo takes to choose the next sample; and a convergence plot (the
// true energy of the best-so-far configuration against runs). A report, not a test: it asserts nothing.
// Run: build/tests/bench/bench_tune [OUT.png]   (QT_QPA_PLATFORM=offscreen without a display)
#include "core/device/mode_set.h"
#include "core/tune/tune_search.h"
#include "support/device_fixtures.h"
#include "support/other_physics_board.h"
#include "support/test_support.h"
#include "support/tune_truth_space.h"

#include <QApplication>
#include <algorithm>
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <qcustomplot.h>
#include <vector>

using namespace rooftop;

namespace {

const std::vector<int64_t> batches = {1, 2, 4, 8, 16};
constexpr int cboBudget = 40;
constexpr int randomBudget = 4000;
constexpr int seeds = 20;

struct Setting {
    std::string model;
    double factor = 1.5;
};

using Space = test::TuneTruthSpace;

Space makeSpace(const std::string& model) {
    return test::makeTuneTruthSpace(model, gridPowerModes(test::shippedAgxOrin()), batches);
}

/// Per run count (1-based), the true energy of the best measured configuration within the SLO over the
/// optimum (inf while there is none); and the first run count at which it is within 5 % and truly feasible
/// (0: never).
struct Trace {
    std::vector<double> ratio;
    int within = 0;
};

/// Adds one run to a trace: the best measured configuration within the SLO after it (a repeat may have
/// changed its mean), judged by the truth.
void addRun(Trace& t, const Space& s, const TuneOutcome& sofar, double slo, double optimum) {
    const TuneSample* best = nullptr;
    for (const TuneSample& sample : sofar.samples)
        if (sample.feasible && (!best || sample.energyMj < best->energyMj)) best = &sample;
    const double ratio = best ? s.trueEnergyMj(best->config) / optimum : INFINITY;
    t.ratio.push_back(ratio);
    if (!t.within && best && s.truth[best->config].seconds <= slo && ratio <= 1.05)
        t.within = int(t.ratio.size());
}

double meanOf(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v)
        sum += x;
    return v.empty() ? NAN : sum / double(v.size());
}

double sdOf(const std::vector<double>& v) {
    const double m = meanOf(v);
    double sum = 0;
    for (double x : v)
        sum += (x - m) * (x - m);
    return v.size() > 1 ? std::sqrt(sum / double(v.size() - 1)) : 0.0;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QString png = argc > 1 ? QString(argv[1]) : QString("tune-convergence.png");
    std::map<std::string, Space> spaces;
    std::vector<double> cboMeanCurve(cboBudget, 0.0), randomMeanCurve(cboBudget, 0.0);
    int curves = 0;
    std::vector<double> chooseMs;
    std::printf(
        "| model | SLO | near-optimal configs | cbo runs to 5 %% (mean ± sd, reached) | random runs to 5 %% "
        "(mean ± sd, reached) | random expected (1 / fraction) |\n|---|---|---|---|---|---|\n");
    std::vector<double> allCbo, allRandom;
    for (const std::string model : {"resnet50", "mobilenet_v3_large", "efficientnet_b0"}) {
        const Space& s = spaces.emplace(model, makeSpace(model)).first->second;
        for (double factor : {1.5, 4.0}) {
            const double slo = factor * s.truth[s.space.baseline].seconds;
            const double optimum = s.optimumMj(slo);
            size_t near = 0;
            for (size_t i = 0; i < s.space.candidates; ++i)
                if (s.truth[i].seconds <= slo && s.trueEnergyMj(i) <= 1.05 * optimum) ++near;
            std::vector<double> cboRuns, randomRuns;
            int cboMissed = 0, randomMissed = 0;
            for (int seed = 1; seed <= seeds; ++seed) {
                for (TuneMethod method : {TuneMethod::Cbo, TuneMethod::Random}) {
                    test::OtherPhysicsBoard board(test::shippedAgxOrin(), s.counts, uint64_t(seed));
                    TuneEnvironment env;
                    env.runner = &board;
                    TuneOptions o;
                    o.method = method;
                    o.budget = method == TuneMethod::Cbo ? cboBudget : randomBudget;
                    o.seed = uint64_t(seed);
                    o.limits.latencySloSeconds = slo;
                    o.settleSeconds = 0;
                    o.earlyStop = false;
                    Trace t;
                    const TuneOutcome out = runTuneSearch(
                        test::shippedAgxOrin(), s.space, env, o,
                        [&](const TuneOutcome& sofar, const TuneSpace&) {
                            addRun(t, s, sofar, slo, optimum);
                        },
                        nullptr);
                    std::vector<double>& curve = method == TuneMethod::Cbo ? cboMeanCurve : randomMeanCurve;
                    for (int k = 0; k < cboBudget; ++k)
                        curve[size_t(k)] +=
                            std::min(2.0, t.ratio[size_t(std::min<int>(k, int(t.ratio.size()) - 1))]);
                    if (method == TuneMethod::Cbo) {
                        for (size_t k = 1; k < out.samples.size(); ++k)
                            chooseMs.push_back(out.samples[k].chooseMs);
                        if (t.within)
                            cboRuns.push_back(t.within);
                        else
                            ++cboMissed;
                    } else {
                        if (t.within)
                            randomRuns.push_back(t.within);
                        else
                            ++randomMissed;
                    }
                }
                ++curves;
            }
            allCbo.insert(allCbo.end(), cboRuns.begin(), cboRuns.end());
            allRandom.insert(allRandom.end(), randomRuns.begin(), randomRuns.end());
            std::printf(
                "| %s | %.1fx (%.2f ms) | %zu of %zu | %.1f ± %.1f (%d/%d within %d) | %.0f ± %.0f (%d/%d "
                "within %d) | %.0f |\n",
                model.c_str(), factor, slo * 1e3, near, s.space.candidates, meanOf(cboRuns), sdOf(cboRuns),
                seeds - cboMissed, seeds, cboBudget, meanOf(randomRuns), sdOf(randomRuns),
                seeds - randomMissed, seeds, randomBudget, double(s.space.candidates) / double(near));
            std::fflush(stdout);
        }
    }
    std::sort(chooseMs.begin(), chooseMs.end());
    std::printf("\nall settings: cbo %.1f ± %.1f runs (%zu reached), random %.0f ± %.0f runs (%zu reached)\n",
                meanOf(allCbo), sdOf(allCbo), allCbo.size(), meanOf(allRandom), sdOf(allRandom),
                allRandom.size());
    std::printf(
        "cbo: choosing the next sample over 21,840 configurations: median %.1f ms, worst %.1f ms (%zu "
        "choices, one thread)\n",
        chooseMs[chooseMs.size() / 2], chooseMs.back(), chooseMs.size());

    { // CPU time of one choice (wall time above includes whatever else the machine runs)
        const Space& s = spaces.at("resnet50");
        test::OtherPhysicsBoard board(test::shippedAgxOrin(), s.counts, 1);
        TuneEnvironment env;
        env.runner = &board;
        TuneOptions o;
        o.budget = 15;
        o.limits.latencySloSeconds = 2 * s.truth[s.space.baseline].seconds;
        o.settleSeconds = 0;
        o.earlyStop = false;
        const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), s.space, env, o, {}, nullptr);
        constexpr int calls = 20;
        const std::clock_t start = std::clock();
        for (int i = 0; i < calls; ++i)
            benchmark::DoNotOptimize(nextCboSample(s.space, out.samples, o));
        const double cpuMs = 1e3 * double(std::clock() - start) / CLOCKS_PER_SEC / calls;
        std::printf("cbo: one choice after %zu samples over %zu configurations: %.1f ms CPU\n",
                    out.samples.size(), s.space.candidates, cpuMs);
    }

    QCustomPlot plot;
    plot.resize(900, 520);
    QVector<double> x, cbo, random;
    for (int k = 0; k < cboBudget; ++k) {
        x.push_back(k + 1);
        cbo.push_back(100.0 * (cboMeanCurve[size_t(k)] / curves - 1.0));
        random.push_back(100.0 * (randomMeanCurve[size_t(k)] / curves - 1.0));
    }
    QCPGraph* a = plot.addGraph();
    a->setData(x, cbo);
    a->setName("cbo (Rooftop prior)");
    a->setPen(QPen(QColor(31, 119, 180), 2.5));
    QCPGraph* b = plot.addGraph();
    b->setData(x, random);
    b->setName("random search");
    b->setPen(QPen(QColor(214, 39, 40), 2.5));
    QCPGraph* target = plot.addGraph();
    target->setData({1.0, double(cboBudget)}, {5.0, 5.0});
    target->setName("within 5 %");
    target->setPen(QPen(Qt::gray, 1.5, Qt::DashLine));
    plot.xAxis->setLabel("runs (the baseline included)");
    plot.yAxis->setLabel("true energy of the best measured config above the optimum (%)");
    plot.xAxis->setRange(1, cboBudget);
    plot.yAxis->setRange(0, 100);
    plot.legend->setVisible(true);
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(
        0, 0,
        new QCPTextElement(
            &plot,
            "Other-physics board (simulated), AGX Orin grid x batch 1-16: mean of 3 models x 2 "
            "SLOs x 20 seeds (capped at +100 %)",
            QFont("sans", 10)));
    plot.savePng(png, 900, 520);
    std::printf("plot: %s\n", qPrintable(png));
    return 0;
}
