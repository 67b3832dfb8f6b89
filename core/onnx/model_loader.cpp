// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/model_loader.h"

#include "core/common/errors.h"
#include "core/onnx/payload_stripping.h"
#include "core/onnx/tensor_values.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <onnx/defs/parser.h>

#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <set>
#include <sys/mman.h>
#include <unistd.h>

namespace rooftop {
namespace {

void requireGraph(const onnx::ModelProto& model, const std::string& sourceName) {
    // Protobuf accepts many byte strings as an empty or partial message; a model needs a graph with nodes.
    if (!model.has_graph() || model.graph().node_size() == 0)
        throw InputError(sourceName + ": not an ONNX model (no graph with nodes)");
    if (model.ir_version() <= 0 && model.opset_import_size() == 0)
        throw InputError(sourceName + ": not an ONNX model (no IR version and no opset imports)");
}

void parseFromStream(google::protobuf::io::ZeroCopyInputStream& raw, onnx::ModelProto& model,
                     const std::string& sourceName) {
    google::protobuf::io::CodedInputStream coded(&raw);
    coded.SetTotalBytesLimit(INT32_MAX);
    if (!model.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
        throw InputError(sourceName + ": not an ONNX model, or the file is truncated or corrupted");
}

} // namespace

onnx::ModelProto loadModelFile(const std::string& path) {
    QFileInfo info(QString::fromStdString(path));
    if (!info.exists()) throw InputError(path + ": no such file");
    if (info.isDir()) throw InputError(path + ": is a directory, not an ONNX file");
    if (info.size() == 0) throw InputError(path + ": empty file, not an ONNX model");
    if (info.size() > INT32_MAX) throw InputError(path + ": larger than 2 GiB, which ONNX protobuf files cannot be");
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
    const size_t size = static_cast<size_t>(info.size());
    // Mapped, so that the pages of the weight payloads the walk skips are never read.
    void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
        onnx::ModelProto model;
        google::protobuf::io::FileInputStream stream(fd);
        stream.SetCloseOnDelete(true);
        parseFromStream(stream, model, path);
        requireGraph(model, path);
        return model;
    }
    ::close(fd);
    ::madvise(mapped, size, MADV_RANDOM); // no read-ahead into the payloads the walk skips
    struct Unmap {
        void* at;
        size_t size;
        ~Unmap() { ::munmap(at, size); }
    } unmap{mapped, size};
    return parseModelBytes(mapped, size, path);
}

onnx::ModelProto parseModelBytes(const void* data, size_t size, const std::string& sourceName) {
    if (size == 0) throw InputError(sourceName + ": empty input, not an ONNX model");
    if (size > INT32_MAX) throw InputError(sourceName + ": larger than 2 GiB");
    onnx::ModelProto model;
    const std::optional<std::string> stripped =
        stripTensorPayloads(static_cast<const uint8_t*>(data), size, maxFoldedElements);
    if (stripped) {
        google::protobuf::io::ArrayInputStream stream(stripped->data(), static_cast<int>(stripped->size()));
        try {
            parseFromStream(stream, model, sourceName);
            requireGraph(model, sourceName);
            return model;
        } catch (const InputError&) {
            model.Clear(); // the original's own parse below reports the error
        }
    }
    google::protobuf::io::ArrayInputStream stream(data, static_cast<int>(size));
    parseFromStream(stream, model, sourceName);
    requireGraph(model, sourceName);
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
