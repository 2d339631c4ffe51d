// sinkcheck/testkit/generators.hpp — RapidCheck generators for JSON values and sink write programs.
//
// A JSON parser only ever hands an encoder unsigned non-negatives, signed negatives, doubles
// that print back, valid UTF-8 and sorted keys; 3.11.2's own fuzzers feed the writers exactly
// that. These generators reach the rest of the value model: both integer kinds at every width
// edge of every format, all float classes (−0.0, NaN with sign and payload, ±Inf, denormals,
// binary32-exact values), multi-byte and invalid UTF-8, NULs, binary with and without
// subtypes (256 and above too), discarded values, insertion-ordered keys (ordered_json),
// containers sized at every length-class edge, BJData ND-array objects and bounded deep
// nesting. Every choice shrinks towards the simplest alternative, so a failing case shrinks to a
// value a reader can check by hand.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/testkit/byte_choices.hpp"
#include "sinkcheck/testkit/edges.hpp"
#include "sinkcheck/testkit/value_from_bytes.hpp"
#include "sinkcheck/testkit/write_program.hpp"

namespace sinkcheck::testkit {

// ---------------------------------------------------------------------------------------------
// Choice helpers whose shrinks move towards the front of their list: rc::gen::elementOf and
// rc::gen::oneOf never shrink across alternatives, which leaves a 65,536-byte edge string where
// a one-byte string would show the same failure.

/// One of values, uniformly; shrinks towards values.front().
template <class T>
rc::Gen<T> one_of_values(std::vector<T> values) {
    auto shared = std::make_shared<const std::vector<T>>(std::move(values));
    return rc::Gen<T>([shared](const rc::Random& random, int) {
        const auto i = static_cast<std::size_t>(rc::Random(random).next() % shared->size());
        return rc::shrinkable::map(
            rc::shrinkable::shrinkRecur(i, [](std::size_t x) { return rc::shrink::towards<std::size_t>(x, 0); }),
            [shared](std::size_t k) { return (*shared)[k]; });
    });
}

/// A weighted choice among generators; shrinks towards the first alternative. Alternatives of
/// weight 0 are never drawn (callers switch alternatives off that way).
template <class T>
rc::Gen<T> choice(std::vector<std::pair<std::size_t, rc::Gen<T>>> alternatives) {
    auto alts = std::make_shared<const std::vector<std::pair<std::size_t, rc::Gen<T>>>>(std::move(alternatives));
    std::size_t total = 0;
    for (const auto& a : *alts) {
        total += a.first;
    }
    return rc::Gen<T>([alts, total](const rc::Random& random, int size) {
        rc::Random r(random);
        std::size_t draw = static_cast<std::size_t>(r.split().next() % total);
        std::size_t pick = 0;
        while (draw >= (*alts)[pick].first) {
            draw -= (*alts)[pick].first;
            ++pick;
        }
        // shrinking to an earlier alternative of weight 0 would leave the profile
        const auto allowed = [alts](std::size_t k) { return (*alts)[k].first != 0; };
        return rc::shrinkable::mapcat(
            rc::shrinkable::shrinkRecur(
                pick,
                [allowed](std::size_t x) { return rc::seq::filter(rc::shrink::towards<std::size_t>(x, 0), allowed); }),
            [alts, r, size](std::size_t k) { return (*alts)[k].second(r, size); });
    });
}

// ---------------------------------------------------------------------------------------------
// Numbers at the width edges of every format (edges.hpp).

/// An edge value, or one or two away from it on either side (clamped to the type's range).
inline rc::Gen<std::uint64_t> unsigned_near_edge() {
    return rc::gen::apply(
        [](std::uint64_t edge, int delta) -> std::uint64_t {
            const auto step = static_cast<std::uint64_t>(delta < 0 ? -delta : delta);
            if (delta < 0) {
                return edge >= step ? edge - step : edge;
            }
            return edge <= std::numeric_limits<std::uint64_t>::max() - step ? edge + step : edge;
        },
        one_of_values(edges::as_vector(edges::unsigned_integers)), one_of_values<int>({0, -1, 1, -2, 2}));
}

inline rc::Gen<std::int64_t> negative_near_edge() {
    return rc::gen::apply(
        [](std::int64_t edge, int delta) -> std::int64_t {
            if (delta > 0) {
                return edge <= -1 - delta ? edge + delta : edge;
            }
            return edge >= std::numeric_limits<std::int64_t>::min() - delta ? edge + delta : edge;
        },
        one_of_values(edges::as_vector(edges::negative_integers)), one_of_values<int>({0, 1, -1, 2, -2}));
}

/// Magnitude first: a bit length 0..64 (shrinks toward 0), then the bits below the leading one
/// (shrink toward the smallest value of that length). Every length is as likely as any other,
/// where a uniform 64-bit draw is almost always 63 or 64 bits long.
inline rc::Gen<std::uint64_t> unsigned_by_bit_length() {
    return rc::gen::apply(
        [](unsigned k, std::uint64_t low) -> std::uint64_t {
            if (k == 0) {
                return 0;
            }
            const std::uint64_t top = std::uint64_t{1} << (k - 1);
            return top | (low & (top - 1));
        },
        rc::gen::inRange<unsigned>(0, 65), rc::gen::arbitrary<std::uint64_t>());
}

/// A negative value whose magnitude has bit length 1..64 (of length 64 only -2^63 fits).
inline rc::Gen<std::int64_t> negative_by_bit_length() {
    return rc::gen::apply(
        [](unsigned k, std::uint64_t low) -> std::int64_t {
            if (k == 64) {
                return std::numeric_limits<std::int64_t>::min();
            }
            const std::uint64_t top = std::uint64_t{1} << (k - 1);
            return -static_cast<std::int64_t>(top | (low & (top - 1)));
        },
        rc::gen::inRange<unsigned>(1, 65), rc::gen::arbitrary<std::uint64_t>());
}

/// number_unsigned and number_integer both, since 3.11.2 writes a positive value of either kind
/// alike and a JSON parser never makes a positive number_integer.
template <class Json>
rc::Gen<Json> integer_value() {
    constexpr auto int64_max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    return choice<Json>({
        {3, rc::gen::map(unsigned_by_bit_length(), [](std::uint64_t v) { return Json(v); })},
        {3, rc::gen::map(negative_by_bit_length(), [](std::int64_t v) { return Json(v); })},
        {4, rc::gen::map(unsigned_near_edge(), [](std::uint64_t v) { return Json(v); })},
        {3,
         rc::gen::map(unsigned_near_edge(),
                      [](std::uint64_t v) { return v <= int64_max ? Json(static_cast<std::int64_t>(v)) : Json(v); })},
        {4, rc::gen::map(negative_near_edge(), [](std::int64_t v) { return Json(v); })},
        {1, rc::gen::map(rc::gen::arbitrary<std::uint64_t>(), [](std::uint64_t v) { return Json(v); })},
        {1, rc::gen::map(rc::gen::arbitrary<std::int64_t>(), [](std::int64_t v) { return Json(v); })},
    });
}

using edges::double_from_bits;

inline std::uint64_t bits_of(double d) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
}

/// NaN with a chosen sign and a non-zero 52-bit payload (quiet or signalling).
inline rc::Gen<double> nan_with_payload() {
    return rc::gen::apply(
        [](bool negative, std::uint64_t payload) {
            payload &= 0x000FFFFFFFFFFFFFULL;
            if (payload == 0) {
                payload = 1;
            }
            return double_from_bits((negative ? 0xFFF0000000000000ULL : 0x7FF0000000000000ULL) | payload);
        },
        rc::gen::arbitrary<bool>(), rc::gen::arbitrary<std::uint64_t>());
}

/// A binary64 denormal (exponent field 0) of either sign.
inline rc::Gen<double> denormal() {
    return rc::gen::apply(
        [](bool negative, std::uint64_t mantissa) {
            mantissa &= 0x000FFFFFFFFFFFFFULL;
            return double_from_bits((negative ? 0x8000000000000000ULL : 0) | mantissa);
        },
        rc::gen::arbitrary<bool>(), rc::gen::arbitrary<std::uint64_t>());
}

template <class Json>
rc::Gen<Json> float_value() {
    const auto as_json = [](double d) { return Json(d); };
    return choice<Json>({
        {4, rc::gen::map(one_of_values(edges::doubles()), as_json)},
        // any binary32 (its NaNs, infinities and denormals included) widened: the values that
        // CBOR and MessagePack must write in four bytes
        {3, rc::gen::map(rc::gen::arbitrary<std::uint32_t>(),
                         [](std::uint32_t bits) {
                             float f;
                             std::memcpy(&f, &bits, sizeof f);
                             return Json(static_cast<double>(f));
                         })},
        {2, rc::gen::map(rc::gen::inRange<std::int64_t>(-100000, 100000),
                         [](std::int64_t n) { return Json(static_cast<double>(n) / 8.0); })},
        {2, rc::gen::map(rc::gen::inRange<std::int64_t>(-100000, 100000),
                         [](std::int64_t n) { return Json(static_cast<double>(n) / 7.0); })},
        {2, rc::gen::map(nan_with_payload(), as_json)},
        {1, rc::gen::map(denormal(), as_json)},
        {2, rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                         [](std::uint64_t bits) { return Json(double_from_bits(bits)); })},
    });
}

// ---------------------------------------------------------------------------------------------
// Text. A string is a list of pieces (one character, or one deliberately broken sequence), so
// shrinking removes pieces and keeps whatever sequence makes the failure.

using sinkcheck::detail::append_utf8;

inline std::string utf8_of(std::uint32_t cp) {
    std::string s;
    append_utf8(s, cp);
    return s;
}

/// Sequences RFC 3629 forbids, every class of them: stray continuation bytes (one, and a run),
/// leads that never start a sequence (C0, C1, F5-FF), overlong forms of every length (NUL and '/'
/// in two bytes, U+07FF in three, U+FFFF in four), both ends of the UTF-16 surrogates (ED A0 80,
/// ED BF BF), code points above U+10FFFF (F4 90 80 80, F7 BF BF BF), and sequences cut short by
/// the next byte or by the end of the text (a piece may be the last of a string).
inline const std::vector<std::string>& invalid_utf8_pieces() {
    static const std::vector<std::string> v = {"\x80",
                                               "\xBF\x80",
                                               "\xFF",
                                               "\xFE",
                                               "\xF8\x88\x80\x80\x80",
                                               "\xC0\x80",
                                               "\xC0\xAF",
                                               "\xC1\xBF",
                                               "\xE0\x80\x80",
                                               "\xE0\x9F\xBF",
                                               "\xF0\x8F\xBF\xBF",
                                               "\xED\xA0\x80",
                                               "\xED\xBF\xBF",
                                               "\xF4\x90\x80\x80",
                                               "\xF7\xBF\xBF\xBF",
                                               "\xF5\x80\x80\x80",
                                               "\xF0\x9F\x98",
                                               "\xE2\x82",
                                               "\xC3",
                                               "\xE2\x82"
                                               "A",
                                               "\xC3"
                                               "A"};
    return v;
}

struct text_profile {
    /// NUL characters (valid UTF-8; BSON refuses them in keys only).
    bool nul = true;
    /// Invalid UTF-8 pieces: every reference encoder refuses them (type_error.316).
    bool invalid = false;
    /// Edge lengths above this are left out.
    std::size_t max_edge = static_cast<std::size_t>(-1);
};

/// The edges in v that are at most max.
inline std::vector<std::size_t> edges_up_to(const std::vector<std::size_t>& v, std::size_t max) {
    std::vector<std::size_t> out;
    for (std::size_t e : v) {
        if (e <= max) {
            out.push_back(e);
        }
    }
    return out;
}

inline rc::Gen<std::string> text_piece(const text_profile& p) {
    const auto cp = [](std::uint32_t lo, std::uint32_t hi) {
        return rc::gen::map(rc::gen::inRange<std::uint32_t>(lo, hi), utf8_of);
    };
    // every three-byte character: U+0800..U+FFFF drawn without the 2,048 UTF-16 surrogates,
    // which are not characters, and the rest moved up past their gap
    const auto three_byte = rc::gen::map(rc::gen::inRange<std::uint32_t>(0x800, 0x10000 - 0x800),
                                         [](std::uint32_t c) { return utf8_of(c >= 0xD800 ? c + 0x800 : c); });
    return choice<std::string>({
        {8,
         rc::gen::map(rc::gen::inRange<int>(0, 26), [](int i) { return std::string(1, static_cast<char>('a' + i)); })},
        {2,
         rc::gen::map(rc::gen::inRange<int>(0x20, 0x80), [](int c) { return std::string(1, static_cast<char>(c)); })},
        {1, rc::gen::map(rc::gen::inRange<int>(1, 0x20), [](int c) { return std::string(1, static_cast<char>(c)); })},
        {2, cp(0x80, 0x800)},
        {2, three_byte},
        {2, cp(0x10000, 0x110000)},
        {2, rc::gen::map(one_of_values<std::uint32_t>(
                             {0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF}),
                         utf8_of)},
        {p.nul ? 1u : 0u, rc::gen::just(std::string(1, '\0'))},
        {p.invalid ? 1u : 0u, one_of_values(invalid_utf8_pieces())},
    });
}

inline std::string join(const std::vector<std::string>& pieces) {
    std::string out;
    for (const auto& piece : pieces) {
        out += piece;
    }
    return out;
}

/// A string of exactly an edge length (ASCII, optionally ending in a multi-byte character that
/// still lands on the edge).
inline rc::Gen<std::string> edge_length_text(std::size_t max_edge) {
    return rc::gen::apply(
        [](std::size_t n, bool multibyte) {
            std::string s(n, 'x');
            if (multibyte && n >= 2) {
                s.replace(n - 2, 2, "\xC3\xA9");
            }
            return s;
        },
        one_of_values(edges_up_to(edges::as_vector(edges::lengths), max_edge)), rc::gen::arbitrary<bool>());
}

inline rc::Gen<std::string> text(const text_profile& p, bool edges = true) {
    return choice<std::string>({
        {12, rc::gen::map(rc::gen::container<std::vector<std::string>>(text_piece(p)), join)},
        {edges ? 1u : 0u, edge_length_text(p.max_edge)},
    });
}

/// Keys: short, sometimes empty, sometimes numbered so the bytewise order of nlohmann::json
/// ("k10" before "k2") differs from the insertion order kept by ordered_json.
inline rc::Gen<std::string> key(const text_profile& p) {
    return choice<std::string>({
        {6, rc::gen::map(rc::gen::resize(6, rc::gen::container<std::vector<std::string>>(text_piece(p))), join)},
        {2, rc::gen::map(rc::gen::inRange<int>(0, 40), [](int i) { return "k" + std::to_string(i); })},
        {1, rc::gen::just(std::string())},
    });
}

// ---------------------------------------------------------------------------------------------
// Binary values.

/// Sizes where MessagePack switches fixext/ext8/ext16/ext32 and bin8/16/32, CBOR heads change,
/// and a vector sink window of 64 or 4096 bytes is crossed.
inline const std::vector<std::size_t>& binary_length_edges() {
    static const std::vector<std::size_t> v = {0,  1,   2,   3,    4,    8,     16,    17,   23,
                                               24, 255, 256, 4095, 4096, 65535, 65536, 65537};
    return v;
}

/// "No subtype" is represented by -1 here and mapped away before a value is built.
inline rc::Gen<std::int64_t> subtype_choice(bool large) {
    return choice<std::int64_t>({
        {3, rc::gen::just<std::int64_t>(-1)},
        {3, one_of_values<std::int64_t>({0, 1, 23, 24, 127, 128, 255})},
        {2, rc::gen::inRange<std::int64_t>(0, 256)},
        // CBOR writes any 64-bit tag; MessagePack and BSON have one byte (out_of_range.902)
        {large ? 1u : 0u, one_of_values<std::int64_t>({256, 65535, 65536, 4294967295LL, 4294967296LL,
                                                       std::numeric_limits<std::int64_t>::max()})},
    });
}

template <class Json>
rc::Gen<Json> binary_value(bool large_subtypes, std::size_t max_edge) {
    using bytes_t = typename Json::binary_t::container_type;
    const auto payload = choice<bytes_t>({
        {6, rc::gen::container<bytes_t>(rc::gen::arbitrary<std::uint8_t>())},
        {1, rc::gen::map(one_of_values(edges_up_to(binary_length_edges(), max_edge)),
                         [](std::size_t n) {
                             bytes_t b(n);
                             for (std::size_t i = 0; i < n; ++i) {
                                 b[i] = static_cast<std::uint8_t>(i * 37 + 1);
                             }
                             return b;
                         })},
    });
    return rc::gen::apply(
        [](bytes_t bytes, std::int64_t subtype) {
            if (subtype < 0) {
                return Json::binary(std::move(bytes));
            }
            return Json::binary(std::move(bytes), static_cast<std::uint64_t>(subtype));
        },
        payload, subtype_choice(large_subtypes));
}

// ---------------------------------------------------------------------------------------------
// Values.

struct value_profile {
    /// Containers nest at most this deep (nlohmann's to_*, ==, copy and dump recurse).
    int max_depth = 4;
    /// At most this many children in an ordinary generated container.
    std::size_t max_children = 8;
    /// Strings, binaries and containers exactly at a length-class edge, now and then.
    bool length_edges = true;
    /// Containers of 65,535..65,537 elements among the edges (slow; off for the sink sweep).
    bool huge_containers = false;
    /// BJData ND-array objects (valid and nearly valid).
    bool ndarrays = true;
    /// A chain of nested containers up to deep_limit levels around a scalar.
    bool deep = true;
    std::size_t deep_limit = 64;
    /// Invalid UTF-8 and discarded values: refused by every reference encoder (316 / 901).
    bool hostile = false;
    /// Binary subtypes above 255 (valid CBOR tags; MessagePack and BSON refuse them, 902).
    bool large_subtypes = true;
    /// NUL inside strings and keys (BSON refuses a NUL in a key, out_of_range.409).
    bool nul = true;
    /// Now and then an array of up to this many assorted scalars (0: never): outputs of tens
    /// to hundreds of KiB, which cross every window, capacity doubling and chunk cap.
    std::size_t bulk_limit = 0;
    /// Length edges (strings, binaries, containers) above this are left out.
    std::size_t max_edge_length = static_cast<std::size_t>(-1);
    /// Weight of a bare scalar at the top level, against 6 for a container.
    std::size_t top_scalar_weight = 6;
    /// Weight at the top level of a value from the byte builder (value_from_bytes.hpp), the one
    /// the fuzz targets and `conform --generate` use, over bytes RapidCheck draws and shrinks:
    /// integers by bit length, strings, byte strings and containers by length class, doubles by
    /// exponent class.
    std::size_t built_weight = 2;
    /// The most nodes such a value has.
    std::size_t built_nodes = 64;
};

inline text_profile text_of(const value_profile& p) {
    text_profile t;
    t.nul = p.nul;
    t.invalid = p.hostile;
    t.max_edge = p.max_edge_length;
    return t;
}

template <class Json>
rc::Gen<Json> scalar_value(const value_profile& p) {
    return choice<Json>({
        {1, rc::gen::just(Json(nullptr))},
        {1, rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return Json(b); })},
        {5, integer_value<Json>()},
        {4, float_value<Json>()},
        {4, rc::gen::map(text(text_of(p), p.length_edges), [](std::string s) { return Json(std::move(s)); })},
        {2, binary_value<Json>(p.large_subtypes, p.max_edge_length)},
        {p.hostile ? 1u : 0u, rc::gen::just(Json(Json::value_t::discarded))},
    });
}

/// The numeric classes UBJSON/BJData pick one marker for (i U I u l m L M D), plus strings and
/// booleans: an array of one class gets a '$' type marker with use_type.
template <class Json>
rc::Gen<Json> uniform_element(const value_profile& p) {
    const auto signed_in = [](std::int64_t lo, std::int64_t hi) {
        return rc::gen::map(rc::gen::inRange<std::int64_t>(lo, hi), [](std::int64_t v) { return Json(v); });
    };
    const auto unsigned_in = [](std::uint64_t lo, std::uint64_t hi) {
        return rc::gen::map(rc::gen::inRange<std::uint64_t>(lo, hi), [](std::uint64_t v) { return Json(v); });
    };
    return choice<Json>({
        {3, signed_in(-128, 128)},
        {2, unsigned_in(128, 256)},
        {1, signed_in(-32768, 32768)},
        {1, unsigned_in(32768, 65536)},
        {1, signed_in(-2147483648LL, 2147483648LL)},
        {1, unsigned_in(2147483648ULL, 4294967296ULL)},
        // int64 beyond int32 on both sides (L), and every uint64 above INT64_MAX (M), the
        // largest included: inRange leaves out its upper bound
        {1, rc::gen::map(negative_by_bit_length(),
                         [](std::int64_t v) { return Json(v < INT32_MIN ? v : v - 2147483648LL - 1); })},
        {1, rc::gen::map(rc::gen::inRange<std::uint64_t>(4294967296ULL, 9223372036854775808ULL),
                         [](std::uint64_t v) { return Json(static_cast<std::int64_t>(v)); })},
        {1, rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                         [](std::uint64_t v) { return Json(v | 9223372036854775808ULL); })},
        {1, float_value<Json>()},
        {1, rc::gen::map(text(text_of(p), false), [](std::string s) { return Json(std::move(s)); })},
        {1, rc::gen::just(Json(true))},
        {1, rc::gen::just(Json(nullptr))},
    });
}

template <class Json>
Json array_of(std::vector<Json> elements) {
    Json a = Json::array();
    for (auto& e : elements) {
        a.push_back(std::move(e));
    }
    return a;
}

template <class Json>
Json object_of(std::vector<std::pair<std::string, Json>> members) {
    Json o = Json::object();
    for (auto& m : members) {
        o[m.first] = std::move(m.second);
    }
    return o;
}

/// One element of an integer ND-array from the bits x: anywhere in the type's range five times
/// in eight, at either end of it once, past either end once (which 3.11.2 truncates and the
/// reference writes as an ordinary object: bjdata-ndarray-invalid), any 64-bit value once.
template <class Json>
Json ndarray_integer(const edges::ndarray_range& r, std::uint64_t x) {
    const auto at = [](std::int64_t lo, std::uint64_t offset) {
        // lo + offset, as the integer kind that holds it
        const std::uint64_t v = static_cast<std::uint64_t>(lo) + offset;
        return lo < 0 && offset < static_cast<std::uint64_t>(-(lo + 1)) + 1 ? Json(static_cast<std::int64_t>(v))
                                                                            : Json(v);
    };
    const std::uint64_t span = r.hi + static_cast<std::uint64_t>(-(r.lo + 1)) + 1;  // hi - lo, wrapping
    const bool high = (x & 1) != 0;
    switch (x >> 61) {
        case 5: return high ? Json(r.hi) : at(r.lo, 0);
        case 6: {
            // past an end by 1 up to the range's own width (char: 128..255 among them), where
            // the integer kinds reach
            const std::uint64_t step =
                1 + (span == std::numeric_limits<std::uint64_t>::max() ? 0 : (x >> 1) % (span + 1));
            const std::uint64_t room_above = std::numeric_limits<std::uint64_t>::max() - r.hi;
            const std::uint64_t room_below =
                static_cast<std::uint64_t>(r.lo) + (std::uint64_t{1} << 63);  // lo - INT64_MIN
            if ((high || room_below == 0) && room_above != 0) {
                return Json(r.hi + (step < room_above ? step : room_above));
            }
            return Json(
                static_cast<std::int64_t>(static_cast<std::uint64_t>(r.lo) - (step < room_below ? step : room_below)));
        }
        case 7: return high ? Json(x) : Json(static_cast<std::int64_t>(x));
        default: return at(r.lo, span == std::numeric_limits<std::uint64_t>::max() ? x : x % (span + 1));
    }
}

/// A BJData ND-array object (docs/formats.md#bjdata): the three keys, a declared element type,
/// a size array and data of the declared type, drawn over the type's whole range and a step
/// past it; float data any double now and then, an integer too (bjdata-ndarray-punned-float).
/// Now and then a near miss that 3.11.2 must write as an ordinary object: a data count one off,
/// an unknown type name.
template <class Json>
rc::Gen<Json> ndarray_value() {
    static const std::vector<std::string> types = {"uint8",  "int8",  "uint16", "int16",  "uint32", "int32",
                                                   "uint64", "int64", "single", "double", "char"};
    return rc::gen::apply(
        [](std::size_t t, std::vector<std::size_t> dims, int near_miss, std::uint64_t salt) {
            Json size = Json::array();
            std::size_t count = dims.empty() ? 0 : 1;
            for (std::size_t d : dims) {
                size.push_back(d);
                count *= d;
            }
            if (near_miss == 1) {
                count += 1;
            }
            Json data = Json::array();
            const std::string& ty = types[t];
            for (std::size_t i = 0; i < count; ++i) {
                std::uint64_t x = (salt + i) * 0x9E3779B97F4A7C15ULL;
                x ^= x >> 29;
                if (ty == "single" || ty == "double") {
                    switch (x % 8) {
                        case 0: data.push_back(double_from_bits(x)); break;
                        case 1: data.push_back(static_cast<std::int64_t>(x % 2001) - 1000); break;
                        default:
                            data.push_back(
                                static_cast<double>(static_cast<float>(static_cast<std::int64_t>(x % 2001) - 1000)) /
                                4.0);
                    }
                    continue;
                }
                for (const edges::ndarray_range& r : edges::ndarray_ranges) {
                    if (ty == r.name) {
                        data.push_back(ndarray_integer<Json>(r, x));
                    }
                }
            }
            Json o = Json::object();
            o["_ArrayType_"] = near_miss == 2 ? std::string("uint128") : ty;
            o["_ArraySize_"] = std::move(size);
            o["_ArrayData_"] = std::move(data);
            return o;
        },
        rc::gen::inRange<std::size_t>(0, types.size()),
        rc::gen::resize(3, rc::gen::container<std::vector<std::size_t>>(rc::gen::inRange<std::size_t>(0, 5))),
        choice<int>({{8, rc::gen::just(0)}, {1, rc::gen::just(1)}, {1, rc::gen::just(2)}}),
        rc::gen::arbitrary<std::uint64_t>());
}

/// A container with exactly an edge number of elements (CBOR 23/24/255/256, MessagePack
/// fix/16/32 at 15/16 and 65535/65536, BON8 count forms 4/5; 16/17, where the walker stops
/// writing a container without stacking it), all alike or alternating.
template <class Json>
rc::Gen<Json> edge_sized_container(const value_profile& p) {
    std::vector<std::size_t> counts = {4, 5, 15, 16, 17, 23, 24, 25, 31, 32, 127, 128, 255, 256, 257};
    if (p.huge_containers) {
        counts.insert(counts.end(), {65535, 65536, 65537});
    }
    return rc::gen::apply(
        [](std::size_t n, Json first, Json second, bool object, bool alternate) {
            Json c = object ? Json::object() : Json::array();
            for (std::size_t i = 0; i < n; ++i) {
                const Json& e = alternate && i % 2 == 1 ? second : first;
                if (object) {
                    c["k" + std::to_string(i)] = e;
                } else {
                    c.push_back(e);
                }
            }
            return c;
        },
        one_of_values(edges_up_to(counts, p.max_edge_length)), uniform_element<Json>(p), uniform_element<Json>(p),
        rc::gen::arbitrary<bool>(), rc::gen::arbitrary<bool>());
}

/// depth levels of containers around a scalar, built without recursion: a chain (arrays and
/// one-member objects), or a tree with a small container before and after the inner one at every
/// level. Depths are drawn around the walker's inline stack size and its multiples half the time:
/// a sibling pushed and popped where the stack crosses from inline frames to heap frames is
/// where a stack slip shows (32 nested arrays whose innermost holds [1],[2]).
template <class Json>
rc::Gen<Json> deep_value(const value_profile& p) {
    const auto depths = edges_up_to(edges::as_vector(edges::nesting_depths), p.deep_limit);
    auto depth_gen = depths.empty() ? rc::gen::inRange<std::size_t>(1, p.deep_limit + 1)
                                    : choice<std::size_t>({{1, rc::gen::inRange<std::size_t>(1, p.deep_limit + 1)},
                                                           {1, one_of_values(depths)}});
    return rc::gen::apply(
        [](std::size_t depth, bool tree, Json leaf, std::uint64_t shape) {
            Json cur = std::move(leaf);
            for (std::size_t i = 0; i < depth; ++i) {
                const bool object = ((shape >> (i % 64)) & 1U) != 0;
                Json outer = object ? Json::object() : Json::array();
                const auto sibling = [i](std::size_t side) { return Json::array({Json(2 * i + side)}); };
                if (object) {
                    // keys in sorted order, so nlohmann::json and ordered_json agree on the order
                    if (tree) {
                        outer["a"] = sibling(0);
                    }
                    outer["d"] = std::move(cur);
                    if (tree) {
                        outer["z"] = sibling(1);
                    }
                } else {
                    if (tree) {
                        outer.push_back(sibling(0));
                    }
                    outer.push_back(std::move(cur));
                    if (tree) {
                        outer.push_back(sibling(1));
                    }
                }
                cur = std::move(outer);
            }
            return cur;
        },
        std::move(depth_gen), rc::gen::arbitrary<bool>(), scalar_value<Json>(p), rc::gen::arbitrary<std::uint64_t>());
}

/// An array of n assorted scalars drawn from a seed (like seed 000's "many_windows" document):
/// one shrinkable count instead of n shrinkable elements, so a failure shrinks by length.
template <class Json>
rc::Gen<Json> bulk_value(std::size_t limit) {
    return rc::gen::apply(
        [](std::size_t n, std::uint64_t seed) {
            Json a = Json::array();
            std::uint64_t x = seed | 1;
            for (std::size_t i = 0; i < n; ++i) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                switch (x % 6) {
                    case 0: a.push_back(x >> (x % 64)); break;
                    case 1: a.push_back(-static_cast<std::int64_t>(x >> (1 + x % 63)) - 1); break;
                    case 2: a.push_back(static_cast<double>(static_cast<float>(x % 100000) / 8.0F)); break;
                    case 3: a.push_back(double_from_bits(x)); break;
                    case 4: a.push_back(std::string(x % 40, static_cast<char>('a' + x % 26))); break;
                    default: a.push_back(x % 3 == 0 ? Json(nullptr) : Json(x % 2 == 0)); break;
                }
            }
            return a;
        },
        rc::gen::inRange<std::size_t>(0, limit + 1), rc::gen::arbitrary<std::uint64_t>());
}

template <class Json>
rc::Gen<Json> value_at(const value_profile& p, int depth);

template <class Json>
rc::Gen<Json> container_value(const value_profile& p, int depth) {
    return rc::gen::withSize([p, depth](int size) {
        // each level gets at most max_children children and half the size, so a value stays
        // small enough to encode in every sink x window x format many times per case
        const int count = std::min<int>(static_cast<int>(p.max_children), 1 + size / 10);
        const int child_size = size / 2;
        const auto child =
            rc::gen::resize(child_size, rc::gen::lazy([p, depth] { return value_at<Json>(p, depth + 1); }));
        const text_profile keys = text_of(p);
        return choice<Json>({
            {3, rc::gen::map(rc::gen::resize(count, rc::gen::container<std::vector<Json>>(child)),
                             [](std::vector<Json> v) { return array_of<Json>(std::move(v)); })},
            {3,
             rc::gen::map(rc::gen::resize(count, rc::gen::container<std::vector<std::pair<std::string, Json>>>(
                                                     rc::gen::pair(key(keys), child))),
                          [](std::vector<std::pair<std::string, Json>> v) { return object_of<Json>(std::move(v)); })},
            {1, rc::gen::apply([](std::size_t n, Json e) { return array_of<Json>(std::vector<Json>(n, e)); },
                               rc::gen::inRange<std::size_t>(1, 20), uniform_element<Json>(p))},
            {1, rc::gen::map(rc::gen::resize(count, rc::gen::container<std::vector<Json>>(uniform_element<Json>(p))),
                             [](std::vector<Json> v) { return array_of<Json>(std::move(v)); })},
        });
    });
}

/// A value of the byte builder over drawn bytes (value_profile::built_weight).
template <class Json>
rc::Gen<Json> built_value(const value_profile& p) {
    return rc::gen::map(rc::gen::container<std::vector<std::uint8_t>>(rc::gen::arbitrary<std::uint8_t>()),
                        [p](const std::vector<std::uint8_t>& bytes) {
                            byte_choices in(bytes.data(), bytes.size());
                            fuzz::build_limits limits;
                            limits.hostile = p.hostile;
                            limits.max_nodes = p.built_nodes;
                            limits.max_depth = p.deep_limit;
                            limits.max_bytes = std::min<std::size_t>(p.max_edge_length, 4096) * 4;
                            limits.ndarrays = false;  // ndarray_value makes those
                            return fuzz::value_from_bytes<Json>(in, limits);
                        });
}

template <class Json>
rc::Gen<Json> value_at(const value_profile& p, int depth) {
    const bool nest = depth < p.max_depth;
    return choice<Json>({
        {depth == 0 ? p.top_scalar_weight : 6u, scalar_value<Json>(p)},
        {nest ? 6u : 0u, nest ? container_value<Json>(p, depth) : rc::gen::just(Json())},
        {p.ndarrays ? 1u : 0u, ndarray_value<Json>()},
        {p.length_edges ? 1u : 0u, edge_sized_container<Json>(p)},
        {p.deep && depth == 0 ? 1u : 0u, deep_value<Json>(p)},
        {p.bulk_limit != 0 && depth == 0 ? 3u : 0u, bulk_value<Json>(p.bulk_limit)},
        {depth == 0 ? p.built_weight : 0u, built_value<Json>(p)},
    });
}

/// Arbitrary values of Json (nlohmann::json or ordered_json) under profile p.
template <class Json>
rc::Gen<Json> json_value(const value_profile& p = {}) {
    return value_at<Json>(p, 0);
}

// The generator of nlohmann::json values is compiled once, in the kit's properties library
// (testkit/src/properties.cpp), for every unit that links it (SINKCHECK_EXTERN_JSON_GENERATOR):
// its RapidCheck combinators are as costly to compile as an encoder.
#if defined(SINKCHECK_EXTERN_JSON_GENERATOR)
extern template rc::Gen<nlohmann::json> json_value<nlohmann::json>(const value_profile&);
#endif

// ---------------------------------------------------------------------------------------------
// Write programs: what an encoder does to a sink, reduced to its kinds of call.

/// Block sizes: the sweep (edges.hpp), one either side of every window and of the default first
/// chunk (2 KiB; the 64 KiB cap is a window too), and the 64-byte minimum capacity of the vector
/// sink (64 is a window).
inline const std::vector<std::size_t>& block_length_edges() {
    static const std::vector<std::size_t> v = [] {
        std::vector<std::size_t> out = edges::as_vector(edges::block_sweep);
        std::vector<std::size_t> centres = window_sizes();
        centres.push_back(run_setup{}.first_chunk);
        for (std::size_t c : centres) {
            if (c != unlimited_window) {
                out.insert(out.end(), {c - 1, c, c + 1});
            }
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    }();
    return v;
}

inline rc::Gen<write_op> write_op_gen(bool seeks) {
    const auto byte = rc::gen::map(rc::gen::arbitrary<std::uint8_t>(), [](std::uint8_t s) {
        write_op op;
        op.what = write_op::kind::byte;
        op.salt = s;
        return op;
    });
    const auto block = rc::gen::apply(
        [](std::size_t n, std::uint8_t s) {
            write_op op;
            op.what = write_op::kind::block;
            op.length = n;
            op.salt = s;
            return op;
        },
        choice<std::size_t>({{4, rc::gen::inRange<std::size_t>(0, 130)}, {1, one_of_values(block_length_edges())}}),
        rc::gen::arbitrary<std::uint8_t>());
    const auto seek = rc::gen::map(rc::gen::arbitrary<std::uint32_t>(), [](std::uint32_t t) {
        write_op op;
        op.what = write_op::kind::seek;
        op.target = t;
        return op;
    });
    return choice<write_op>({{4, byte}, {4, block}, {seeks ? 2u : 0u, seek}});
}

/// A program of writes (and seeks, for the seekable writer) with an optional fault point.
inline rc::Gen<write_program> write_program_gen(bool seeks, bool faults) {
    return rc::gen::apply(
        [faults](std::vector<write_op> ops, std::size_t fault) {
            write_program prog;
            prog.ops = std::move(ops);
            if (faults) {
                prog.fault_at = fault;
            }
            return prog;
        },
        rc::gen::container<std::vector<write_op>>(write_op_gen(seeks)), rc::gen::inRange<std::size_t>(0, 120));
}

}  // namespace sinkcheck::testkit
