// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/text_format.h"
#include "core/report/workload_writers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace rooftop {
namespace {

std::string joined(const std::vector<std::string>& parts, const char* separator) {
    std::string text;
    for (size_t i = 0; i < parts.size(); ++i)
        text += (i ? separator : "") + parts[i];
    return text;
}

} // namespace

std::string siScaled(double value, const std::string& unit) {
    static const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    int index = 0;
    double scaled = value;
    while (std::fabs(scaled) >= 999.95 && index < 6) {
        scaled /= 1000.0;
        ++index;
    }
    const int decimals = index == 0 ? 0 : (std::fabs(scaled) >= 100 ? 1 : (std::fabs(scaled) >= 10 ? 2 : 3));
    return fixed(scaled, decimals) + " " + prefixes[index] + unit;
}

std::string workloadToCsv(const Workload& workload) {
    std::ostringstream out;
    out << "name,op,domain,input_shapes,output_shapes,macs,flops,sfu_ops,weight_bytes,input_bytes,"
           "output_bytes,bytes,intensity,kind,supported,repeat,note,status";
    const bool training = workload.settings.phase == Phase::Training;
    if (training)
        out << ",forward_flops,backward_flops,update_flops,forward_bytes,backward_bytes,update_bytes,"
               "state_bytes,saved_bytes,trainable_params";
    out << '\n';
    for (const auto& l : workload.layers) {
        out << csvField(l.name) << ',' << csvField(l.op) << ',' << csvField(l.domain) << ','
            << csvField(joined(l.inputShapes, " ")) << ',' << csvField(joined(l.outputShapes, " ")) << ','
            << l.macs << ',' << l.flops << ',' << l.sfuOps << ',' << l.weightBytes << ',' << l.inputBytes
            << ',' << l.outputBytes << ',' << l.bytes() << ',' << fixed(l.intensity(), 4) << ','
            << opKindName(l.kind) << ',' << (l.supported ? "true" : "false") << ',' << l.repeat << ','
            << csvField(l.note) << ',' << csvField(l.status());
        if (training)
            out << ',' << l.forward.flops << ',' << l.backward.flops << ',' << l.update.flops << ','
                << l.forward.bytes << ',' << l.backward.bytes << ',' << l.update.bytes << ',' << l.stateBytes
                << ',' << l.savedBytes << ',' << l.trainableParams;
        out << '\n';
    }
    return out.str();
}

std::string workloadToTable(const Workload& workload) {
    std::ostringstream out;
    const auto& info = workload.info;
    const auto& settings = workload.settings;
    out << "Model: " << info.path << "  (" << info.producer << ", IR " << info.irVersion << ")\n";
    out << "Settings: precision " << precisionName(settings.precision) << ", convention "
        << conventionName(settings.convention) << ", traffic " << trafficViewName(settings.traffic);
    if (settings.dims.batch) out << ", batch " << *settings.dims.batch;
    const bool training = settings.phase == Phase::Training;
    if (training) out << ", phase training, optimizer " << optimizerName(settings.optimizer);
    for (const auto& [name, value] : settings.dims.named)
        out << ", " << name << "=" << value;
    out << "\n";
    out << assumedDimsLine(info);
    for (const auto& note : info.notes)
        out << "Note: " << note << "\n";
    out << "\n";

    size_t nameWidth = 4;
    for (const auto& l : workload.layers)
        nameWidth = std::max(nameWidth, std::min<size_t>(l.name.size(), 48));
    out << padded("Layer", nameWidth, false) << "  " << padded("Op", 22, false) << "  "
        << padded("Output", 18, false) << padded("MACs", 12, true) << padded("FLOPs", 12, true)
        << padded("Weights", 12, true) << padded("In", 12, true) << padded("Out", 12, true)
        << padded("FLOP/B", 9, true);
    if (training)
        out << padded("Bwd FLOPs", 12, true) << padded("Bwd bytes", 12, true)
            << padded("Upd FLOPs", 12, true);
    out << "\n";
    for (const auto& l : workload.layers) {
        std::string name = l.name.size() > 48 ? l.name.substr(0, 45) + "..." : l.name;
        std::string op = l.op + (l.supported ? "" : (l.shapeUnknown ? " (?)" : " (!)"));
        out << padded(name, nameWidth, false) << "  " << padded(op, 22, false) << "  "
            << padded(l.outputShapes.empty() ? "" : l.outputShapes[0], 18, false)
            << padded(siScaled(double(l.macs), ""), 12, true)
            << padded(siScaled(double(l.flops), ""), 12, true)
            << padded(siScaled(double(l.weightBytes), "B"), 12, true)
            << padded(siScaled(double(l.inputBytes), "B"), 12, true)
            << padded(siScaled(double(l.outputBytes), "B"), 12, true)
            << padded(fixed(l.intensity(), 2), 9, true);
        if (training)
            out << padded(siScaled(double(l.backward.flops), ""), 12, true)
                << padded(siScaled(double(l.backward.bytes), "B"), 12, true)
                << padded(siScaled(double(l.update.flops), ""), 12, true);
        out << "\n";
    }
    const auto& t = workload.totals;
    out << "\nTotals over " << t.layers << " layers:\n";
    out << "  MACs               " << t.macs << "  (" << siScaled(double(t.macs), "MAC") << ")\n";
    out << "  FLOPs              " << t.flops << "  (" << siScaled(double(t.flops), "FLOP") << ")\n";
    out << "  SFU ops            " << t.sfuOps << "\n";
    out << "  Torchvision MACs   " << t.torchvisionMacs << "  (" << siScaled(double(t.torchvisionMacs), "MAC")
        << ", conv/gemm/matmul only)\n";
    // a training step's bytes are its phases' (below); the weights, inputs and outputs are the forward's
    out << "  Bytes              " << t.bytes() << "  (" << siScaled(double(t.bytes()), "B")
        << (training ? " over the step; the forward's" : ":") << " weights "
        << siScaled(double(t.weightBytes), "B") << ", inputs " << siScaled(double(t.inputBytes), "B")
        << ", outputs " << siScaled(double(t.outputBytes), "B") << ")\n";
    out << "  Intensity          " << fixed(t.intensity(), 2) << " FLOP/B\n";
    out << "  Parameters         " << t.params << "\n";
    if (training) {
        const auto phase = [&](const char* label, const PhaseCount& p) {
            out << "  " << label << p.flops << " FLOPs (" << siScaled(double(p.flops), "FLOP") << "), "
                << p.bytes << " B (" << siScaled(double(p.bytes), "B") << ")\n";
        };
        out << "Training step (FLOPs and bytes above are the sums of):\n";
        phase("Forward            ", t.forward);
        phase("Backward           ", t.backward);
        phase("Update             ", t.update);
        out << "  Saved for backward " << t.savedBytes << " B (" << siScaled(double(t.savedBytes), "B")
            << " read back; state written by the forward " << siScaled(double(t.stateBytes), "B") << ")\n";
        // the Pagoda study counts a step as 3 x inference: no update of its own, whatever the optimizer
        out << "  Trainable params   " << t.trainableParams << "  ("
            << (settings.convention == Convention::Pagoda
                    ? std::string("the update is not counted apart under the Pagoda convention")
                    : optimizerName(settings.optimizer) + " update")
            << ")\n";
        if (settings.samples > 0 && settings.dims.batch) {
            const int64_t steps = minibatchesPerEpoch(settings.samples, *settings.dims.batch);
            out << "  Epoch              " << countedNoun(settings.samples, "sample", "samples") << " = "
                << countedNoun(steps, "minibatch", "minibatches") << ": "
                << siScaled(double(t.flops) * double(steps), "FLOP") << ", "
                << siScaled(double(t.bytes()) * double(steps), "B") << "\n";
        }
    }
    if (!t.unsupported.empty())
        out << "  Unsupported ops    " << joined(t.unsupported, ", ")
            << "  (counted as 0 FLOPs, marked (!))\n";
    if (!t.shapeUnknown.empty()) {
        out << "  Shape unknown      " << joined(t.shapeUnknown, ", ") << "  (not counted, marked (?))\n";
        if (!t.shapeLossNode.empty())
            out << "  Shapes lost at     " << t.shapeLossNode << ": " << t.shapeLossReason << "\n";
    }
    return out.str();
}

std::string assumedDimsLine(const ModelInfo& info, bool batchSet) {
    std::vector<std::string> dims;
    for (const std::string& dim : info.assumedDims)
        if (!batchSet || std::find(info.assumedBatchDims.begin(), info.assumedBatchDims.end(), dim) ==
                             info.assumedBatchDims.end())
            dims.push_back(dim);
    if (dims.empty()) return {};
    bool pastLength = false; // a KV cache's: one pass at 1 cached token is no generation
    for (const std::string& dim : dims)
        pastLength |= dim.find("past") != std::string::npos;
    return "Assumed (unbound) dims: " + joined(dims, ", ") + " (bind them with --dim NAME=VALUE" +
           (pastLength ? "; a decoder's prefill and decode steps: rooftop llm, or recommend --llm" : "") +
           ")\n";
}

} // namespace rooftop
