// sinkcheck/conform/decode.hpp — annotated decoding of encoder output, and value equivalence.
//
// A failing vector is shown as an item-by-item decode of both byte strings, so the reader sees
// *which* item differs, not only where. The decoders here are strict, iterative and bounded
// (no recursion, counts checked against the bytes left), because they read whatever a hostile
// encoder wrote; they also guard nlohmann's readers, which recurse and trust counts.
//
// Equivalence ("pass-equivalent"): both byte strings decode to equal values. The value comes
// from nlohmann 3.11.2's reader (CBOR tags kept as binary subtypes), from sinkcheck's BON8
// decoder for BON8, and from the decoder here where 3.11.2 cannot be trusted with the bytes:
// it rejects the one-byte tag heads c0-c5 and d5-d7 and drops c6-d4 (RFC 8949 preferred
// serialization for tags 0..23), wraps CBOR negative integers below INT64_MIN to 0, and
// recurses (values deeper than 256 levels). The value is then put in the format's own data model:
// a CBOR bignum (tag 2 or 3) and a major type 0 or 1 integer of the same value are one number
// (RFC 8949 §3.4.3), so they decode to one form (docs/formats.md, per format: what counts as the
// same value).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/options.hpp"
#include "sinkcheck/testkit/same_value.hpp"

namespace sinkcheck::conform {

/// What an item is to the value it belongs to. The items of two encodings of a value are
/// paired value by value with it (run.cpp: the difference classes, the marked item).
enum class item_role : std::uint8_t {
    head,    // the first item of a value: a scalar, a container's header, a CBOR tag
    key,     // an object member's key
    part,    // a further item of the value whose head is `owner`: a tag's content, an end marker
    filler,  // an item standing for no value (a UBJSON no-op); `owner` is the enclosing container
};

inline constexpr std::size_t no_line = static_cast<std::size_t>(-1);

/// One decoded item: where it starts, how many bytes its head (and scalar payload) spans.
struct annotation {
    std::size_t offset = 0;
    std::size_t length = 0;
    std::size_t depth = 0;
    std::string text;
    item_role role = item_role::head;
    /// head and key: the line of the enclosing container's head (no_line: the root value);
    /// part and filler: see item_role
    std::size_t owner = no_line;
    /// head and key: the member's place in its container, from 0 in the order written
    std::size_t member = 0;
    /// head of a container: whether its members are named (an object or map) or counted
    bool object = false;
    /// head and key of an object's member: the member's name
    std::string key;
};

struct decode_limits {
    bool build_value = true;
    std::size_t max_lines = 1u << 20;  // annotations kept (the decode itself goes on)
    std::size_t max_depth = 1u << 20;
};

struct decoded {
    bool ok = false;
    std::string error;  // when !ok
    std::size_t error_offset = 0;
    std::vector<annotation> lines;
    std::size_t max_depth = 0;
    nlohmann::json value;  // when ok and build_value
    /// Set when the bytes hold something nlohmann 3.11.2's reader gets wrong (CBOR one-byte
    /// tag heads: dropped or rejected; CBOR negative integers below INT64_MIN: wrapped).
    std::string oracle_misreads;
};

/// Decodes one complete value of format f from [data, data+size), annotating every item.
decoded decode_annotated(format f, const std::uint8_t* data, std::size_t size, const decode_limits& limits = {});
inline decoded decode_annotated(format f, const std::vector<std::uint8_t>& bytes, const decode_limits& limits = {}) {
    return decode_annotated(f, bytes.data(), bytes.size(), limits);
}

/// The value the bytes stand for, in the format's data model (see the header comment for which
/// decoder). CBOR integers come in one form: int64 or uint64 where they fit, else a binary of
/// subtype 2 (tag 2, value n) or 3 (tag 3, value -1-n) holding n without leading zeros. ok ==
/// false when no decoder accepts the bytes; how names the decoder used, or why none could be.
struct decoded_value {
    bool ok = false;
    nlohmann::json value;
    std::string how;
};
decoded_value decode_value(format f, const std::vector<std::uint8_t>& bytes);

/// Structural equality of two decoded values: the kit's one value equality
/// (sinkcheck/testkit/same_value.hpp), with nothing looked away from.
using testkit::same_value;

/// The runner's one judgement of "the same value": the bytes decode (decode_value) to a value
/// equal (same_value) to `value`, itself a decode_value result. classify() asks it of the
/// expected bytes and of each listed alternative (decoding each once, as it keeps the values
/// to find where they differ).
bool decodes_to(format f, const std::vector<std::uint8_t>& bytes, const nlohmann::json& value);

}  // namespace sinkcheck::conform
