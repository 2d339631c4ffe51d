// sinkcheck/format/cbor.hpp — CBOR (RFC 8949) encoder, byte-identical to nlohmann 3.11.2 to_cbor.
//
// The reference every sink is checked against has to write exactly what 3.11.2 writes, quirks
// included (docs/formats.md#cbor): shortest heads for integers and lengths, definite lengths
// only, binary32 only when the double survives the round trip, half precision only for NaN and
// ±Inf, binary subtypes as a tag whose head is never shorter than two bytes. Where 3.11.2 writes
// bytes that are not valid CBOR (text that is not UTF-8, a discarded value inside a counted
// container) this encoder throws instead: reference/KNOWN_DIVERGENCES.md (CBOR).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "sinkcheck/detail/bytes.hpp"
#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/detail/walk.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/options.hpp"

namespace sinkcheck {
namespace detail {

inline constexpr std::uint8_t cbor_unsigned = 0x00;  // RFC 8949 §3.1 major type 0
inline constexpr std::uint8_t cbor_negative = 0x20;  // major type 1: value is -1 - argument
inline constexpr std::uint8_t cbor_bytes = 0x40;     // major type 2
inline constexpr std::uint8_t cbor_text = 0x60;      // major type 3
inline constexpr std::uint8_t cbor_array = 0x80;     // major type 4
inline constexpr std::uint8_t cbor_map = 0xa0;       // major type 5
inline constexpr std::uint8_t cbor_tag = 0xc0;       // major type 6

/// Stores the shortest head for (major, n) at out (RFC 8949 §3, §4.1); returns its length.
inline std::size_t cbor_store_head(std::uint8_t* out, std::uint8_t major, std::uint64_t n) noexcept {
    if (n < 24) {
        out[0] = static_cast<std::uint8_t>(major | n);
        return 1;
    }
    if (n <= 0xff) {
        out[0] = static_cast<std::uint8_t>(major | 24);
        out[1] = static_cast<std::uint8_t>(n);
        return 2;
    }
    if (n <= 0xffff) {
        out[0] = static_cast<std::uint8_t>(major | 25);
        return 1 + store_be(out + 1, static_cast<std::uint16_t>(n));
    }
    if (n <= 0xffffffff) {
        out[0] = static_cast<std::uint8_t>(major | 26);
        return 1 + store_be(out + 1, static_cast<std::uint32_t>(n));
    }
    out[0] = static_cast<std::uint8_t>(major | 27);
    return 1 + store_be(out + 1, n);
}

/// The tag that carries a binary subtype. nlohmann 3.11.2 quirk: subtypes 0..23 get the
/// two-byte head d8 xx, not the one-byte c0+xx that RFC 8949 §4.1 preferred serialization asks
/// for; from 256 up the head is the shortest one anyway.
inline std::size_t cbor_store_subtype_tag(std::uint8_t* out, std::uint64_t subtype) noexcept {
    if (subtype < 24) {
        out[0] = static_cast<std::uint8_t>(cbor_tag | 24);
        out[1] = static_cast<std::uint8_t>(subtype);
        return 2;
    }
    return cbor_store_head(out, cbor_tag, subtype);
}

/// The walker handler that writes CBOR; see walk.hpp for the protocol. The handler's hot
/// functions are inlined by force into the walker's loop: out of line, their entry and exit cost
/// about a fifth of a CBOR encode's instructions (callgrind), and GCC's unit-growth limit decides
/// differently depending on what else the translation unit holds.
template <class Json, class Sink>
class cbor_writer {
public:
    using frame_type = frame<Json>;
    using string_t = typename Json::string_t;

    explicit cbor_writer(Sink& sink) noexcept : sink_(sink) {}

    std::size_t position() const { return sink_.position(); }

    [[gnu::always_inline]] void value(const Json& j, frame_type*) {
        switch (j.type()) {
            case Json::value_t::null: sink_.write(std::uint8_t{0xf6}); return;
            case Json::value_t::boolean:
                sink_.write(*j.template get_ptr<const typename Json::boolean_t*>() ? std::uint8_t{0xf5}
                                                                                   : std::uint8_t{0xf4});
                return;
            case Json::value_t::number_integer: {
                const auto v = *j.template get_ptr<const typename Json::number_integer_t*>();
                // -1 - v cannot overflow for any int64 v, INT64_MIN included
                head(v >= 0 ? cbor_unsigned : cbor_negative,
                     v >= 0 ? static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(-1 - v));
                return;
            }
            case Json::value_t::number_unsigned:
                head(cbor_unsigned, *j.template get_ptr<const typename Json::number_unsigned_t*>());
                return;
            case Json::value_t::number_float:
                write_float(*j.template get_ptr<const typename Json::number_float_t*>());
                return;
            case Json::value_t::string: text(*j.template get_ptr<const string_t*>(), "string"); return;
            case Json::value_t::binary: write_binary(j.get_binary()); return;
            case Json::value_t::discarded:
                // nlohmann 3.11.2 writes nothing, so the enclosing array or map comes out one item
                // short (RFC 8949 §3.1: a count is the number of data items that follow)
                throw type_error(error_id::discarded_value, "a discarded value has no CBOR encoding");
            case Json::value_t::array:
            case Json::value_t::object: return;  // the walker calls open() for these
        }
    }

    [[gnu::always_inline]] bool open(const Json& j, frame_type&, frame_type*) {
        const std::size_t n = j.size();
        head(j.is_array() ? cbor_array : cbor_map, n);
        return n != 0;
    }

    [[gnu::always_inline]] void member(frame_type& f, const Json&) {
        if (f.key != nullptr) {
            text(*f.key, "object key");
        }
    }

    void close(frame_type&) noexcept {}

private:
    // Each width writes a constant number of bytes (bytes.hpp: put_marker), so the sink's copy
    // is a few moves rather than a call to memcpy with a run-time length.
    [[gnu::always_inline]] void head(std::uint8_t major, std::uint64_t n) {
        if (n < 24) {
            sink_.write(static_cast<std::uint8_t>(major | n));
        } else if (n <= 0xff) {
            put_marker_be(sink_, static_cast<std::uint8_t>(major | 24), static_cast<std::uint8_t>(n));
        } else if (n <= 0xffff) {
            put_marker_be(sink_, static_cast<std::uint8_t>(major | 25), static_cast<std::uint16_t>(n));
        } else if (n <= 0xffffffff) {
            put_marker_be(sink_, static_cast<std::uint8_t>(major | 26), static_cast<std::uint32_t>(n));
        } else {
            put_marker_be(sink_, static_cast<std::uint8_t>(major | 27), n);
        }
    }

    [[gnu::always_inline]] void write_float(double d) {
        if (fits_float32(d)) {
            put_marker_be(sink_, 0xfa, static_cast<float>(d));
        } else if (std::isnan(d)) {
            // nlohmann 3.11.2 writes every NaN as the half-precision quiet NaN, dropping sign and
            // payload (RFC 8949 §4.2.2 allows that single representation)
            static constexpr std::uint8_t nan[3] = {0xf9, 0x7e, 0x00};
            sink_.write(nan, 3);
        } else if (std::isinf(d)) {
            static constexpr std::uint8_t pos_inf[3] = {0xf9, 0x7c, 0x00};
            static constexpr std::uint8_t neg_inf[3] = {0xf9, 0xfc, 0x00};
            sink_.write(d > 0 ? pos_inf : neg_inf, 3);
        } else {
            put_marker_be(sink_, 0xfb, d);
        }
    }

    // RFC 8949 §3.1: major type 3 is UTF-8 text; nlohmann 3.11.2 copies any bytes (invalid-utf8)
    [[gnu::always_inline]] void text(const string_t& s, const char* what) {
        if constexpr (lends_room<Sink>::value) {
            if (s.size() >= utf8_copy_from) {
                std::uint8_t h[9];
                if (write_text_in_room(sink_, h, cbor_store_head(h, cbor_text, s.size()), s, what)) {
                    return;
                }
            }
        }
        require_utf8(s, what);
        head(cbor_text, s.size());
        if (!s.empty()) {
            sink_.write(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
        }
    }

    void write_binary(const typename Json::binary_t& b) {
        std::uint8_t buf[18];
        std::size_t n = b.has_subtype() ? cbor_store_subtype_tag(buf, b.subtype()) : 0;
        n += cbor_store_head(buf + n, cbor_bytes, b.size());
        sink_.write(buf, n);
        if (!b.empty()) {
            sink_.write(b.data(), b.size());
        }
    }

    Sink& sink_;
};

}  // namespace detail

/// Writes j as CBOR to sink, byte for byte what nlohmann 3.11.2 to_cbor writes, except for the
/// divergences cbor_divergence() names, which throw encode_error (with the JSON pointer).
template <class Json, class Sink>
void encode_cbor(const Json& j, Sink& sink, const encode_options& options = {}) {
    detail::cbor_writer<Json, Sink> writer(sink);
    detail::walker<Json> walk;
    walk.run(j, writer, options.marks);
}

/// The KNOWN_DIVERGENCES id that applies to j in CBOR ("invalid-utf8", "discarded-value"), or
/// nullptr when encode_cbor writes what 3.11.2 writes. When several apply, the id of the error
/// encode_cbor throws: the first offending node in writing order, a key before its value.
template <class Json>
const char* cbor_divergence(const Json& j, const encode_options& = {}) {
    const char* id = nullptr;
    detail::any_node(j, [&id](const Json& node, const typename Json::string_t* key) {
        if ((key != nullptr && detail::utf8_invalid_at(*key) != detail::utf8_valid) ||
            (node.is_string() &&
             detail::utf8_invalid_at(node.template get_ref<const typename Json::string_t&>()) != detail::utf8_valid)) {
            id = "invalid-utf8";
        } else if (node.is_discarded()) {
            id = "discarded-value";
        }
        return id != nullptr;
    });
    return id;
}

}  // namespace sinkcheck
