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
#include <limits>
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

[[noreturn, gnu::cold, gnu::noinline]] inline void bson_throw_length(std::uint64_t length, const char* what) {
    throw out_of_range(error_id::length_too_large, std::string("BSON ") + what + " length " + std::to_string(length) +
                                                       " does not fit its int32 length field");
}

/// The length a document, string or binary would announce, refused when it overflows int32
/// (nlohmann 3.11.2 quirk: it casts the size_t silently and writes a wrong, often negative, length).
inline void bson_require_length(std::uint64_t length, const char* what) {
    if (length > bson_max_length) {
        bson_throw_length(length, what);
    }
}

/// Decimal digits of n.
inline std::size_t bson_decimal_digits(std::size_t n) noexcept {
    std::size_t digits = 1;
    // the bound cannot wrap: the loop stops at the widest power of ten a size_t holds
    for (std::size_t bound = 10; digits <= std::numeric_limits<std::size_t>::digits10 && n >= bound; bound *= 10) {
        ++digits;
    }
    return digits;
}

/// The e_name of an array element, its index in decimal (bsonspec.org: an array is a document
/// whose keys are "0", "1", ... in order). Converting every index with to_chars, once in each
/// pass, was a fifth of a BSON encode (callgrind); here the name of index i + 1 is one decimal
/// increment of the name of i, the order in which an array's elements come, and any other index
/// is converted afresh. Names of up to six digits are kept as the bytes of a little-endian word
/// from its second byte on, so that type byte, name and NUL make one word.
class bson_index_name {
public:
    static constexpr std::size_t word_digits = 6;

    /// Makes this the name of index.
    [[gnu::always_inline]] void go_to(std::size_t index) noexcept {
        if (index == index_ + 1 && digits_ <= word_digits) {
            increment(index);
        } else {
            convert(index);
        }
        index_ = index;
    }

    std::size_t digits() const noexcept { return digits_; }

    /// The element header for this name: type, digits, NUL. Only when digits() <= word_digits.
    std::uint64_t header(std::uint8_t type) const noexcept { return word_ | type; }

private:
    [[gnu::always_inline]] void increment(std::size_t index) noexcept {
        for (std::size_t shift = 8 * digits_; shift != 0; shift -= 8) {
            if (((word_ >> shift) & 0xff) != '9') {
                word_ += std::uint64_t{1} << shift;
                return;
            }
            word_ -= std::uint64_t{9} << shift;  // '9' becomes '0' and carries
        }
        convert(index);  // all nines: one digit more
    }

    void convert(std::size_t index) noexcept {
        digits_ = bson_decimal_digits(index);
        if (digits_ > word_digits) {
            return;
        }
        word_ = 0;
        for (std::size_t shift = 8 * digits_; shift != 0; shift -= 8) {
            word_ |= static_cast<std::uint64_t>('0' + index % 10) << shift;
            index /= 10;
        }
    }

    std::size_t index_ = 0;
    std::size_t digits_ = 1;
    std::uint64_t word_ = std::uint64_t{'0'} << 8;
};

/// True when one of the n bytes at p is zero: a word at a time, the tail as a word that overlaps
/// the last full one (as all_ascii in detail/utf8.hpp), so a key costs no call to memchr.
inline bool bson_has_nul(const char* p, std::size_t n) noexcept {
    // exact for "some byte is zero"; only which byte it is may be misreported, and that is not asked
    const auto zero_byte = [](std::uint64_t w) {
        return ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) != 0;
    };
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 <= n; i += 8) {
            std::uint64_t w;
            std::memcpy(&w, p + i, 8);
            if (zero_byte(w)) {
                return true;
            }
        }
        std::uint64_t last;
        std::memcpy(&last, p + n - 8, 8);
        return zero_byte(last);
    }
    if (n >= 4) {
        std::uint32_t first, last;
        std::memcpy(&first, p, 4);
        std::memcpy(&last, p + n - 4, 4);
        return zero_byte(first | static_cast<std::uint64_t>(last) << 32);
    }
    // 0..3 bytes: the first, middle and last byte cover them all
    return n != 0 && (p[0] == 0 || p[n / 2] == 0 || p[n - 1] == 0);
}

[[noreturn, gnu::cold, gnu::noinline]] inline void bson_throw_key_nul(std::size_t at) {
    throw out_of_range(error_id::bson_key_nul,
                       "a BSON key is a C string and cannot hold U+0000 (byte " + std::to_string(at) + " of the key)");
}

/// An object key must be a cstring (bsonspec.org: "MUST NOT contain '\x00'"; nlohmann 3.11.2
/// has out_of_range.409 for it) and UTF-8 (3.11.2 copies any bytes: invalid-utf8).
template <class Json>
[[gnu::always_inline]] inline void bson_check_key(const typename Json::string_t& key) {
    if (bson_has_nul(key.data(), key.size())) {
        bson_throw_key_nul(key.find('\0'));
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

/// Refuses binary data BSON cannot hold where 3.11.2 writes it anyway.
template <class Binary>
void bson_check_binary(const Binary& b) {
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
}

/// The bytes after the element header of a non-container value, after refusing the values BSON
/// cannot hold where 3.11.2 writes them anyway; out_of_range.407 is not here because 3.11.2
/// raises it only while writing (see bson_writer).
template <class Json>
[[gnu::always_inline]] inline std::uint64_t bson_checked_payload_size(const Json& j) {
    switch (j.type()) {
        case Json::value_t::boolean: return 1;
        case Json::value_t::number_float: return 8;
        case Json::value_t::number_integer: {
            const auto v = *j.template get_ptr<const typename Json::number_integer_t*>();
            return v >= INT32_MIN && v <= INT32_MAX ? 4 : 8;
        }
        case Json::value_t::number_unsigned:
            return *j.template get_ptr<const typename Json::number_unsigned_t*>() <=
                           static_cast<std::uint64_t>(INT32_MAX)
                       ? 4
                       : 8;
        case Json::value_t::string: {
            const auto& s = *j.template get_ptr<const typename Json::string_t*>();
            require_utf8(s, "string");  // bsonspec.org string: "UTF-8 string"
            bson_require_length(std::uint64_t{s.size()} + 1, "string");
            return 4 + std::uint64_t{s.size()} + 1;
        }
        case Json::value_t::binary: {
            const auto& b = j.get_binary();
            bson_check_binary(b);
            return 4 + 1 + std::uint64_t{b.size()};
        }
        case Json::value_t::discarded:
            // 3.11.2 reaches JSON_ASSERT(false): an abort, or with NDEBUG the element vanishes
            throw type_error(error_id::discarded_value, "a discarded value has no BSON encoding");
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

/// Every document's size in the order the documents open, filled in by the sizing pass and read
/// in that order by the writer. The first 64 live in place: a document with few containers
/// costs no allocation beyond the output's own.
using bson_sizes = small_stack<std::uint32_t, 64>;

/// First pass of the default mode: every document's size, in the order the documents open.
/// It also raises every refusal except out_of_range.407, before a byte is written, which is
/// where nlohmann 3.11.2 raises out_of_range.409 (its sizing runs before its writing).
template <class Json>
class bson_sizer {
public:
    using frame_type = frame<Json>;

    explicit bson_sizer(bson_sizes& sizes) noexcept : sizes_(sizes) {}

    std::size_t position() const noexcept { return 0; }

    [[gnu::always_inline]] void value(const Json& j, frame_type* parent) {
        const std::uint64_t payload = bson_checked_payload_size(j);
        open_.top().size += header_size(*parent) + payload;
    }

    [[gnu::always_inline]] bool open(const Json& j, frame_type&, frame_type* parent) {
        bson_require_container_fits(j);
        if (parent != nullptr) {
            open_.top().size += header_size(*parent);
        }
        open_.push({sizes_.size(), 4});  // the int32 length itself
        sizes_.push(0);                  // set when the document closes
        return true;
    }

    [[gnu::always_inline]] void member(frame_type& f, const Json&) {
        if (f.key != nullptr) {
            bson_check_key<Json>(*f.key);
        }
    }

    void close(frame_type& f) {
        const open_document done = open_.top();
        open_.pop();
        const std::uint64_t size = done.size + 1;  // the terminating 0x00
        bson_require_length(size, f.is_object() ? "document" : "array");
        sizes_[done.slot] = static_cast<std::uint32_t>(size);
        if (!open_.empty()) {
            open_.top().size += size;
        }
    }

private:
    /// The type byte, the e_name and its NUL.
    [[gnu::always_inline]] std::uint64_t header_size(const frame_type& parent) noexcept {
        if (parent.key != nullptr) {
            return 2 + std::uint64_t{parent.key->size()};
        }
        index_.go_to(parent.index);
        return 2 + std::uint64_t{index_.digits()};
    }

    struct open_document {
        std::size_t slot;    // in sizes_
        std::uint64_t size;  // so far; wider than int32, so that an overflow is seen, not wrapped
    };

    bson_sizes& sizes_;
    small_stack<open_document, 32> open_;  // the documents being sized, innermost last
    bson_index_name index_;
};

/// The walker handler that writes BSON. Patch selects the mode: lengths patched through
/// Sink::seek() instead of read from the sizing pass. As in format/cbor.hpp, the hot functions
/// are inlined by force into the walker's loop, and fixed-size fields go out in writes of
/// constant size; an array element's header is composed in a register.
template <class Json, class Sink, bool Patch>
class bson_writer {
public:
    using frame_type = frame<Json>;
    using string_t = typename Json::string_t;

    bson_writer(Sink& sink, const bson_sizes* sizes, const walker<Json>& walk) noexcept
        : sink_(sink), sizes_(sizes), walk_(walk) {}

    std::size_t position() const { return sink_.position(); }

    [[gnu::always_inline]] void value(const Json& j, frame_type* parent) {
        if constexpr (Patch) {
            bson_checked_payload_size(j);
        }
        switch (j.type()) {
            case Json::value_t::null: header(bson_null, *parent); return;
            case Json::value_t::boolean:
                header(bson_boolean, *parent);
                sink_.write(*j.template get_ptr<const typename Json::boolean_t*>() ? std::uint8_t{1} : std::uint8_t{0});
                return;
            case Json::value_t::number_float:
                header(bson_double, *parent);
                put(static_cast<double>(*j.template get_ptr<const typename Json::number_float_t*>()));
                return;
            case Json::value_t::number_integer:
                integer(*parent,
                        static_cast<std::int64_t>(*j.template get_ptr<const typename Json::number_integer_t*>()));
                return;
            case Json::value_t::number_unsigned: {
                const std::uint64_t v = *j.template get_ptr<const typename Json::number_unsigned_t*>();
                if (v > static_cast<std::uint64_t>(INT64_MAX)) {
                    unsigned_too_large(v);
                    return;
                }
                integer(*parent, static_cast<std::int64_t>(v));
                return;
            }
            case Json::value_t::string: {
                const auto& s = *j.template get_ptr<const string_t*>();
                header(bson_string, *parent);
                // int32 length counts the trailing NUL; bytes and NUL go out together from c_str()
                put(static_cast<std::int32_t>(s.size() + 1));
                sink_.write(reinterpret_cast<const std::uint8_t*>(s.c_str()), s.size() + 1);
                return;
            }
            case Json::value_t::binary: write_binary(j.get_binary(), *parent); return;
            default: return;  // discarded was refused by the check; containers go to open()
        }
    }

    [[gnu::always_inline]] bool open(const Json& j, frame_type& f, frame_type* parent) {
        std::int32_t length = 0;
        if constexpr (Patch) {
            bson_require_container_fits(j);  // the default mode's sizing pass has checked it
        } else {
            length = static_cast<std::int32_t>((*sizes_)[next_size_++]);
        }
        if (parent != nullptr) {
            header(f.is_object() ? bson_document : bson_array, *parent);
        }
        put(length);
        if constexpr (Patch) {
            f.aux = sink_.position() - 4;  // where the placeholder went
        }
        return true;
    }

    [[gnu::always_inline]] void member(frame_type& f, const Json&) {
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
            sink_.seek(static_cast<std::size_t>(f.aux));
            put(static_cast<std::int32_t>(length));
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
    /// A fixed-size field, little-endian (bsonspec.org: every number is), in one constant-size write.
    template <class T>
    [[gnu::always_inline]] void put(T v) {
        std::uint8_t buf[sizeof(T)];
        store_le(buf, v);
        sink_.write(buf, sizeof buf);
    }

    /// The element's type byte, e_name and its NUL (bsonspec.org "element"). A key goes out from
    /// c_str(), NUL included, after the type byte: one copy of a run-time length per key.
    [[gnu::always_inline]] void header(std::uint8_t type, const frame_type& parent) {
        if (parent.key != nullptr) {
            sink_.write(type);
            sink_.write(reinterpret_cast<const std::uint8_t*>(parent.key->c_str()), parent.key->size() + 1);
        } else {
            index_header(type, parent.index);
        }
    }

    /// An array element's header, built in a register and written with a size constant per digit
    /// count: no conversion call and no copy of a run-time length.
    [[gnu::always_inline]] void index_header(std::uint8_t type, std::size_t index) {
        index_.go_to(index);
        if (index_.digits() <= bson_index_name::word_digits) {
            std::uint8_t word[8];
            store_le(word, index_.header(type));
            switch (index_.digits()) {
                case 1: sink_.write(word, 3); return;
                case 2: sink_.write(word, 4); return;
                case 3: sink_.write(word, 5); return;
                case 4: sink_.write(word, 6); return;
                case 5: sink_.write(word, 7); return;
                default: sink_.write(word, 8); return;
            }
        }
        long_index_header(type, index);
    }

    void long_index_header(std::uint8_t type, std::size_t index) {
        char buf[24];
        buf[0] = static_cast<char>(type);
        char* const end = std::to_chars(buf + 1, buf + sizeof buf - 1, index).ptr;
        *end = '\0';
        sink_.write(reinterpret_cast<const std::uint8_t*>(buf), static_cast<std::size_t>(end + 1 - buf));
    }

    [[gnu::always_inline]] void integer(const frame_type& parent, std::int64_t v) {
        if (v >= INT32_MIN && v <= INT32_MAX) {
            header(bson_int32, parent);
            put(static_cast<std::int32_t>(v));
        } else {
            header(bson_int64, parent);
            put(v);
        }
    }

    void write_binary(const typename Json::binary_t& b, const frame_type& parent) {
        header(bson_binary, parent);
        put(static_cast<std::int32_t>(b.size()));
        // no subtype is written as 0x00, "Generic binary subtype"
        sink_.write(b.has_subtype() ? static_cast<std::uint8_t>(b.subtype()) : std::uint8_t{0});
        if (!b.empty()) {
            sink_.write(b.data(), b.size());
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
    const bson_sizes* sizes_;
    std::size_t next_size_ = 0;
    bson_index_name index_;
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
        detail::bson_sizes sizes;
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
    detail::bson_sizes sizes;
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
