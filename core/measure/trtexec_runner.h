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

/// Where built engines are kept: $ROOFTOP_CACHE_DIR/engines, else $XDG_CACHE_HOME/rooftop/engines, else
/// ~/.cache/rooftop/engines.
std::string engineCacheFolder();

/// Median and nearest-rank 99th percentile of the per-inference "computeMs" (else "latencyMs") of trtexec's
/// --exportTimes file, in ms; a failed result for anything but an array of inferences with positive times.
RunResult parseTrtexecTimes(const std::string& json);

/// The TensorRT version in trtexec's banner ("&&&& RUNNING TensorRT.trtexec [TensorRT v100300] # ..." gives
/// "100300"); empty when there is none.
std::string parseTensorRtVersion(const std::string& output);

/// `trtexec`: builds one engine per (model, batch, precision) once (--onnx, --shapes for each input at the
/// batch when the model's batch is dynamic, --fp16 / --int8, --saveEngine, --skipInference), cached in
/// engineCacheFolder() under the model's SHA-256, batch, precision, the TensorRT version (from the banner of
/// `trtexec --help`) and the trtexec build; then times it per configuration (--loadEngine, 500 ms warm-up,
/// 3 s, --exportTimes) under the same time limit and environment as the command runner, the timed trtexec
/// process being the run's timed window, and profiles its layers in a second, short run (50 iterations,
/// --exportProfile). A missing or malformed layer profile leaves the run ok with a note. Inference only: a
/// training run fails with that reason.
class TrtexecRunner final : public Runner {
public:
    /// Throws InputError when `trtexec` is not an executable file or the model cannot be read.
    TrtexecRunner(std::string trtexec, std::string modelPath, double timeoutSeconds);
    /// Builds or reuses the configuration's engine, times it and profiles its layers; a training run fails.
    RunResult run(const RunConfig& config, const std::atomic<bool>* cancel) override;
    /// "trtexec", as the runs file names it.
    std::string name() const override { return "trtexec"; }

private:
    /// The --shapes value for a batch ("" for a model with a static batch that matches), or a reason.
    std::string shapesFor(const RunConfig& config, std::string* why);
    /// The cached engine of a configuration.
    std::string enginePath(const RunConfig& config) const;
    /// Builds the engine of a configuration into `engine`; a failed result with trtexec's reason.
    RunResult buildEngine(const RunConfig& config, const std::string& shapes, const std::string& engine,
                          const std::atomic<bool>* cancel);
    /// runTrtexec() of a timed run, inside the timed window.
    std::string runTimed(const std::string& command, const RunConfig& config, const std::atomic<bool>* cancel,
                         std::string* failure);
    /// The per-layer profile from a short run of `load` (trtexec --loadEngine [--shapes]) writing into
    /// `folder`; none, with the reason in *note, when trtexec fails or its profile does not read.
    std::vector<LayerTime> profileLayers(const std::string& load, const std::string& folder,
                                         const RunConfig& config, const std::atomic<bool>* cancel,
                                         std::string* note);
    /// Runs one trtexec command line; its stdout, and in *failure why it did not succeed (empty on success).
    std::string runTrtexec(const std::string& command, const RunConfig& config,
                           const std::atomic<bool>* cancel, std::string* failure);

    std::string trtexec_;
    std::string modelPath_;
    std::string modelHash_;    ///< first 16 hex digits of the model file's SHA-256
    std::string trtexecBuild_; ///< which trtexec (and so TensorRT) builds and loads the engines
    double timeoutSeconds_;
    bool dynamicBatch_ = false;
    int64_t staticBatch_ = 1;
    std::map<std::string, std::string> shapes_; ///< --shapes by batch and dims
};

} // namespace rooftop
