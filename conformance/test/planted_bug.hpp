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
