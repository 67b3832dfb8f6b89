// SPDX-License-Identifier: GPL-3.0-or-later
// Mode switching on a writable copy of the AGX Orin JetPack 6 tree through a simulated helper (the real
// helper's validation and write plan, then what nvpmodel and the kernel would do): stock and custom modes
// verified by reading sysfs back, refused and ineffective switches, reboot-needing modes, the restore
// guard, the journal after a simulated crash, and the helper's input validation. The same on Jetson AGX Thor
// T5000 trees (JetPack 7.0 and 7.1: gpu-gpc-0, EMC through bwmgr, modes from the board's own conf), its bad
// input (a conf mode above the ladders, a conf that does not parse), and vendor confs that add modes.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/platform/board_conf.h"
#include "core/platform/helper_request.h"
#include "core/platform/nvpmodel_conf.h"
#include "core/platform/restore_journal.h"
#include "support/device_fixtures.h"
#include "support/simulated_helper.h"
#include "support/test_registry.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>

using namespace rooftop;
using rooftop::test::shippedAgxOrin;

namespace {

using test::BoardCopy;
using test::SimulatedHelper;

/// The board the helper is simulated on.
/// Jetson AGX Thor T5000 as the catalog has it (its caps estimates until the board's conf replaces them).
const DeviceSpec& thor() {
    return test::shippedDevice("agx-thor-t5000");
}

HelperLimits orinLimits() {
    HelperLimits limits;
    limits.stockIds = {0, 1, 2, 3};
    limits.cpuKhz = {729600, 1728000, 2201600};
    limits.gpuHz = {306000000, 612000000, 1300500000};
    limits.emcHz = {204000000, 3199000000};
    limits.cpuCount = 12;
    return limits;
}

QString refusal(const std::vector<std::string>& args) {
    try {
        parseHelperRequest(args, orinLimits());
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

} // namespace

class PlatformSwitching : public QObject {
    Q_OBJECT
private slots:
    void stockModeSwitchVerified() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        QCOMPARE(switcher.currentStockId(), std::optional<int>(0));
        const PowerMode m50 = powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(3));
        switchAndVerify(switcher, m50);
        QCOMPARE(switcher.currentStockId(), std::optional<int>(3));
        const ObservedClocks seen = switcher.observe();
        QCOMPARE(seen.gpuMaxHz, int64_t(816000000));
        QCOMPARE(seen.cpuMaxKhz, int64_t(1497600));
        QCOMPARE(seen.onlineCores, 12);
        QCOMPARE(helper.calls.back(), (std::vector<std::string>{"set-stock-mode", "3"}));
        QCOMPARE(helper.calls.front(), (std::vector<std::string>{"release-clocks"}));
    }

    void customModeSwitchVerified() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        const PowerMode custom =
            parseCustomMode(shippedAgxOrin(), "cores=8,cpu=1728000,gpu=612000000,emc=665600000");
        switchAndVerify(switcher, custom);
        const ObservedClocks seen = switcher.observe();
        QCOMPARE(seen.onlineCores, 8);
        QCOMPARE(seen.gpuMinHz, int64_t(612000000));
        QCOMPARE(seen.gpuMaxHz, int64_t(612000000));
        QCOMPARE(seen.cpuMinKhz, int64_t(1728000));
        QCOMPARE(seen.emcHz, int64_t(665600000));
        QCOMPARE(*board.root().read("sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked"), std::string("1"));
        QCOMPARE(helper.calls.back(),
                 (std::vector<std::string>{"set-clocks", "--gpu", "612000000", "--cpu", "1728000", "--cores",
                                           "8", "--emc", "665600000"}));
    }

    void clocksThatDoNotTakeEffect() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        helper.ignoreWrites = true;
        JetsonModeSwitcher switcher(board.root(), helper);
        const PowerMode custom =
            parseCustomMode(shippedAgxOrin(), "cores=8,cpu=1728000,gpu=612000000,emc=3199000000");
        try {
            switchAndVerify(switcher, custom);
            QFAIL("no error");
        } catch (const UnavailableError& error) {
            QCOMPARE(
                QString(error.what()),
                QString(
                    "mode c8-cpu1728-gpu612-emc3199: the clocks did not take effect (12 cores online, wanted "
                    "8; "
                    "GPU max 1300.5 MHz, wanted 612 MHz; CPU max 2201.6 MHz, wanted 1728 MHz; GPU min "
                    "306 MHz, wanted 612 MHz; CPU min 115.2 MHz, wanted 1728 MHz)"));
        }
    }

    void helperFailureIsOneLine() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        helper.failAll = true;
        JetsonModeSwitcher switcher(board.root(), helper);
        try {
            switcher.setStockMode(1);
            QFAIL("no error");
        } catch (const UnavailableError& error) {
            QCOMPARE(QString(error.what()),
                     QString("the mode helper failed (exit 3): NVPM ERROR: simulated"));
        }
    }

    void currentModeFallsBackToConfDefault() {
        BoardCopy board("xavier-nx-jp5"); // no /var/lib/nvpmodel/status yet
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        QCOMPARE(switcher.currentStockId(), std::optional<int>(5));
    }

    void missingHelperIsUnavailable() {
        ProcessHelperRunner runner("");
        std::string output;
        QVERIFY_EXCEPTION_THROWN(runner.run({"release-clocks"}, &output), UnavailableError);
    }

    void rebootNeededForTpcMaskChange() {
        BoardCopy board("agx-orin-jp6");
        const ObservedClocks now = readObservedClocks(board.root(), findClockPaths(board.root()));
        QCOMPARE(QString::fromStdString(rebootReason(
                     shippedAgxOrin(), now, powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(1)))),
                 QString("needs a reboot: it runs 3 TPCs, the GPU has 8 powered now (TPC mask change)"));
        QVERIFY(rebootReason(shippedAgxOrin(), now,
                             powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(3)))
                    .empty());
        QVERIFY(
            rebootReason(shippedAgxOrin(), now,
                         parseCustomMode(shippedAgxOrin(), "cores=4,cpu=729600,gpu=306000000,emc=204000000"))
                .empty());
    }

    void guardRestoresOnError() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        RestoreJournal journal(board.dir.filePath("state/journal").toStdString());
        try {
            RestoreGuard guard(switcher, journal);
            guard.beforeChange();
            QCOMPARE(journal.pending(), std::optional<int>(0)); // written before the first change
            switcher.setClocks(
                parseCustomMode(shippedAgxOrin(), "cores=4,cpu=729600,gpu=306000000,emc=204000000"));
            QCOMPARE(switcher.observe().onlineCores, 4);
            throw std::runtime_error("kernel failed");
        } catch (const std::runtime_error&) {
        }
        QVERIFY(!journal.pending());
        QCOMPARE(switcher.currentStockId(), std::optional<int>(0));
        const ObservedClocks seen = switcher.observe();
        QCOMPARE(seen.onlineCores, 12);
        QCOMPARE(seen.gpuMaxHz, int64_t(1300500000));
        QCOMPARE(seen.gpuMinHz, int64_t(306000000));
        QCOMPARE(*board.root().read("sys/kernel/debug/bpmp/debug/clk/emc/mrq_rate_locked"), std::string("0"));
    }

    void guardRefusesUnknownCurrentMode() {
        BoardCopy board("agx-orin-jp6");
        std::filesystem::remove(board.dir.filePath("var/lib/nvpmodel/status").toStdString());
        std::filesystem::remove(board.dir.filePath("etc/nvpmodel.conf").toStdString());
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        RestoreJournal journal(board.dir.filePath("journal").toStdString());
        RestoreGuard guard(switcher, journal);
        QVERIFY_EXCEPTION_THROWN(guard.beforeChange(), UnavailableError);
        QVERIFY(helper.calls.empty());
        QVERIFY(!journal.pending());
    }

    void journalReplayedAfterCrash() {
        BoardCopy board("agx-orin-jp6");
        const std::string journalPath = board.dir.filePath("journal").toStdString();
        {
            // the crashed run: journal written, clocks changed, no restore
            SimulatedHelper helper(board.root());
            JetsonModeSwitcher switcher(board.root(), helper);
            auto* guard = new RestoreGuard(switcher, *new RestoreJournal(journalPath));
            guard->beforeChange();
            switcher.setClocks(
                parseCustomMode(shippedAgxOrin(), "cores=2,cpu=729600,gpu=306000000,emc=204000000"));
            // leaked on purpose: a crash runs no destructor
        }
        QCOMPARE(readObservedClocks(board.root(), findClockPaths(board.root())).onlineCores, 2);
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        RestoreJournal journal(journalPath);
        QCOMPARE(journal.pending(), std::optional<int>(0));
        QVERIFY(replayRestoreJournal(journal, switcher));
        QCOMPARE(helper.calls,
                 (std::vector<std::vector<std::string>>{{"release-clocks"}, {"set-stock-mode", "0"}}));
        QCOMPARE(switcher.observe().onlineCores, 12);
        QVERIFY(!journal.pending());
        QVERIFY(!replayRestoreJournal(journal, switcher)); // nothing left
    }

    void stockModeSetEvenWhenReleaseFails() {
        BoardCopy board("agx-orin-jp6");
        SimulatedHelper helper(board.root());
        helper.failRelease = true;
        JetsonModeSwitcher switcher(board.root(), helper);
        RestoreJournal journal(board.dir.filePath("journal").toStdString());
        journal.record(0);
        // the release error is reported, but nvpmodel -m still ran; the journal stays for the next start
        QVERIFY_EXCEPTION_THROWN(replayRestoreJournal(journal, switcher), UnavailableError);
        QCOMPARE(helper.calls,
                 (std::vector<std::vector<std::string>>{{"release-clocks"}, {"set-stock-mode", "0"}}));
        QCOMPARE(journal.pending(), std::optional<int>(0));

        helper.calls.clear();
        {
            RestoreGuard guard(switcher, journal);
            guard.beforeChange();
            QVERIFY_EXCEPTION_THROWN(guard.restore(), UnavailableError);
            QCOMPARE(helper.calls.back(), (std::vector<std::string>{"set-stock-mode", "0"}));
            helper.failRelease = false; // the destructor's retry succeeds
        }
        QVERIFY(!journal.pending());

        helper.calls.clear();
        helper.failRelease = true;
        QVERIFY_EXCEPTION_THROWN(
            switchAndVerify(switcher, powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(0))),
            UnavailableError);
        QCOMPARE(helper.calls.back(), (std::vector<std::string>{"set-stock-mode", "0"}));
    }

    // ---- Jetson AGX Thor T5000 on JetPack 7 ---------------------------------------------------------------

    void thorModesComeFromTheBoardsConf() {
        // JetPack 7.0's conf: MAXN and 120W only; 7.1's adds 90W and 70W (the fake's 70W differs from the
        // catalog's estimate: 12 cores, GPU 1050 MHz, EMC 3199 MHz). Ids, names and caps are the conf's.
        BoardCopy jp70("thor-t5000-jp70");
        const DeviceSpec seven0 = deviceForBoard(thor(), jp70.root()).device;
        QCOMPARE(seven0.stockModes.size(), size_t(2));
        QCOMPARE(seven0.defaultModeId, 1);
        QCOMPARE(seven0.stockModeNamed("120W")->gpuMaxHz, int64_t(1470000000));
        BoardCopy jp71("thor-t5000-jp71");
        const BoardRefinement refined = deviceForBoard(thor(), jp71.root());
        const DeviceSpec& seven1 = refined.device;
        QCOMPARE(seven1.stockModes.size(), size_t(4));
        const StockMode& m70 = *seven1.stockMode(3);
        QCOMPARE(m70.name, std::string("70W"));
        QCOMPARE(m70.onlineCores, 12);
        QCOMPARE(m70.gpuMaxHz, int64_t(1050000000));
        QCOMPARE(m70.emcMaxHz, int64_t(3199000000));
        QCOMPARE(m70.budgetWatts, 70.0);
        QCOMPARE(m70.activeTpcs, 10);
        QVERIFY(!m70.capsEstimated); // the conf's caps are the board's: no longer estimates
        QVERIFY(thor().stockMode(3)->capsEstimated);
        QCOMPARE(thor().stockMode(3)->onlineCores, 14); // the catalog's estimate, replaced
        QVERIFY(seven1.sources.at("stock_modes").find("/etc/nvpmodel.conf") != std::string::npos);
        QVERIFY(!refined.notes.empty());
        // the fixture's ladders are the catalog's: nothing to replace there
        QCOMPARE(seven1.gpuLadderHz, thor().gpuLadderHz);
        QCOMPARE(seven1.grid.size(), thor().grid.size());
    }

    void thorLaddersFromSysfsReplaceTheEstimates() {
        BoardCopy board("thor-t5000-jp71");
        std::ofstream(board.dir.filePath("sys/class/devfreq/gpu-gpc-0/available_frequencies").toStdString(),
                      std::ios::trunc)
            << "306000000 612000000 918000000 1224000000 1575000000\n";
        const BoardRefinement refined = deviceForBoard(thor(), board.root());
        QCOMPARE(refined.device.gpuLadderHz,
                 (std::vector<int64_t>{306000000, 612000000, 918000000, 1224000000, 1575000000}));
        for (int64_t hz : refined.device.grid.gpuHz) // the grid snapped to the board's steps
            QVERIFY(
                std::binary_search(refined.device.gpuLadderHz.begin(), refined.device.gpuLadderHz.end(), hz));
        QCOMPARE(refined.device.grid.gpuHz.size(), size_t(5));
        QCOMPARE(refined.device.stockModeNamed("120W")->gpuMaxHz,
                 int64_t(1575000000)); // 1470 -> nearest step
        QVERIFY(refined.notes.front().find("GPU ladder from sysfs (5 steps, 306-1575 MHz)") !=
                std::string::npos);
        // an Orin's catalog ladders are not estimates: never replaced
        BoardCopy orinBoard("agx-orin-jp72");
        QCOMPARE(deviceForBoard(shippedAgxOrin(), orinBoard.root()).device.gpuLadderHz,
                 shippedAgxOrin().gpuLadderHz);
    }

    void thorStockAndCustomModesSwitchVerified() {
        BoardCopy board("thor-t5000-jp71");
        const DeviceSpec device = deviceForBoard(thor(), board.root()).device;
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        QCOMPARE(switcher.currentStockId(), std::optional<int>(1));
        switchAndVerify(switcher, powerModeFrom(device, *device.stockModeNamed("70W")));
        QCOMPARE(switcher.currentStockId(), std::optional<int>(3));
        ObservedClocks seen = switcher.observe();
        QCOMPARE(seen.onlineCores, 12);
        QCOMPARE(seen.gpuMaxHz, int64_t(1050000000));
        QCOMPARE(seen.cpuMaxKhz, int64_t(1881600));
        QCOMPARE(seen.emcHz, int64_t(3199000000)); // the EMC cap on bwmgr
        // a custom mode pins the GPU on gpu-gpc-0 and the EMC on bwmgr's devfreq
        const PowerMode custom = parseCustomMode(device, "cores=8,cpu=1651200,gpu=945000000,emc=2133000000");
        switchAndVerify(switcher, custom);
        seen = switcher.observe();
        QCOMPARE(seen.onlineCores, 8);
        QCOMPARE(seen.gpuMinHz, int64_t(945000000));
        QCOMPARE(seen.gpuMaxHz, int64_t(945000000));
        QCOMPARE(seen.emcHz, int64_t(2133000000));
        QCOMPARE(*board.root().read("sys/class/devfreq/bwmgr/min_freq"), std::string("2133000000"));
        QCOMPARE(*board.root().read("sys/class/devfreq/bwmgr/max_freq"), std::string("2133000000"));
    }

    void thorGuardAndJournalRestore() {
        BoardCopy board("thor-t5000-jp70");
        const DeviceSpec device = deviceForBoard(thor(), board.root()).device;
        const std::string journalPath = board.dir.filePath("state/journal").toStdString();
        {
            SimulatedHelper helper(board.root());
            JetsonModeSwitcher switcher(board.root(), helper);
            RestoreJournal journal(journalPath);
            try {
                RestoreGuard guard(switcher, journal);
                guard.beforeChange();
                switcher.setClocks(parseCustomMode(device, "cores=2,cpu=972000,gpu=315000000,emc=665600000"));
                throw std::runtime_error("runner failed");
            } catch (const std::runtime_error&) {
            }
            QCOMPARE(switcher.currentStockId(), std::optional<int>(1)); // back in 120W
            const ObservedClocks seen = switcher.observe();
            QCOMPARE(seen.onlineCores, 14);
            QCOMPARE(seen.gpuMaxHz, int64_t(1470000000));
            QCOMPARE(seen.gpuMinHz, int64_t(315000000));
            QCOMPARE(*board.root().read("sys/class/devfreq/bwmgr/min_freq"), std::string("665600000"));
            QCOMPARE(*board.root().read("sys/class/devfreq/bwmgr/max_freq"), std::string("4266000000"));
        }
        {
            // a crash between the journal and the restore: the next start replays it
            SimulatedHelper helper(board.root());
            JetsonModeSwitcher switcher(board.root(), helper);
            auto* guard = new RestoreGuard(switcher, *new RestoreJournal(journalPath));
            guard->beforeChange();
            switcher.setStockMode(0); // MAXN
        }
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        RestoreJournal journal(journalPath);
        QCOMPARE(journal.pending(), std::optional<int>(1));
        QVERIFY(replayRestoreJournal(journal, switcher));
        QCOMPARE(switcher.currentStockId(), std::optional<int>(1));
        QVERIFY(!journal.pending());
    }

    void agxOrinOnJetPack72SwitchesAndRestores() {
        // JetPack 7.2 on AGX Orin: the classic devfreq node under /sys/class/devfreq, EMC through BPMP
        BoardCopy board("agx-orin-jp72");
        const DeviceSpec device = deviceForBoard(shippedAgxOrin(), board.root()).device;
        SimulatedHelper helper(board.root());
        JetsonModeSwitcher switcher(board.root(), helper);
        QCOMPARE(switcher.currentStockId(), std::optional<int>(2));
        RestoreJournal journal(board.dir.filePath("state/journal").toStdString());
        {
            RestoreGuard guard(switcher, journal);
            guard.beforeChange();
            switchAndVerify(switcher, powerModeFrom(device, *device.stockModeNamed("MODE_50W")));
            QCOMPARE(switcher.observe().gpuMaxHz, int64_t(816000000));
            switchAndVerify(switcher,
                            parseCustomMode(device, "cores=8,cpu=1728000,gpu=612000000,emc=665600000"));
            QCOMPARE(switcher.observe().emcHz, int64_t(665600000));
        }
        QCOMPARE(switcher.currentStockId(), std::optional<int>(2)); // MODE_30W again
        QCOMPARE(switcher.observe().onlineCores, 8);
        QCOMPARE(switcher.observe().gpuMaxHz, int64_t(612000000));
        QVERIFY(!journal.pending());
    }

    void thorBadConfIsOneLineAndNothingSwitched() {
        BoardCopy board("thor-t5000-jp71");
        const std::string conf = board.dir.filePath("etc/nvpmodel.conf").toStdString();
        std::string text = *board.root().read("etc/nvpmodel.conf");
        const std::string cap = "GPU MAX_FREQ 1050000000";
        text.replace(text.find(cap), cap.size(), "GPU MAX_FREQ 2000000000"); // the 70W mode above the ladder
        std::ofstream(conf, std::ios::trunc) << text;
        const std::string statusBefore = *board.root().read("var/lib/nvpmodel/status");
        QString message;
        try {
            deviceForBoard(thor(), board.root());
        } catch (const InputError& error) {
            message = QString::fromUtf8(error.what());
        }
        QCOMPARE(message,
                 QString("this board's /etc/nvpmodel.conf mode 3 (70W): GPU MAX_FREQ 2000000000 Hz is above "
                         "the top of the board's GPU ladder (1575 MHz): the board cannot run this mode; "
                         "nothing switched"));
        QCOMPARE(*board.root().read("var/lib/nvpmodel/status"), statusBefore);
        // more cores online than the board has (another board's conf)
        std::string wideText = "< POWER_MODEL ID=5 NAME=40W >\n";
        for (int core = 0; core < 16; ++core)
            wideText += "CPU_ONLINE CORE_" + std::to_string(core) + " 1\n";
        try {
            stockModesFromConf(thor(), parseNvpmodelConf(wideText));
            QFAIL("no error");
        } catch (const InputError& error) {
            QCOMPARE(QString(error.what()),
                     QString("nvpmodel.conf mode 5 (40W): 16 cores online, but NVIDIA Jetson "
                             "AGX Thor T5000 has 14: this conf is not the board's; nothing "
                             "switched"));
        }
        // a conf that does not parse
        std::ofstream(conf, std::ios::trunc) << "< POWER_MODEL ID=x NAME=MAXN >\n";
        message.clear();
        try {
            deviceForBoard(thor(), board.root());
        } catch (const InputError& error) {
            message = QString::fromUtf8(error.what());
        }
        QVERIFY2(message.startsWith("this board's /etc/nvpmodel.conf line 1:") && !message.contains('\n'),
                 qPrintable(message));
    }

    void vendorConfsAddModes() {
        // a vendor image that adds a 40W mode to an Orin NX Super conf (fly4future, Seeed): read, never
        // assumed
        const DeviceSpec& nx = test::shippedDevice("orin-nx-16gb-super");
        const NvpmodelConf conf = parseNvpmodelConf(
            "< PARAM TYPE=CLOCK NAME=CPU_A78_0 >\nMAX_FREQ "
            "/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq\n"
            "< PARAM TYPE=CLOCK NAME=GPU >\nMAX_FREQ /sys/class/devfreq/17000000.gpu/max_freq\n"
            "< POWER_MODEL ID=0 NAME=MAXN_SUPER >\nCPU_A78_0 MAX_FREQ -1\nGPU MAX_FREQ -1\n"
            "< POWER_MODEL ID=4 NAME=40W >\nCPU_A78_0 MAX_FREQ 1497600\nGPU MAX_FREQ 1173000000\n"
            "< POWER_MODEL ID=9 NAME=VENDOR_30W_QUIET >\nCPU_A78_0 MAX_FREQ 1420800\nGPU MAX_FREQ 800000000\n"
            "< PM_CONFIG DEFAULT=9 >\n");
        const std::vector<StockMode> modes = stockModesFromConf(nx, conf);
        QCOMPARE(modes.size(), size_t(3));
        QCOMPARE(modes[2].id, 9);
        QCOMPARE(modes[2].name, std::string("VENDOR_30W_QUIET"));
        QCOMPARE(modes[2].budgetWatts, 30.0);
        QCOMPARE(modes[2].onlineCores, nx.cpuCores); // no CPU_ONLINE: every core
        QVERIFY(std::binary_search(nx.gpuLadderHz.begin(), nx.gpuLadderHz.end(), modes[2].gpuMaxHz));
        // the Orin Nano Super's JetPack 6.2.x 7W mode, read from its conf
        const DeviceSpec& nano = test::shippedDevice("orin-nano-8gb-super");
        const NvpmodelConf nanoConf = parseNvpmodelConf(
            "< PARAM TYPE=CLOCK NAME=CPU_A78_0 >\nMAX_FREQ "
            "/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq\n"
            "< PARAM TYPE=CLOCK NAME=GPU >\nMAX_FREQ_KNEXT "
            "/sys/devices/platform/17000000.gpu/devfreq_dev/max_freq\n"
            "< PARAM TYPE=CLOCK NAME=EMC >\nMAX_FREQ /sys/kernel/nvpmodel_clk_cap/emc\n"
            "< POWER_MODEL ID=3 NAME=7W >\nCPU_ONLINE CORE_0 1\nCPU_ONLINE CORE_1 1\nCPU_ONLINE CORE_2 1\n"
            "CPU_ONLINE CORE_3 1\nCPU_ONLINE CORE_4 0\nCPU_ONLINE CORE_5 0\nTPC_POWER_GATING TPC_PG_MASK "
            "252\n"
            "CPU_A78_0 MAX_FREQ 960000\nGPU MAX_FREQ_KNEXT 408000000\nEMC MAX_FREQ 2133000000\n");
        const StockMode seven = stockModesFromConf(nano, nanoConf).front();
        QCOMPARE(seven.onlineCores, 4);
        QCOMPARE(seven.cpuMaxKhz, int64_t(960000));
        QCOMPARE(seven.gpuMaxHz, int64_t(408000000));
        QCOMPARE(seven.emcMaxHz, int64_t(2133000000));
        QCOMPARE(seven.activeTpcs, 2);
        QCOMPARE(seven.budgetWatts, 7.0);
    }

    void malformedJournalIgnored() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("journal").toStdString();
        std::ofstream(path) << "rooftop-mode-journal/1 stock=../../etc\n";
        RestoreJournal journal(path);
        QVERIFY(!journal.pending());
        std::ofstream(path) << "garbage";
        QVERIFY(!journal.pending());
    }

    void helperAcceptsLadderValues() {
        const HelperRequest stock = parseHelperRequest({"set-stock-mode", "2"}, orinLimits());
        QCOMPARE(stock.stockId, 2);
        const HelperRequest clocks = parseHelperRequest(
            {"set-clocks", "--cores", "8", "--gpu", "612000000", "--cpu", "1728000", "--emc", "3199000000"},
            orinLimits());
        QCOMPARE(clocks.cores, 8);
        QCOMPARE(clocks.gpuHz, int64_t(612000000));
        QCOMPARE(clocks.emcHz, int64_t(3199000000));
        QCOMPARE(helperArguments(clocks),
                 (std::vector<std::string>{"set-clocks", "--gpu", "612000000", "--cpu", "1728000", "--cores",
                                           "8", "--emc", "3199000000"}));
        QCOMPARE(parseHelperRequest({"release-clocks"}, orinLimits()).action,
                 HelperRequest::Action::ReleaseClocks);
    }

    void helperRefuses_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("nothing") << QStringList{} << "expected set-stock-mode";
        QTest::newRow("unknown action") << QStringList{"rm", "-rf"} << "unknown action 'rm'";
        QTest::newRow("path as mode") << QStringList{"set-stock-mode", "../../etc/shadow"}
                                      << "needs a decimal number, got '../../etc/shadow'";
        QTest::newRow("absolute path")
            << QStringList{"set-stock-mode", "/etc/nvpmodel.conf"} << "needs a decimal number";
        QTest::newRow("shell") << QStringList{"set-stock-mode", "1; reboot"}
                               << "needs a decimal number, got '1; reboot'";
        QTest::newRow("negative") << QStringList{"set-stock-mode", "-1"}
                                  << "needs a decimal number, got '-1'";
        QTest::newRow("unknown mode")
            << QStringList{"set-stock-mode", "9"} << "mode 9 is not in nvpmodel.conf";
        QTest::newRow("extra arg") << QStringList{"set-stock-mode", "1", "2"} << "usage: set-stock-mode ID";
        QTest::newRow("hex") << QStringList{"set-clocks", "--gpu", "0x10", "--cpu", "1728000", "--cores", "8"}
                             << "needs a decimal number, got '0x10'";
        QTest::newRow("spaces") << QStringList{"set-clocks", "--gpu",   " 612000000", "--cpu",
                                               "1728000",    "--cores", "8"}
                                << "needs a decimal number";
        QTest::newRow("off ladder") << QStringList{"set-clocks", "--gpu",   "612000001", "--cpu",
                                                   "1728000",    "--cores", "8"}
                                    << "GPU clock (Hz) 612000001 is not in the board's ladder";
        QTest::newRow("cpu off ladder")
            << QStringList{"set-clocks", "--gpu", "612000000", "--cpu", "9999999", "--cores", "8"}
            << "CPU clock (kHz) 9999999";
        QTest::newRow("emc off ladder") << QStringList{"set-clocks", "--gpu", "612000000", "--cpu", "1728000",
                                                       "--cores",    "8",     "--emc",     "1"}
                                        << "EMC clock (Hz) 1 is not";
        QTest::newRow("zero cores") << QStringList{"set-clocks", "--gpu",   "612000000", "--cpu",
                                                   "1728000",    "--cores", "0"}
                                    << "--cores must be 1..12";
        QTest::newRow("too many cores")
            << QStringList{"set-clocks", "--gpu", "612000000", "--cpu", "1728000", "--cores", "13"}
            << "--cores must be 1..12";
        QTest::newRow("repeated") << QStringList{"set-clocks", "--gpu", "612000000", "--gpu", "306000000"}
                                  << "--gpu given twice";
        QTest::newRow("missing value") << QStringList{"set-clocks", "--gpu"} << "--gpu needs a value";
        QTest::newRow("missing option")
            << QStringList{"set-clocks", "--gpu", "612000000"} << "needs --gpu, --cpu and --cores";
        QTest::newRow("path option") << QStringList{"set-clocks", "--path", "/sys/x"}
                                     << "unknown option '--path'";
        QTest::newRow("equals form") << QStringList{"set-clocks", "--gpu=612000000"}
                                     << "unknown option '--gpu=612000000'";
        QTest::newRow("release args") << QStringList{"release-clocks", "x"} << "takes no arguments";
        QTest::newRow("overflow") << QStringList{"set-stock-mode", "99999999999999999999999"}
                                  << "needs a decimal number";
    }
    void helperRefuses() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        std::vector<std::string> list;
        for (const auto& a : args)
            list.push_back(a.toStdString());
        const QString error = refusal(list);
        QVERIFY2(error.startsWith("helper: ") && error.contains(message), qPrintable(error));
    }

    void writePlanOrder() {
        ClockPaths paths;
        paths.gpuDevfreq = "gpu";
        ObservedClocks current;
        current.gpuMaxHz = 1300500000;
        current.cpuMaxKhz = 729600;
        HelperLimits limits = orinLimits();
        limits.cpuCount = 2;
        HelperRequest request = parseHelperRequest(
            {"set-clocks", "--gpu", "612000000", "--cpu", "1728000", "--cores", "1"}, limits);
        const auto plan = planClockWrites(request, paths, current, limits);
        std::vector<std::string> text;
        for (const auto& w : plan)
            text.push_back(w.path + "=" + w.value);
        // cores first; CPU raised: max before min; GPU lowered: min before max; no EMC without --emc
        QCOMPARE(text,
                 (std::vector<std::string>{"sys/devices/system/cpu/cpu1/online=0",
                                           "sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq=1728000",
                                           "sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq=1728000",
                                           "gpu/min_freq=612000000", "gpu/max_freq=612000000"}));
        request.action = HelperRequest::Action::SetStockMode;
        QVERIFY(planClockWrites(request, paths, current, limits).empty());

        // release: every core online first (even ones the last run took offline), then min and max
        // reset on every core, not only the ones online now
        request.action = HelperRequest::Action::ReleaseClocks;
        current.onlineCores = 1;
        text.clear();
        for (const auto& w : planClockWrites(request, paths, current, limits))
            text.push_back(w.path + "=" + w.value);
        QCOMPARE(text,
                 (std::vector<std::string>{"sys/devices/system/cpu/cpu1/online=1",
                                           "sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq=729600",
                                           "sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq=2201600",
                                           "sys/devices/system/cpu/cpu1/cpufreq/scaling_min_freq=729600",
                                           "sys/devices/system/cpu/cpu1/cpufreq/scaling_max_freq=2201600",
                                           "gpu/min_freq=306000000"}));
    }

    void limitsFromFixture() {
        const SysfsRoot root(std::string(ROOFTOP_TEST_FIXTURES_DIR "/jetson/agx-orin-jp6"));
        const HelperLimits limits = readHelperLimits(root, findClockPaths(root));
        QCOMPARE(limits.stockIds, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(limits.cpuCount, 12);
        QCOMPARE(int(limits.gpuHz.size()), 11);
        QCOMPARE(limits.emcHz, (std::vector<int64_t>{204000000, 665600000, 2133000000, 3199000000}));
        const SysfsRoot nano(std::string(ROOFTOP_TEST_FIXTURES_DIR "/jetson/orin-nano-jp6"));
        QCOMPARE(readHelperLimits(nano, findClockPaths(nano)).emcHz,
                 (std::vector<int64_t>{2133000000})); // max_rate only
    }
};

ROOFTOP_TEST_CLASS(PlatformSwitching)
#include "test_platform_switching.moc"
