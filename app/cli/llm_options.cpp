// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/llm_options.h"

#include "cli/analysis_options.h"
#include "cli/runtime_option.h"
#include "core/advisor/advisor.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"

namespace rooftop::cli {

bool takeLlmOption(const std::string& option, ArgumentList& args, LlmRequest& request,
                   const std::string& command) {
    if (option == "--prompt") {
        request.prompt = args.takeInteger(option, 1, mostLlmTokens);
    } else if (option == "--generate") {
        request.generate = args.takeInteger(option, 1, mostLlmTokens);
    } else if (option == "--device") {
        request.deviceId = args.takeValue(option);
    } else if (option == "--modes") {
        request.modes = args.takeValue(option);
    } else if (option == "--reserve-gib") {
        request.reserveGiB = args.takeNumber(option, 0.0, true, "a number of GiB");
    } else if (option == "--confidence") {
        request.confidence = args.takeNumber(option, 0.0, false, "a probability between 0 and 1");
        if (!(request.confidence >= minConfidence && request.confidence <= maxConfidence))
            throw InputError(command + ": --confidence must be from " + general(minConfidence, 3) + " to " +
                             general(maxConfidence, 3) + ", got " + general(request.confidence, 6));
    } else if (option == "--predictor") {
        request.predictorPath = args.takeValue(option);
    } else if (isRuntimeOption(option)) {
        takeRuntimeOption(option, args.takeValue(option), request.runtime);
    } else {
        return takeAnalysisOption(option, args, request.settings);
    }
    return true;
}

} // namespace rooftop::cli
