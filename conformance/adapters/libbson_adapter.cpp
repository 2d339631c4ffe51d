// libbson_adapter.cpp — libbson 1.23 (Debian libbson-dev, the MongoDB C driver's BSON library)
// as a linked encoder, BSON only.
//
// What a C program holding these values writes with the bson_t appenders: bson_append_int32
// for an integer that fits, else bson_append_int64 (libbson has no unsigned 64-bit type, so an
// integer above INT64_MAX is refused, as a careful caller would), bson_append_double for every
// float, bson_append_utf8 with the string's length (NUL inside a string is kept),
// bson_append_binary (subtype 0 when the value has none), bson_append_document_begin/_end and
// bson_append_array_begin/_end with keys "0", "1", … for nested containers, keys in the value's
// (std::map) order. A bson_t is a document, so a top-level value that is not an object has no
// libbson counterpart and is refused. An appender returning false (libbson rejecting a key or
// a size) is a refusal. A discarded value has no counterpart and is declared unsupported.
//
// Subtype 2 (binary, old): the value's bytes are the document's, an int32 count and the
// payload; bson_append_binary writes that count itself for BSON_SUBTYPE_BINARY_DEPRECATED, so
// the adapter hands it the payload only, and bytes without a valid count are declared
// unsupported (libbson cannot write them).
#include <bson/bson.h>

#include <cstring>
#include <deque>
#include <limits>

#include "sinkcheck/conform/encoder.hpp"
#include "sinkcheck/detail/walk.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;
using frame = detail::frame<json>;

class appending {
public:
    appending() { bson_init(&root_); }
    ~appending() {
        // Children still open after a refusal are abandoned with their parent: libbson keeps
        // their bytes in the root's buffer, which bson_destroy frees.
        bson_destroy(&root_);
    }
    appending(const appending&) = delete;
    appending& operator=(const appending&) = delete;

    std::size_t position() const { return 0; }

    std::vector<std::uint8_t> bytes() const {
        const std::uint8_t* data = bson_get_data(&root_);
        return std::vector<std::uint8_t>(data, data + root_.len);
    }

    void value(const json& j, frame* parent) {
        if (parent == nullptr) throw std::invalid_argument("a BSON document is an object; libbson appends to a bson_t");
        bson_t* doc = top();
        const char* key = key_.data();
        const int key_length = static_cast<int>(key_.size());
        bool ok = true;
        switch (j.type()) {
            case json::value_t::null: ok = bson_append_null(doc, key, key_length); break;
            case json::value_t::boolean: ok = bson_append_bool(doc, key, key_length, j.get<bool>()); break;
            case json::value_t::number_unsigned: {
                const std::uint64_t v = j.get<std::uint64_t>();
                if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                    throw std::out_of_range("libbson has no unsigned 64-bit integer; " + std::to_string(v) +
                                            " does not fit int64");
                ok = integer(doc, static_cast<std::int64_t>(v));
                break;
            }
            case json::value_t::number_integer: ok = integer(doc, j.get<std::int64_t>()); break;
            case json::value_t::number_float: ok = bson_append_double(doc, key, key_length, j.get<double>()); break;
            case json::value_t::string: {
                const auto& s = j.get_ref<const std::string&>();
                ok = bson_append_utf8(doc, key, key_length, s.data(), static_cast<int>(s.size()));
                break;
            }
            case json::value_t::binary: ok = binary(doc, j.get_binary()); break;
            default: throw unsupported("a discarded value has no libbson counterpart");
        }
        if (!ok) throw std::runtime_error("libbson refused to append key \"" + key_ + "\"");
    }
    bool open(const json& j, frame&, frame* parent) {
        if (parent == nullptr) {
            if (!j.is_object())
                throw std::invalid_argument("a BSON document is an object; libbson appends to a bson_t");
            return true;
        }
        bson_t* doc = top();
        children_.emplace_back();
        bson_t* child = &children_.back().b;
        const bool ok = j.is_object()
                            ? bson_append_document_begin(doc, key_.data(), static_cast<int>(key_.size()), child)
                            : bson_append_array_begin(doc, key_.data(), static_cast<int>(key_.size()), child);
        if (!ok) {
            children_.pop_back();
            throw std::runtime_error("libbson refused to begin key \"" + key_ + "\"");
        }
        return true;
    }
    void member(frame& f, const json&) {
        if (f.key != nullptr) {
            key_ = *f.key;
        } else {
            char buffer[16];
            const char* k = nullptr;
            const std::size_t n = bson_uint32_to_string(static_cast<std::uint32_t>(f.index), &k, buffer, sizeof buffer);
            key_.assign(k, n);
        }
    }
    void close(frame& f) {
        if (children_.empty()) return;  // the root
        bson_t* child = &children_.back().b;
        bson_t* parent = children_.size() > 1 ? &children_[children_.size() - 2].b : &root_;
        const bool ok = f.is_object() ? bson_append_document_end(parent, child) : bson_append_array_end(parent, child);
        children_.pop_back();
        if (!ok) throw std::runtime_error("libbson refused to end a nested document");
    }

private:
    bson_t* top() { return children_.empty() ? &root_ : &children_.back().b; }

    bool integer(bson_t* doc, std::int64_t v) {
        const int key_length = static_cast<int>(key_.size());
        if (v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max())
            return bson_append_int32(doc, key_.data(), key_length, static_cast<std::int32_t>(v));
        return bson_append_int64(doc, key_.data(), key_length, v);
    }

    bool binary(bson_t* doc, const json::binary_t& b) {
        const std::uint64_t subtype = b.has_subtype() ? b.subtype() : std::uint64_t{BSON_SUBTYPE_BINARY};
        if (subtype > 0xff)
            throw std::out_of_range("subtype " + std::to_string(subtype) + " does not fit bson_subtype_t's byte");
        const std::uint8_t* data = b.data();
        std::size_t size = b.size();
        if (subtype == BSON_SUBTYPE_BINARY_DEPRECATED) {
            std::int32_t count = -1;
            if (size >= 4) {
                const std::uint32_t le =
                    static_cast<std::uint32_t>(data[0]) | static_cast<std::uint32_t>(data[1]) << 8 |
                    static_cast<std::uint32_t>(data[2]) << 16 | static_cast<std::uint32_t>(data[3]) << 24;
                std::memcpy(&count, &le, sizeof count);
            }
            if (count < 0 || static_cast<std::size_t>(count) != size - 4)
                throw unsupported(
                    "subtype 2 bytes without their int32 count: bson_append_binary writes the count itself");
            data += 4;
            size -= 4;
        }
        return bson_append_binary(doc, key_.data(), static_cast<int>(key_.size()), static_cast<bson_subtype_t>(subtype),
                                  data, static_cast<std::uint32_t>(size));
    }

    // bson_t is over-aligned (128), which a template argument would drop: wrapped in a struct.
    struct document {
        bson_t b;
    };
    bson_t root_{};
    // std::deque: a child bson_t must not move while open (libbson keeps pointers to it).
    std::deque<document> children_;
    std::string key_;
};

class libbson_encoder : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format, const json& value, const std::string&, const encode_options&) override {
        appending a;
        detail::walker<json> walk;
        walk.run(value, a);
        return a.bytes();
    }
};

const bool registered = [] {
    linked_encoder_info libbson{
        "libbson", std::string("libbson ") + bson_get_version() + " bson_t appenders", {format::bson}, [] {
            return std::make_unique<libbson_encoder>();
        }};
    // bson_append_utf8 leaves validity to its caller (bson.h: "It is the callers responsibility
    // to ensure @value is valid UTF-8").
    libbson.declared.writes_invalid_utf8 = true;
    register_linked_encoder(std::move(libbson));
    return true;
}();

}  // namespace
}  // namespace sinkcheck::conform
