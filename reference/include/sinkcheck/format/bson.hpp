// sinkcheck/format/bson.hpp — BSON encoder, byte-identical to nlohmann 3.11.2 to_bson.
//
// BSON (bsonspec.org, version 1.1) opens every document with its int32 byte length, so a writer
// must know a document's size before its first byte, or go back and patch it. Both ways are here
// and write the same bytes and throw the same errors: by default one iterative sizing pass
// stores every document's size in pre-order (linear in the value; 3.11.2 re-sizes each document
// once per enclosing level, quadratic in depth), and with encode_options::bson_patch_lengths a
// placeholder is written and patched through the sink's seek(). Where 3.11.2 writes bytes that a
// BSON reader rejects or silently misreads, this encoder throws: KNOWN_DIVERGENCES.md (BSON).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sinkcheck/detail/bytes.hpp"
#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/detail/walk.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/options.hpp"

namespace sinkcheck {
namespace detail {

// bsonspec.org element type bytes
inline constexpr std::uint8_t bson_double = 0x01;
inline constexpr std::uint8_t bson_string = 0x02;
inline constexpr std::uint8_t bson_document = 0x03;
inline constexpr std::uint8_t bson_array = 0x04;
inline constexpr std::uint8_t bson_binary = 0x05;
inline constexpr std::uint8_t bson_boolean = 0x08;
inline constexpr std::uint8_t bson_null = 0x0a;
inline constexpr std::uint8_t bson_int32 = 0x10;
inline constexpr std::uint8_t bson_int64 = 0x12;

/// Binary subtype 0x02 ("Binary (Old)"): bsonspec.org requires its data to be an int32 byte
/// count followed by that many bytes.
inline constexpr std::uint64_t bson_old_binary_subtype = 0x02;

/// Every BSON length field is a signed int32.
inline constexpr std::uint64_t bson_max_length = 0x7fffffff;

template <class Sink, class = void>
struct bson_sink_has_seek : std::false_type {};
template <class Sink>
struct bson_sink_has_seek<Sink, std::void_t<decltype(std::declval<Sink&>().seek(std::size_t{}))>> : std::true_type {};

/// The length a document, string or binary would announce, refused when it overflows int32
/// (nlohmann 3.11.2 quirk: it casts the size_t silently and writes a wrong, often negative, length).
inline void bson_require_length(std::uint64_t length, const char* what) {
    if (length > bson_max_length) {
        throw out_of_range(
            error_id::length_too_large,
            std::string("BSON ") + what + " length " + std::to_string(length) + " does not fit its int32 length field");
    }
}

/// An element's e_name: its object key, or its array index in decimal (bsonspec.org: an array
/// is a document whose keys are "0", "1", ... in order). Points into the key or into itself,
/// hence not copyable.
template <class Json>
class bson_key {
public:
    explicit bson_key(const frame<Json>& parent) noexcept {
        if (parent.key != nullptr) {
            data_ = parent.key->c_str();
            size_ = parent.key->size();
        } else {
            const auto end = std::to_chars(digits_, digits_ + sizeof digits_ - 1, parent.index).ptr;
            *end = '\0';
            data_ = digits_;
            size_ = static_cast<std::size_t>(end - digits_);
        }
    }
    bson_key(const bson_key&) = delete;
    bson_key& operator=(const bson_key&) = delete;

    /// NUL-terminated.
    const char* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    /// The type byte, the name and its NUL.
    std::size_t element_header_size() const noexcept { return size_ + 2; }

private:
    char digits_[24]{};
    const char* data_;
    std::size_t size_;
};

/// An object key must be a cstring (bsonspec.org: "MUST NOT contain '\x00'"; nlohmann 3.11.2
/// has out_of_range.409 for it) and UTF-8 (3.11.2 copies any bytes: invalid-utf8).
template <class Json>
void bson_check_key(const typename Json::string_t& key) {
    const auto nul = key.find('\0');
    if (nul != Json::string_t::npos) {
        throw out_of_range(error_id::bson_key_nul, "a BSON key is a C string and cannot hold U+0000 (byte " +
                                                       std::to_string(nul) + " of the key)");
    }
    require_utf8(key, "object key");
}

/// True when binary data has the layout bsonspec.org prescribes for subtype 0x02: an int32
/// little-endian count of the bytes that follow it.
template <class Binary>
bool bson_old_binary_framed(const Binary& b) noexcept {
    if (b.size() < 4) {
        return false;
    }
    std::uint32_t n = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        n |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(b.data()[i])) << (8 * i);
    }
    return n == b.size() - 4;
}

/// Refuses the non-container values BSON cannot hold where 3.11.2 writes them anyway;
/// out_of_range.407 is not here because 3.11.2 raises it only while writing (see bson_writer).
template <class Json>
void bson_check_value(const Json& j) {
    switch (j.type()) {
        case Json::value_t::string: {
            const auto& s = j.template get_ref<const typename Json::string_t&>();
            require_utf8(s, "string");  // bsonspec.org string: "UTF-8 string"
            bson_require_length(std::uint64_t{s.size()} + 1, "string");
            return;
        }
        case Json::value_t::binary: {
            const auto& b = j.get_binary();
            bson_require_length(b.size(), "binary");
            if (b.has_subtype() && b.subtype() > 0xff) {
                // nlohmann 3.11.2 quirk: writes the subtype's low byte, so 256 reads back as 0
                throw out_of_range(error_id::subtype_too_large, "BSON binary subtype " + std::to_string(b.subtype()) +
                                                                    " does not fit the one-byte subtype field");
            }
            if (b.has_subtype() && b.subtype() == bson_old_binary_subtype && !bson_old_binary_framed(b)) {
                // 3.11.2 writes the bytes as they are; libbson and pymongo reject the document
                throw type_error(error_id::bson_old_binary,
                                 "BSON binary subtype 2 needs data that starts with the int32 count "
                                 "of the bytes after it");
            }
            return;
        }
        case Json::value_t::discarded:
            // 3.11.2 reaches JSON_ASSERT(false): an abort, or with NDEBUG the element vanishes
            throw type_error(error_id::discarded_value, "a discarded value has no BSON encoding");
        default: return;
    }
}

/// The bytes after an element's header for a non-container value.
template <class Json>
std::uint64_t bson_payload_size(const Json& j) {
    switch (j.type()) {
        case Json::value_t::boolean: return 1;
        case Json::value_t::number_float: return 8;
        case Json::value_t::number_integer: {
            const auto v = j.template get<std::int64_t>();
            return v >= INT32_MIN && v <= INT32_MAX ? 4 : 8;
        }
        case Json::value_t::number_unsigned:
            return j.template get<std::uint64_t>() <= static_cast<std::uint64_t>(INT32_MAX) ? 4 : 8;
        case Json::value_t::string:
            return 4 + std::uint64_t{j.template get_ref<const typename Json::string_t&>().size()} + 1;
        case Json::value_t::binary: return 4 + 1 + std::uint64_t{j.get_binary().size()};
        default: return 0;  // null
    }
}

/// Refuses a container whose smallest possible encoding already overflows int32, before any of
/// it is sized or written: an array element takes at least 3 bytes (type, a one-digit index, its
/// NUL), an object member at least 2 (type, the NUL of an empty key), plus the length and the
/// terminator. Without this a container claiming billions of elements would be walked (or, in
/// patch mode, written) in full before its length could be refused.
template <class Json>
void bson_require_container_fits(const Json& j) {
    const std::uint64_t count = j.size();
    const std::uint64_t per_element = j.is_array() ? 3 : 2;
    if (count > (bson_max_length - 5) / per_element) {
        throw out_of_range(error_id::length_too_large, std::string("BSON ") + (j.is_array() ? "array" : "document") +
                                                           " of " + std::to_string(count) +
                                                           " elements needs more than " +
                                                           std::to_string(std::uint64_t{bson_max_length}) +
                                                           " bytes: its length does not fit its int32 length field");
    }
}

/// First pass of the default mode: every document's size, in the order the documents open.
/// It also raises every refusal except out_of_range.407, before a byte is written, which is
/// where nlohmann 3.11.2 raises out_of_range.409 (its sizing runs before its writing).
template <class Json>
class bson_sizer {
public:
    using frame_type = frame<Json>;

    explicit bson_sizer(std::vector<std::uint64_t>& sizes) noexcept : sizes_(sizes) {}

    std::size_t position() const noexcept { return 0; }

    void value(const Json& j, frame_type* parent) {
        bson_check_value(j);
        sizes_[open_.back()] += bson_key<Json>(*parent).element_header_size() + bson_payload_size(j);
    }

    bool open(const Json& j, frame_type&, frame_type* parent) {
        bson_require_container_fits(j);
        if (parent != nullptr) {
            sizes_[open_.back()] += bson_key<Json>(*parent).element_header_size();
        }
        open_.push_back(sizes_.size());
        sizes_.push_back(4);  // the int32 length itself
        return true;
    }

    void member(frame_type& f, const Json&) {
        if (f.key != nullptr) {
            bson_check_key<Json>(*f.key);
        }
    }

    void close(frame_type& f) {
        const std::size_t slot = open_.back();
        open_.pop_back();
        sizes_[slot] += 1;  // the terminating 0x00
        bson_require_length(sizes_[slot], f.is_object() ? "document" : "array");
        if (!open_.empty()) {
            sizes_[open_.back()] += sizes_[slot];
        }
    }

private:
    std::vector<std::uint64_t>& sizes_;
    std::vector<std::size_t> open_;  // slots of the documents being sized, innermost last
};

/// The walker handler that writes BSON. Patch selects the mode: lengths patched through
/// Sink::seek() instead of read from the sizing pass.
template <class Json, class Sink, bool Patch>
class bson_writer {
public:
    using frame_type = frame<Json>;
    using string_t = typename Json::string_t;

    bson_writer(Sink& sink, const std::vector<std::uint64_t>* sizes, const walker<Json>& walk) noexcept
        : sink_(sink), sizes_(sizes), walk_(walk) {}

    std::size_t position() const { return sink_.position(); }

    void value(const Json& j, frame_type* parent) {
        if constexpr (Patch) {
            bson_check_value(j);
        }
        const bson_key<Json> key(*parent);
        std::uint8_t payload[8] = {};
        switch (j.type()) {
            case Json::value_t::null: element(bson_null, key, payload, 0); return;
            case Json::value_t::boolean:
                payload[0] = j.template get<bool>() ? 1 : 0;
                element(bson_boolean, key, payload, 1);
                return;
            case Json::value_t::number_float:
                element(bson_double, key, payload, store_le(payload, j.template get<double>()));
                return;
            case Json::value_t::number_integer: integer(key, j.template get<std::int64_t>()); return;
            case Json::value_t::number_unsigned: {
                const auto v = j.template get<std::uint64_t>();
                if (v > static_cast<std::uint64_t>(INT64_MAX)) {
                    unsigned_too_large(v);
                    return;
                }
                integer(key, static_cast<std::int64_t>(v));
                return;
            }
            case Json::value_t::string: {
                const auto& s = j.template get_ref<const string_t&>();
                // int32 length counts the trailing NUL; bytes and NUL go out together from c_str()
                element(bson_string, key, payload, store_le(payload, static_cast<std::int32_t>(s.size() + 1)));
                sink_.write(reinterpret_cast<const std::uint8_t*>(s.c_str()), s.size() + 1);
                return;
            }
            case Json::value_t::binary: {
                const auto& b = j.get_binary();
                store_le(payload, static_cast<std::int32_t>(b.size()));
                // no subtype is written as 0x00, "Generic binary subtype"
                payload[4] = b.has_subtype() ? static_cast<std::uint8_t>(b.subtype()) : 0;
                element(bson_binary, key, payload, 5);
                if (!b.empty()) {
                    sink_.write(b.data(), b.size());
                }
                return;
            }
            default: return;  // discarded was refused by bson_check_value; containers go to open()
        }
    }

    bool open(const Json& j, frame_type& f, frame_type* parent) {
        std::uint8_t length[4] = {0, 0, 0, 0};
        if constexpr (Patch) {
            bson_require_container_fits(j);  // the default mode's sizing pass has checked it
        } else {
            store_le(length, static_cast<std::int32_t>((*sizes_)[next_size_++]));
        }
        if (parent == nullptr) {
            sink_.write(length, 4);
        } else {
            element(j.is_object() ? bson_document : bson_array, bson_key<Json>(*parent), length, 4);
        }
        if constexpr (Patch) {
            f.aux = sink_.position() - 4;  // where the placeholder went
        }
        return true;
    }

    void member(frame_type& f, const Json&) {
        if constexpr (Patch) {
            if (f.key != nullptr) {
                bson_check_key<Json>(*f.key);
            }
        }
    }

    void close(frame_type& f) {
        sink_.write(std::uint8_t{0});
        if constexpr (Patch) {
            const std::size_t end = sink_.position();
            const std::uint64_t length = end - f.aux;
            bson_require_length(length, f.is_object() ? "document" : "array");
            std::uint8_t buf[4];
            store_le(buf, static_cast<std::int32_t>(length));
            sink_.seek(static_cast<std::size_t>(f.aux));
            sink_.write(buf, 4);
            sink_.seek(end);
        }
    }

    /// Patch mode: throws the out_of_range.407 kept back during the walk.
    void finish() {
        if (deferred_) {
            throw *deferred_;
        }
    }

private:
    /// Type byte, e_name with its NUL, and the fixed payload in one sink write when they fit a
    /// small buffer (keys are usually short); otherwise three writes.
    void element(std::uint8_t type, const bson_key<Json>& key, const std::uint8_t* payload, std::size_t n) {
        std::uint8_t buf[64];
        const std::size_t total = key.element_header_size() + n;
        if (total <= sizeof buf) {
            buf[0] = type;
            std::memcpy(buf + 1, key.data(), key.size() + 1);
            if (n != 0) {
                std::memcpy(buf + key.element_header_size(), payload, n);
            }
            sink_.write(buf, total);
            return;
        }
        sink_.write(type);
        sink_.write(reinterpret_cast<const std::uint8_t*>(key.data()), key.size() + 1);
        if (n != 0) {
            sink_.write(payload, n);
        }
    }

    void integer(const bson_key<Json>& key, std::int64_t v) {
        std::uint8_t payload[8] = {};
        if (v >= INT32_MIN && v <= INT32_MAX) {
            element(bson_int32, key, payload, store_le(payload, static_cast<std::int32_t>(v)));
        } else {
            element(bson_int64, key, payload, store_le(payload, v));
        }
    }

    // BSON's widest integer is int64; 3.11.2 refuses larger unsigned values with out_of_range.407,
    // but only while writing, after its sizing pass has checked every key. So a NUL key anywhere
    // (409) wins over this error. The default mode gets that order from its own sizing pass and
    // throws here, leaving the same prefix in the sink as 3.11.2. The patch mode has no sizing
    // pass: it keeps the first such error, skips the element and throws at the end, once every
    // key has been checked.
    void unsigned_too_large(std::uint64_t v) {
        out_of_range e(error_id::unsigned_too_large,
                       "integer " + std::to_string(v) + " does not fit BSON's widest integer, int64");
        if constexpr (Patch) {
            if (!deferred_) {
                e.set_pointer(walk_.pointer());
                deferred_ = std::move(e);
            }
        } else {
            throw e;
        }
    }

    Sink& sink_;
    const std::vector<std::uint64_t>* sizes_;
    std::size_t next_size_ = 0;
    const walker<Json>& walk_;
    std::optional<out_of_range> deferred_;
};

/// The divergence id for an error the sizing pass throws, or nullptr when 3.11.2 throws it too.
inline const char* bson_divergence_id(int error) noexcept {
    switch (error) {
        case error_id::invalid_utf8: return "invalid-utf8";
        case error_id::discarded_value: return "discarded-value";
        case error_id::subtype_too_large: return "bson-binary-subtype-truncated";
        case error_id::length_too_large: return "bson-length-overflow";
        case error_id::bson_old_binary: return "bson-binary-old-layout";
        default: return nullptr;  // out_of_range.409: 3.11.2 refuses the same key
    }
}

inline type_error bson_top_level_error(const char* type_name) {
    type_error e(error_id::bson_top_level,
                 std::string("a BSON message is a document: the top-level value must be an object, not ") + type_name);
    e.set_pointer("");
    return e;
}

}  // namespace detail

/// Writes j, which must be an object, as one BSON document to sink: byte for byte what
/// nlohmann 3.11.2 to_bson writes, and the same type_error.317 / out_of_range.407 / .409
/// refusals, except for the divergences bson_divergence() names, which throw encode_error.
/// With options.bson_patch_lengths the sink must have seek(std::size_t) (std::invalid_argument
/// otherwise); the bytes and the errors are the same in both modes.
template <class Json, class Sink>
void encode_bson(const Json& j, Sink& sink, const encode_options& options = {}) {
    if (!j.is_object()) {
        throw detail::bson_top_level_error(j.type_name());
    }
    detail::walker<Json> walk;
    if (options.bson_patch_lengths) {
        if constexpr (detail::bson_sink_has_seek<Sink>::value) {
            detail::bson_writer<Json, Sink, true> writer(sink, nullptr, walk);
            walk.run(j, writer, options.marks);
            writer.finish();
        } else {
            throw std::invalid_argument("encode_options::bson_patch_lengths needs a sink with seek(std::size_t)");
        }
    } else {
        std::vector<std::uint64_t> sizes;
        detail::bson_sizer<Json> sizer(sizes);
        walk.run(j, sizer);
        detail::bson_writer<Json, Sink, false> writer(sink, &sizes, walk);
        walk.run(j, writer, options.marks);
    }
}

/// The KNOWN_DIVERGENCES.md id that applies to j ("invalid-utf8", "discarded-value",
/// "bson-binary-subtype-truncated", "bson-binary-old-layout", "bson-length-overflow"), or nullptr
/// when encode_bson writes or refuses exactly as 3.11.2 does. When several apply, the id of the
/// error encode_bson throws (the first offending node in writing order).
template <class Json>
const char* bson_divergence(const Json& j, const encode_options& = {}) {
    if (!j.is_object()) {
        return nullptr;  // both refuse with type_error.317
    }
    std::vector<std::uint64_t> sizes;
    detail::bson_sizer<Json> sizer(sizes);
    detail::walker<Json> walk;
    try {
        walk.run(j, sizer);
    } catch (const encode_error& e) {
        return detail::bson_divergence_id(e.id());
    }
    return nullptr;
}

}  // namespace sinkcheck
