// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/mode_switcher.h"
#include "core/common/text_format.h"

#include "core/common/errors.h"
#include "core/platform/nvpmodel_conf.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <bitset>
#include <exception>
#include <cstdlib>

namespace rooftop {

std::string defaultHelperPath() {
    if (const char* path = std::getenv("ROOFTOP_MODE_HELPER"); path && *path) return path;
    const QString dir = QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QString();
    if (dir.isEmpty()) return {};
    for (const QString& candidate : {dir + "/rooftop-mode-helper", dir + "/mode_helper/rooftop-mode-helper",
                                     dir + "/../libexec/rooftop/rooftop-mode-helper"})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath().toStdString();
    return {};
}

ProcessHelperRunner::ProcessHelperRunner(std::string helperPath) : helperPath_(std::move(helperPath)) {}

int ProcessHelperRunner::run(const std::vector<std::string>& args, std::string* output) {
    if (helperPath_.empty()) throw UnavailableError("the mode helper rooftop-mode-helper is not installed");
    QStringList arguments;
    QString program = QStandardPaths::findExecutable("pkexec");
    if (program.isEmpty()) {
        program = QStandardPaths::findExecutable("sudo");
        if (program.isEmpty()) throw UnavailableError("switching modes needs pkexec or sudo, found neither");
        arguments << "-n";
    }
    arguments << QString::fromStdString(helperPath_);
    for (const auto& a : args)
        arguments << QString::fromStdString(a);
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForStarted(10000)) throw UnavailableError("cannot start " + program.toStdString());
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished(5000);
        throw UnavailableError("the mode helper did not finish within 120 s");
    }
    if (output) *output = process.readAll().toStdString();
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : 128;
}

JetsonModeSwitcher::JetsonModeSwitcher(SysfsRoot root, HelperRunner& helper)
    : root_(std::move(root)), helper_(helper), paths_(findClockPaths(root_)) {}

std::optional<int> JetsonModeSwitcher::currentStockId() {
    const auto status = root_.read("var/lib/nvpmodel/status");
    if (status) return parseNvpmodelStatus(*status);
    // No status file yet: the conf's default is in force.
    if (const auto conf = root_.read("etc/nvpmodel.conf")) {
        try {
            const int id = parseNvpmodelConf(*conf).defaultId;
            if (id >= 0) return id;
        } catch (const InputError&) {
        }
    }
    return std::nullopt;
}

ObservedClocks JetsonModeSwitcher::observe() {
    return readObservedClocks(root_, paths_);
}

void JetsonModeSwitcher::call(const HelperRequest& request) {
    std::string output;
    const int code = helper_.run(helperArguments(request), &output);
    if (code != 0) {
        if (auto eol = output.find('\n'); eol != std::string::npos) output.resize(eol);
        throw UnavailableError("the mode helper failed (exit " + std::to_string(code) + ")" +
                               (output.empty() ? "" : ": " + output));
    }
}

void JetsonModeSwitcher::setStockMode(int id) {
    HelperRequest request;
    request.action = HelperRequest::Action::SetStockMode;
    request.stockId = id;
    call(request);
}

void JetsonModeSwitcher::setClocks(const PowerMode& mode) {
    HelperRequest request;
    request.action = HelperRequest::Action::SetClocks;
    request.gpuHz = mode.gpuHz;
    request.cpuKhz = mode.cpuKhz;
    request.emcHz = mode.emcHz;
    request.cores = mode.onlineCores;
    call(request);
}

void JetsonModeSwitcher::releaseClocks() {
    HelperRequest request;
    request.action = HelperRequest::Action::ReleaseClocks;
    call(request);
}

namespace {

std::string mhzText(int64_t hz) { return mhz(static_cast<double>(hz)) + " MHz"; }

} // namespace

std::string clockMismatch(const PowerMode& mode, const ObservedClocks& seen) {
    std::string problems;
    auto add = [&](const std::string& text) { problems += (problems.empty() ? "" : "; ") + text; };
    if (seen.onlineCores != mode.onlineCores)
        add(std::to_string(seen.onlineCores) + " cores online, wanted " + std::to_string(mode.onlineCores));
    // nvpmodel rounds a stock cap to the nearest ladder entry: stock caps match within 5 %.
    auto differs = [&](int64_t seenValue, int64_t wanted) {
        if (!mode.stock) return seenValue != wanted;
        return std::llabs(seenValue - wanted) > wanted / 20;
    };
    if (differs(seen.gpuMaxHz, mode.gpuHz))
        add("GPU max " + mhzText(seen.gpuMaxHz) + ", wanted " + mhzText(mode.gpuHz));
    if (differs(seen.cpuMaxKhz, mode.cpuKhz))
        add("CPU max " + mhzText(seen.cpuMaxKhz * 1000) + ", wanted " + mhzText(mode.cpuKhz * 1000));
    if (!mode.stock) {
        if (seen.gpuMinHz != mode.gpuHz) add("GPU min " + mhzText(seen.gpuMinHz) + ", wanted " + mhzText(mode.gpuHz));
        if (seen.cpuMinKhz != mode.cpuKhz)
            add("CPU min " + mhzText(seen.cpuMinKhz * 1000) + ", wanted " + mhzText(mode.cpuKhz * 1000));
        if (seen.emcHz != 0 && mode.emcHz != 0 && seen.emcHz != mode.emcHz)
            add("EMC " + mhzText(seen.emcHz) + ", wanted " + mhzText(mode.emcHz));
    }
    return problems;
}

std::string rebootReason(const DeviceSpec& device, const ObservedClocks& now, const PowerMode& mode) {
    if (device.tpcMaskBits <= 0 || now.tpcPgMask < 0 || mode.activeTpcs <= 0) return {};
    const int gated = static_cast<int>(
        std::bitset<32>(static_cast<unsigned>(now.tpcPgMask) & ((1u << device.tpcMaskBits) - 1)).count());
    const int activeNow = device.units.tpcCount - gated;
    if (activeNow == mode.activeTpcs) return {};
    return "needs a reboot: it runs " + std::to_string(mode.activeTpcs) + " TPCs, the GPU has " +
           std::to_string(activeNow) + " powered now (TPC mask change)";
}

void releaseThenSetStock(ModeSwitcher& switcher, int stockId) {
    std::exception_ptr first;
    try {
        switcher.releaseClocks();
    } catch (...) {
        first = std::current_exception(); // nvpmodel still runs: it resets the clocks itself
    }
    try {
        switcher.setStockMode(stockId);
    } catch (...) {
        if (!first) first = std::current_exception();
    }
    if (first) std::rethrow_exception(first);
}

void switchAndVerify(ModeSwitcher& switcher, const PowerMode& mode) {
    if (mode.stock) {
        releaseThenSetStock(switcher, mode.stockId);
    } else {
        switcher.setClocks(mode);
    }
    const std::string mismatch = clockMismatch(mode, switcher.observe());
    if (!mismatch.empty())
        throw UnavailableError("mode " + mode.name + ": the clocks did not take effect (" + mismatch + ")");
}

} // namespace rooftop
