// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/analysis_options.h"

#include "cli/request_options.h"
#include "core/common/enum_names.h"
#include "core/common/errors.h"
#include "core/onnx/batch_list.h"

namespace rooftop::cli {

bool takeAnalysisOption(const std::string& option, ArgumentList& args, AnalysisSettings& settings) {
    if (option == "--batch") {
        const std::string value = args.takeValue(option);
        settings.dims.batch = parseBatchSize(value, option);
    } else if (option == "--dim") {
        parseDimOption(args.takeValue(option), settings.dims);
    } else if (option == "--precision") {
        const std::string value = args.takeValue(option);
        settings.precision =
            parsedOr(parsePrecision(value),
                     "--precision must be as-model, fp32, fp16, int8, fp8 or fp4, got '" + value + "'");
    } else if (option == "--convention") {
        const std::string value = args.takeValue(option);
        settings.convention =
            parsedOr(parseConvention(value), "--convention must be default or pagoda, got '" + value + "'");
    } else if (option == "--traffic") {
        const std::string value = args.takeValue(option);
        settings.traffic =
            parsedOr(parseTrafficView(value), "--traffic must be per-node or fused, got '" + value + "'");
    } else {
        return false;
    }
    return true;
}

const char* analysisOptionsHelp() {
    return "  --batch N                 batch size (replaces dim 0 of the data inputs)\n"
           "  --dim NAME=VALUE          bind a symbolic input dimension (repeatable)\n"
           "  --precision P             as-model | fp32 | fp16 | int8 | fp8 | fp4 (element sizes of float\n"
           "                            tensors; fp4 = NVFP4, 4.5 bits a value with its scales)\n"
           "  --convention C            default | pagoda (per-op FLOPs and bytes of the Pagoda study)\n"
           "  --traffic T               per-node | fused (DRAM traffic model)\n";
}

bool takePhaseOption(const std::string& option, ArgumentList& args, AnalysisSettings& settings) {
    if (option == "--phase") {
        const std::string value = args.takeValue(option);
        settings.phase =
            parsedOr(parsePhase(value), "--phase must be inference or training, got '" + value + "'");
    } else if (option == "--optimizer") {
        const std::string value = args.takeValue(option);
        settings.optimizer =
            parsedOr(parseOptimizer(value), "--optimizer must be sgd, momentum or adam, got '" + value + "'");
    } else if (option == "--samples") {
        settings.samples = args.takeInteger(option, 1, 1000000000000);
    } else {
        return false;
    }
    return true;
}

const char* phaseOptionsHelp() {
    return "  --phase P                 inference (default) | training (forward, backward and optimizer "
           "update\n"
           "                            of one minibatch; docs/training.md)\n"
           "  --optimizer O             sgd | momentum | adam (default): the update a training step counts\n"
           "  --samples N               training: dataset size; adds the epoch (ceil(N / batch) steps)\n";
}

void checkPhaseOptions(const AnalysisSettings& settings, const ArgumentList& args) {
    if (args.wasGiven("--optimizer") && settings.phase != Phase::Training)
        throw InputError("--optimizer is the update of a training step; add --phase training");
    // a --dim may bind the batch (the model says which); without any, the minibatch is unknown
    if (settings.samples > 0 &&
        (settings.phase != Phase::Training || (!settings.dims.batch && settings.dims.named.empty())))
        throw InputError(
            "--samples needs --phase training and --batch N (or --dim NAME=N for the model's batch "
            "dimension; an epoch is ceil(samples / batch) steps)");
}

} // namespace rooftop::cli
