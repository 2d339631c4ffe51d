// sinkcheck/format/bjdata.hpp — BJData (Draft 2) encoder, byte-identical to nlohmann 3.11.2 to_bjdata.
//
// BJData is UBJSON Draft 12 made little-endian, with unsigned markers u m M in the integer
// ladder, '$' restricted to fixed-size types, and packed ND-arrays; the writer lives in
// format/ubjson.hpp, shared with UBJSON. This header only names BJData's entry points.
// Divergences from 3.11.2: reference/KNOWN_DIVERGENCES.md (BJData).
#pragma once

#include "sinkcheck/format/ubjson.hpp"
#include "sinkcheck/options.hpp"

namespace sinkcheck {

/// Writes j as BJData to sink: byte for byte nlohmann 3.11.2's to_bjdata(j, use_size, use_type),
/// ND-array objects included, except for the divergences bjdata_divergence() names.
/// use_type without use_size throws std::invalid_argument before writing anything.
template <class Json, class Sink>
void encode_bjdata(const Json& j, Sink& sink, const encode_options& options = {}) {
    detail::ubjson_family_encode<true>(j, sink, options);
}

/// The KNOWN_DIVERGENCES id that applies to j in BJData with these options ("invalid-utf8",
/// "discarded-value", "ubjson-type-without-size", "bjdata-ndarray-punned-float",
/// "bjdata-ndarray-invalid"), or nullptr when encode_bjdata writes what 3.11.2 writes.
template <class Json>
const char* bjdata_divergence(const Json& j, const encode_options& options = {}) {
    return detail::ubjson_family_divergence<true>(j, options);
}

}  // namespace sinkcheck
