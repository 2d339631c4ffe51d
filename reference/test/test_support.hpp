// test_support.hpp — helpers shared by the reference library's unit tests.
//
// expect_bytes() is how every hand-derived vector is checked: the expected hex is written from
// the specification, and both the oracle (nlohmann 3.11.2, where it has the format) and the
// reference must produce it, so a wrong hand derivation and a wrong encoder both fail.
// random_value() feeds the randomized differential tests with values a JSON parser never
// produces (width-edge integers of both signednesses, NaN payloads, binary with subtypes, ...).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/testkit/edges.hpp"
#include "sinkcheck/testkit/hex.hpp"
#include "sinkcheck/testkit/oracle.hpp"

namespace sinkcheck::test {

inline std::string hex(const std::vector<std::uint8_t>& bytes) { return testkit::to_hex(bytes); }

/// Hex digits to bytes; spaces are ignored so vectors can be grouped for reading.
inline std::vector<std::uint8_t> unhex(std::string_view text) {
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    std::vector<std::uint8_t> out;
    int high = -1;
    for (char c : text) {
        if (c == ' ') {
            continue;
        }
        const int n = nibble(c);
        if (n < 0) {
            ADD_FAILURE() << "not a hex digit in test vector: '" << c << "'";
            return out;
        }
        if (high < 0) {
            high = n;
        } else {
            out.push_back(static_cast<std::uint8_t>(high * 16 + n));
            high = -1;
        }
    }
    if (high >= 0) {
        ADD_FAILURE() << "odd number of hex digits in test vector";
    }
    return out;
}

/// A short printable description of a value for failure messages (dump() throws on invalid
/// UTF-8 and cannot show binary; this never throws).
template <class Json>
std::string describe(const Json& j) {
    try {
        std::string s = j.dump(-1, ' ', false, Json::error_handler_t::replace);
        if (s.size() > 200) {
            s = s.substr(0, 200) + "...";
        }
        return s;
    } catch (const std::exception&) {
        return "<" + std::string(j.type_name()) + ">";
    }
}

template <class Json>
std::vector<std::uint8_t> reference_encode(format f, const Json& j, const encode_options& o = {}) {
    return encode_to_vector(f, j, o);
}

/// The oracle (if it has the format) and the reference must both write expected_hex.
template <class Json>
void expect_bytes(format f, const Json& j, std::string_view expected_hex, const encode_options& o = {}) {
    const std::string expected = hex(unhex(expected_hex));
    if (oracle_has(f)) {
        EXPECT_EQ(hex(oracle_encode(f, j, o)), expected)
            << "nlohmann 3.11.2 disagrees with the hand-derived " << format_name(f) << " bytes for " << describe(j);
    }
    EXPECT_EQ(hex(reference_encode(f, j, o)), expected)
        << "reference " << format_name(f) << " encoder, value " << describe(j);
}

/// Seed for randomized tests: SINKCHECK_SEED overrides the fixed default; printed by callers.
inline std::uint64_t seed(std::uint64_t fallback = 20261202) {
    if (const char* env = std::getenv("SINKCHECK_SEED")) {
        return std::strtoull(env, nullptr, 0);
    }
    return fallback;
}

struct random_profile {
    int max_depth = 4;
    std::size_t max_children = 8;
    /// Now and then a string, binary or container exactly at a length-class edge (up to 65,536).
    bool length_edges = true;
    /// Objects shaped as BJData ND-arrays with valid data.
    bool ndarrays = true;
    /// Values 3.11.2 mishandles: invalid UTF-8, discarded values, subtypes above 255.
    bool hostile = false;
};

namespace detail_random {

template <class Json>
class generator {
public:
    generator(std::mt19937_64& rng, const random_profile& p) : rng_(rng), p_(p) {}

    Json value(int depth) {
        const std::size_t kinds = depth < p_.max_depth ? 12 : 9;
        switch (pick(kinds)) {
            case 0: return Json(nullptr);
            case 1: return Json(pick(2) == 0);
            case 2: return unsigned_number();
            case 3: return signed_number();
            case 4: return float_number();
            case 5:
            case 6: return Json(text(string_length()));
            case 7: return binary();
            case 8:
                if (p_.hostile && pick(20) == 0) {
                    return Json(Json::value_t::discarded);
                }
                return unsigned_number();
            case 9: return array(depth);
            case 10: return object(depth);
            default:
                if (p_.ndarrays && pick(3) == 0) {
                    return ndarray();
                }
                return array(depth);
        }
    }

private:
    std::size_t pick(std::size_t n) { return static_cast<std::size_t>(rng_() % n); }

    Json unsigned_number() {
        const auto& e = testkit::edges::unsigned_integers;
        std::uint64_t v = e[pick(std::size(e))];
        switch (pick(4)) {
            case 0: v += 1; break;
            case 1: v -= 1; break;
            case 2: v = rng_() >> pick(64); break;
            default: break;
        }
        // non-negative values come as either number type; both must encode alike
        if (v <= static_cast<std::uint64_t>((std::numeric_limits<std::int64_t>::max)()) && pick(2) == 0) {
            return Json(static_cast<std::int64_t>(v));
        }
        return Json(v);
    }

    Json signed_number() {
        const auto& e = testkit::edges::negative_integers;
        std::int64_t v = e[pick(std::size(e))];
        switch (pick(4)) {
            case 0:
                if (v != std::numeric_limits<std::int64_t>::min()) v -= 1;
                break;
            case 1: v += 1; break;
            case 2: v = -static_cast<std::int64_t>(rng_() >> (1 + pick(63))) - 1; break;
            default: break;
        }
        return Json(v);
    }

    Json float_number() {
        const auto& e = testkit::edges::doubles();
        switch (pick(4)) {
            case 0: return Json(e[pick(std::size(e))]);
            case 1: return Json(static_cast<double>(static_cast<float>(testkit::edges::double_from_bits(rng_()))));
            case 2: return Json(static_cast<double>(static_cast<std::int64_t>(rng_() % 100000)) / 7.0);
            default: return Json(testkit::edges::double_from_bits(rng_()));
        }
    }

    std::size_t string_length() {
        if (p_.length_edges && pick(12) == 0) {
            const auto& e = testkit::edges::lengths;
            std::size_t n = e[pick(std::size(e))];
            return n > 1000 && pick(4) != 0 ? n % 300 : n;
        }
        return pick(12);
    }

    void append_code_point(std::string& s) {
        switch (pick(6)) {
            case 0: s += "\xc3\xa9"; break;          // é, 2 bytes
            case 1: s += "\xe2\x82\xac"; break;      // €, 3 bytes
            case 2: s += "\xf0\x9f\x98\x80"; break;  // 😀, 4 bytes
            case 3: s += static_cast<char>(pick(2) == 0 ? 0 : 0x7f); break;
            default: s += static_cast<char>('a' + pick(26)); break;
        }
    }

    /// About n bytes of valid UTF-8 (exactly n when only ASCII is drawn).
    std::string text(std::size_t n) {
        std::string s;
        const bool ascii_only = n > 64 || pick(3) == 0;
        while (s.size() < n) {
            if (ascii_only) {
                s += static_cast<char>('a' + pick(26));
            } else {
                append_code_point(s);
            }
        }
        if (p_.hostile && pick(25) == 0) {
            s += static_cast<char>(0xff);  // never valid in UTF-8
        }
        return s;
    }

    Json binary() {
        const std::size_t n = string_length();
        typename Json::binary_t::container_type bytes(n);
        for (auto& b : bytes) {
            b = static_cast<std::uint8_t>(rng_());
        }
        switch (pick(4)) {
            case 0: return Json::binary(std::move(bytes));
            case 1: {
                static const std::uint64_t subtypes[] = {0, 1, 23, 24, 127, 128, 255};
                return Json::binary(std::move(bytes), subtypes[pick(7)]);
            }
            case 2:
                if (p_.hostile) {
                    static const std::uint64_t big[] = {256, 65535, 65536, 4294967296ULL};
                    return Json::binary(std::move(bytes), big[pick(4)]);
                }
                return Json::binary(std::move(bytes), pick(256));
            default: return Json::binary(std::move(bytes), pick(256));
        }
    }

    std::size_t child_count() {
        if (p_.length_edges && pick(25) == 0) {
            static const std::size_t edges[] = {0, 4, 5, 15, 16, 23, 24, 255, 256};
            return edges[pick(9)];
        }
        return pick(p_.max_children + 1);
    }

    Json array(int depth) {
        Json a = Json::array();
        const std::size_t n = child_count();
        // the same kind of element throughout, now and then, so UBJSON/BJData '$' paths run
        const bool uniform = pick(3) == 0;
        const Json first = uniform ? value(p_.max_depth) : Json();
        for (std::size_t i = 0; i < n; ++i) {
            a.push_back(uniform ? (i % 2 == 0 ? first : value(p_.max_depth)) : value(depth + 1));
        }
        return a;
    }

    Json object(int depth) {
        Json o = Json::object();
        const std::size_t n = child_count();
        for (std::size_t i = 0; i < n; ++i) {
            std::string key = pick(4) == 0 ? std::string() : text(pick(6));
            if (pick(3) == 0) {
                key += std::to_string(i);
            }
            o[key] = value(depth + 1);
        }
        return o;
    }

    Json ndarray() {
        static const char* types[] = {"uint8",  "int8",  "uint16", "int16",  "uint32", "int32",
                                      "uint64", "int64", "single", "double", "char"};
        const std::size_t t = pick(11);
        Json size = Json::array();
        std::size_t count = 1;
        const std::size_t dims = pick(3) + 1;
        for (std::size_t d = 0; d < dims; ++d) {
            const std::size_t n = pick(4);
            size.push_back(n);
            count *= n;
        }
        Json data = Json::array();
        for (std::size_t i = 0; i < count; ++i) {
            if (t >= 8 && t <= 9) {
                data.push_back(static_cast<double>(static_cast<float>(pick(1000))) / 4.0);
            } else if (t % 2 == 1 && t < 8) {
                data.push_back(static_cast<std::int64_t>(pick(100)) - 50);
            } else {
                data.push_back(static_cast<std::uint64_t>(pick(100)));
            }
        }
        Json o = Json::object();
        o["_ArrayType_"] = types[t];
        o["_ArraySize_"] = std::move(size);
        o["_ArrayData_"] = std::move(data);
        return o;
    }

    std::mt19937_64& rng_;
    const random_profile& p_;
};

}  // namespace detail_random

template <class Json>
Json random_value(std::mt19937_64& rng, const random_profile& profile = {}) {
    detail_random::generator<Json> g(rng, profile);
    return g.value(0);
}

/// Equality that does not recurse (safe at any depth), with NaN equal to NaN, numbers compared
/// by value across integer/float kinds (as nlohmann's ==), objects compared by key lookup.
template <class Json>
bool deep_equal(const Json& a, const Json& b) {
    std::vector<std::pair<const Json*, const Json*>> todo{{&a, &b}};
    while (!todo.empty()) {
        auto [x, y] = todo.back();
        todo.pop_back();
        if (x->is_number() && y->is_number()) {
            if (x->is_number_float() || y->is_number_float()) {
                const double dx = x->template get<double>();
                const double dy = y->template get<double>();
                if (!(dx == dy || (std::isnan(dx) && std::isnan(dy)))) {
                    return false;
                }
            } else if (*x != *y) {
                return false;
            }
            continue;
        }
        if (x->type() != y->type()) {
            return false;
        }
        if (x->is_array()) {
            if (x->size() != y->size()) {
                return false;
            }
            for (std::size_t i = 0; i < x->size(); ++i) {
                todo.emplace_back(&(*x)[i], &(*y)[i]);
            }
        } else if (x->is_object()) {
            if (x->size() != y->size()) {
                return false;
            }
            for (auto it = x->begin(); it != x->end(); ++it) {
                auto other = y->find(it.key());
                if (other == y->end()) {
                    return false;
                }
                todo.emplace_back(&it.value(), &*other);
            }
        } else if (*x != *y) {
            return false;
        }
    }
    return true;
}

/// [[[...]]] nested depth levels deep, built without recursion.
template <class Json>
Json nested_arrays(std::size_t depth) {
    Json root = Json::array();
    Json* cur = &root;
    for (std::size_t i = 1; i < depth; ++i) {
        cur->push_back(Json::array());
        cur = &cur->back();
    }
    return root;
}

/// {"a":{"a":...{}}} nested depth levels deep, built without recursion.
template <class Json>
Json nested_objects(std::size_t depth) {
    Json root = Json::object();
    Json* cur = &root;
    for (std::size_t i = 1; i < depth; ++i) {
        cur = &((*cur)["a"] = Json::object());
    }
    return root;
}

/// unit repeated `times` times: payloads exactly at a length-class edge.
inline std::string repeat(std::string_view unit, std::size_t times) {
    std::string out;
    out.reserve(unit.size() * times);
    for (std::size_t i = 0; i < times; ++i) {
        out += unit;
    }
    return out;
}

/// The hex of the raw bytes of s (string payloads and keys inside expected vectors).
inline std::string hex_of(std::string_view s) { return hex(std::vector<std::uint8_t>(s.begin(), s.end())); }

/// The double whose IEEE 754 binary64 bits are `bits` (NaN payloads, one ulp past a limit).
using testkit::edges::double_from_bits;

/// The encode_error the reference throws for j, or nothing (a failure is recorded).
template <class Json>
std::optional<encode_error> refusal(format f, const Json& j, const encode_options& o = {}) {
    try {
        encode_to_vector(f, j, o);
    } catch (const encode_error& e) {
        return e;
    }
    ADD_FAILURE() << format_name(f) << " encoded without error: " << describe(j);
    return std::nullopt;
}

/// Counts sink calls as well as bytes, to check that a head and its number reach the sink in
/// one write.
struct call_counting_sink {
    std::size_t calls = 0;
    std::size_t bytes = 0;
    void write(std::uint8_t) {
        ++calls;
        ++bytes;
    }
    void write(const std::uint8_t*, std::size_t n) {
        ++calls;
        bytes += n;
    }
    std::size_t position() const { return bytes; }
};

struct oracle_comparison {
    int compared = 0;  // bytes equal to the oracle's
    int refused = 0;   // known_divergence() named an id, and the reference threw
};

/// Encodes `count` random values from `seed` with the reference and with the oracle and
/// requires equal bytes. A value for which known_divergence() names an id must be refused
/// instead, with an encode_error whose id() is error_for(divergence id). Stops at the first
/// mismatch, naming the seed and the case.
template <class Json, class ErrorFor>
oracle_comparison compare_with_oracle(format f, std::uint64_t seed, int count, const random_profile& profile,
                                      ErrorFor error_for) {
    std::mt19937_64 rng(seed);
    oracle_comparison counts;
    for (int i = 0; i < count; ++i) {
        const Json j = random_value<Json>(rng, profile);
        if (const char* id = known_divergence(f, j)) {
            ++counts.refused;
            SCOPED_TRACE(std::string(format_name(f)) + " seed " + std::to_string(seed) + " case " + std::to_string(i) +
                         " (" + id + ")");
            if (const auto e = refusal(f, j)) {
                EXPECT_EQ(e->id(), error_for(std::string_view(id))) << e->what();
            }
            continue;
        }
        ++counts.compared;
        const std::string expected = hex(oracle_encode(f, j));
        const std::string actual = hex(encode_to_vector(f, j));
        if (expected != actual) {
            ADD_FAILURE() << format_name(f) << " seed " << seed << " case " << i << ": " << describe(j)
                          << "\n  nlohmann  " << expected.substr(0, 400) << "\n  reference " << actual.substr(0, 400);
            break;
        }
    }
    return counts;
}

}  // namespace sinkcheck::test
