// SPDX-License-Identifier: GPL-3.0-or-later
// The measured-profile importers of rooftop compare on fixtures written from the formats (measured-formats.md
// 1-3): trtexec --exportLayerInfo in its detailed form (Metadata with raw \x1E / \x1F separators) and its
// names-only form, joined with --exportProfile by name and by position; an ONNX Runtime CUDA profile (kernel
// time preferred over the host's launch time, averaged over runs); Nsight Compute CSV in the old and new long
// column sets and the --page raw form with its units row, thousands separators, n/a and ==PROF== lines. Every
// malformed file is refused with one line naming the file, the record and the field.
#include "core/common/errors.h"
#include "core/compare/ncu_csv.h"
#include "core/compare/ort_profile.h"
#include "core/compare/trtexec_import.h"
#include "core/compare/trtexec_layer_info.h"
#include "core/measure/trtexec_layer_profile.h"
#include "support/test_registry.h"

#include <QtTest>
#include <optional>

using namespace rooftop;

namespace {

// TRT 10.x detailed layer info: Metadata joins the ONNX nodes of one fusion with a raw US (\x1f) and
// sub-groups with a raw RS (\x1e), as TensorRT writes them (not strict JSON)
const std::string detailedInfo =
    "{\"Layers\": [\n"
    "{\"Name\": \"Reformatting CopyNode for Input Tensor 0 to /conv1/Conv + /relu/Relu\", \"LayerType\": "
    "\"Reformat\", \"Inputs\": [], \"Outputs\": [], \"ParameterType\": \"Reformat\", \"Origin\": "
    "\"REFORMAT\", "
    "\"StreamId\": 0, \"Metadata\": \"\"},\n"
    "{\"Name\": \"/conv1/Conv + /relu/Relu\", \"LayerType\": \"CaskConvolution\", \"Inputs\": [{\"Name\": "
    "\"input\", \"Dimensions\": [1,3,224,224]}], \"Outputs\": [], \"StreamId\": 0, \"Metadata\": \"[ONNX "
    "Layer: "
    "/conv1/Conv]\x1f[ONNX Layer: /relu/Relu]\"},\n"
    "{\"Name\": \"__myl_AddRelu_myl0_3\", \"LayerType\": \"kgen\", \"Metadata\": \"[ONNX Layer: "
    "/layer1/layer1.0/Add]\x1f[ONNX Layer: /layer1/layer1.0/relu_1/Relu]\x1e[ONNX Layer: "
    "/layer1/layer1.1/Add]\"}\n"
    "], \"Bindings\": [\"input\", \"logits\"]}";

const char* const namesOnlyInfo =
    R"({"Layers": ["Conv_0 + Relu_1", "MaxPool_2"], "Bindings": ["input", "logits"]})";

std::string profileOf(const std::vector<std::pair<std::string, double>>& layers) {
    std::string json = "[\n  { \"count\" : 10 }\n";
    for (const auto& [name, ms] : layers)
        json += ", { \"name\" : \"" + name + "\", \"timeMs\" : " + std::to_string(ms * 10) +
                ", \"averageMs\" : " + std::to_string(ms) + ", \"medianMs\" : " + std::to_string(ms) +
                ", \"percentage\" : 1 }\n";
    return json + "]";
}

// An ONNX Runtime CUDA EP profile of two runs: fence events, _kernel_time Node events (host launch time),
// GPU Kernel events with parent_name, a CPU node and a kernel that names no node
const char* const ortProfile = R"json([
{"cat" : "Session","pid" :1,"tid" :1,"dur" :900,"ts" :1,"ph" : "X","name" :"session_initialization","args" : {}},
{"cat" : "Node","pid" :1,"tid" :1,"dur" :1,"ts" :10,"ph" : "X","name" :"/conv1/Conv_fence_before","args" : {"op_name" : "Conv"}},
{"cat" : "Node","pid" :1,"tid" :1,"dur" :50,"ts" :11,"ph" : "X","name" :"/conv1/Conv_kernel_time","args" : {"op_name" : "Conv","provider" : "CUDAExecutionProvider","node_index" : "0","activation_size" : "602112","parameter_size" : "37632","output_size" : "3211264","input_type_shape" : [{"float":[1,3,224,224]}],"output_type_shape" : [{"float":[1,64,112,112]}],"thread_scheduling_stats" : ""}},
{"cat" : "Node","pid" :1,"tid" :1,"dur" :1,"ts" :62,"ph" : "X","name" :"/conv1/Conv_fence_after","args" : {"op_name" : "Conv"}},
{"cat" : "Kernel","pid" :1,"tid" :1,"dur" :30,"ts" :20,"ph" : "X","name" :"void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>","args" : {"stream" : 7,"grid_x" : 1,"grid_y" : 1,"grid_z" : 1,"block_x" : 1,"block_y" : 1,"block_z" : 1,"op_name" : "Conv","parent_name" : "/conv1/Conv_kernel_time"}},
{"cat" : "Kernel","pid" :1,"tid" :1,"dur" :10,"ts" :52,"ph" : "X","name" :"sm80_xmma_fprop_implicit_gemm","args" : {"stream" : 7,"op_name" : "Conv","parent_name" : "/conv1/Conv"}},
{"cat" : "Node","pid" :1,"tid" :1,"dur" :6,"ts" :70,"ph" : "X","name" :"/Flatten_kernel_time","args" : {"op_name" : "Flatten","provider" : "CPUExecutionProvider","node_index" : "1"}},
{"cat" : "Kernel","pid" :1,"tid" :1,"dur" :4,"ts" :80,"ph" : "X","name" :"memcpy_kernel","args" : {"stream" : 7}},
{"cat" : "Session","pid" :1,"tid" :1,"dur" :100,"ts" :5,"ph" : "X","name" :"model_run","args" : {}},
{"cat" : "Node","pid" :1,"tid" :1,"dur" :48,"ts" :111,"ph" : "X","name" :"/conv1/Conv_kernel_time","args" : {"op_name" : "Conv","provider" : "CUDAExecutionProvider","node_index" : "0"}},
{"cat" : "Kernel","pid" :1,"tid" :1,"dur" :32,"ts" :120,"ph" : "X","name" :"void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>","args" : {"op_name" : "Conv","parent_name" : "/conv1/Conv_kernel_time"}},
{"cat" : "Kernel","pid" :1,"tid" :1,"dur" :8,"ts" :152,"ph" : "X","name" :"sm80_xmma_fprop_implicit_gemm","args" : {"op_name" : "Conv","parent_name" : "/conv1/Conv_kernel_time"}},
{"cat" : "Node","pid" :1,"tid" :1,"dur" :8,"ts" :170,"ph" : "X","name" :"/Flatten_kernel_time","args" : {"op_name" : "Flatten","provider" : "CPUExecutionProvider","node_index" : "1"}},
{"cat" : "Kernel","pid" :1,"tid" :1,"dur" :2,"ts" :180,"ph" : "X","name" :"memcpy_kernel","args" : {"stream" : 7}}
])json";

// Nsight Compute --csv (details page), the older column set (Kernel Time), with ==PROF== lines and a metric
// ncu cannot collect (n/a); times in usecond, bytes in Mbyte, thousands separators
const char* const ncuLongOld =
    "==PROF== Connected to process 4242 (/usr/bin/python3)\n"
    "==PROF== Profiling \"ampere_sgemm_128x64_nn\" - 0: 0%....50%....100% - 9 passes\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Kernel "
    "Time\",\"Context\",\"Stream\","
    "\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
    "\"0\",\"4242\",\"python3\",\"orin\",\"ampere_sgemm_128x64_nn\",\"2026-Dec-01 10:00:00\",\"1\",\"7\","
    "\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"usecond\",\"1,205.50\"\n"
    "\"0\",\"4242\",\"python3\",\"orin\",\"ampere_sgemm_128x64_nn\",\"2026-Dec-01 10:00:00\",\"1\",\"7\","
    "\"Command line profiler metrics\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\","
    "\"1,000,000\"\n"
    "\"0\",\"4242\",\"python3\",\"orin\",\"ampere_sgemm_128x64_nn\",\"2026-Dec-01 10:00:00\",\"1\",\"7\","
    "\"Command line profiler "
    "metrics\",\"sm__sass_thread_inst_executed_op_fadd_pred_on.sum\",\"inst\",\"5,000\"\n"
    "\"0\",\"4242\",\"python3\",\"orin\",\"ampere_sgemm_128x64_nn\",\"2026-Dec-01 10:00:00\",\"1\",\"7\","
    "\"Command line profiler metrics\",\"dram__bytes.sum\",\"Mbyte\",\"12.5\"\n"
    "\"0\",\"4242\",\"python3\",\"orin\",\"ampere_sgemm_128x64_nn\",\"2026-Dec-01 10:00:00\",\"1\",\"7\","
    "\"Command line profiler "
    "metrics\",\"sm__sass_thread_inst_executed_op_hfma_pred_on.sum\",\"inst\",\"n/a\"\n"
    "\"1\",\"4242\",\"python3\",\"orin\",\"void "
    "at::native::vectorized_elementwise_kernel<4>\",\"2026-Dec-01\","
    "\"1\",\"7\",\"Command line profiler metrics\",\"sm__cycles_elapsed.avg\",\"cycle\",\"26,000\"\n"
    "\"1\",\"4242\",\"python3\",\"orin\",\"void "
    "at::native::vectorized_elementwise_kernel<4>\",\"2026-Dec-01\","
    "\"1\",\"7\",\"Command line profiler metrics\",\"sm__cycles_elapsed.avg.per_second\",\"cycle/usecond\","
    "\"1,300\"\n"
    "\"1\",\"4242\",\"python3\",\"orin\",\"void "
    "at::native::vectorized_elementwise_kernel<4>\",\"2026-Dec-01\","
    "\"1\",\"7\",\"Command line profiler metrics\",\"dram__bytes_read.sum\",\"Kbyte\",\"800\"\n"
    "\"1\",\"4242\",\"python3\",\"orin\",\"void "
    "at::native::vectorized_elementwise_kernel<4>\",\"2026-Dec-01\","
    "\"1\",\"7\",\"Command line profiler metrics\",\"dram__bytes_write.sum\",\"Kbyte\",\"400\"\n"
    "==PROF== Disconnected from process 4242\n";

// the newer long column set (Block Size, Grid Size, Device, CC; no Kernel Time), CRLF line ends, base units
const char* const ncuLongNew =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block "
    "Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\r\n"
    "\"3\",\"77\",\"trtexec\",\"orin\",\"sm87_xmma_gemm_f16f16_f16f32\",\"1\",\"13\",\"(128, 1, 1)\",\"(80, "
    "1, 1)\","
    "\"0\",\"8.7\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"nsecond\",\"2,000,000\"\r\n"
    "\"3\",\"77\",\"trtexec\",\"orin\",\"sm87_xmma_gemm_f16f16_f16f32\",\"1\",\"13\",\"(128, 1, 1)\",\"(80, "
    "1, 1)\","
    "\"0\",\"8.7\",\"Command line profiler metrics\",\"sm__ops_path_tensor_src_fp16_dst_fp32.sum\",\"\","
    "\"4,000,000,000\"\r\n"
    "\"3\",\"77\",\"trtexec\",\"orin\",\"sm87_xmma_gemm_f16f16_f16f32\",\"1\",\"13\",\"(128, 1, 1)\",\"(80, "
    "1, 1)\","
    "\"0\",\"8.7\",\"Command line profiler "
    "metrics\",\"sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_off.sum\","
    "\"\",\"4,000,000,000\"\r\n"
    "\"3\",\"77\",\"trtexec\",\"orin\",\"sm87_xmma_gemm_f16f16_f16f32\",\"1\",\"13\",\"(128, 1, 1)\",\"(80, "
    "1, 1)\","
    "\"0\",\"8.7\",\"Command line profiler metrics\",\"dram__bytes.sum\",\"byte\",\"2,000,000,000\"\r\n"
    "\"2\",\"77\",\"trtexec\",\"orin\",\"copyPackedKernel\",\"1\",\"13\",\"(256, 1, 1)\",\"(8, 1, 1)\","
    "\"0\",\"8.7\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"usecond\",\"3.5\"\r\n";

// --page raw: a row per launch, a column per metric, units in the second row; a string-valued column too
const char* const ncuRaw =
    "==PROF== Connected to process 1234\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block "
    "Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"device__attribute_display_name\",\"dram__bytes_read.sum\","
    "\"dram__bytes_write.sum\",\"gpu__time_duration.sum\",\"sm__sass_thread_inst_executed_op_dfma_pred_on."
    "sum\","
    "\"sm__sass_thread_inst_executed_op_fmul_pred_on.sum\",\"sm__sass_thread_inst_executed_op_hadd_pred_on."
    "sum\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"byte\",\"Mbyte\",\"nsecond\",\"inst\","
    "\"inst\","
    "\"Kinst\"\n"
    "\"0\",\"1234\",\"python3\",\"host\",\"ampere_fp16_gemm\",\"1\",\"7\",\"(128, 1, 1)\",\"(80, 1, "
    "1)\",\"0\","
    "\"8.0\",\"Orin (nvgpu)\",\"2,000,000,000\",\"1.5\",\"2,000,000\",\"10\",\"1,000\",\"2\"\n"
    "\"1\",\"1234\",\"python3\",\"host\",\"relu_kernel\",\"1\",\"7\",\"(256, 1, 1)\",\"(16, 1, 1)\",\"0\","
    "\"8.0\",\"Orin (nvgpu)\",\"n/a\",\"n/a\",\"500\",\"n/a\",\"n/a\",\"n/a\"\n";

QString errorOf(const std::function<void()>& parse) {
    try {
        parse();
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return "no error";
}

} // namespace

class CompareImport : public QObject {
    Q_OBJECT
private slots:
    void metadataSplitsOnBothSeparators() {
        const std::vector<std::string> names =
            metadataNodeNames("[ONNX Layer: /a/Conv]\x1f[ONNX Layer: /a/Relu]\x1e[ONNX Layer: /b/Add]");
        QCOMPARE(names, (std::vector<std::string>{"/a/Conv", "/a/Relu", "/b/Add"}));
        // TREx's rewritten form, and no entries at all
        QCOMPARE(metadataNodeNames("[ONNX Layer: X]+[ONNX Layer: Y]"), (std::vector<std::string>{"X", "Y"}));
        QVERIFY(metadataNodeNames("").empty());
        QVERIFY(metadataNodeNames("kgen layer").empty());
    }

    void detailedLayerInfoWithRawControlCharacters() {
        const std::vector<EngineLayerInfo> info = parseTrtexecLayerInfo(detailedInfo, "g.json");
        QCOMPARE(info.size(), size_t(3));
        QVERIFY(info[0].reformat);
        QVERIFY(info[0].onnxNodes.empty());
        QCOMPARE(info[1].type, std::string("CaskConvolution"));
        QVERIFY(!info[1].reformat);
        QCOMPARE(info[1].onnxNodes, (std::vector<std::string>{"/conv1/Conv", "/relu/Relu"}));
        QCOMPARE(info[2].onnxNodes,
                 (std::vector<std::string>{"/layer1/layer1.0/Add", "/layer1/layer1.0/relu_1/Relu",
                                           "/layer1/layer1.1/Add"}));
    }

    void namesOnlyLayerInfo() {
        const std::vector<EngineLayerInfo> info = parseTrtexecLayerInfo(namesOnlyInfo, "g.json");
        QCOMPARE(info.size(), size_t(2));
        QCOMPARE(info[0].name, std::string("Conv_0 + Relu_1"));
        QVERIFY(info[0].type.empty());
        QVERIFY(info[1].onnxNodes.empty());
    }

    void profileJoinsLayerInfoByName() {
        const std::vector<LayerTime> times =
            parseTrtexecLayerProfile(profileOf({{"/conv1/Conv + /relu/Relu", 0.25},
                                                {"__myl_AddRelu_myl0_3", 0.5},
                                                {"not in the info", 0.125}}),
                                     "p.json");
        const MeasuredLayers layers =
            joinTrtexecLayers(times, parseTrtexecLayerInfo(detailedInfo, "g"), "p.json");
        QCOMPARE(layers.source, std::string("trtexec"));
        QCOMPARE(layers.layers.size(), size_t(3));
        QCOMPARE(layers.layers[0].ms, 0.25);
        QCOMPARE(layers.layers[0].onnxNodes.size(), size_t(2));
        QCOMPARE(layers.layers[1].onnxNodes.size(), size_t(3));
        QCOMPARE(layers.layers[1].type, std::string("kgen"));
        QVERIFY(layers.layers[2].onnxNodes.empty());
    }

    void profileJoinsLayerInfoByPosition() {
        // no name in common but as many layers: TREx's positional join
        const std::vector<LayerTime> times = parseTrtexecLayerProfile(profileOf({{"a", 1}, {"b", 2}}), "p");
        std::vector<EngineLayerInfo> info(2);
        info[0].name = "x";
        info[0].onnxNodes = {"Conv_0"};
        info[1].name = "y";
        info[1].reformat = true;
        const MeasuredLayers joined = joinTrtexecLayers(times, info, "p");
        QCOMPARE(joined.layers[0].onnxNodes, std::vector<std::string>{"Conv_0"});
        QVERIFY(joined.layers[1].reformat);
        QCOMPARE(joined.layers[0].name, std::string("a")); // the profile's names stay
        info.pop_back();                                   // counts differ: no join
        QVERIFY(joinTrtexecLayers(times, info, "p").layers[0].onnxNodes.empty());
    }

    void duplicateNamesJoinInOrder() {
        const std::vector<LayerTime> times =
            parseTrtexecLayerProfile(profileOf({{"dup", 1}, {"dup", 2}}), "p");
        std::vector<EngineLayerInfo> info(2);
        info[0].name = info[1].name = "dup";
        info[0].onnxNodes = {"A"};
        info[1].onnxNodes = {"B"};
        const MeasuredLayers joined = joinTrtexecLayers(times, info, "p");
        QCOMPARE(joined.layers[0].onnxNodes, std::vector<std::string>{"A"});
        QCOMPARE(joined.layers[1].onnxNodes, std::vector<std::string>{"B"});
    }

    void badLayerInfo() {
        auto error = [](const std::string& json) {
            return errorOf([&] { parseTrtexecLayerInfo(json, "g.json"); });
        };
        QCOMPARE(error("[1]"), QString("g.json: trtexec layer info: expected an object {\"Layers\": [...]}"));
        QCOMPARE(error("{\"Layers\": 3}"), QString("g.json: trtexec layer info: 'Layers' must be an array"));
        QCOMPARE(error(R"({"Layers": ["a", {"Name": 5}]})"),
                 QString("g.json: trtexec layer info: layer 2: 'Name' must be a string"));
        QCOMPARE(error(R"({"Layers": [{"Name": "a", "Metadata": 1}]})"),
                 QString("g.json: trtexec layer info: layer 1: 'Metadata' must be a string"));
        QCOMPARE(error(R"({"Layers": [""]})"),
                 QString("g.json: trtexec layer info: layer 1: empty layer name"));
        QCOMPARE(error(R"({"Layers": [7]})"),
                 QString("g.json: trtexec layer info: layer 1: expected a layer name or a layer object"));
        QVERIFY(error("{\"Layers\": [").startsWith("g.json: trtexec layer info: not JSON"));
    }

    void ortCudaProfile() {
        const MeasuredLayers layers = parseOrtProfile(ortProfile, "ort.json");
        QCOMPARE(layers.source, std::string("onnxruntime"));
        QCOMPARE(layers.layers.size(), size_t(3));
        // CUDA node: its kernels (30 + 10 and 32 + 8 us) over its 2 runs, not the host's 50 and 48 us
        QCOMPARE(layers.layers[0].name, std::string("/conv1/Conv"));
        QCOMPARE(layers.layers[0].type, std::string("Conv"));
        QCOMPARE(layers.layers[0].onnxNodes, std::vector<std::string>{"/conv1/Conv"});
        QCOMPARE(layers.layers[0].ms, 0.040);
        // CPU node: its own time, (6 + 8) / 2 us
        QCOMPARE(layers.layers[1].name, std::string("/Flatten"));
        QCOMPARE(layers.layers[1].ms, 0.007);
        // a kernel naming no node: a layer of its own, no nodes, (4 + 2) us over 2 runs
        QCOMPARE(layers.layers[2].name, std::string("memcpy_kernel"));
        QVERIFY(layers.layers[2].onnxNodes.empty());
        QCOMPARE(layers.layers[2].ms, 0.003);
    }

    void ortTraceEventsObjectAndCpuOnly() {
        const char* const cpu =
            R"({"traceEvents": [{"cat":"Node","name":"Conv_0_kernel_time","dur":120,"ts":1,"ph":"X",)"
            R"("args":{"op_name":"Conv","provider":"CPUExecutionProvider","graph_index":"0","exec_plan_index":"0"}}]})";
        const MeasuredLayers layers = parseOrtProfile(cpu, "o");
        QCOMPARE(layers.layers.size(), size_t(1));
        QCOMPARE(layers.layers[0].name, std::string("Conv_0"));
        QCOMPARE(layers.layers[0].ms, 0.12);
    }

    void badOrtProfile() {
        auto error = [](const std::string& json) {
            return errorOf([&] { parseOrtProfile(json, "o.json"); });
        };
        QCOMPARE(error("{}"), QString("o.json: ONNX Runtime profile: expected an array of trace events"));
        QCOMPARE(error("[1]"), QString("o.json: ONNX Runtime profile: event 1: expected an object"));
        QCOMPARE(
            error(R"([{"cat":"Session","name":"x","dur":1}, {"cat":"Node","name":"a_kernel_time"}])"),
            QString("o.json: ONNX Runtime profile: event 2: 'dur' must be a number of microseconds from 0 to "
                    "8.64e10"));
        QCOMPARE(
            error(R"([{"cat":"Node","name":"a_kernel_time","dur":-1}])"),
            QString("o.json: ONNX Runtime profile: event 1: 'dur' must be a number of microseconds from 0 to "
                    "8.64e10"));
        QCOMPARE(error(R"([{"cat":"Node","name":5,"dur":1}])"),
                 QString("o.json: ONNX Runtime profile: event 1: 'name' must be a non-empty string"));
        QCOMPARE(
            error(R"([{"cat":"Session","name":"model_run","dur":1}])"),
            QString("o.json: ONNX Runtime profile: no '<node>_kernel_time' Node events (was the session run "
                    "with profiling on?)"));
    }

    void ncuUnits() {
        QCOMPARE(ncuUnitScale("nsecond"), std::optional<double>(1e-9));
        QCOMPARE(ncuUnitScale("usecond"), std::optional<double>(1e-6));
        QCOMPARE(ncuUnitScale("msecond"), std::optional<double>(1e-3));
        QCOMPARE(ncuUnitScale("second"), std::optional<double>(1.0));
        QCOMPARE(ncuUnitScale("Kbyte"), std::optional<double>(1e3));
        QCOMPARE(ncuUnitScale("Gbyte"), std::optional<double>(1e9));
        QVERIFY(std::abs(*ncuUnitScale("cycle/usecond") / 1e6 - 1.0) < 1e-12); // 1 / 1e-6: within rounding
        QVERIFY(std::abs(*ncuUnitScale("cycle/nsecond") / 1e9 - 1.0) < 1e-12);
        QCOMPARE(ncuUnitScale("GHz"), std::optional<double>(1e9));
        QCOMPARE(parseNcuUnit("GHz")->base, std::string("cycle/second"));
        QCOMPARE(parseNcuUnit("cycle/nsecond")->base, std::string("cycle/second"));
        QCOMPARE(ncuUnitScale(""), std::optional<double>(1.0));
        // unknown units are not read as their base (an error of up to 1e9)
        for (const char* unknown : {"%", "ms", "us", "sec", "xsecond", "cycle/", "/second", "cycle/parsec",
                                    "second/second/second", "Pbyte"})
            QVERIFY2(!ncuUnitScale(unknown), unknown);
    }

    void ncuLongFormOldColumns() {
        const MeasuredLayers layers = parseNcuCsv(ncuLongOld, "n.csv");
        QCOMPARE(layers.source, std::string("ncu"));
        QCOMPARE(layers.layers.size(), size_t(2));
        const MeasuredLayer& gemm = layers.layers[0];
        QCOMPARE(gemm.name, std::string("ampere_sgemm_128x64_nn"));
        QCOMPARE(gemm.ms, 1.2055);                  // 1,205.50 usecond
        QCOMPARE(gemm.flops, 2.0 * 1000000 + 5000); // 2 ffma + fadd; hfma n/a
        QCOMPARE(gemm.dramBytes, 12.5e6);           // Mbyte
        const MeasuredLayer& pointwise = layers.layers[1];
        QCOMPARE(pointwise.ms, 26000.0 / 1300e6 * 1e3); // cycles / (cycle/usecond)
        QCOMPARE(pointwise.flops, -1.0);                // no FLOP metric at all
        QCOMPARE(pointwise.dramBytes, 1200e3);          // read + write
    }

    void ncuLongFormNewColumnsInIdOrder() {
        const MeasuredLayers layers = parseNcuCsv(ncuLongNew, "n.csv");
        // the same file saved with a UTF-8 byte order mark reads the same
        const MeasuredLayers marked = parseNcuCsv("\xEF\xBB\xBF" + std::string(ncuLongNew), "n.csv");
        QCOMPARE(marked.layers.size(), layers.layers.size());
        QCOMPARE(marked.layers[0].ms, layers.layers[0].ms);
        QCOMPARE(layers.layers.size(), size_t(2));
        QCOMPARE(layers.layers[0].name, std::string("copyPackedKernel")); // ID 2 before ID 3
        QCOMPARE(layers.layers[0].ms, 0.0035);
        QCOMPARE(layers.layers[1].ms, 2.0);
        QCOMPARE(layers.layers[1].flops,
                 4e9); // the dense tensor metric, its sparsity_off twin not added again
        QCOMPARE(layers.layers[1].dramBytes, 2e9);
    }

    void ncuRawFormWithUnitsRow() {
        const MeasuredLayers layers = parseNcuCsv(ncuRaw, "r.csv");
        QCOMPARE(layers.layers.size(), size_t(2));
        QCOMPARE(layers.layers[0].name, std::string("ampere_fp16_gemm"));
        QCOMPARE(layers.layers[0].ms, 2.0);                       // 2,000,000 nsecond
        QCOMPARE(layers.layers[0].dramBytes, 2e9 + 1.5e6);        // byte + Mbyte
        QCOMPARE(layers.layers[0].flops, 2.0 * 10 + 1000 + 2000); // 2 dfma + fmul + hadd (Kinst)
        QCOMPARE(layers.layers[1].ms, 0.0005);
        QCOMPARE(layers.layers[1].flops, -1.0);
        QCOMPARE(layers.layers[1].dramBytes, -1.0);
    }

    void badNcuCsv() {
        auto error = [](const std::string& csv) { return errorOf([&] { parseNcuCsv(csv, "n.csv"); }); };
        QCOMPARE(error("==PROF== nothing\n"),
                 QString("n.csv: Nsight Compute CSV: no header row starting with \"ID\""));
        QCOMPARE(error("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\"\n"),
                 QString("n.csv: Nsight Compute CSV: line 2: 2 fields, the header has 3"));
        QCOMPARE(error("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"fast\"\n"),
                 QString("n.csv: Nsight Compute CSV: line 2: 'gpu__time_duration.sum' must be a number from "
                         "0 to 1e30, "
                         "got 'fast'"));
        QCOMPARE(error("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"x\",\"k\",\"1\"\n"),
                 QString("n.csv: Nsight Compute CSV: line 2: 'ID' must be a whole number, got 'x'"));
        QCOMPARE(
            error("\"ID\",\"Kernel Name\",\"dram__bytes.sum\"\n\"\",\"\",\"byte\"\n\"0\",\"k\",\"1\"\n"),
            QString(
                "n.csv: Nsight Compute CSV: line 3: kernel ID 0: no time: neither gpu__time_duration.sum nor "
                "sm__cycles_elapsed.avg with sm__cycles_elapsed.avg.per_second"));
        // units are never guessed: an unknown one, one of another kind, or none for a time
        const std::string longHeader =
            "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
        QCOMPARE(
            error(longHeader + "\"0\",\"k\",\"gpu__time_duration.sum\",\"ms\",\"2\"\n"),
            QString("n.csv: Nsight Compute CSV: line 2: 'gpu__time_duration.sum' has the unit 'ms', which "
                    "Rooftop does not know (it reads nsecond, usecond, msecond, second, byte, Kbyte, ..., "
                    "inst, cycle, cycle/nsecond, GHz)"));
        QVERIFY(error(longHeader + "\"0\",\"k\",\"gpu__time_duration.sum\",\"xsecond\",\"2\"\n")
                    .contains("the unit 'xsecond', which Rooftop does not know"));
        QVERIFY(error(longHeader + "\"0\",\"k\",\"dram__bytes.sum\",\"cycle/parsec\",\"2\"\n")
                    .contains("the unit 'cycle/parsec', which Rooftop does not know"));
        QCOMPARE(error(longHeader + "\"0\",\"k\",\"gpu__time_duration.sum\",\"Kbyte\",\"2\"\n"),
                 QString("n.csv: Nsight Compute CSV: line 2: 'gpu__time_duration.sum' in 'Kbyte': expected a "
                         "unit of second"));
        QCOMPARE(error(longHeader + "\"0\",\"k\",\"dram__bytes.sum\",\"nsecond\",\"2\"\n"),
                 QString("n.csv: Nsight Compute CSV: line 2: 'dram__bytes.sum' in 'nsecond': expected a unit "
                         "of byte"));
        QCOMPARE(
            error(longHeader +
                  "\"0\",\"k\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"byte\",\"2\"\n"),
            QString("n.csv: Nsight Compute CSV: line 2: 'sm__sass_thread_inst_executed_op_ffma_pred_on.sum' "
                    "in 'byte': expected a unit of a count"));
        QCOMPARE(
            error("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"1\"\n"),
            QString("n.csv: Nsight Compute CSV: line 2: 'gpu__time_duration.sum' in '': expected a unit of "
                    "second (no unit given: a --page raw export without its units row?)"));
        QCOMPARE(error("\"ID\",\"Kernel Name\"\n"),
                 QString("n.csv: Nsight Compute CSV: no kernel rows after the header"));
        QCOMPARE(error("\"ID\",\"Stream\"\n"),
                 QString("n.csv: Nsight Compute CSV: line 1: the header has no \"Kernel Name\" column"));
        QCOMPARE(error("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k,\"1\"\n"),
                 QString("n.csv: Nsight Compute CSV: line 2: field 2: text after a closing quote"));
        QCOMPARE(error("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k,1\n"),
                 QString("n.csv: Nsight Compute CSV: line 2: field 2: unterminated quote"));
    }
};

ROOFTOP_TEST_CLASS(CompareImport)
#include "test_compare_import.moc"
