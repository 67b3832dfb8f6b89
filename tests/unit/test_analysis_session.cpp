// SPDX-License-Identifier: GPL-3.0-or-later
// core/session: the one pipeline every command and the GUI call, and the one meaning of a mode set.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/mode_set.h"
#include "core/device/power_mode.h"
#include "core/session/analysis_session.h"
#include "core/session/shown_mode.h"
#include "core/session/workload_cache.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

using namespace rooftop;

namespace {

const DeviceSpec& orin() {
    static const DeviceSpec device = resolveDevice("agx-orin-64gb");
    return device;
}

AnalysisRequest rooflineRequest(const std::string& modes) {
    AnalysisRequest request;
    request.modelPath = test::samplePath("resnet18");
    request.deviceId = "agx-orin-64gb";
    request.modes = modes;
    return request;
}

std::set<std::string> namesOf(const std::vector<PowerMode>& modes) {
    std::set<std::string> names;
    for (const PowerMode& m : modes)
        names.insert(m.name);
    return names;
}

} // namespace

class TestAnalysisSession : public QObject {
    Q_OBJECT

private slots:
    void modeSetWordsHaveOneMeaning() {
        const size_t stock = orin().stockModes.size();
        const size_t grid = orin().grid.size();
        QCOMPARE(stock, size_t(4));
        QCOMPARE(grid, size_t(4368));
        QCOMPARE(modesFor(orin(), "stock").size(), stock);
        QCOMPARE(modesFor(orin(), "grid").size(), grid);
        // a grid mode with a stock mode's clocks, cores and TPCs is listed once, by the stock name: on this
        // board MAXN's alone (the other stock modes' clocks or TPC counts are not grid points)
        const std::vector<PowerMode> all = modesFor(orin(), "all");
        QCOMPARE(all.size(), stock + grid - 1);
        QCOMPARE(namesOf(all).size(), stock + grid - 1); // no mode twice
        QVERIFY(std::none_of(all.begin(), all.end(),
                             [](const PowerMode& m) { return m.name == "c12-cpu2201.6-gpu1300.5-emc3199"; }));
        QVERIFY(all.front().stock && !all.back().stock);
        QCOMPARE(modesFor(orin(), "current", 3).front().name, std::string("MODE_50W"));
    }

    // an analysis of the grid names its MAXN corner MAXN, as `all` does, unless MAXN itself is listed
    void theGridsStockCornerGoesByItsStockName() {
        std::vector<PowerMode> grid = modesFor(orin(), "grid");
        std::vector<PowerMode*> pointers;
        for (PowerMode& m : grid)
            pointers.push_back(&m);
        QCOMPARE(nameStockOperatingPoints(orin(), pointers), size_t(1));
        QCOMPARE(grid.back().name, std::string("MAXN"));
        QVERIFY(grid.back().stock);
        QCOMPARE(grid.back().stockId, 0);
        QCOMPARE(std::count_if(grid.begin(), grid.end(), [](const PowerMode& m) { return m.stock; }), 1L);
        std::vector<PowerMode> both = modesFor(orin(), "MAXN;c12-cpu2201.6-gpu1300.5-emc3199");
        QCOMPARE(both.size(), size_t(2));
        QCOMPARE(nameStockOperatingPoints(orin(), {&both[0], &both[1]}), size_t(0)); // MAXN is there already
        QCOMPARE(both[1].name, std::string("c12-cpu2201.6-gpu1300.5-emc3199"));
        AnalysisRequest request;
        request.deviceId = "agx-orin-64gb";
        request.modes = "grid";
        const AnalysisResult result = runAnalysis(request);
        QCOMPARE(result.modeProfiles.size(), size_t(4368));
        QCOMPARE(result.modeProfiles.back().mode.name, std::string("MAXN"));
    }

    void modeListIsSemicolonSeparatedAndDeduplicated() {
        const std::vector<PowerMode> modes = modesFor(
            orin(), "MAXN;0;cores=8,cpu=1728000,gpu=612000000,emc=3199000000;c8-cpu1728-gpu612-emc3199; ");
        QCOMPARE(modes.size(), size_t(2)); // MAXN = id 0; the custom spec = its canonical name
        QCOMPARE(modes[0].name, std::string("MAXN"));
        QCOMPARE(modes[1].name, std::string("c8-cpu1728-gpu612-emc3199"));
    }

    void badModeSetsAreOneLineErrors() {
        try {
            modesFor(orin(), "fastest");
            QFAIL("no error");
        } catch (const InputError& error) {
            const QString text = QString::fromUtf8(error.what());
            QVERIFY2(text.contains("unknown mode 'fastest'") &&
                         text.contains("a mode set is current, stock, grid"),
                     error.what());
            QVERIFY(!text.contains('\n'));
        }
        QVERIFY_EXCEPTION_THROWN(modesFor(orin(), ";;"), InputError);
        // a set in a list adds its modes, once each (roofline --mode MAXN --modes stock)
        const std::vector<PowerMode> combined = modesFor(orin(), "MAXN;stock; c2-cpu729.6-gpu306-emc204");
        QCOMPARE(combined.size(), size_t(5));
        QCOMPARE(combined.front().name, std::string("MAXN"));
        QCOMPARE(combined.back().name, std::string("c2-cpu729.6-gpu306-emc204"));
        QVERIFY_EXCEPTION_THROWN(modesFor(orin(), "current"), UnavailableError); // mode in force unknown
        QVERIFY_EXCEPTION_THROWN(modesFor(orin(), "current", 42), UnavailableError);
        DeviceSpec noGrid = orin();
        noGrid.grid = CustomGrid{};
        QVERIFY_EXCEPTION_THROWN(modesFor(noGrid, "grid"), InputError);
        QCOMPARE(modesFor(noGrid, "all").size(), noGrid.stockModes.size()); // all = what the board has
    }

    void rooflineRequestPredictsEveryModeOfItsSet() {
        const AnalysisResult result = runAnalysis(rooflineRequest("MAXN;MODE_15W"));
        QCOMPARE(result.modeProfiles.size(), size_t(2));
        QCOMPARE(result.predictions.size(), size_t(2));
        QVERIFY(result.stockPredictions.empty()); // not asked for
        QVERIFY(result.recommendation.candidates.empty());
        QCOMPARE(result.baseline.mode.name, orin().fastestStockMode().name);
        QVERIFY(result.predictions[1].latencySeconds > result.predictions[0].latencySeconds);
        QCOMPARE(result.workload().totals.macs, int64_t(1814073344)); // ResNet-18, torchvision's count
    }

    void adviceWeighsEveryModeAtEveryBatch() {
        AnalysisRequest request = rooflineRequest("stock");
        request.predictModes = false;
        request.advise = true;
        request.batches = {1, 4};
        const AnalysisResult result = runAnalysis(request);
        QVERIFY2(result.advisorError.empty(), result.advisorError.c_str());
        QCOMPARE(result.workloads.size(), size_t(2));
        QCOMPARE(result.workloads[1].workload.totals.macs, 4 * result.workloads[0].workload.totals.macs);
        QCOMPARE(result.recommendation.candidates.size(), size_t(8)); // 4 stock modes x 2 batch sizes
        QVERIFY(result.recommendation.recommended.has_value());
        QVERIFY(result.predictions.empty());
    }

    void aBatchBoundByNameIsTheBatchOfEveryAnswer() {
        // --dim batch=4 without --batch counts four images: the answers are per batch of 4, not of 1
        AnalysisRequest byName = rooflineRequest("stock");
        byName.advise = true;
        byName.settings.dims.named["batch"] = 4;
        AnalysisRequest byOption = rooflineRequest("stock");
        byOption.advise = true;
        byOption.settings.dims.batch = 4;
        const AnalysisResult named = runAnalysis(byName), given = runAnalysis(byOption);
        QVERIFY2(named.advisorError.empty(), named.advisorError.c_str());
        QCOMPARE(named.workloads.front().batch, int64_t(4));
        QCOMPARE(named.request.settings.dims.batch.value_or(0), int64_t(4));
        QCOMPARE(named.workload().settings.dims.batch.value_or(0), int64_t(4));
        QCOMPARE(named.workload().totals.macs, given.workload().totals.macs);
        const Candidate& a = named.recommendation.candidates[*named.recommendation.recommended];
        const Candidate& b = given.recommendation.candidates[*given.recommendation.recommended];
        QCOMPARE(a.batch, int64_t(4));
        QCOMPARE(a.energyPerInference(), b.energyPerInference());
    }

    void theGridsBetterAnswerIsAHintOverStockModes() {
        AnalysisRequest request = rooflineRequest("stock");
        request.advise = true;
        const AnalysisResult plain = runAnalysis(request);
        QVERIFY(!plain.gridHint.has_value()); // only when asked
        request.compareWithGrid = true;
        const AnalysisResult result = runAnalysis(request);
        QVERIFY(result.recommendation.recommended.has_value());
        QVERIFY(result.gridHint.has_value());
        const Candidate& stock = result.recommendation.candidates[*result.recommendation.recommended];
        QVERIFY(!result.gridHint->best.profile.mode.stock);
        QVERIFY(result.gridHint->best.energyPerInference() < stock.energyPerInference());
        QCOMPARE(result.gridHint->savingPercent,
                 savingPercent(result.gridHint->best, result.recommendation.baseline));
        QVERIFY(result.gridHint->nvpmodelBlock.find("POWER_MODEL") != std::string::npos);
        // the answer over stock + grid is that mode: asked over them, there is no hint
        request.modes = "all";
        const AnalysisResult wider = runAnalysis(request);
        QVERIFY(!wider.gridHint.has_value());
        QCOMPARE(wider.recommendation.candidates[*wider.recommendation.recommended].profile.mode.name,
                 result.gridHint->best.profile.mode.name);
        // another objective: a hint only where the grid's answer ranks better by it
        request.modes = "stock";
        request.objective = Objective::Latency;
        const AnalysisResult fastest = runAnalysis(request);
        if (fastest.gridHint) {
            const Candidate& chosen = fastest.recommendation.candidates[*fastest.recommendation.recommended];
            QVERIFY(objectiveKey(fastest.gridHint->best, Objective::Latency) <
                    objectiveKey(chosen, Objective::Latency));
        }
    }

    // every front-end (the window's "Points for", the report, rooftop report) shows one mode first
    void theModeShownFirstIsTheAnswerElseTheFastest() {
        AnalysisRequest request = rooflineRequest("stock");
        request.advise = true;
        request.predictStock = true; // the overlays, as the window and the report ask
        const AnalysisResult answered = runAnalysis(request);
        QCOMPARE(answered.stockPredictions.size(), orin().stockModes.size());
        QVERIFY(answered.recommendation.recommended.has_value());
        const PowerMode& answer =
            answered.recommendation.candidates[*answered.recommendation.recommended].profile.mode;
        QVERIFY(answer.stock);
        QVERIFY(answer.name != orin().fastestStockMode().name); // least energy is not the top mode here
        QCOMPARE(defaultShownMode(answered)->name, answer.name);
        QCOMPARE(answered.stockPredictions[size_t(defaultShownStockPrediction(answered))].profile.mode.name,
                 answer.name);
        QCOMPARE(answered.stockPredictions[size_t(fastestStockPrediction(answered))].profile.mode.name,
                 orin().fastestStockMode().name);
        // a limit nothing meets: no answer, the fastest stock mode
        request.constraints.latencySloSeconds = 1e-6;
        const AnalysisResult none = runAnalysis(request);
        QVERIFY(!none.recommendation.recommended.has_value());
        QCOMPARE(defaultShownMode(none)->name, orin().fastestStockMode().name);
        QCOMPARE(defaultShownStockPrediction(none), fastestStockPrediction(none));
        // a custom answer is shown first; its layer points sit beside the fastest stock mode's
        request.constraints = {};
        request.modes = "all";
        const AnalysisResult custom = runAnalysis(request);
        QVERIFY(custom.recommendation.recommended.has_value());
        const PowerMode& clocks =
            custom.recommendation.candidates[*custom.recommendation.recommended].profile.mode;
        QVERIFY(!clocks.stock);
        QCOMPARE(defaultShownMode(custom)->name, clocks.name);
        QCOMPARE(defaultShownStockPrediction(custom), fastestStockPrediction(custom));
    }

    // TensorRT engines on a Jetson are FP16 or INT8: asked at FP32 or as-model, the answer at each of them
    // that beats it by 1 % comes along, and it is the answer a request at that precision gets.
    void theAnswerAtFp16AndInt8IsAHintOnTensorRt() {
        AnalysisRequest request = rooflineRequest("stock");
        request.advise = true;
        QVERIFY(runAnalysis(request).precisionHints.empty()); // only when asked
        request.comparePrecisions = true;
        const AnalysisResult result = runAnalysis(request);
        QCOMPARE(result.precisionHints.size(), size_t(2));
        QCOMPARE(result.precisionHints[0].precision, Precision::FP16);
        QCOMPARE(result.precisionHints[1].precision, Precision::INT8);
        const Candidate& asked = result.recommendation.candidates[*result.recommendation.recommended];
        for (const PrecisionHint& hint : result.precisionHints) {
            QVERIFY(hint.best.energyPerInference() < 0.99 * asked.energyPerInference());
            QVERIFY(std::abs(hint.savingPercent - 100.0 * (1.0 - hint.best.energyPerInference() /
                                                                     asked.energyPerInference())) < 1e-9);
            AnalysisRequest at = request;
            at.settings.precision = hint.precision;
            const AnalysisResult direct = runAnalysis(at);
            QVERIFY(direct.precisionHints.empty()); // asked at FP16 or INT8: nothing to hint
            const Candidate& chosen = direct.recommendation.candidates[*direct.recommendation.recommended];
            QCOMPARE(chosen.profile.mode.name, hint.best.profile.mode.name);
            QVERIFY(std::abs(chosen.energyPerInference() / hint.best.energyPerInference() - 1.0) < 1e-12);
        }
        request.runtime.name = "onnxruntime-cuda"; // another runtime runs what it is given
        QVERIFY(runAnalysis(request).precisionHints.empty());
        request.runtime.name = "tensorrt";
        request.settings.phase = Phase::Training; // no INT8 training step, no TensorRT engine of one
        const AnalysisResult training = runAnalysis(request);
        QVERIFY(training.recommendation.recommended.has_value());
        QVERIFY(training.precisionHints.empty());
    }

    void whatIfModesAreWeighedAgainstTheLimits() {
        AnalysisRequest request = rooflineRequest("stock");
        request.advise = true;
        request.constraints.latencySloSeconds = 1e-5;
        const AnalysisResult result = runAnalysis(request);
        const PowerMode slow = customPowerMode(result.device, 4, 729600, 306000000, 2133000000);
        const WhatIfOutcome outcome = weighWhatIf(result, slow);
        QVERIFY(outcome.breaches.latency);
        QVERIFY(!outcome.breaches.power);
        QCOMPARE(outcome.prediction.profile.mode.name, slow.name);
        QVERIFY(outcome.prediction.latencySeconds > 1e-5);
        request.constraints = {};
        const WhatIfOutcome free = weighWhatIf(runAnalysis(request), slow);
        QVERIFY(!free.breaches.any());
        QCOMPARE(free.prediction.latencySeconds, outcome.prediction.latencySeconds);
    }

    void malformedLimitsReachTheAdvisorErrorNotAThrow() {
        AnalysisRequest request = rooflineRequest("stock");
        request.advise = true;
        request.constraints.powerCapWatts = -3.0;
        const AnalysisResult result = runAnalysis(request);
        QVERIFY(!result.advisorError.empty());
        QCOMPARE(result.predictions.size(), size_t(4)); // the rest of the analysis stands
    }

    void boardAloneGivesItsModesWithoutCounting() {
        AnalysisRequest request;
        request.deviceId = "orin-nano-8gb";
        request.modes = "stock";
        const AnalysisResult result = runAnalysis(request);
        QVERIFY(result.workloads.empty());
        QCOMPARE(result.modeProfiles.size(), result.device.stockModes.size());
        QVERIFY(result.predictions.empty());
    }

    void badInputsAreReportedBeforeCounting() {
        AnalysisRequest request = rooflineRequest("stock");
        request.modelPath = "no-such-model.onnx"; // would fail when counted
        request.deviceId = "no-such-board";
        try {
            runAnalysis(request);
            QFAIL("no error");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("no-such-board"), error.what());
        }
        request.deviceId = "agx-orin-64gb";
        request.profilePath = "no-such-profile.json";
        try {
            runAnalysis(request);
            QFAIL("no error");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("no-such-profile.json"), error.what());
        }
    }

    void progressCanStopThePipeline() {
        int stages = 0;
        const AnalysisResult result = runAnalysis(rooflineRequest("stock"), [&](const std::string&) {
            return ++stages < 2; // stop at the second stage (counting)
        });
        QCOMPARE(stages, 2);
        QVERIFY(result.workloads.empty());
        QVERIFY(result.predictions.empty());
    }

    void runtimeFromAFile() {
        QTemporaryDir dir;
        RuntimeProfile runtime = findRuntime("tensorrt");
        runtime.name = "my-trt";
        runtime.dispatchSecondsAtMaxCpu = 123e-6;
        const std::string path = QDir(dir.path()).filePath("runtime.json").toStdString();
        saveRuntimeFile(path, runtime);
        RuntimeSelection selection;
        selection.file = path;
        QCOMPARE(resolveRuntime(selection, "agx-orin-64gb").name, std::string("my-trt"));
        QCOMPARE(resolveRuntime(selection, "agx-orin-64gb").dispatchSecondsAtMaxCpu, 123e-6);
        selection.name = "other";
        selection.nameGiven = true;
        QVERIFY_EXCEPTION_THROWN(resolveRuntime(selection, "agx-orin-64gb"), InputError);
        QCOMPARE(resolveRuntime(RuntimeSelection{}, "agx-orin-64gb").name, std::string("tensorrt"));
    }

    // A calibration holds for the board whose runs it fitted: the file names it, and another board refuses
    // it.
    void aRuntimeCalibratedOnOneBoardIsRefusedOnAnother() {
        QTemporaryDir dir;
        RuntimeProfile runtime = findRuntime("tensorrt");
        runtime.name = "orin-fit";
        runtime.calibrated = true;
        runtime.calibratedDevice = "agx-orin-64gb";
        const std::string path = QDir(dir.path()).filePath("runtime.json").toStdString();
        saveRuntimeFile(path, runtime);
        QCOMPARE(loadRuntimeFromFile(path).calibratedDevice, std::string("agx-orin-64gb"));
        RuntimeSelection selection;
        selection.file = path;
        QCOMPARE(resolveRuntime(selection, "agx-orin-64gb").name, std::string("orin-fit"));
        try {
            resolveRuntime(selection, "orin-nano-8gb");
            QFAIL("a runtime calibrated on agx-orin-64gb was taken for orin-nano-8gb");
        } catch (const InputError& error) {
            const std::string text = error.what();
            QVERIFY2(text.find("calibrated on agx-orin-64gb, not orin-nano-8gb") != std::string::npos,
                     text.c_str());
        }
        AnalysisRequest request = rooflineRequest("stock");
        request.deviceId = "orin-nano-8gb";
        request.runtime = selection;
        QVERIFY_EXCEPTION_THROWN(runAnalysis(request), InputError);
        runtime.calibratedDevice.clear(); // a file from before runtime files named their board
        saveRuntimeFile(path, runtime);
        QCOMPARE(resolveRuntime(selection, "orin-nano-8gb").name, std::string("orin-fit"));
    }

    void workloadCacheCountsAModelOncePerSettings() {
        QTemporaryDir dir;
        const QString copy = QDir(dir.path()).filePath("model.onnx");
        QVERIFY(QFile::copy(QString::fromStdString(test::samplePath("resnet18")), copy));
        WorkloadCache cache(2);
        AnalysisSettings settings;
        const auto first = cache.get(copy.toStdString(), settings);
        const auto again = cache.get(copy.toStdString(), settings);
        QCOMPARE(cache.misses(), size_t(1));
        QCOMPARE(first.get(), again.get());
        settings.dims.batch = 2;
        QCOMPARE(cache.get(copy.toStdString(), settings)->totals.macs, 2 * first->totals.macs);
        QCOMPARE(cache.misses(), size_t(2));
        settings.precision = Precision::FP16;
        cache.get(copy.toStdString(), settings); // a third entry: the least recently used one goes
        QCOMPARE(cache.misses(), size_t(3));
        cache.get(copy.toStdString(), AnalysisSettings{});
        QCOMPARE(cache.misses(), size_t(4));

        // The session uses the cache: a new mode set does not count the model again.
        AnalysisRequest request = rooflineRequest("stock");
        request.modelPath = copy.toStdString();
        runAnalysis(request, {}, SessionContext{&cache, nullptr});
        request.modes = "MAXN";
        runAnalysis(request, {}, SessionContext{&cache, nullptr});
        QCOMPARE(cache.misses(), size_t(4));
    }

    void workloadCacheCountsOnceWhenAskedConcurrently() {
        const std::string bert = test::samplePath("bert_base");
        WorkloadCache cache(4);
        AnalysisSettings settings;
        settings.dims.named["sequence"] = 128;
        std::vector<std::shared_ptr<const Workload>> results(4);
        std::atomic<int> ready{0};
        std::vector<std::thread> threads;
        for (size_t i = 0; i < results.size(); ++i)
            threads.emplace_back([&, i] {
                ++ready;
                while (ready.load() < static_cast<int>(results.size()))
                    std::this_thread::yield();
                results[i] = cache.get(bert, settings);
            });
        for (std::thread& t : threads)
            t.join();
        QCOMPARE(cache.misses(), size_t(1));
        for (const auto& result : results)
            QCOMPARE(result.get(), results.front().get());

        // A count that fails is not cached: every request reports it, and a later one tries again.
        QTemporaryDir dir;
        const std::string missing = QDir(dir.path()).filePath("missing.onnx").toStdString();
        QVERIFY_EXCEPTION_THROWN(cache.get(missing, settings), InputError);
        QVERIFY_EXCEPTION_THROWN(cache.get(missing, settings), InputError);
        QCOMPARE(cache.misses(), size_t(3));
    }

    void requestedBatchesPreferTheList() {
        AnalysisRequest request;
        QCOMPARE(requestedBatches(request), std::vector<int64_t>{1});
        request.settings.dims.batch = 8;
        QCOMPARE(requestedBatches(request), std::vector<int64_t>{8});
        request.batches = {2, 16};
        QCOMPARE(requestedBatches(request), (std::vector<int64_t>{2, 16}));
    }
};

ROOFTOP_TEST_CLASS(TestAnalysisSession)
#include "test_analysis_session.moc"
