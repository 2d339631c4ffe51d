// sinkcheck/testkit/same_value.hpp — the one value equality: is a decoded value the value that
// was encoded?
//
// Numbers compare by kind and value: an integer never equals a float; integers of either
// signedness compare by value (-1 is not 2^64-1, which nlohmann's own == would say it is);
// floats bit for bit, except that every NaN equals every NaN (CBOR keeps neither sign nor
// payload, RFC 8949 §4.2.2). Strings and binary compare by bytes, binary subtypes too; objects as
// key sets, arrays element by element. Where a format changes a value's shape on the way
// through, its policy (policy_of, one case per format) says so and only there the comparison
// looks away. Iterative, so it works at any depth; reports the JSON pointer of the first
// difference. The fuzzers' round trips, `sinkcheck check` and the conformance runner's
// "equivalent" level all compare with this.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "sinkcheck/detail/walk.hpp"
#include "sinkcheck/options.hpp"

namespace sinkcheck::testkit {

/// What a format does to a value on its way through (nlohmann 3.11.2's decoders: docs/formats.md).
struct value_policy {
    /// no binary type: binary is written, and read back, as an array of its bytes
    bool binary_as_array = false;
    /// every binary value has a subtype: one without is written, and read back, as subtype 0
    bool binary_always_subtyped = false;
    /// ND-array objects ({"_ArrayType_", "_ArraySize_", "_ArrayData_"}) come back with their data
    /// in the array type's representation, and some shapes as a plain array of the data
    bool ndarray_reshaped = false;
};

/// Both sides decoded from the same format by the same decoder: nothing to look away from.
inline constexpr value_policy same_representation{};

constexpr value_policy policy_of(format f) noexcept {
    switch (f) {  // every format (-Wswitch)
        case format::cbor:
        case format::msgpack: return {};
        case format::ubjson:
        case format::bon8: return {true, false, false};
        case format::bjdata: return {true, false, true};
        case format::bson: return {false, true, false};
    }
    return {};
}

/// Where a decoded value first differs: the JSON pointer, and the two values there (`decoded` is
/// null when the decoded object lacks the member; for a byte of binary read back as an array,
/// the binary and the array).
template <class Json>
struct value_difference {
    std::string pointer;
    const Json* original;
    const Json* decoded;
};

namespace detail_same {

template <class Json>
bool same_integer(const Json& a, const Json& b) {
    const bool a_negative = !a.is_number_unsigned() && a.template get<std::int64_t>() < 0;
    const bool b_negative = !b.is_number_unsigned() && b.template get<std::int64_t>() < 0;
    if (a_negative || b_negative) {
        return a_negative && b_negative && a.template get<std::int64_t>() == b.template get<std::int64_t>();
    }
    return a.template get<std::uint64_t>() == b.template get<std::uint64_t>();
}

template <class Json>
bool same_number(const Json& a, const Json& b) {
    if (a.is_number_float() != b.is_number_float()) {
        return false;
    }
    if (!a.is_number_float()) {
        return same_integer(a, b);
    }
    const double x = a.template get<double>();
    const double y = b.template get<double>();
    if (std::isnan(x) || std::isnan(y)) {
        return std::isnan(x) && std::isnan(y);
    }
    return std::memcmp(&x, &y, sizeof x) == 0;
}

template <class Json>
bool is_ndarray(const Json& j) {
    return j.is_object() && j.size() == 3 && j.contains("_ArrayType_") && j.contains("_ArraySize_") &&
           j.contains("_ArrayData_") && j["_ArrayType_"].is_string();
}

/// The shapes nlohmann 3.11.2's from_bjdata returns as a plain array, not an annotated object.
template <class Json>
bool bjdata_reads_flat(const Json& size) {
    if (!size.is_array() || size.size() <= 1 || (size.size() == 2 && size[0] == 1)) {
        return true;
    }
    for (const auto& d : size) {
        if (d == 0) {
            return true;
        }
    }
    return false;
}

}  // namespace detail_same

/// nullopt when `decoded` equals `original` as a format with `policy` carries it, else where they
/// first differ. Each visited pair remembers its parent and its token, so a pointer is spelled
/// only for the difference (one string per node was most of a round trip's allocations).
template <class Json>
std::optional<value_difference<Json>> first_value_difference(const value_policy& policy, const Json& original,
                                                             const Json& decoded) {
    using string_t = typename Json::string_t;
    static constexpr std::size_t no_parent = static_cast<std::size_t>(-1);
    static const string_t array_size_key = "_ArraySize_";
    struct step {
        const Json* a;
        const Json* b;
        std::size_t parent;
        const string_t* key;  // the member's key, or nullptr for an array element
        std::size_t index;
    };
    std::vector<step> seen{{&original, &decoded, no_parent, nullptr, 0}};
    const auto pointer_of = [&seen](std::size_t s) {
        std::vector<std::size_t> chain;
        for (; s != no_parent && seen[s].parent != no_parent; s = seen[s].parent) {
            chain.push_back(s);
        }
        std::string p;
        for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
            if (seen[*c].key != nullptr) {
                sinkcheck::detail::append_pointer_token(p, *seen[*c].key);
            } else {
                p += "/" + std::to_string(seen[*c].index);
            }
        }
        return p;
    };
    const auto differs = [&](std::size_t s) { return value_difference<Json>{pointer_of(s), seen[s].a, seen[s].b}; };
    std::vector<std::size_t> todo{0};
    while (!todo.empty()) {
        const std::size_t current = todo.back();
        todo.pop_back();
        const Json& a = *seen[current].a;
        const Json& b = *seen[current].b;
        if (a.is_number() || b.is_number()) {
            if (!(a.is_number() && b.is_number() && detail_same::same_number(a, b))) {
                return differs(current);
            }
            continue;
        }
        if (a.is_binary()) {
            const auto& bytes = a.get_binary();
            if (policy.binary_as_array) {
                if (!b.is_array() || b.size() != bytes.size()) {
                    return differs(current);
                }
                for (std::size_t i = 0; i < bytes.size(); ++i) {
                    if (!b[i].is_number_integer() || b[i] != bytes[i]) {
                        auto d = differs(current);  // the binary and the array, pointing at the byte
                        d.pointer += "/" + std::to_string(i);
                        return d;
                    }
                }
                continue;
            }
            using container = typename Json::binary_t::container_type;
            if (!b.is_binary() ||
                static_cast<const container&>(b.get_binary()) != static_cast<const container&>(bytes)) {
                return differs(current);
            }
            const bool expect_subtype = bytes.has_subtype() || policy.binary_always_subtyped;
            const std::uint64_t subtype = bytes.has_subtype() ? bytes.subtype() : 0;
            if (b.get_binary().has_subtype() != expect_subtype ||
                (expect_subtype && b.get_binary().subtype() != subtype)) {
                return differs(current);
            }
            continue;
        }
        if (policy.ndarray_reshaped && detail_same::is_ndarray(a)) {
            // the data comes back typed (char as one-character strings, single rounded): type and
            // shape must survive, the element values are the oracle's business. nlohmann 3.11.2
            // reads some ND-arrays back as a plain array of their data: one dimension, a row
            // vector [1,n], or a zero dimension
            if (b.is_array() && b.size() == a["_ArrayData_"].size() &&
                detail_same::bjdata_reads_flat(a["_ArraySize_"])) {
                continue;
            }
            if (!detail_same::is_ndarray(b) || a["_ArrayType_"] != b["_ArrayType_"] ||
                a["_ArrayData_"].size() != b["_ArrayData_"].size()) {
                return differs(current);
            }
            seen.push_back({&a["_ArraySize_"], &b["_ArraySize_"], current, &array_size_key, 0});
            todo.push_back(seen.size() - 1);
            continue;
        }
        if (a.type() != b.type() || a.size() != b.size()) {
            return differs(current);
        }
        // children go on the stack last first, so the first difference in document order is found
        const std::size_t first_child = todo.size();
        if (a.is_array()) {
            for (std::size_t i = 0; i < a.size(); ++i) {
                seen.push_back({&a[i], &b[i], current, nullptr, i});
                todo.push_back(seen.size() - 1);
            }
        } else if (a.is_object()) {
            for (auto ai = a.begin(); ai != a.end(); ++ai) {
                const auto bi = b.find(ai.key());
                if (bi == b.end()) {
                    auto d = differs(current);
                    sinkcheck::detail::append_pointer_token(d.pointer, ai.key());
                    d.original = &ai.value();
                    d.decoded = nullptr;
                    return d;
                }
                seen.push_back({&ai.value(), &*bi, current, &ai.key(), 0});
                todo.push_back(seen.size() - 1);
            }
        } else if (a != b) {
            return differs(current);
        }
        std::reverse(todo.begin() + static_cast<std::ptrdiff_t>(first_child), todo.end());
    }
    return std::nullopt;
}

/// Structural equality of two values decoded the same way (same_representation).
template <class Json>
bool same_value(const Json& a, const Json& b) {
    return !first_value_difference(same_representation, a, b).has_value();
}

}  // namespace sinkcheck::testkit
