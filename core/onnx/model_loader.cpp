// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/model_loader.h"

#include "core/common/errors.h"
#include "core/graph/data_type.h"
#include "core/onnx/payload_stripping.h"
#include "core/onnx/tensor_values.h"

#include <QFileInfo>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <onnx/defs/parser.h>
#include <optional>
#include <set>
#include <sys/mman.h>
#include <unistd.h>

namespace rooftop {
namespace {

// Values an embedded int32/int64 tensor holds, or -1 for other types and external data.
int64_t integerValueCount(const onnx::TensorProto& tensor) {
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL) return -1;
    const bool wide = tensor.data_type() == onnx::TensorProto::INT64;
    if (!wide && tensor.data_type() != onnx::TensorProto::INT32) return -1;
    if (tensor.has_raw_data()) return static_cast<int64_t>(tensor.raw_data().size() / (wide ? 8 : 4));
    return wide ? tensor.int64_data_size() : tensor.int32_data_size();
}

// ONNX 1.12's data propagation copies a tensor's raw data into size / element-size elements, and reads as
// many values of an int32/int64 tensor as its dims promise: a payload that is not a whole number of elements,
// or (below the size whose payloads loading strips) holds fewer or more values than its dims, overruns them.
void requireWholeElements(const onnx::TensorProto& tensor, const std::string& sourceName) {
    const int bits = elementBits(dataTypeFromOnnx(tensor.data_type()));
    if (tensor.has_raw_data() && bits > 0 && bits % 8 == 0 &&
        tensor.raw_data().size() % static_cast<size_t>(bits / 8) != 0)
        throw InputError(sourceName + ": tensor '" + tensor.name() + "' has " +
                         std::to_string(tensor.raw_data().size()) +
                         " bytes of raw data, not a whole number of its elements");
    const int64_t values = integerValueCount(tensor);
    int64_t elements = 1;
    for (int64_t d : tensor.dims()) {
        // a stored tensor's dims are its extent: a negative one, or more elements than any board holds
        // (2^40, 4 TiB in fp32), would make every count of it meaningless
        if (d < 0)
            throw InputError(sourceName + ": tensor '" + tensor.name() + "' has a negative dimension (" +
                             std::to_string(d) + ")");
        if (__builtin_mul_overflow(elements, d, &elements) || elements > (int64_t(1) << 40))
            throw InputError(sourceName + ": tensor '" + tensor.name() +
                             "' has more than 2^40 elements (its dims multiply past what any board holds)");
    }
    if (values >= 0 && values != elements && (values > 0 || elements <= maxFoldedElements))
        throw InputError(sourceName + ": tensor '" + tensor.name() + "' holds " + std::to_string(values) +
                         " values for its " + std::to_string(elements) + " elements");
}

void requireWholeElements(const onnx::GraphProto& graph, const std::string& sourceName) {
    for (const auto& tensor : graph.initializer())
        requireWholeElements(tensor, sourceName);
    for (const auto& node : graph.node()) {
        for (const auto& attr : node.attribute()) {
            if (attr.has_t()) requireWholeElements(attr.t(), sourceName);
            for (const auto& tensor : attr.tensors())
                requireWholeElements(tensor, sourceName);
            if (attr.has_g()) requireWholeElements(attr.g(), sourceName);
            for (const auto& body : attr.graphs())
                requireWholeElements(body, sourceName);
        }
    }
}

void requireGraph(const onnx::ModelProto& model, const std::string& sourceName) {
    // Protobuf accepts many byte strings as an empty or partial message; a model needs a graph with nodes.
    if (!model.has_graph() || model.graph().node_size() == 0)
        throw InputError(sourceName + ": not an ONNX model (no graph with nodes)");
    if (model.ir_version() <= 0 && model.opset_import_size() == 0)
        throw InputError(sourceName + ": not an ONNX model (no IR version and no opset imports)");
    requireWholeElements(model.graph(), sourceName);
}

void parseFromStream(google::protobuf::io::ZeroCopyInputStream& raw, onnx::ModelProto& model,
                     const std::string& sourceName) {
    google::protobuf::io::CodedInputStream coded(&raw);
    coded.SetTotalBytesLimit(INT32_MAX);
    if (!model.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
        throw InputError(sourceName + ": not an ONNX model, or the file is truncated or corrupted");
}

} // namespace

void readModelFile(const std::string& path, onnx::ModelProto& model) {
    QFileInfo info(QString::fromStdString(path));
    if (!info.exists()) throw InputError(path + ": no such file");
    if (info.isDir()) throw InputError(path + ": is a directory, not an ONNX file");
    if (!info.isFile())
        throw InputError(path + ": not a regular file (a device or a pipe), not an ONNX model");
    if (info.size() == 0) throw InputError(path + ": empty file, not an ONNX model");
    if (info.size() > INT32_MAX)
        throw InputError(path + ": larger than 2 GiB, which ONNX protobuf files cannot be");
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
    const size_t size = static_cast<size_t>(info.size());
    // Mapped, so that the pages of the weight payloads the walk skips are never read.
    void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
        google::protobuf::io::FileInputStream stream(fd);
        stream.SetCloseOnDelete(true);
        parseFromStream(stream, model, path);
        requireGraph(model, path);
        return;
    }
    ::close(fd);
    ::madvise(mapped, size, MADV_RANDOM); // no read-ahead into the payloads the walk skips
    struct Unmap {
        void* at;
        size_t size;
        ~Unmap() { ::munmap(at, size); }
    } unmap{mapped, size};
    parseModelBytesInto(mapped, size, path, model);
}

onnx::ModelProto loadModelFile(const std::string& path) {
    onnx::ModelProto model;
    readModelFile(path, model);
    return model;
}

void parseModelBytesInto(const void* data, size_t size, const std::string& sourceName,
                         onnx::ModelProto& model) {
    if (size == 0) throw InputError(sourceName + ": empty input, not an ONNX model");
    if (size > INT32_MAX) throw InputError(sourceName + ": larger than 2 GiB");
    const std::optional<std::string> stripped =
        stripTensorPayloads(static_cast<const uint8_t*>(data), size, maxFoldedElements);
    if (stripped) {
        google::protobuf::io::ArrayInputStream stream(stripped->data(), static_cast<int>(stripped->size()));
        try {
            parseFromStream(stream, model, sourceName);
            requireGraph(model, sourceName);
            return;
        } catch (const InputError&) {
            model.Clear(); // the original's own parse below reports the error
        }
    }
    google::protobuf::io::ArrayInputStream stream(data, static_cast<int>(size));
    parseFromStream(stream, model, sourceName);
    requireGraph(model, sourceName);
}

onnx::ModelProto parseModelBytes(const void* data, size_t size, const std::string& sourceName) {
    onnx::ModelProto model;
    parseModelBytesInto(data, size, sourceName, model);
    return model;
}

onnx::ModelProto parseModelText(const std::string& text) {
    onnx::ModelProto model;
    onnx::OnnxParser parser(text.c_str());
    auto status = parser.Parse(model);
    if (!status.IsOK()) throw InputError("textual ONNX: " + status.ErrorMessage());
    requireGraph(model, "textual ONNX");
    return model;
}

bool usesExternalData(const onnx::ModelProto& model) {
    for (const auto& init : model.graph().initializer())
        if (init.data_location() == onnx::TensorProto::EXTERNAL) return true;
    return false;
}

bool externalDataPresent(const onnx::ModelProto& model, const std::string& modelPath) {
    std::set<std::string> locations;
    for (const auto& init : model.graph().initializer()) {
        if (init.data_location() != onnx::TensorProto::EXTERNAL) continue;
        for (const auto& entry : init.external_data())
            if (entry.key() == "location") locations.insert(entry.value());
    }
    const QString folder = QFileInfo(QString::fromStdString(modelPath)).absolutePath();
    for (const auto& location : locations)
        if (!QFileInfo::exists(folder + '/' + QString::fromStdString(location))) return false;
    return true;
}

} // namespace rooftop
