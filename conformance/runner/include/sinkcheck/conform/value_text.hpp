// sinkcheck/conform/value_text.hpp — the value notation of the conformance corpus and protocol.
//
// JSON text cannot hold everything an encoder must be tested on (binary with a subtype, NaN
// with a payload, ±Inf, invalid UTF-8, nlohmann's discarded value), so vectors are written in
// JSON plus a few extensions, documented in corpus/conformance/README.md. The parser is
// iterative (a vector may nest thousands of levels) and produces two things at once: the value
// in nlohmann's model, and the *wire text* handed to encoder processes — the same notation with
// repetitions expanded but every literal spelled as written, so an encoder with a richer value
// model (Python: big integers, insertion-ordered dicts) sees exactly what the vector says.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace sinkcheck::conform {

/// A syntax error in value notation; offset is the byte in the text where it was found.
class notation_error : public std::runtime_error {
public:
    notation_error(const std::string& message, std::size_t offset) : std::runtime_error(message), offset_(offset) {}
    std::size_t offset() const noexcept { return offset_; }

private:
    std::size_t offset_;
};

struct parsed_value {
    nlohmann::json value;
    /// Repetitions expanded, whitespace dropped, every other token as written.
    std::string wire;
    /// True when wire is RFC 8259 JSON (no extension token, no \x escape).
    bool plain_json = true;
};

struct parse_limits {
    /// Allow the corpus-only repetition suffix `*N` (never in wire text).
    bool allow_repeat = true;
    /// Upper bound on the wire text a repetition may expand to.
    std::size_t max_wire_bytes = std::size_t{1} << 24;
    /// Upper bound on what repetitions create, counted in elements (array elements, object
    /// members, string and byte-string copies), summed over the value: bytes alone do not
    /// bound the work, `[""]*8333833` is 8.3 million values in 16 MiB of wire text. The corpus
    /// repeats at most 65,538 times.
    std::size_t max_repeated_elements = std::size_t{1} << 20;
    /// false: the value alone is wanted, and without repetitions parsed_value::wire is left
    /// empty (an encoder reading its request needs no copy of the text).
    bool want_wire = true;
};

/// Parses one value in the notation; throws notation_error. The whole text is checked before
/// any repetition is expanded, so an error after a large repetition costs nothing.
parsed_value parse_value(std::string_view text, const parse_limits& limits = {});

/// Renders a value in wire notation (keys in the value's own order). Never throws for any
/// nlohmann::json; stops after max_bytes and appends "..." (0: no limit). Iterative.
std::string render_value(const nlohmann::json& value, std::size_t max_bytes = 0);

/// What parse_value(render_value(value)) gives — the same value, number types and wire text —
/// without reading the text back: render_value writes wire text as it is (no repetition, no
/// white space), every double in digits that read back to its bits, and the one thing reading
/// changes is that a non-negative signed integer comes back unsigned (nlohmann's model).
/// Generated values take this path, one parse per value fewer.
parsed_value rendered_value(nlohmann::json value);

/// How the JSON notation spells a double (docs/conformance.md, "The protocol").
enum class json_floats {
    /// Readable, in the shortest digits that read back to the same bits: a non-integral finite
    /// double as a JSON number, an integral one as {"$float": "1.0"}, NaN and infinities as
    /// "nan", "inf", "-inf", other NaNs by their bits. What `corpus export` writes, and
    /// `conform --notation json-decimal` sends; exact in a reader whose parser rounds correctly.
    decimal,
    /// Every double as {"$float": "0x" and its 16 hex bits}, no JSON number with a fraction or
    /// an exponent: exact in any reader, also one whose decimal parsing does not round correctly
    /// (Perl's JSON::XS). What `conform --notation json` sends.
    bits,
};

/// The value notation as JSON text (docs/cli.md, "Values JSON text cannot hold"): what the
/// CLI reads and prints and what `sinkcheck corpus export` writes. to_json_notation converts
/// wire text (as parse_value makes it) to compact JSON text keeping everything the wire says:
/// key order as written, strings and keys that are not UTF-8, integers beyond 2^53, doubles
/// with integral values. Throws notation_error only for text parse_value would not make.
std::string to_json_notation(std::string_view wire, json_floats floats = json_floats::decimal);

/// The value of one hex digit (either case), or -1.
int hex_digit(char c) noexcept;

/// The reverse: a parsed JSON document in the notation to wire text, which parse_value reads
/// to the value the notation describes. Throws notation_error naming the JSON pointer of a
/// malformed notation object. Iterative.
std::string from_json_notation(const nlohmann::json& value);

}  // namespace sinkcheck::conform
