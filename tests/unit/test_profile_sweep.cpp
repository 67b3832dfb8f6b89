// SPDX-License-Identifier: GPL-3.0-or-later
// The profile sweep on a writable copy of the AGX Orin JetPack 6 tree, switched through a simulated helper
// (the real helper's validation and write plan; a copy of the one in test_platform_switching.cpp): every
// mode x batch x precision x repeat run in its own mode and appended at once, progress with an ETA, good,
// failing, hanging (1 s limit) and lying commands as rows while the sweep goes on, modes needing a reboot
// or not taking effect skipped, cancel, an exception, and a rerun after an interrupted run that runs only
// what is missing — with the original mode restored and the journal cleared every time.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/measure/command_runner.h"
#include "core/measure/profile_sweep.h"
#include "core/measure/runs_file.h"
#include "core/platform/helper_request.h"
#include "core/platform/nvpmodel_conf.h"
#include "support/device_fixtures.h"
#include "support/simulated_helper.h"
#include "support/test_registry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <functional>
#include <optional>

using namespace rooftop;
using rooftop::test::shippedAgxOrin;

namespace {

using test::BoardCopy;
using test::SimulatedHelper;

/// An in-process runner: records each configuration with the clocks in force when it ran; `hook` may fail,
/// throw or cancel.
class ScriptedRunner final : public Runner {
public:
    explicit ScriptedRunner(ModeSwitcher* board) : board_(board) {}
    RunResult run(const RunConfig& config, const std::atomic<bool>*) override {
        seen.push_back(config);
        if (board_) gpuMaxInForce.push_back(board_->observe().gpuMaxHz);
        if (hook)
            if (std::optional<RunResult> r = hook(config, seen.size())) return *r;
        RunResult r;
        r.ok = true;
        r.latencyMs = double(config.batch);
        r.p99Ms = 1.5 * double(config.batch);
        r.powerW = 10.0;
        return r;
    }
    std::string name() const override { return "scripted"; }
    std::function<std::optional<RunResult>(const RunConfig&, size_t call)>
        hook; ///< nullopt: the default result
    std::vector<RunConfig> seen;
    std::vector<int64_t> gpuMaxInForce;

private:
    ModeSwitcher* board_;
};

PowerMode stock(int id) {
    return powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(id));
}

PowerMode custom() {
    return parseCustomMode(shippedAgxOrin(), "cores=8,cpu=1728000,gpu=612000000,emc=3199000000");
}

/// Everything one sweep needs: the board copy, the helper, the switcher, the journal and a fake clock.
struct Bench {
    Bench()
        : helper(board.root()), switcher(board.root(), helper),
          journal(board.dir.filePath("journal").toStdString()) {}
    ProfileEnvironment env(Runner& runner, bool switching = true) {
        ProfileEnvironment e;
        e.runner = &runner;
        e.switcher = switching ? &switcher : nullptr;
        e.journal = &journal;
        e.sleep = [this](double s) { slept += s; };
        e.now = [this] { return clock += 1.0; };
        return e;
    }
    ProfileOptions options(std::vector<int64_t> batches, std::vector<Precision> precisions, int repeat = 1) {
        ProfileOptions o;
        o.outPath = runsPath();
        o.batches = std::move(batches);
        o.precisions = std::move(precisions);
        o.repeat = repeat;
        return o;
    }
    std::string runsPath() const { return board.dir.filePath("runs.csv").toStdString(); }
    void verifyRestored() {
        QCOMPARE(switcher.currentStockId(), std::optional<int>(0));
        QCOMPARE(switcher.observe().gpuMaxHz, int64_t(1300500000));
        QCOMPARE(switcher.observe().onlineCores, 12);
        QVERIFY(!journal.pending());
    }
    BoardCopy board{"agx-orin-jp6"};
    SimulatedHelper helper;
    JetsonModeSwitcher switcher;
    RestoreJournal journal;
    double slept = 0.0;
    double clock = 0.0;
};

} // namespace

class ProfileSweep : public QObject {
    Q_OBJECT
private slots:
    void everyConfigurationRunsInItsMode() {
        Bench bench;
        ScriptedRunner runner(&bench.switcher);
        std::vector<ProfileProgress> progress;
        const ProfileOutcome outcome = runProfileSweep(
            shippedAgxOrin(), {stock(3), custom()}, bench.env(runner),
            bench.options({1, 4}, {Precision::FP32, Precision::FP16}, 2),
            [&](const ProfileProgress& p) { progress.push_back(p); }, nullptr);
        QVERIFY(!outcome.cancelled);
        QCOMPARE(outcome.ok, size_t(16));
        QCOMPARE(outcome.failed, size_t(0));
        QCOMPARE(runner.seen.size(), size_t(16));
        for (size_t i = 0; i < 16; ++i) {
            // MODE_50W caps the GPU at 816 MHz; the custom mode pins it at 612 MHz
            QCOMPARE(runner.seen[i].mode.name, i < 8 ? stock(3).name : custom().name);
            QCOMPARE(runner.gpuMaxInForce[i], int64_t(i < 8 ? 816000000 : 612000000));
        }
        QCOMPARE(runner.seen[1].batch, int64_t(1)); // repeat innermost
        QCOMPARE(runner.seen[2].precision, Precision::FP16);
        QCOMPARE(bench.slept, 4.0); // 2 s settle after each of the two switches
        bench.verifyRestored();

        const std::vector<RunRow> rows = readRunsFile(bench.runsPath());
        QCOMPARE(rows.size(), size_t(16));
        QCOMPARE(rows[0].mode, std::string("MODE_50W"));
        QCOMPARE(rows[15].mode, std::string("c8-cpu1728-gpu612-emc3199"));
        QCOMPARE(rows[15].gpuHz, int64_t(612000000));
        QCOMPARE(rows[15].energyMj.value(), 40.0); // 10 W x 4 ms
        QCOMPARE(rows[15].runner, std::string("scripted"));

        QVERIFY(!progress.empty());
        QCOMPARE(progress.back().runsDone, size_t(16));
        QCOMPARE(progress.back().runsPlanned, size_t(16));
        QCOMPARE(progress.back().fraction, 1.0);
        QCOMPARE(progress.back().etaSeconds, 0.0);
        QCOMPARE(progress.front().phase, std::string("switching"));
        QCOMPARE(progress.front().etaSeconds, -1.0); // nothing done yet: unknown
        bool midEta = false;
        for (const ProfileProgress& p : progress)
            midEta = midEta || (p.runsDone == 8 && p.etaSeconds > 0);
        QVERIFY(midEta);
    }

    void goodFailingHangingAndLyingCommands() {
        Bench bench;
        CommandRunner runner("case $ROOFTOP_BATCH in "
                             "1) echo '{\"latency_ms\": 3, \"power_w\": 9}';; "
                             "2) echo 'engine build failed' >&2; exit 4;; "
                             "3) sleep 30;; "
                             "4) echo '{\"latency_ms\": 3, \"p99_ms\": 1}';; "
                             "5) echo '{\"latency_ms\": -3}';; "
                             "esac",
                             "model.onnx", 1.0);
        const ProfileOutcome outcome =
            runProfileSweep(shippedAgxOrin(), {custom()}, bench.env(runner),
                            bench.options({1, 2, 3, 4, 5}, {Precision::FP32}), {}, nullptr);
        QCOMPARE(outcome.ok, size_t(1));
        QCOMPARE(outcome.failed, size_t(4));
        bench.verifyRestored();
        const std::vector<RunRow> rows = readRunsFile(bench.runsPath());
        QCOMPARE(rows.size(), size_t(5));
        QCOMPARE(rows[0].status, std::string("ok"));
        QCOMPARE(rows[0].energyMj.value(), 27.0);
        QCOMPARE(rows[1].status, std::string("failed: exit 4: engine build failed"));
        QCOMPARE(rows[2].status, std::string("failed: timed out after 1 s (process group killed)"));
        QVERIFY(QString::fromStdString(rows[3].status).startsWith("failed: p99_ms is below latency_ms"));
        QVERIFY(QString::fromStdString(rows[4].status).startsWith("failed: latency_ms must be positive"));
        for (const RunRow& row : rows)
            QCOMPARE(row.runner, std::string("command"));
    }

    void modesThatCannotBeSwitchedToAreSkipped() {
        Bench bench;
        bench.helper.ignoreWrites = true; // custom clocks do not take effect
        ScriptedRunner runner(&bench.switcher);
        const ProfileOutcome outcome =
            runProfileSweep(shippedAgxOrin(), {stock(1), custom(), stock(3)}, bench.env(runner),
                            bench.options({1}, {Precision::FP32}), {}, nullptr);
        QCOMPARE(outcome.skipped.size(), size_t(2));
        QVERIFY(QString::fromStdString(outcome.skipped[0]).startsWith("MODE_15W: needs a reboot"));
        QVERIFY(QString::fromStdString(outcome.skipped[1]).contains("did not take effect"));
        QCOMPARE(runner.seen.size(), size_t(1));
        QCOMPARE(runner.seen[0].mode.name, std::string("MODE_50W"));
        bench.verifyRestored();
    }

    void cancelThenResume() {
        Bench bench;
        std::atomic<bool> cancel{false};
        ScriptedRunner runner(&bench.switcher);
        runner.hook = [&](const RunConfig&, size_t call) {
            if (call == 3) cancel = true; // e.g. Ctrl-C during the third run, which still finishes
            return std::optional<RunResult>();
        };
        const auto options = bench.options({1, 2}, {Precision::FP32, Precision::INT8});
        const ProfileOutcome first =
            runProfileSweep(shippedAgxOrin(), {stock(3), custom()}, bench.env(runner), options, {}, &cancel);
        QVERIFY(first.cancelled);
        QCOMPARE(first.ok, size_t(3));
        QCOMPARE(readRunsFile(bench.runsPath()).size(), size_t(3));
        bench.verifyRestored();

        cancel = false;
        ScriptedRunner again(&bench.switcher);
        const ProfileOutcome second =
            runProfileSweep(shippedAgxOrin(), {stock(3), custom()}, bench.env(again), options, {}, &cancel);
        QVERIFY(!second.cancelled);
        QCOMPARE(second.resumed, size_t(3));
        QCOMPARE(second.ok, size_t(5));
        QCOMPARE(again.seen.front().mode.name, stock(3).name);
        QCOMPARE(again.seen.front().batch, int64_t(2));
        QCOMPARE(again.seen.front().precision, Precision::INT8);
        const std::vector<RunRow> rows = readRunsFile(bench.runsPath());
        QCOMPARE(rows.size(), size_t(8));
        QCOMPARE(okRunCounts(rows).size(), size_t(8)); // every configuration once
        bench.verifyRestored();
    }

    void aResumesRepeatsContinueTheFilesCount() {
        // --repeat 2 then --repeat 4: the new runs are the file's third and fourth of the configuration, so a
        // simulated board draws them apart from the first two (not the first two's noise again)
        Bench bench;
        ScriptedRunner first(&bench.switcher);
        runProfileSweep(shippedAgxOrin(), {stock(3)}, bench.env(first),
                        bench.options({1}, {Precision::FP32}, 2), {}, nullptr);
        QCOMPARE(first.seen.size(), size_t(2));
        QCOMPARE(first.seen[0].repeat, 0);
        QCOMPARE(first.seen[1].repeat, 1);
        ScriptedRunner again(&bench.switcher);
        const ProfileOutcome second = runProfileSweep(shippedAgxOrin(), {stock(3)}, bench.env(again),
                                                      bench.options({1}, {Precision::FP32}, 4), {}, nullptr);
        QCOMPARE(second.resumed, size_t(2));
        QCOMPARE(again.seen.size(), size_t(2));
        QCOMPARE(again.seen[0].repeat, 2);
        QCOMPARE(again.seen[1].repeat, 3);
    }

    void interruptedRunResumesAndRetriesFailures() {
        Bench bench;
        // what a killed earlier run left: one ok row, one failed row, cut after a whole line
        {
            RunsFileWriter writer(bench.runsPath());
            RunResult ok;
            ok.ok = true;
            ok.latencyMs = 1.0;
            ok.p99Ms = 1.0;
            writer.append(runRowFrom(RunConfig{custom(), 1, Precision::FP32, Phase::Inference, {}}, ok,
                                     "scripted", "profile"));
            writer.append(runRowFrom(RunConfig{custom(), 2, Precision::FP32, Phase::Inference, {}},
                                     RunResult::failed("oom"), "scripted", "profile"));
        }
        ScriptedRunner runner(&bench.switcher);
        const ProfileOutcome outcome =
            runProfileSweep(shippedAgxOrin(), {custom()}, bench.env(runner),
                            bench.options({1, 2, 4}, {Precision::FP32}), {}, nullptr);
        QCOMPARE(outcome.resumed, size_t(1));
        QCOMPARE(runner.seen.size(), size_t(2)); // the failed one again, and the missing one
        QCOMPARE(runner.seen[0].batch, int64_t(2));
        QCOMPARE(runner.seen[1].batch, int64_t(4));
        QCOMPARE(readRunsFile(bench.runsPath()).size(), size_t(4));
        bench.verifyRestored();

        // a sweep with everything done switches nothing
        bench.helper.calls.clear();
        ScriptedRunner idle(&bench.switcher);
        const ProfileOutcome done = runProfileSweep(shippedAgxOrin(), {custom()}, bench.env(idle),
                                                    bench.options({1, 2, 4}, {Precision::FP32}), {}, nullptr);
        QCOMPARE(done.resumed, size_t(3));
        QVERIFY(idle.seen.empty());
        QVERIFY(bench.helper.calls.empty());
    }

    void exceptionRestoresTheMode() {
        Bench bench;
        ScriptedRunner runner(&bench.switcher);
        runner.hook = [](const RunConfig&, size_t call) -> std::optional<RunResult> {
            if (call == 2) throw std::runtime_error("runner crashed");
            return std::nullopt;
        };
        QVERIFY_EXCEPTION_THROWN(runProfileSweep(shippedAgxOrin(), {custom()}, bench.env(runner),
                                                 bench.options({1, 2, 4}, {Precision::FP32}), {}, nullptr),
                                 std::runtime_error);
        QCOMPARE(readRunsFile(bench.runsPath()).size(), size_t(1));
        bench.verifyRestored();
    }

    void malformedRunsFileChangesNothing() {
        Bench bench;
        QFile file(QString::fromStdString(bench.runsPath()));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("mode,batch,latency_ms\n");
        file.close();
        ScriptedRunner runner(&bench.switcher);
        QVERIFY_EXCEPTION_THROWN(runProfileSweep(shippedAgxOrin(), {custom()}, bench.env(runner),
                                                 bench.options({1}, {Precision::FP32}), {}, nullptr),
                                 InputError);
        QVERIFY(bench.helper.calls.empty());
        QVERIFY(runner.seen.empty());
        QVERIFY(!bench.journal.pending());
    }

    void noSwitchRunsEveryModeAsItIs() {
        Bench bench;
        ScriptedRunner runner(&bench.switcher);
        const ProfileOutcome outcome =
            runProfileSweep(shippedAgxOrin(), {stock(1), custom()}, bench.env(runner, false),
                            bench.options({1}, {Precision::FP32}), {}, nullptr);
        QCOMPARE(outcome.ok, size_t(2)); // not even the reboot-needing mode is skipped: nothing switches
        QVERIFY(bench.helper.calls.empty());
        QCOMPARE(runner.gpuMaxInForce, (std::vector<int64_t>{1300500000, 1300500000}));
        QCOMPARE(bench.slept, 0.0);
    }
};

ROOFTOP_TEST_CLASS(ProfileSweep)
#include "test_profile_sweep.moc"
