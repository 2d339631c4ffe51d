// sinkcheck/format/msgpack.hpp — MessagePack encoder, byte-identical to nlohmann 3.11.2 to_msgpack.
//
// The reference every sink is checked against has to write exactly what 3.11.2 writes, quirks
// included (docs/formats.md#messagepack): the unsigned family for every non-negative integer, binary32
// only when the double survives the round trip (NaN and ±Inf keep their 64 bits), str8 for
// 32..255 bytes, fixext for payloads of 1, 2, 4, 8 and 16 bytes. Where 3.11.2 writes bytes that do
// not decode to the value (non-UTF-8 str, discarded values, a subtype cut to 8 bits, a length
// that has no 32-bit field) this encoder throws instead: reference/KNOWN_DIVERGENCES.md (MessagePack).
#pragma once

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

/// The markers of one MessagePack length family (MessagePack spec "Overview"): a fix form for
/// lengths below fix_limit (0: none), then 8-bit (0: none), 16-bit and 32-bit length fields.
struct msgpack_family {
    std::uint8_t fix;
    std::uint8_t fix_limit;
    std::uint8_t len8;
    std::uint8_t len16;
    std::uint8_t len32;
    const char* name;
};

inline constexpr msgpack_family msgpack_str{0xa0, 32, 0xd9, 0xda, 0xdb, "str"};
inline constexpr msgpack_family msgpack_array{0x90, 16, 0, 0xdc, 0xdd, "array"};
inline constexpr msgpack_family msgpack_map{0x80, 16, 0, 0xde, 0xdf, "map"};
inline constexpr msgpack_family msgpack_bin{0, 0, 0xc4, 0xc5, 0xc6, "bin"};
inline constexpr msgpack_family msgpack_ext{0, 0, 0xc7, 0xc8, 0xc9, "ext"};

/// nlohmann 3.11.2 writes no head at all for a length beyond 32 bits and goes on with the
/// payload (msgpack-length-overflow); out of line, so the length ladder stays small enough to
/// inline.
[[noreturn]] inline void msgpack_length_overflow(const msgpack_family& f, std::uint64_t n) {
    throw out_of_range(error_id::length_too_large, std::string("MessagePack ") + f.name + " length " +
                                                       std::to_string(n) + " does not fit the 32-bit length field");
}

/// Stores the shortest head of family f for length n at out; returns its length. A length that
/// needs more than 32 bits throws out_of_range 903.
inline std::size_t msgpack_store_length(std::uint8_t* out, const msgpack_family& f, std::uint64_t n) {
    if (n < f.fix_limit) {
        out[0] = static_cast<std::uint8_t>(f.fix | n);
        return 1;
    }
    if (f.len8 != 0 && n <= 0xff) {
        out[0] = f.len8;
        out[1] = static_cast<std::uint8_t>(n);
        return 2;
    }
    if (n <= 0xffff) {
        out[0] = f.len16;
        return 1 + store_be(out + 1, static_cast<std::uint16_t>(n));
    }
    if (n <= 0xffffffff) {
        out[0] = f.len32;
        return 1 + store_be(out + 1, static_cast<std::uint32_t>(n));
    }
    msgpack_length_overflow(f, n);
}

/// fixext 1/2/4/8/16 (d4..d8) for the payload sizes that have one, else 0.
inline std::uint8_t msgpack_fixext(std::size_t n) noexcept {
    switch (n) {
        case 1: return 0xd4;
        case 2: return 0xd5;
        case 4: return 0xd6;
        case 8: return 0xd7;
        case 16: return 0xd8;
        default: return 0;
    }
}

/// The walker handler that writes MessagePack; see walk.hpp for the protocol. Its hot functions
/// are inlined by force into the walker's loop, for the reason cbor_writer gives.
template <class Json, class Sink>
class msgpack_writer {
public:
    using frame_type = frame<Json>;
    using string_t = typename Json::string_t;

    explicit msgpack_writer(Sink& sink) noexcept : sink_(sink) {}

    std::size_t position() const { return sink_.position(); }

    [[gnu::always_inline]] void value(const Json& j, frame_type*) {
        switch (j.type()) {
            case Json::value_t::null: sink_.write(std::uint8_t{0xc0}); return;
            case Json::value_t::boolean:
                sink_.write(*j.template get_ptr<const typename Json::boolean_t*>() ? std::uint8_t{0xc3}
                                                                                   : std::uint8_t{0xc2});
                return;
            case Json::value_t::number_integer: {
                const auto v = *j.template get_ptr<const typename Json::number_integer_t*>();
                // nlohmann 3.11.2: non-negative int64 takes the uint family (MessagePack spec
                // lets the encoder choose; both decode to the same integer)
                if (v >= 0) {
                    write_unsigned(static_cast<std::uint64_t>(v));
                } else {
                    write_negative(v);
                }
                return;
            }
            case Json::value_t::number_unsigned:
                write_unsigned(*j.template get_ptr<const typename Json::number_unsigned_t*>());
                return;
            case Json::value_t::number_float: {
                // nlohmann 3.11.2: float 32 when exact; NaN and ±Inf fail the range test and keep
                // all 64 bits (sign and payload) as float 64
                const double d = *j.template get_ptr<const typename Json::number_float_t*>();
                if (fits_float32(d)) {
                    put_marker_be(sink_, 0xca, static_cast<float>(d));
                } else {
                    put_marker_be(sink_, 0xcb, d);
                }
                return;
            }
            case Json::value_t::string: text(*j.template get_ptr<const string_t*>(), "string"); return;
            case Json::value_t::binary: write_binary(j.get_binary()); return;
            case Json::value_t::discarded:
                // nlohmann 3.11.2 writes nothing, so the enclosing array or map comes out one
                // element short (MessagePack spec: N is the number of elements that follow)
                throw type_error(error_id::discarded_value, "a discarded value has no MessagePack encoding");
            case Json::value_t::array:
            case Json::value_t::object: return;  // the walker calls open() for these
        }
    }

    [[gnu::always_inline]] bool open(const Json& j, frame_type&, frame_type*) {
        const std::size_t n = j.size();
        length(j.is_array() ? msgpack_array : msgpack_map, n);
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
    // is a few moves rather than a call to memcpy with a run-time length. Inlined by force: the
    // family is then a constant and the ladder folds to the forms it can take.
    [[gnu::always_inline]] void length(const msgpack_family& f, std::size_t n) {
        if (n < f.fix_limit) {
            sink_.write(static_cast<std::uint8_t>(f.fix | n));
        } else if (f.len8 != 0 && n <= 0xff) {
            put_marker_be(sink_, f.len8, static_cast<std::uint8_t>(n));
        } else if (n <= 0xffff) {
            put_marker_be(sink_, f.len16, static_cast<std::uint16_t>(n));
        } else if (n <= 0xffffffff) {
            put_marker_be(sink_, f.len32, static_cast<std::uint32_t>(n));
        } else {
            msgpack_length_overflow(f, n);
        }
    }

    [[gnu::always_inline]] void write_unsigned(std::uint64_t u) {
        if (u < 0x80) {
            sink_.write(static_cast<std::uint8_t>(u));  // positive fixint
        } else if (u <= 0xff) {
            put_marker_be(sink_, 0xcc, static_cast<std::uint8_t>(u));
        } else if (u <= 0xffff) {
            put_marker_be(sink_, 0xcd, static_cast<std::uint16_t>(u));
        } else if (u <= 0xffffffff) {
            put_marker_be(sink_, 0xce, static_cast<std::uint32_t>(u));
        } else {
            put_marker_be(sink_, 0xcf, u);
        }
    }

    [[gnu::always_inline]] void write_negative(std::int64_t v) {
        if (v >= -32) {
            sink_.write(static_cast<std::uint8_t>(v));  // negative fixint 111xxxxx
        } else if (v >= INT8_MIN) {
            put_marker_be(sink_, 0xd0, static_cast<std::int8_t>(v));
        } else if (v >= INT16_MIN) {
            put_marker_be(sink_, 0xd1, static_cast<std::int16_t>(v));
        } else if (v >= INT32_MIN) {
            put_marker_be(sink_, 0xd2, static_cast<std::int32_t>(v));
        } else {
            put_marker_be(sink_, 0xd3, v);
        }
    }

    // MessagePack spec: str holds UTF-8; nlohmann 3.11.2 copies any bytes (invalid-utf8)
    [[gnu::always_inline]] void text(const string_t& s, const char* what) {
        if constexpr (lends_room<Sink>::value) {
            // a length beyond 32 bits is refused after the UTF-8 check, by length()
            if (s.size() >= utf8_copy_from && s.size() <= 0xffffffff) {
                std::uint8_t h[5];
                if (write_text_in_room(sink_, h, msgpack_store_length(h, msgpack_str, s.size()), s, what)) {
                    return;
                }
            }
        }
        require_utf8(s, what);
        length(msgpack_str, s.size());
        if (!s.empty()) {
            sink_.write(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
        }
    }

    void write_binary(const typename Json::binary_t& b) {
        std::uint8_t buf[6];
        std::size_t n = 0;
        if (!b.has_subtype()) {
            n = msgpack_store_length(buf, msgpack_bin, b.size());
        } else {
            // MessagePack spec: the ext type is one signed byte. nlohmann 3.11.2 writes the low 8
            // bits of any subtype; 128..255 come out as -128..-1 and read back as 128..255, but
            // 256 and up lose bits (msgpack-ext-subtype-truncated), so they throw.
            if (b.subtype() > 0xff) {
                throw out_of_range(error_id::subtype_too_large, "binary subtype " + std::to_string(b.subtype()) +
                                                                    " does not fit MessagePack's 8-bit ext type");
            }
            if (const std::uint8_t fixext = msgpack_fixext(b.size()); fixext != 0) {
                buf[n++] = fixext;
            } else {
                // nlohmann 3.11.2 quirk: an empty payload is ext 8 "c7 00 tt" (no fixext 0 exists)
                n = msgpack_store_length(buf, msgpack_ext, b.size());
            }
            buf[n++] = static_cast<std::uint8_t>(b.subtype());
        }
        sink_.write(buf, n);
        if (!b.empty()) {
            sink_.write(b.data(), b.size());
        }
    }

    Sink& sink_;
};

}  // namespace detail

/// Writes j as MessagePack to sink, byte for byte what nlohmann 3.11.2 to_msgpack writes, except
/// for the divergences msgpack_divergence() names, which throw encode_error (with the pointer).
template <class Json, class Sink>
void encode_msgpack(const Json& j, Sink& sink, const encode_options& options = {}) {
    detail::msgpack_writer<Json, Sink> writer(sink);
    detail::walker<Json> walk;
    walk.run(j, writer, options.marks);
}

/// The KNOWN_DIVERGENCES id that applies to j in MessagePack ("invalid-utf8", "discarded-value",
/// "msgpack-ext-subtype-truncated", "msgpack-length-overflow"), or nullptr when encode_msgpack
/// writes what 3.11.2 writes. When several apply, the id of the error encode_msgpack throws: the
/// first offending node in writing order, a key before its value.
template <class Json>
const char* msgpack_divergence(const Json& j, const encode_options& = {}) {
    constexpr std::uint64_t max_length = 0xffffffff;
    const char* id = nullptr;
    detail::any_node(j, [&id](const Json& node, const typename Json::string_t* key) {
        const auto invalid_text = [](const typename Json::string_t& s) {
            return detail::utf8_invalid_at(s) != detail::utf8_valid;
        };
        const bool container = node.is_array() || node.is_object();
        if (key != nullptr && invalid_text(*key)) {
            id = "invalid-utf8";
        } else if ((key != nullptr && key->size() > max_length) || (container && node.size() > max_length)) {
            id = "msgpack-length-overflow";
        } else if (node.is_string()) {
            const auto& s = node.template get_ref<const typename Json::string_t&>();
            id = invalid_text(s) ? "invalid-utf8" : s.size() > max_length ? "msgpack-length-overflow" : nullptr;
        } else if (node.is_binary()) {
            const auto& b = node.get_binary();
            id = b.has_subtype() && b.subtype() > 0xff ? "msgpack-ext-subtype-truncated"
                 : b.size() > max_length               ? "msgpack-length-overflow"
                                                       : nullptr;
        } else if (node.is_discarded()) {
            id = "discarded-value";
        }
        return id != nullptr;
    });
    return id;
}

}  // namespace sinkcheck
