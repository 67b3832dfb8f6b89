// SPDX-License-Identifier: GPL-3.0-or-later
// A protobuf wire-format walk over ModelProto (onnx.proto field numbers) that copies every field except the
// payloads of large tensors. Only the message types on the path to a tensor are descended into; every other
// field is copied as it is.
#include "core/onnx/payload_stripping.h"

#include <limits>

namespace rooftop {

namespace {

enum WireType { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };
enum class Message { Model, Graph, Node, Attribute, Tensor };
constexpr int maxDepth = 64; // deeper nesting is left to protobuf (which has its own limit)

struct Reader {
    const uint8_t* at;
    const uint8_t* end;

    bool varint(uint64_t& value) {
        value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at >= end) return false;
            const uint8_t byte = *at++;
            value |= static_cast<uint64_t>(byte & 0x7f) << shift;
            if (!(byte & 0x80)) return true;
        }
        return false;
    }
};

void writeVarint(std::string& out, uint64_t value) {
    while (value >= 0x80) {
        out.push_back(static_cast<char>((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out.push_back(static_cast<char>(value));
}

// One field: its number, wire type, and the bytes of its value (for length-delimited: the payload).
struct Field {
    uint32_t number = 0;
    int wire = 0;
    const uint8_t* begin = nullptr; ///< where the tag starts
    const uint8_t* value = nullptr; ///< the value (payload of a length-delimited field)
    const uint8_t* end = nullptr;   ///< one past the field
};

bool nextField(Reader& r, Field& f) {
    f.begin = r.at;
    uint64_t tag = 0;
    if (!r.varint(tag) || (tag >> 3) == 0 || (tag >> 3) > std::numeric_limits<uint32_t>::max()) return false;
    f.number = static_cast<uint32_t>(tag >> 3);
    f.wire = static_cast<int>(tag & 7);
    switch (f.wire) {
    case Varint: {
        uint64_t ignored = 0;
        f.value = r.at;
        if (!r.varint(ignored)) return false;
        break;
    }
    case Fixed64:
    case Fixed32: {
        const size_t width = f.wire == Fixed64 ? 8 : 4;
        if (static_cast<size_t>(r.end - r.at) < width) return false;
        f.value = r.at;
        r.at += width;
        break;
    }
    case LengthDelimited: {
        uint64_t length = 0;
        if (!r.varint(length) || length > static_cast<uint64_t>(r.end - r.at)) return false;
        f.value = r.at;
        r.at += length;
        break;
    }
    default:
        return false; // groups (deprecated) and invalid wire types
    }
    f.end = r.at;
    return true;
}

// Element count of a serialized TensorProto from its dims (field 1, packed or not); nullopt when malformed.
std::optional<uint64_t> tensorElements(const uint8_t* begin, const uint8_t* end) {
    Reader r{begin, end};
    uint64_t count = 1;
    auto multiply = [&](uint64_t dim) {
        const auto d = static_cast<int64_t>(dim);
        if (d <= 0) {
            count = 0;
            return;
        }
        count = count > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(d)
                    ? std::numeric_limits<uint64_t>::max()
                    : count * static_cast<uint64_t>(d);
    };
    Field f;
    while (r.at < r.end) {
        if (!nextField(r, f)) return std::nullopt;
        if (f.number != 1) continue;
        if (f.wire == Varint) {
            Reader v{f.value, f.end};
            uint64_t dim = 0;
            if (!v.varint(dim)) return std::nullopt;
            multiply(dim);
        } else if (f.wire == LengthDelimited) {
            Reader packed{f.value, f.end};
            while (packed.at < packed.end) {
                uint64_t dim = 0;
                if (!packed.varint(dim)) return std::nullopt;
                multiply(dim);
            }
        }
    }
    return count;
}

// The child message type of a length-delimited field, if the walk descends into it.
std::optional<Message> childOf(Message parent, uint32_t number) {
    switch (parent) {
    case Message::Model:
        return number == 7 ? std::optional<Message>(Message::Graph) : std::nullopt;
    case Message::Graph:
        if (number == 1) return Message::Node;
        if (number == 5) return Message::Tensor;
        return std::nullopt;
    case Message::Node:
        return number == 5 ? std::optional<Message>(Message::Attribute) : std::nullopt;
    case Message::Attribute:
        if (number == 5 || number == 10) return Message::Tensor;
        if (number == 6 || number == 11) return Message::Graph;
        return std::nullopt;
    case Message::Tensor:
        return std::nullopt;
    }
    return std::nullopt;
}

// TensorProto fields that hold values: float, int32, string, int64, raw, double and uint64 data.
bool isPayload(uint32_t number) {
    return number == 4 || number == 5 || number == 6 || number == 7 || number == 9 || number == 10 ||
           number == 11;
}

// Copies a message without the payloads of large tensors into `out`; with `out` null only finds whether there
// is any such payload (stripped), so a file without one costs a walk and no copy.
struct Walk {
    int64_t maxElements;
    bool stripped = false;

    bool copy(Message type, const uint8_t* begin, const uint8_t* end, std::string* out, int depth) {
        if (depth > maxDepth) return false;
        bool dropPayload = false;
        if (type == Message::Tensor) {
            const std::optional<uint64_t> elements = tensorElements(begin, end);
            if (!elements) return false;
            dropPayload = *elements > static_cast<uint64_t>(maxElements);
        }
        Reader r{begin, end};
        Field f;
        while (r.at < r.end) {
            if (!nextField(r, f)) return false;
            if (dropPayload && isPayload(f.number)) {
                stripped = true;
                continue;
            }
            const std::optional<Message> child =
                f.wire == LengthDelimited ? childOf(type, f.number) : std::nullopt;
            if (!child) {
                if (out)
                    out->append(reinterpret_cast<const char*>(f.begin), static_cast<size_t>(f.end - f.begin));
                continue;
            }
            if (!out) {
                if (!copy(*child, f.value, f.end, nullptr, depth + 1)) return false;
                continue;
            }
            std::string inner;
            if (!copy(*child, f.value, f.end, &inner, depth + 1)) return false;
            writeVarint(*out, (static_cast<uint64_t>(f.number) << 3) | LengthDelimited);
            writeVarint(*out, inner.size());
            *out += inner;
        }
        return true;
    }
};

} // namespace

std::optional<std::string> stripTensorPayloads(const uint8_t* data, size_t size, int64_t maxElements) {
    Walk scan{maxElements};
    if (!scan.copy(Message::Model, data, data + size, nullptr, 0) || !scan.stripped) return std::nullopt;
    Walk walk{maxElements};
    std::string out;
    out.reserve(size < (size_t(1) << 20) ? size : size_t(1) << 20);
    if (!walk.copy(Message::Model, data, data + size, &out, 0)) return std::nullopt;
    return out;
}

} // namespace rooftop
