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
/// the first difference.
template <class Json>
std::optional<std::string> first_difference(format f, const Json& original, const Json& decoded) {
    const bool binary_is_array = f == format::ubjson || f == format::bjdata || f == format::bon8;
    struct item {
        const Json* a;
        const Json* b;
        std::string pointer;
    };
    std::vector<item> todo{{&original, &decoded, std::string()}};
    while (!todo.empty()) {
        item it = std::move(todo.back());
        todo.pop_back();
        const Json& a = *it.a;
        const Json& b = *it.b;
        if (a.is_number() || b.is_number()) {
            if (!(a.is_number() && b.is_number() && detail_same::same_number(a, b))) {
                return it.pointer;
            }
            continue;
        }
        if (a.is_binary()) {
            const auto& bytes = a.get_binary();
            if (binary_is_array) {
                if (!b.is_array() || b.size() != bytes.size()) {
                    return it.pointer;
                }
                for (std::size_t i = 0; i < bytes.size(); ++i) {
                    if (!b[i].is_number_integer() || b[i] != bytes[i]) {
                        return it.pointer + "/" + std::to_string(i);
                    }
                }
                continue;
            }
            using container = typename Json::binary_t::container_type;
            if (!b.is_binary() ||
                static_cast<const container&>(b.get_binary()) != static_cast<const container&>(bytes)) {
                return it.pointer;
            }
            const bool expect_subtype = bytes.has_subtype() || f == format::bson;
            const std::uint64_t subtype = bytes.has_subtype() ? bytes.subtype() : 0;
            if (b.get_binary().has_subtype() != expect_subtype ||
                (expect_subtype && b.get_binary().subtype() != subtype)) {
                return it.pointer;
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
                return it.pointer;
            }
            todo.push_back({&a["_ArraySize_"], &b["_ArraySize_"], it.pointer + "/_ArraySize_"});
            continue;
        }
        if (a.type() != b.type() || a.size() != b.size()) {
            return it.pointer;
        }
        if (a.is_array()) {
            for (std::size_t i = 0; i < a.size(); ++i) {
                todo.push_back({&a[i], &b[i], it.pointer + "/" + std::to_string(i)});
            }
        } else if (a.is_object()) {
            for (auto ai = a.begin(); ai != a.end(); ++ai) {
                std::string p = it.pointer;
                sinkcheck::detail::append_pointer_token(p, ai.key());
                const auto bi = b.find(ai.key());
                if (bi == b.end()) {
                    return p;
                }
                todo.push_back({&ai.value(), &*bi, std::move(p)});
            }
        } else if (a != b) {
            return it.pointer;
        }
    }
    return std::nullopt;
}

}  // namespace sinkcheck::fuzz
