// sinkcheck/format/bon8.hpp — BON8 encoder in the specification's canonical form.
//
// BON8 (hikoworks/hikogui docs/BON8.md, "revision C" in docs/formats.md#bon8) stores strings
// as bare UTF-8 and uses the bytes that cannot start a UTF-8 character as markers, so a string
// needs no length and usually no terminator. No nlohmann release writes BON8; where the
// specification is ambiguous this encoder follows nlohmann/json's page
// docs/mkdocs/docs/features/binary_formats/bon8.md, and each such choice is listed in
// reference/BON8_CHOICES.md. Checked by hand-derived vectors and by the decoder in
// bon8_decoder.hpp.
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

// BON8 single-byte markers (docs/BON8.md encoding table)
inline constexpr std::uint8_t bon8_array_count = 0x80;   // 0x80..0x84: array of 0..4 values
inline constexpr std::uint8_t bon8_array = 0x85;         // array ended by bon8_end
inline constexpr std::uint8_t bon8_object_count = 0x86;  // 0x86..0x8a: object of 0..4 members
inline constexpr std::uint8_t bon8_object = 0x8b;        // object ended by bon8_end
inline constexpr std::uint8_t bon8_int32 = 0x8c;
inline constexpr std::uint8_t bon8_int64 = 0x8d;
inline constexpr std::uint8_t bon8_binary32 = 0x8e;
inline constexpr std::uint8_t bon8_binary64 = 0x8f;
inline constexpr std::uint8_t bon8_false = 0xf8;
inline constexpr std::uint8_t bon8_true = 0xf9;
inline constexpr std::uint8_t bon8_null = 0xfa;
inline constexpr std::uint8_t bon8_minus_one = 0xfb;  // -1.0
inline constexpr std::uint8_t bon8_zero = 0xfc;       // +0.0
inline constexpr std::uint8_t bon8_one = 0xfd;        // +1.0
inline constexpr std::uint8_t bon8_end = 0xfe;        // end of container (eoc)
inline constexpr std::uint8_t bon8_eos = 0xff;        // end of string; alone, the empty string

/// Containers of up to this many elements carry their count in the marker and need no end.
inline constexpr std::size_t bon8_max_counted = 4;

/// The first value of each short integer range: one byte covers -10..39; the 2-, 3- and 4-byte
/// forms each start where the shorter one ends (docs/BON8.md table: 40..3879, 3880..528167,
/// 528168..67637031 and -11..-1930, -1931..-264074, -264075..-33818506). Ambiguity: older
/// revisions of the table show the same bit layouts without these offsets; the offset form is
/// the one the current table, HikoGUI and nlohmann's page use (BON8_CHOICES.md).
inline constexpr std::int64_t bon8_pos2 = 40;
inline constexpr std::int64_t bon8_pos3 = 3880;
inline constexpr std::int64_t bon8_pos4 = 528168;
inline constexpr std::int64_t bon8_pos_max = 67637031;
inline constexpr std::int64_t bon8_neg2 = -11;
inline constexpr std::int64_t bon8_neg3 = -1931;
inline constexpr std::int64_t bon8_neg4 = -264075;
inline constexpr std::int64_t bon8_neg_max = -33818506;

/// Stores the shortest BON8 encoding of v at out (at most 9 bytes); returns its length.
/// A 2-4 byte integer starts with a UTF-8 lead byte (0xc2.., 0xe0.., 0xf0..) followed by a byte
/// that cannot continue a character: 0x00..0x7f for positive, 0xc0..0xff for negative values,
/// so a decoder tells it from a string by its second byte.
inline std::size_t bon8_store_integer(std::uint8_t* out, std::int64_t v) noexcept {
    auto byte = [](std::uint64_t x) { return static_cast<std::uint8_t>(x & 0xff); };
    if (v < INT32_MIN || v > INT32_MAX) {
        out[0] = bon8_int64;
        return 1 + store_be(out + 1, v);
    }
    if (v < bon8_neg_max || v > bon8_pos_max) {
        out[0] = bon8_int32;
        return 1 + store_be(out + 1, static_cast<std::int32_t>(v));
    }
    if (v >= 0) {
        if (v < bon8_pos2) {
            out[0] = byte(0x90 + static_cast<std::uint64_t>(v));
            return 1;
        }
        if (v < bon8_pos3) {  // 5 + 7 bits
            const auto u = static_cast<std::uint64_t>(v - bon8_pos2);
            out[0] = byte(0xc2 + (u >> 7));
            out[1] = byte(u & 0x7f);
            return 2;
        }
        if (v < bon8_pos4) {  // 4 + 7 + 8 bits
            const auto u = static_cast<std::uint64_t>(v - bon8_pos3);
            out[0] = byte(0xe0 + (u >> 15));
            out[1] = byte((u >> 8) & 0x7f);
            out[2] = byte(u);
            return 3;
        }
        const auto u = static_cast<std::uint64_t>(v - bon8_pos4);  // 3 + 7 + 8 + 8 bits
        out[0] = byte(0xf0 + (u >> 23));
        out[1] = byte((u >> 16) & 0x7f);
        out[2] = byte(u >> 8);
        out[3] = byte(u);
        return 4;
    }
    if (v > bon8_neg2) {  // -1..-10
        out[0] = byte(0xb8 + static_cast<std::uint64_t>(-1 - v));
        return 1;
    }
    if (v > bon8_neg3) {  // 5 + 6 bits
        const auto u = static_cast<std::uint64_t>(bon8_neg2 - v);
        out[0] = byte(0xc2 + (u >> 6));
        out[1] = byte(0xc0 + (u & 0x3f));
        return 2;
    }
    if (v > bon8_neg4) {  // 4 + 6 + 8 bits
        const auto u = static_cast<std::uint64_t>(bon8_neg3 - v);
        out[0] = byte(0xe0 + (u >> 14));
        out[1] = byte(0xc0 + ((u >> 8) & 0x3f));
        out[2] = byte(u);
        return 3;
    }
    const auto u = static_cast<std::uint64_t>(bon8_neg4 - v);  // 3 + 6 + 8 + 8 bits
    out[0] = byte(0xf0 + (u >> 22));
    out[1] = byte(0xc0 + ((u >> 16) & 0x3f));
    out[2] = byte(u >> 8);
    out[3] = byte(u);
    return 4;
}

/// The walker handler that writes BON8; see walk.hpp for the protocol.
template <class Json, class Sink>
class bon8_writer {
public:
    using frame_type = frame<Json>;
    using string_t = typename Json::string_t;

    explicit bon8_writer(Sink& sink) noexcept : sink_(sink) {}

    std::size_t position() const { return sink_.position(); }

    void value(const Json& j, frame_type*) {
        switch (j.type()) {
            case Json::value_t::null: marker(bon8_null); return;
            case Json::value_t::boolean: marker(j.template get<bool>() ? bon8_true : bon8_false); return;
            case Json::value_t::number_integer: integer(j.template get<std::int64_t>()); return;
            case Json::value_t::number_unsigned: {
                const auto v = j.template get<std::uint64_t>();
                if (v > static_cast<std::uint64_t>(INT64_MAX)) {
                    // BON8's widest integer is int64 (docs/BON8.md table, 0x8d); same id as
                    // nlohmann 3.11.2 uses for BSON
                    throw out_of_range(error_id::unsigned_too_large,
                                       "integer " + std::to_string(v) + " does not fit BON8's widest integer, int64");
                }
                integer(static_cast<std::int64_t>(v));
                return;
            }
            case Json::value_t::number_float: write_float(j.template get<double>()); return;
            case Json::value_t::string: text(j.template get_ref<const string_t&>(), "string"); return;
            case Json::value_t::binary: write_binary(j.get_binary()); return;
            case Json::value_t::discarded:
                throw type_error(error_id::discarded_value, "a discarded value has no BON8 encoding");
            case Json::value_t::array:
            case Json::value_t::object: return;  // the walker calls open() for these
        }
    }

    bool open(const Json& j, frame_type&, frame_type*) {
        const std::size_t n = j.size();
        container(j.is_array() ? bon8_array_count : bon8_object_count, j.is_array() ? bon8_array : bon8_object, n);
        return n != 0;
    }

    void member(frame_type& f, const Json&) {
        if (f.key != nullptr) {
            text(*f.key, "object key");
        }
    }

    void close(frame_type& f) {
        if (f.node->size() > bon8_max_counted) {
            marker(bon8_end);
        }
    }

    /// docs/BON8.md: a string MUST end with eos "if there are no more bytes left in the message".
    void finish() {
        if (string_open_) {
            sink_.write(bon8_eos);
            string_open_ = false;
        }
    }

private:
    void marker(std::uint8_t b) {
        sink_.write(b);
        string_open_ = false;
    }

    void container(std::uint8_t counted, std::uint8_t open_ended, std::size_t n) {
        marker(n <= bon8_max_counted ? static_cast<std::uint8_t>(counted + n) : open_ended);
    }

    void integer(std::int64_t v) {
        std::uint8_t buf[9];
        sink_.write(buf, bon8_store_integer(buf, v));
        string_open_ = false;
    }

    // docs/BON8.md canonical rules: -1.0, +0.0 and +1.0 take one byte; -0.0, ±Inf and NaN MUST be
    // binary32, NaN "should" be 0x7f800001 (its sign and payload are dropped); a double that
    // converts to binary32 "without loss of precision or range" MUST be binary32 (an exact round
    // trip: one revision allowed a 1-ULP loss, nlohmann's page and the current text do not).
    void write_float(double d) {
        if (d == -1.0) {
            marker(bon8_minus_one);
        } else if (d == 0.0 && !std::signbit(d)) {
            marker(bon8_zero);
        } else if (d == 1.0) {
            marker(bon8_one);
        } else if (std::isnan(d)) {
            static constexpr std::uint8_t nan[5] = {bon8_binary32, 0x7f, 0x80, 0x00, 0x01};
            sink_.write(nan, 5);
        } else if (fits_float32(d) || std::isinf(d)) {
            put_marker_be(sink_, bon8_binary32, static_cast<float>(d));
        } else {
            put_marker_be(sink_, bon8_binary64, d);
        }
        string_open_ = false;
    }

    // docs/BON8.md: strings MUST be valid UTF-8 (a decoder finds a string's end from its lead
    // bytes, so invalid bytes would be read as markers). A string MUST end with eos when it is
    // empty or "the next byte in the message starts another string": decided byte by byte, so
    // the eos is written when a string follows the open one, whatever the nesting between them
    // (["a"] then "b" in [["a"],"b"] needs it too). Strings are not normalised to NFC.
    void text(const string_t& s, const char* what) {
        require_utf8(s, what);
        if (s.empty()) {
            if (string_open_) {
                static constexpr std::uint8_t close_and_empty[2] = {bon8_eos, bon8_eos};
                sink_.write(close_and_empty, 2);
                string_open_ = false;
            } else {
                sink_.write(bon8_eos);
            }
            return;
        }
        if (string_open_) {
            sink_.write(bon8_eos);
        }
        sink_.write(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
        string_open_ = true;
    }

    // BON8 has no binary type: as nlohmann's page says, an array of the byte values (integers
    // 0..255), subtype dropped; decoded back it is an array.
    void write_binary(const typename Json::binary_t& b) {
        container(bon8_array_count, bon8_array, b.size());
        for (const auto byte : b) {
            integer(static_cast<std::uint8_t>(byte));
        }
        if (b.size() > bon8_max_counted) {
            marker(bon8_end);
        }
    }

    Sink& sink_;
    /// The output ends with a non-empty string that no eos has closed yet.
    bool string_open_ = false;
};

}  // namespace detail

/// Writes j as one BON8 message to sink. Throws out_of_range.407 for an unsigned integer above
/// INT64_MAX, type_error.316 for a string or key that is not UTF-8, type_error.901 for a
/// discarded value, each with the JSON pointer. Object members are written in the object's own
/// order: sorted bytewise for nlohmann::json (the canonical order), insertion order for
/// ordered_json.
template <class Json, class Sink>
void encode_bon8(const Json& j, Sink& sink, const encode_options& options = {}) {
    detail::bon8_writer<Json, Sink> writer(sink);
    detail::walker<Json> walk;
    walk.run(j, writer, options.marks);
    writer.finish();
}

/// BON8 has no nlohmann 3.11.2 oracle, so nothing can diverge from one.
template <class Json>
const char* bon8_divergence(const Json&, const encode_options& = {}) {
    return nullptr;
}

}  // namespace sinkcheck
