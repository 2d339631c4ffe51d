// same_value.hpp — does a decoded value equal the value that was encoded?
//
// Round trips are exact except where the format itself changes the value's shape, and only
// there this comparison looks away: UBJSON and BJData have no binary type (nlohmann 3.11.2
// writes an array of uint8), BSON always stores a subtype (0 when the value had none), and a
// BJData ND-array comes back with its data in the array type's own representation. Numbers
// compare by kind (integer or float) and value; floats bit for bit, except that every NaN
// equals every NaN (CBOR keeps neither sign nor payload, RFC 8949 §4.2.2). Iterative, so it
// works at any depth; reports the JSON pointer of the first difference.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sinkcheck/detail/walk.hpp"
#include "sinkcheck/options.hpp"

namespace sinkcheck::fuzz {

namespace detail_same {

template <class Json>
bool same_number(const Json& a, const Json& b) {
    if (a.is_number_float() != b.is_number_float()) {
        return false;
    }
    if (a.is_number_float()) {
        const double x = a.template get<double>();
        const double y = b.template get<double>();
        if (std::isnan(x) || std::isnan(y)) {
            return std::isnan(x) && std::isnan(y);
        }
        return std::memcmp(&x, &y, sizeof x) == 0;
    }
    // integers: number_integer and number_unsigned compare by value (== does that)
    return a == b;
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

/// nullopt when `decoded` equals `original` as format f carries it, else the JSON pointer of
/// the first difference. Each visited pair remembers its parent and its token, so a pointer is
/// spelled only for the difference (one string per node was most of a round trip's allocations).
template <class Json>
std::optional<std::string> first_difference(format f, const Json& original, const Json& decoded) {
    const bool binary_is_array = f == format::ubjson || f == format::bjdata || f == format::bon8;
    using string_t = typename Json::string_t;
    static constexpr std::size_t none = static_cast<std::size_t>(-1);
    static const string_t array_size_key = "_ArraySize_";
    struct step {
        const Json* a;
        const Json* b;
        std::size_t parent;
        const string_t* key;  // the member's key, or nullptr for an array element
        std::size_t index;
    };
    std::vector<step> seen{{&original, &decoded, none, nullptr, 0}};
    const auto pointer_of = [&seen](std::size_t s, const string_t* last_key = nullptr) {
        std::vector<std::size_t> chain;
        for (; s != none && seen[s].parent != none; s = seen[s].parent) {
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
        if (last_key != nullptr) {
            sinkcheck::detail::append_pointer_token(p, *last_key);
        }
        return p;
    };
    std::vector<std::size_t> todo{0};
    while (!todo.empty()) {
        const std::size_t current = todo.back();
        todo.pop_back();
        const Json& a = *seen[current].a;
        const Json& b = *seen[current].b;
        if (a.is_number() || b.is_number()) {
            if (!(a.is_number() && b.is_number() && detail_same::same_number(a, b))) {
                return pointer_of(current);
            }
            continue;
        }
        if (a.is_binary()) {
            const auto& bytes = a.get_binary();
            if (binary_is_array) {
                if (!b.is_array() || b.size() != bytes.size()) {
                    return pointer_of(current);
                }
                for (std::size_t i = 0; i < bytes.size(); ++i) {
                    if (!b[i].is_number_integer() || b[i] != bytes[i]) {
                        return pointer_of(current) + "/" + std::to_string(i);
                    }
                }
                continue;
            }
            using container = typename Json::binary_t::container_type;
            if (!b.is_binary() ||
                static_cast<const container&>(b.get_binary()) != static_cast<const container&>(bytes)) {
                return pointer_of(current);
            }
            const bool expect_subtype = bytes.has_subtype() || f == format::bson;
            const std::uint64_t subtype = bytes.has_subtype() ? bytes.subtype() : 0;
            if (b.get_binary().has_subtype() != expect_subtype ||
                (expect_subtype && b.get_binary().subtype() != subtype)) {
                return pointer_of(current);
            }
            continue;
        }
        if (f == format::bjdata && detail_same::is_ndarray(a)) {
            // the data comes back typed (char as one-character strings, single rounded):
            // type and shape must survive, the element values are the oracle's business.
            // nlohmann 3.11.2 quirk: from_bjdata reads some ND-arrays back as a plain array
            // of their data: one dimension, a row vector [1,n], or a zero dimension
            if (b.is_array() && b.size() == a["_ArrayData_"].size() &&
                detail_same::bjdata_reads_flat(a["_ArraySize_"])) {
                continue;
            }
            if (!detail_same::is_ndarray(b) || a["_ArrayType_"] != b["_ArrayType_"] ||
                a["_ArrayData_"].size() != b["_ArrayData_"].size()) {
                return pointer_of(current);
            }
            seen.push_back({&a["_ArraySize_"], &b["_ArraySize_"], current, &array_size_key, 0});
            todo.push_back(seen.size() - 1);
            continue;
        }
        if (a.type() != b.type() || a.size() != b.size()) {
            return pointer_of(current);
        }
        if (a.is_array()) {
            for (std::size_t i = 0; i < a.size(); ++i) {
                seen.push_back({&a[i], &b[i], current, nullptr, i});
                todo.push_back(seen.size() - 1);
            }
        } else if (a.is_object()) {
            for (auto ai = a.begin(); ai != a.end(); ++ai) {
                const auto bi = b.find(ai.key());
                if (bi == b.end()) {
                    return pointer_of(current, &ai.key());
                }
                seen.push_back({&ai.value(), &*bi, current, &ai.key(), 0});
                todo.push_back(seen.size() - 1);
            }
        } else if (a != b) {
            return pointer_of(current);
        }
    }
    return std::nullopt;
}

}  // namespace sinkcheck::fuzz
