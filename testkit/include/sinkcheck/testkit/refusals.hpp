// sinkcheck/testkit/refusals.hpp — which value an encoder must refuse first, and where, worked out
// apart from the encoders.
//
// Comparing a refusal with nlohmann's by its error id alone lets an encoder name the wrong value:
// a pointer one element off, the parent instead of the child, the last offender instead of the
// first. This walks the value in the order every encoder writes it (depth first, an object's
// members in its own order, a key before its value) and stops at the first node the format must
// refuse, with the JSON pointer (RFC 6901) the refusal must name. Text is judged by the kit's own
// UTF-8 validator (utf8_oracle.hpp), never by the encoders' check. The rules, per
// reference/KNOWN_DIVERGENCES.md and nlohmann 3.11.2's ids:
//   - every format: a discarded value, type_error.901; a string or key that is not UTF-8,
//     type_error.316 (a key's pointer is its member's);
//   - MessagePack: a binary subtype above 255, out_of_range.902;
//   - BSON: a top-level value that is not an object, type_error.317 at ""; a key holding U+0000,
//     out_of_range.409 (before the key's UTF-8); a binary subtype above 255, out_of_range.902;
//     subtype 2 whose data does not start with the int32 count of the rest, type_error.904; an
//     unsigned integer above INT64_MAX, out_of_range.407, but only when nothing else is refused
//     anywhere (3.11.2 finds it while writing, after its sizing pass checked the rest);
//   - BON8: an unsigned integer above INT64_MAX, out_of_range.407;
//   - BJData: an object of exactly the keys _ArrayType_, _ArraySize_ and _ArrayData_ whose
//     _ArrayType_ is not a string, type_error.302, at the object, before its members.
// Length overflows (out_of_range.903, 2^31 or 2^32 bytes or elements) are beyond what the
// generators build and are not modelled. Iterative: any depth.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sinkcheck/options.hpp"
#include "sinkcheck/testkit/utf8_oracle.hpp"

namespace sinkcheck::testkit {

/// A refusal: "type_error.316" and the JSON pointer of the offending value.
struct refusal {
    std::string error;
    std::string pointer;

    std::string describe() const { return error + " at '" + pointer + "'"; }
    bool operator==(const refusal& o) const { return error == o.error && pointer == o.pointer; }
    bool operator!=(const refusal& o) const { return !(*this == o); }
};

namespace detail_refusals {

/// True for binary data laid out as bsonspec.org asks of subtype 2: an int32 (little-endian)
/// count of the bytes after it, then those bytes.
template <class Binary>
bool framed_old_binary(const Binary& b) {
    if (b.size() < 4) {
        return false;
    }
    const std::uint64_t count =
        std::uint64_t{b[0]} | std::uint64_t{b[1]} << 8 | std::uint64_t{b[2]} << 16 | std::uint64_t{b[3]} << 24;
    return count == b.size() - 4;
}

/// What f refuses in the node itself (not its children or its key), or "".
template <class Json>
std::string node_refusal(format f, const Json& j) {
    if (j.is_discarded()) {
        return "type_error.901";
    }
    if (j.is_string() && first_invalid_utf8(j.template get_ref<const std::string&>()) != utf8_ok) {
        return "type_error.316";
    }
    if (j.is_binary() && j.get_binary().has_subtype()) {
        const auto& b = j.get_binary();
        if ((f == format::msgpack || f == format::bson) && b.subtype() > 255) {
            return "out_of_range.902";
        }
        if (f == format::bson && b.subtype() == 2 && !framed_old_binary(b)) {
            return "type_error.904";
        }
    }
    if (f == format::bon8 && j.is_number_unsigned() &&
        j.template get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
        return "out_of_range.407";
    }
    if (f == format::bjdata && j.is_object() && j.size() == 3 && j.contains("_ArraySize_") &&
        j.contains("_ArrayData_") && j.find("_ArrayType_") != j.end() && !j.find("_ArrayType_")->is_string()) {
        return "type_error.302";
    }
    return {};
}

}  // namespace detail_refusals

/// The refusal an encoder of format f must make for j (the first offending value in writing
/// order), or nullopt when it must write j. Options do not change what is refused (use_type
/// without use_size is an options error, refused before any value is looked at).
template <class Json>
std::optional<refusal> first_refusal(format f, const Json& j, const encode_options& = {}) {
    if (f == format::bson && !j.is_object()) {
        return refusal{"type_error.317", ""};
    }
    // Each node seen keeps its parent and its token, so a pointer is spelled out only for the
    // node that is refused.
    struct seen {
        const Json* node;
        std::size_t parent;
        const std::string* key;  // the member's key, or null for an array element and the root
        std::size_t index;
    };
    static constexpr std::size_t root = static_cast<std::size_t>(-1);
    std::vector<seen> nodes{{&j, root, nullptr, 0}};
    std::vector<std::size_t> todo{0};
    const auto pointer_of = [&nodes](std::size_t at) {
        std::vector<std::string> tokens;
        for (std::size_t i = at; nodes[i].parent != root; i = nodes[i].parent) {
            tokens.push_back(nodes[i].key != nullptr ? pointer_token(*nodes[i].key) : std::to_string(nodes[i].index));
        }
        std::string out;
        for (auto t = tokens.rbegin(); t != tokens.rend(); ++t) {
            out += "/" + *t;
        }
        return out;
    };
    std::optional<refusal> late;  // BSON's out_of_range.407, refused only when nothing else is
    while (!todo.empty()) {
        const std::size_t at = todo.back();
        todo.pop_back();
        const seen s = nodes[at];
        if (s.key != nullptr) {
            if (f == format::bson && s.key->find('\0') != std::string::npos) {
                return refusal{"out_of_range.409", pointer_of(at)};
            }
            if (first_invalid_utf8(*s.key) != utf8_ok) {
                return refusal{"type_error.316", pointer_of(at)};
            }
        }
        const std::string what = detail_refusals::node_refusal(f, *s.node);
        if (!what.empty()) {
            return refusal{what, pointer_of(at)};
        }
        if (f == format::bson && !late && s.node->is_number_unsigned() &&
            s.node->template get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
            late = refusal{"out_of_range.407", pointer_of(at)};
        }
        // children pushed last to first, so that they come off the stack in writing order
        const std::size_t first = todo.size();
        if (s.node->is_object()) {
            for (auto it = s.node->begin(); it != s.node->end(); ++it) {
                nodes.push_back({&it.value(), at, &it.key(), 0});
                todo.push_back(nodes.size() - 1);
            }
        } else if (s.node->is_array()) {
            std::size_t i = 0;
            for (const auto& child : *s.node) {
                nodes.push_back({&child, at, nullptr, i++});
                todo.push_back(nodes.size() - 1);
            }
        }
        std::reverse(todo.begin() + static_cast<std::ptrdiff_t>(first), todo.end());
    }
    return late;
}

}  // namespace sinkcheck::testkit
