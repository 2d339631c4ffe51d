// planted_bug.hpp — the reference encoder with one planted bug, for the --generate tests: in
// CBOR the unsigned integer 24 is written with the one-byte head 0x18 and no argument byte
// (RFC 8949 §3: 24 takes 0x18 0x18). Both conform_generate_test (linked) and
// conform_hostile_encoder (kind "cbor-24", a process) serve it.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"

namespace sinkcheck::conform::test {

inline std::vector<std::uint8_t> encode_with_short_24(format f, const nlohmann::json& value, encode_options o) {
    std::vector<value_mark> marks;
    o.marks = &marks;
    std::vector<std::uint8_t> out = encode_to_vector(f, value, o);
    if (f != format::cbor) return out;
    // marks are the values in the order written: the same pre-order walk pairs them with nodes
    std::vector<const nlohmann::json*> nodes;
    std::vector<const nlohmann::json*> stack{&value};
    while (!stack.empty()) {
        const nlohmann::json* j = stack.back();
        stack.pop_back();
        nodes.push_back(j);
        if (j->is_structured()) {
            std::vector<const nlohmann::json*> children;
            for (const auto& c : *j) children.push_back(&c);
            stack.insert(stack.end(), children.rbegin(), children.rend());
        }
    }
    for (std::size_t i = std::min(nodes.size(), marks.size()); i-- > 0;) {
        const nlohmann::json& j = *nodes[i];
        const std::size_t at = marks[i].offset;
        if (j.is_number_integer() && j.get<std::int64_t>() == 24 && at + 1 < out.size() && out[at] == 0x18) {
            out.erase(out.begin() + static_cast<std::ptrdiff_t>(at) + 1);
        }
    }
    return out;
}

}  // namespace sinkcheck::conform::test

namespace sinkcheck::conform::test {

/// The reference encoding of value with every node for which wrong(node) holds changed by
/// change(node): a planted bug confined to one class of values (an integer band, a string
/// length, an array size), for the tests that --generate reaches every class.
template <class Wrong, class Change>
std::vector<std::uint8_t> encode_wrong_where(format f, const nlohmann::json& value, const encode_options& o,
                                             Wrong wrong, Change change) {
    nlohmann::json copy = value;
    std::vector<nlohmann::json*> stack{&copy};
    bool changed = false;
    while (!stack.empty()) {
        nlohmann::json* j = stack.back();
        stack.pop_back();
        if (wrong(*j)) {
            change(*j);
            changed = true;
        }
        if (j->is_structured()) {
            for (auto& c : *j) stack.push_back(&c);
        }
    }
    return encode_to_vector(f, changed ? copy : value, o);
}

/// The magnitude of an integer node, or 0 for any other node.
inline std::uint64_t integer_magnitude(const nlohmann::json& j) {
    if (j.is_number_unsigned()) return j.get<std::uint64_t>();
    if (j.is_number_integer()) {
        const auto v = j.get<std::int64_t>();
        return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    }
    return 0;
}

/// Whether s holds a three-byte UTF-8 sequence (lead byte 0xE0..0xEF).
inline bool has_three_byte_character(const std::string& s) {
    for (const char c : s) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0xE0 && b < 0xF0) return true;
    }
    return false;
}

}  // namespace sinkcheck::conform::test
