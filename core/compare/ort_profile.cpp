// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/ort_profile.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace rooftop {

namespace {

constexpr double maxMicroseconds = 86400e6; // a day: no single event of a real profile lasts longer
const std::string kernelTimeSuffix = "_kernel_time";

struct NodeTimes {
    std::string op;
    std::string provider;
    double hostMicroseconds = 0.0;
    double kernelMicroseconds = 0.0;
    int runs = 0;
};

} // namespace

MeasuredLayers parseOrtProfile(const std::string& json, const std::string& where) {
    const std::string prefix = where + ": ONNX Runtime profile: ";
    auto fail = [&](const std::string& what) { throw InputError(prefix + what); };
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    if (error.error != QJsonParseError::NoError)
        fail("not JSON (" + error.errorString().toStdString() + " at byte " + std::to_string(error.offset) +
             ")");
    QJsonArray events;
    if (document.isArray())
        events = document.array();
    else if (document.isObject() && document.object().value("traceEvents").isArray())
        events = document.object().value("traceEvents").toArray();
    else
        fail("expected an array of trace events");

    std::vector<std::string> order; // nodes in first-seen order
    std::unordered_map<std::string, NodeTimes> nodes;
    struct Kernel {
        std::string name;   ///< the node it ran for (parent_name), else the kernel's own name
        bool named = false; ///< parent_name was given
        double microseconds = 0.0;
    };
    std::vector<Kernel> kernels;
    for (qsizetype i = 0; i < events.size(); ++i) {
        const std::string at = "event " + std::to_string(i + 1) + ": ";
        if (!events[i].isObject()) fail(at + "expected an object");
        const QJsonObject event = events[i].toObject();
        const std::string category = event.value("cat").toString().toStdString();
        if (category != "Node" && category != "Kernel") continue;
        const QJsonValue nameValue = event.value("name");
        if (!nameValue.isString() || nameValue.toString().isEmpty())
            fail(at + "'name' must be a non-empty string");
        const std::string name = nameValue.toString().toStdString();
        if (category == "Node" && !endsWith(name, kernelTimeSuffix)) continue; // fence_before / fence_after
        const QJsonValue durValue = event.value("dur");
        const double dur = durValue.toDouble(-1.0);
        if (!durValue.isDouble() || !std::isfinite(dur) || dur < 0 || dur > maxMicroseconds)
            fail(at + "'dur' must be a number of microseconds from 0 to 8.64e10");
        const QJsonObject args = event.value("args").toObject();
        if (category == "Node") {
            const std::string node = name.substr(0, name.size() - kernelTimeSuffix.size());
            if (node.empty()) fail(at + "'name' has no node before _kernel_time");
            auto [entry, inserted] = nodes.try_emplace(node);
            if (inserted) order.push_back(node);
            entry->second.op = args.value("op_name").toString().toStdString();
            entry->second.provider = args.value("provider").toString().toStdString();
            entry->second.hostMicroseconds += dur;
            ++entry->second.runs;
        } else {
            std::string parent = args.value("parent_name").toString().toStdString();
            if (endsWith(parent, kernelTimeSuffix)) parent.resize(parent.size() - kernelTimeSuffix.size());
            kernels.push_back({parent.empty() ? name : parent, !parent.empty(), dur});
        }
    }
    if (nodes.empty()) fail("no '<node>_kernel_time' Node events (was the session run with profiling on?)");

    // kernels of no known node (a node without _kernel_time events, or none named): layers of their own
    std::vector<std::string> otherOrder;
    std::unordered_map<std::string, std::pair<bool, double>> others; // name -> (a node name, microseconds)
    for (const Kernel& kernel : kernels) {
        auto found = kernel.named ? nodes.find(kernel.name) : nodes.end();
        if (found != nodes.end()) {
            found->second.kernelMicroseconds += kernel.microseconds;
            continue;
        }
        auto [entry, inserted] = others.try_emplace(kernel.name, kernel.named, 0.0);
        if (inserted) otherOrder.push_back(kernel.name);
        entry->second.second += kernel.microseconds;
    }

    MeasuredLayers result;
    result.source = "onnxruntime";
    int runs = 1;
    for (const auto& [name, times] : nodes)
        runs = std::max(runs, times.runs);
    for (const std::string& name : order) {
        const NodeTimes& times = nodes.at(name);
        MeasuredLayer layer;
        layer.name = name;
        layer.type = times.op;
        layer.onnxNodes = {name};
        const double microseconds =
            times.kernelMicroseconds > 0 ? times.kernelMicroseconds : times.hostMicroseconds;
        layer.ms = microseconds / 1e3 / times.runs;
        result.layers.push_back(std::move(layer));
    }
    for (const std::string& name : otherOrder) {
        MeasuredLayer layer;
        layer.name = name;
        if (others.at(name).first) layer.onnxNodes = {name};
        layer.ms = others.at(name).second / 1e3 / runs;
        result.layers.push_back(std::move(layer));
    }
    return result;
}

} // namespace rooftop
