// sinkcheck/conform/canonical.hpp — the canonical level's expected bytes for a value.
//
// CBOR's is RFC 8949 §4.2.1 core deterministic encoding (with §4.2.2's one NaN); BON8's canonical
// form is the reference's own bytes. The corpus generator writes the CBOR "/canonical" vectors
// from this model, and `sinkcheck conform --generate --level canonical` grades by it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/options.hpp"

namespace sinkcheck::conform {

/// RFC 8949 §4.2.1: every argument in its shortest head, definite lengths, each float in the
/// shortest of binary16/32/64 that holds it exactly (NaN as f97e00, §4.2.2), map keys in the
/// bytewise order of their encodings, a binary's subtype as a tag. Iterative (any depth). Throws
/// std::invalid_argument for a discarded value, which has no encoding.
std::vector<std::uint8_t> canonical_cbor(const nlohmann::json& value);

/// Whether the format defines a canonical encoding (CBOR and BON8).
bool has_canonical_encoding(format f) noexcept;

/// The canonical level's bytes for a value whose reference (exact level) bytes are exact: BON8's
/// are exact itself, CBOR's canonical_cbor(value); nothing for a format without one.
std::optional<std::vector<std::uint8_t>> canonical_bytes(format f, const nlohmann::json& value,
                                                         const std::vector<std::uint8_t>& exact);

}  // namespace sinkcheck::conform
