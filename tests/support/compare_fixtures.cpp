// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/compare_fixtures.h"

#include "core/compare/compare_session.h"
#include "core/onnx/model_loader.h"
#include "support/test_support.h"

#include <QFile>
#include <fstream>

namespace rooftop::test {

namespace {

std::string number(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", x);
    return text;
}

std::vector<std::string> resnet18Nodes() {
    std::vector<std::string> nodes = {"/conv1/Conv", "/relu/Relu", "/maxpool/MaxPool"};
    for (int stage = 1; stage <= 4; ++stage)
        for (int block = 0; block < 2; ++block) {
            const std::string p = "/layer" + std::to_string(stage) + "/layer" + std::to_string(stage) + "." +
                                  std::to_string(block) + "/";
            nodes.push_back(p + "conv1/Conv");
            if (stage > 1 && block == 0) nodes.push_back(p + "downsample/downsample.0/Conv");
            for (const char* rest : {"relu/Relu", "conv2/Conv", "Add", "relu_1/Relu"})
                nodes.push_back(p + rest);
        }
    for (const char* name : {"/avgpool/GlobalAveragePool", "/Flatten", "/fc/Gemm"})
        nodes.push_back(name);
    return nodes;
}

} // namespace

std::string trtexecProfileJson(const std::vector<std::pair<std::string, double>>& layers) {
    double total = 0.0;
    for (const auto& layer : layers)
        total += layer.second;
    std::string json = "[\n  { \"count\" : 100 }\n";
    for (const auto& [name, ms] : layers)
        json += ", { \"name\" : \"" + name + "\", \"timeMs\" : " + number(ms * 100) +
                ", \"averageMs\" : " + number(ms) + ", \"medianMs\" : " + number(ms) +
                ", \"percentage\" : " + number(total > 0 ? ms / total * 100 : 0) + " }\n";
    return json + "]\n";
}

std::vector<std::pair<std::string, double>> resnet18Trt86Layers() {
    std::vector<std::string> names = {"Reformatting CopyNode for Input Tensor 0 to /conv1/Conv + /relu/Relu",
                                      "/conv1/Conv + /relu/Relu", "/maxpool/MaxPool"};
    for (int stage = 1; stage <= 4; ++stage)
        for (int block = 0; block < 2; ++block) {
            const std::string p = "/layer" + std::to_string(stage) + "/layer" + std::to_string(stage) + "." +
                                  std::to_string(block) + "/";
            names.push_back(p + "conv1/Conv + " + p + "relu/Relu");
            if (stage > 1 && block == 0) names.push_back(p + "downsample/downsample.0/Conv");
            names.push_back(p + "conv2/Conv + " + p + "Add + " + p + "relu_1/Relu");
        }
    for (const char* name : {"/avgpool/GlobalAveragePool", "/Flatten + reshape_before_/fc/Gemm", "/fc/Gemm",
                             "reshape_after_/fc/Gemm"})
        names.push_back(name);
    std::vector<std::pair<std::string, double>> layers;
    for (size_t i = 0; i < names.size(); ++i)
        layers.emplace_back(names[i], double(i + 1) / 100.0);
    return layers;
}

std::vector<std::pair<std::string, double>> resnet18Trt10Layers() {
    return {{"Reformatting CopyNode for Input Tensor 0 to {ForeignNode[/conv1/Conv.../fc/Gemm]}", 0.015},
            {"__myl_ConvRelu_myl0_0", 0.125},
            {"__myl_MaxPool_myl0_1", 0.0625},
            {"{ForeignNode[/layer1/layer1.0/conv1/Conv.../fc/Gemm]}", 1.5},
            {"{ForeignNode[/layer1/layer1.0/conv1/Conv.../fc/Gemm]} [profile 1]", 0.0},
            {"(Unnamed Layer* 7) [Shuffle]", 0.005}};
}

std::string resnet18Trt10LayerInfo() {
    return "{\"Layers\": [\n"
           "{\"Name\": \"Reformatting CopyNode for Input Tensor 0 to "
           "{ForeignNode[/conv1/Conv.../fc/Gemm]}\", "
           "\"LayerType\": \"Reformat\", \"Origin\": \"REFORMAT\", \"StreamId\": 0, \"Metadata\": \"\"},\n"
           "{\"Name\": \"__myl_ConvRelu_myl0_0\", \"LayerType\": \"kgen\", \"StreamId\": 0, \"Metadata\": "
           "\"[ONNX Layer: /conv1/Conv]\x1f[ONNX Layer: /relu/Relu]\"},\n"
           "{\"Name\": \"__myl_MaxPool_myl0_1\", \"LayerType\": \"kgen\", \"StreamId\": 0, \"Metadata\": "
           "\"[ONNX Layer: /maxpool/MaxPool]\x1e\"},\n"
           "{\"Name\": \"{ForeignNode[/layer1/layer1.0/conv1/Conv.../fc/Gemm]}\", \"LayerType\": \"Myelin\", "
           "\"StreamId\": 0, \"Metadata\": \"\"},\n"
           "{\"Name\": \"{ForeignNode[/layer1/layer1.0/conv1/Conv.../fc/Gemm]} [profile 1]\", \"LayerType\": "
           "\"Myelin\", \"StreamId\": 0, \"Metadata\": \"\"},\n"
           "{\"Name\": \"(Unnamed Layer* 7) [Shuffle]\", \"LayerType\": \"Shuffle\", \"StreamId\": 0, "
           "\"Metadata\": \"\"}\n"
           "], \"Bindings\": [\"input\", \"logits\"]}\n";
}

bool writeOldNamesModel(const QString& path) {
    try {
        auto model = parseModelText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,3,32,32] input, float[8,3,3,3] w0, float[8] b0, float[8,8,3,3] w3, float[10,8] wf,
               float[10] bf) => (float[1,10] logits) {
                c0 = Conv <pads = [1, 1, 1, 1]> (input, w0, b0)
                r1 = Relu (c0)
                m2 = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (r1)
                c3 = Conv <pads = [1, 1, 1, 1]> (m2, w3)
                a4 = Add (c3, m2)
                r5 = Relu (a4)
                g6 = GlobalAveragePool (r5)
                f7 = Flatten (g6)
                logits = Gemm <transB = 1> (f7, wf, bf)
            })");
        for (int i = 0; i < model.graph().node_size(); ++i) {
            auto* node = model.mutable_graph()->mutable_node(i);
            node->set_name(node->op_type() + "_" + std::to_string(i));
        }
        std::ofstream file(path.toStdString(), std::ios::binary);
        return model.SerializeToOstream(&file);
    } catch (const std::exception&) {
        return false;
    }
}

std::vector<std::pair<std::string, double>> oldNamesTrt86Layers() {
    return {{"Conv_0 + Relu_1", 0.02},
            {"MaxPool_2", 0.005},
            {"Conv_3 + onnx::Add_12 + Add_4 + Relu_5", 0.03},
            {"GlobalAveragePool_6", 0.004},
            {"Flatten_7 copy", 0.001},
            {"Gemm_8", 0.008},
            {"Reformatting CopyNode for Output Tensor 0 to Gemm_8", 0.002}};
}

std::string resnet18OrtProfile() {
    const std::vector<std::string> nodes = resnet18Nodes();
    std::string json =
        "[\n{\"cat\" : \"Session\",\"pid\" :1,\"tid\" :1,\"dur\" :5000,\"ts\" :1,\"ph\" : \"X\","
        "\"name\" :\"session_initialization\",\"args\" : {}}";
    long ts = 10;
    for (int run = 0; run < 2; ++run) {
        for (size_t i = 0; i <= nodes.size(); ++i) {
            const std::string node = i < nodes.size() ? nodes[i] : "fused_Gemm_99";
            json +=
                ",\n{\"cat\" : \"Node\",\"pid\" :1,\"tid\" :1,\"dur\" :100,\"ts\" :" + std::to_string(ts) +
                ",\"ph\" : \"X\",\"name\" :\"" + node +
                "_kernel_time\",\"args\" : {\"op_name\" : \"Op\",\"provider\" : \"CUDAExecutionProvider\","
                "\"node_index\" : \"" +
                std::to_string(i) + "\",\"input_type_shape\" : [{\"float\":[1,64,56,56]}]}}";
            if (node != "/Flatten")
                json +=
                    ",\n{\"cat\" : \"Kernel\",\"pid\" :1,\"tid\" :1,\"dur\" :" + std::to_string(i + 1) +
                    ",\"ts\" :" + std::to_string(ts + 5) +
                    ",\"ph\" : \"X\",\"name\" :\"kernel\",\"args\" : {\"stream\" : 7,\"parent_name\" : \"" +
                    node + "_kernel_time\"}}";
            ts += 200;
        }
    }
    return json + "\n]\n";
}

bool writeText(const QString& path, const std::string& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) &&
           file.write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size());
}

ClassCalibration calibrateSampleProfile(const QString& stem, const std::string& model, int64_t batch,
                                        const std::string& mode,
                                        const std::vector<std::pair<std::string, double>>& layers,
                                        const std::string& timesJson) {
    const QString profile = stem + "-profile.json", times = stem + "-times.json";
    if (!writeText(profile, trtexecProfileJson(layers)) || !writeText(times, timesJson))
        throw std::runtime_error("cannot write the fixtures");
    CompareRequest request;
    request.analysis.modelPath = samplePath(model);
    request.analysis.deviceId = "agx-orin-64gb";
    request.analysis.settings = atBatch(batch);
    request.profilePath = profile.toStdString();
    request.timesPath = times.toStdString();
    request.mode = mode;
    return runClassCalibration(request);
}

} // namespace rooftop::test
