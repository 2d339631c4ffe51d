// differential.hpp — the check behind every per-format differential target.
//
// An input is a value: parsed as JSON text when it is JSON (with one of the format's option sets,
// chosen by the input's length), else built op by op from its bytes (value_from_bytes.hpp), which
// reaches what no parser produces. The value is encoded by the reference encoder into a
// memory_writer, and that output must equal
//   - nlohmann 3.11.2's, unless known_divergence() names a recorded divergence, or the value is
//     too deep for 3.11.2's recursive writer (depth > oracle_depth);
//   - every sink's in the catalogue (the windowed ones at a window the input picks), including
//     which error is thrown;
//   - the value itself after decoding (nlohmann's decoder; sinkcheck's own for BON8), and for
//     BON8 the canonical form, judged apart from that decoder (bon8_canonical.hpp);
// and the reference must refuse exactly the values whose text the kit's own UTF-8 validator
// (utf8_oracle.hpp) finds not UTF-8: known_divergence() asks the encoders' own check, which
// cannot be the judge of itself. Every refusal must name the error id and the JSON pointer of
// the first value the kit's own walk finds refusable (refusals.hpp), and a recorded divergence
// must be the difference its record describes (divergences.hpp), not any difference.
// Encoder exceptions are never swallowed: an error in one place and not in another is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sinkcheck/testkit/fuzz_report.hpp"

namespace sinkcheck::fuzz {

/// Deepest value handed to nlohmann 3.11.2: its writers, decoders, dump() and == recurse.
inline constexpr std::size_t oracle_depth = 200;

/// Nesting depth of j (a scalar is 1), computed without recursion.
template <class Json>
std::size_t depth_of(const Json& j) {
    std::vector<std::pair<const Json*, std::size_t>> todo{{&j, 1}};
    std::size_t deepest = 0;
    while (!todo.empty()) {
        const auto [node, d] = todo.back();
        todo.pop_back();
        deepest = d > deepest ? d : deepest;
        if (node->is_array() || node->is_object()) {
            for (const auto& child : *node) {
                todo.emplace_back(&child, d + 1);
            }
        }
    }
    return deepest;
}

/// The body of the differential fuzz target of format f (its crash sites are target_of(f)'s).
/// Compiled once, in the differential targets' library (differential.cpp): each target is a call
/// with its format, so the checks are not compiled again per format.
int run_differential(format f, const std::uint8_t* data, std::size_t size);

}  // namespace sinkcheck::fuzz
