// ubjson_family_checks.hpp — checks ubjson_test.cpp and bjdata_test.cpp run alike.
//
// UBJSON and BJData share one writer (format/ubjson.hpp) and the same four option combinations,
// so the randomized differential test (with options, which test_support's compare_with_oracle
// does not take) and the refused-options test live here once; the vectors stay in each test.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.hpp"

namespace sinkcheck::test::ubjson_family {

using sinkcheck::test::call_counting_sink;
using sinkcheck::test::hex;
using sinkcheck::test::hex_of;
using sinkcheck::test::refusal;
using sinkcheck::test::repeat;
using sinkcheck::test::unhex;

inline constexpr double inf = std::numeric_limits<double>::infinity();
inline const double qnan = std::numeric_limits<double>::quiet_NaN();

/// nlohmann's to_ubjson / to_bjdata (use_size, use_type) as encode_options.
inline encode_options options(bool use_size, bool use_type) {
    encode_options o;
    o.use_size = use_size;
    o.use_type = use_type;
    return o;
}

inline const encode_options plain = options(false, false);
inline const encode_options sized = options(true, false);
inline const encode_options typed = options(true, true);
inline const encode_options type_only = options(false, true);  // refused: '$' needs '#'

/// use_type without use_size: std::invalid_argument before a single byte reaches the sink, and
/// the divergence function names ubjson-type-without-size whatever the value.
template <class Json>
void expect_options_refused(format f, const Json& j) {
    memory_writer sink;
    EXPECT_THROW(encode(f, j, sink, type_only), std::invalid_argument) << describe(j);
    EXPECT_EQ(sink.position(), 0u) << describe(j);
    const char* id = known_divergence(f, j, type_only);
    EXPECT_STREQ(id == nullptr ? "" : id, "ubjson-type-without-size");
}

/// One value's hex without options, with use_size, and with use_size + use_type; the fourth
/// combination, use_type alone, must be refused.
template <class Json>
void expect_each_option(format f, const Json& j, std::string_view plain_hex, std::string_view sized_hex,
                        std::string_view typed_hex) {
    expect_bytes(f, j, plain_hex, plain);
    expect_bytes(f, j, sized_hex, sized);
    expect_bytes(f, j, typed_hex, typed);
    expect_options_refused(f, j);
}

struct integer_vector {
    std::int64_t value;
    const char* hex;
};

/// Each value as number_integer and, when non-negative, as number_unsigned: both ladders must
/// give the same bytes (nlohmann 3.11.2 writes them alike).
inline void expect_integer_vectors(format f, const std::vector<integer_vector>& vectors) {
    for (const auto& v : vectors) {
        expect_bytes(f, nlohmann::json(v.value), v.hex);
        if (v.value >= 0) {
            expect_bytes(f, nlohmann::json(static_cast<std::uint64_t>(v.value)), v.hex);
        }
    }
}

struct length_vector {
    std::size_t length;
    const char* head;  // S and the length
};

/// A string of `length` bytes "x" per vector: its head, then the bytes as they are.
inline void expect_string_heads(format f, const std::vector<length_vector>& vectors) {
    for (const auto& v : vectors) {
        expect_bytes(f, nlohmann::json(std::string(v.length, 'x')), v.head + repeat("78", v.length));
    }
}

/// A value on which the reference deliberately differs from nlohmann 3.11.2.
struct divergent_vector {
    nlohmann::json value;
    const char* nlohmann_hex;  // measured
    const char* reference_hex;
    encode_options options;
};

/// For each vector: 3.11.2 still writes what was measured, the reference writes what the
/// specification asks for, and the divergence function names `id`.
inline void expect_divergent_vectors(format f, const char* id, const std::vector<divergent_vector>& vectors) {
    for (const auto& v : vectors) {
        EXPECT_EQ(hex(oracle_encode(f, v.value, v.options)), hex(unhex(v.nlohmann_hex))) << describe(v.value);
        EXPECT_EQ(hex(encode_to_vector(f, v.value, v.options)), hex(unhex(v.reference_hex))) << describe(v.value);
        const char* named = known_divergence(f, v.value, v.options);
        EXPECT_STREQ(named == nullptr ? "" : named, id) << describe(v.value);
    }
}

/// Without options, arrays nested `depth` deep are depth "[" then depth "]".
inline void expect_plain_nesting(format f, const nlohmann::json& deep, std::size_t depth) {
    const auto p = encode_to_vector(f, deep);
    ASSERT_EQ(p.size(), 2 * depth);
    EXPECT_EQ(std::count(p.begin(), p.begin() + static_cast<long>(depth), '['), static_cast<long>(depth));
    EXPECT_EQ(std::count(p.begin() + static_cast<long>(depth), p.end(), ']'), static_cast<long>(depth));
}

struct differential_counts {
    int compared = 0;     // bytes equal to nlohmann 3.11.2's
    int substituted = 0;  // of those, compared after ±Inf/NaN became null for the oracle
    int divergent = 0;    // skipped: the divergence function names an id
    int refused = 0;      // options refused (use_type without use_size)
};

/// j with every ±Inf and NaN replaced by null: what the UBJSON reference writes for j is what
/// 3.11.2 writes for this (ubjson-nonfinite-as-null), so such values are still compared.
template <class Json>
Json nonfinite_to_null(const Json& j) {
    Json out = j;
    std::vector<Json*> todo{&out};
    while (!todo.empty()) {
        Json* v = todo.back();
        todo.pop_back();
        if (v->is_number_float() && !std::isfinite(v->template get<double>())) {
            *v = nullptr;
        } else if (v->is_array() || v->is_object()) {
            for (auto& child : *v) {
                todo.push_back(&child);
            }
        }
    }
    return out;
}

/// Encodes `count` random values with the reference and with nlohmann 3.11.2 and requires equal
/// bytes, or the same type_error id when 3.11.2 throws; values the divergence function flags are
/// skipped, and a reference encode_error on an unflagged value is a failure. use_type without
/// use_size is checked to be refused for every value instead (3.11.2 would assert).
template <class Json>
differential_counts differential(format f, const encode_options& o, std::uint64_t seed, int count,
                                 const random_profile& profile = {}) {
    std::mt19937_64 rng(seed);
    differential_counts n;
    for (int i = 0; i < count; ++i) {
        const Json j = random_value<Json>(rng, profile);
        const auto where = [&] {
            return std::string(format_name(f)) + " seed " + std::to_string(seed) + " case " + std::to_string(i) +
                   " use_size " + std::to_string(o.use_size) + " use_type " + std::to_string(o.use_type) + ": " +
                   describe(j);
        };
        if (o.use_type && !o.use_size) {
            memory_writer sink;
            try {
                encode(f, j, sink, o);
                ADD_FAILURE() << where() << ": use_type without use_size accepted";
            } catch (const std::invalid_argument&) {
                EXPECT_EQ(sink.position(), 0u) << where();
            }
            ++n.refused;
            continue;
        }
        const Json* oracle_input = &j;
        Json substitute;
        if (const char* id = known_divergence(f, j, o)) {
            const bool nonfinite = std::string_view(id) == "ubjson-nonfinite-as-null";
            if (nonfinite) {
                substitute = nonfinite_to_null(j);
            }
            if (!nonfinite || known_divergence(f, substitute, o) != nullptr) {
                ++n.divergent;
                continue;
            }
            oracle_input = &substitute;
            ++n.substituted;
        }
        std::vector<std::uint8_t> expected;
        int oracle_error = 0;
        try {
            expected = oracle_encode(f, *oracle_input, o);
        } catch (const nlohmann::json::exception& e) {
            oracle_error = e.id;
        }
        try {
            const auto actual = encode_to_vector(f, j, o);
            if (oracle_error != 0 || actual != expected) {
                ADD_FAILURE() << where() << "\n  nlohmann  "
                              << (oracle_error != 0 ? "error " + std::to_string(oracle_error)
                                                    : hex(expected).substr(0, 400))
                              << "\n  reference " << hex(actual).substr(0, 400);
                return n;
            }
        } catch (const encode_error& e) {
            if (e.id() != oracle_error) {
                ADD_FAILURE() << where() << "\n  nlohmann  "
                              << (oracle_error != 0 ? "error " + std::to_string(oracle_error)
                                                    : hex(expected).substr(0, 400))
                              << "\n  reference " << e.what();
                return n;
            }
        }
        ++n.compared;
    }
    return n;
}

/// The differential test for one format over all four option combinations, plain and hostile
/// random values, json and ordered_json; prints the seed and the counts.
inline void differential_all_options(format f, int per_combination) {
    const std::uint64_t seed = sinkcheck::test::seed();
    random_profile hostile;
    hostile.hostile = true;
    differential_counts total;
    const encode_options combinations[] = {plain, sized, typed, type_only};
    for (std::size_t c = 0; c < 4; ++c) {
        const encode_options& o = combinations[c];
        const differential_counts parts[] = {
            differential<nlohmann::json>(f, o, seed + c, per_combination),
            differential<nlohmann::ordered_json>(f, o, seed + 10 + c, per_combination / 4),
            differential<nlohmann::json>(f, o, seed + 20 + c, per_combination / 4, hostile),
        };
        for (const auto& p : parts) {
            total.compared += p.compared;
            total.substituted += p.substituted;
            total.divergent += p.divergent;
            total.refused += p.refused;
        }
    }
    std::cout << "[ " << format_name(f) << " ] seed " << seed << " (SINKCHECK_SEED overrides): " << total.compared
              << " random values byte-identical to nlohmann 3.11.2 over 3 option combinations (" << total.substituted
              << " with ±Inf/NaN as null for the oracle), " << total.divergent << " skipped as known divergences, "
              << total.refused << " refused for use_type without use_size\n";
    EXPECT_GE(total.compared, 3 * per_combination);
    EXPECT_GT(total.divergent, 0);  // the hostile values must be recognised
    EXPECT_EQ(total.refused, per_combination + 2 * (per_combination / 4));
}

}  // namespace sinkcheck::test::ubjson_family
