// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/runner.h"

#include <map>
#include <string>

namespace rooftop {

/// The trtexec executable: $ROOFTOP_TRTEXEC when set (set but empty: none), else trtexec on $PATH, else
/// /usr/src/tensorrt/bin/trtexec (where JetPack puts it); empty when there is none.
std::string findTrtexec();

/// The median and 99th percentile of trtexec's "GPU Compute Time" summary line (else its "Latency" line), in
/// ms; a failed result when neither line is there or its numbers are not positive.
RunResult parseTrtexecOutput(const std::string& output);

/// `trtexec`: builds and times the model with TensorRT's trtexec (--onnx, --shapes for each input at the
/// batch size when the model's batch is dynamic, --fp16 / --int8) under the same time limit and environment
/// as the command runner. Inference only: a training run fails with that reason.
class TrtexecRunner final : public Runner {
public:
    /// Throws InputError when `trtexec` is not an executable file or the model cannot be read.
    TrtexecRunner(std::string trtexec, std::string modelPath, double timeoutSeconds);
    RunResult run(const RunConfig& config, const std::atomic<bool>* cancel) override;
    std::string name() const override { return "trtexec"; }

private:
    /// The --shapes value for a batch ("" for a model with a static batch that matches), or a reason.
    std::string shapesFor(int64_t batch, std::string* why);

    std::string trtexec_;
    std::string modelPath_;
    double timeoutSeconds_;
    bool dynamicBatch_ = false;
    int64_t staticBatch_ = 1;
    std::map<int64_t, std::string> shapes_;
};

} // namespace rooftop
