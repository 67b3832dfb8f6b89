// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/command_runner.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/measure/child_process.h"
#include "core/measure/runner_line.h"

namespace rooftop {

namespace {

std::string lastLine(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    const size_t eol = text.rfind('\n');
    if (eol != std::string::npos) text.erase(0, eol + 1);
    if (text.size() > 120) text = text.substr(0, 117) + "...";
    return text;
}

} // namespace

CommandRunner::CommandRunner(std::string command, std::string modelPath, double timeoutSeconds)
    : command_(std::move(command)), modelPath_(std::move(modelPath)), timeoutSeconds_(timeoutSeconds) {
    std::string word;
    if (command_.find_first_not_of(" \t") == std::string::npos)
        throw InputError("runner command: is empty; give --runner command:CMD");
    if (!shellCommandExecutable(command_, &word))
        throw InputError("runner command: '" + word +
                         "' is not an executable (not found, or not executable)");
    if (!(timeoutSeconds_ > 0)) throw InputError("runner command: the run timeout must be positive");
}

RunResult CommandRunner::run(const RunConfig& config, const std::atomic<bool>* cancel) {
    const ChildOutcome child =
        runShellCommand(command_, runEnvironment(config, modelPath_), timeoutSeconds_, cancel);
    if (!child.started) return RunResult::failed("cannot start the command: " + child.error);
    if (child.cancelled) return RunResult::failed("cancelled");
    if (child.timedOut)
        return RunResult::failed("timed out after " + general(timeoutSeconds_, 6) +
                                 " s (process group killed)");
    if (child.signal != 0) return RunResult::failed("killed by signal " + std::to_string(child.signal));
    if (!child.error.empty()) return RunResult::failed(child.error);
    if (child.exitCode != 0) {
        const std::string why = lastLine(child.err);
        return RunResult::failed("exit " + std::to_string(child.exitCode) + (why.empty() ? "" : ": " + why));
    }
    return config.llm.active() ? parseLlmRunnerOutput(child.out, config) : parseRunnerOutput(child.out);
}

} // namespace rooftop
