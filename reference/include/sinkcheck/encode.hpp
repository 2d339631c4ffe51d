// sinkcheck/encode.hpp — one entry point over the six format encoders.
//
// Each format header provides
//   template <class Json, class Sink> void encode_<fmt>(const Json&, Sink&, const encode_options&);
// and, for the five formats nlohmann 3.11.2 writes,
//   template <class Json> const char* <fmt>_divergence(const Json&, const encode_options&);
// which returns the KNOWN_DIVERGENCES.md id that applies to the value (or nullptr when the
// reference must agree with 3.11.2 byte for byte).
#pragma once

#include <cstdint>
#include <vector>

#include "sinkcheck/format/bjdata.hpp"
#include "sinkcheck/format/bon8.hpp"
#include "sinkcheck/format/bson.hpp"
#include "sinkcheck/format/cbor.hpp"
#include "sinkcheck/format/msgpack.hpp"
#include "sinkcheck/format/ubjson.hpp"
#include "sinkcheck/options.hpp"
#include "sinkcheck/sink/memory_writer.hpp"

namespace sinkcheck {

template <class Json, class Sink>
void encode(format f, const Json& j, Sink& sink, const encode_options& options = {}) {
    switch (f) {
        case format::cbor: encode_cbor(j, sink, options); return;
        case format::msgpack: encode_msgpack(j, sink, options); return;
        case format::ubjson: encode_ubjson(j, sink, options); return;
        case format::bjdata: encode_bjdata(j, sink, options); return;
        case format::bson: encode_bson(j, sink, options); return;
        case format::bon8: encode_bon8(j, sink, options); return;
    }
}

template <format>
inline constexpr bool no_encoder_for = false;

/// encode() with the format fixed at compile time: code that is compiled per format (a fuzz
/// target, a part of the sink registry) instantiates one encoder per sink instead of six.
template <format F, class Json, class Sink>
void encode_as(const Json& j, Sink& sink, const encode_options& options = {}) {
    if constexpr (F == format::cbor) {
        encode_cbor(j, sink, options);
    } else if constexpr (F == format::msgpack) {
        encode_msgpack(j, sink, options);
    } else if constexpr (F == format::ubjson) {
        encode_ubjson(j, sink, options);
    } else if constexpr (F == format::bjdata) {
        encode_bjdata(j, sink, options);
    } else if constexpr (F == format::bson) {
        encode_bson(j, sink, options);
    } else if constexpr (F == format::bon8) {
        encode_bon8(j, sink, options);
    } else {
        static_assert(no_encoder_for<F>, "encode_as: a format without its encoder here");
    }
}

template <class Json>
std::vector<std::uint8_t> encode_to_vector(format f, const Json& j, const encode_options& options = {}) {
    memory_writer w;
    encode(f, j, w, options);
    return w.take();
}

/// The recorded divergence from nlohmann 3.11.2 that applies to j in format f, or nullptr.
/// BON8 has no 3.11.2 oracle, so nothing diverges from one.
template <class Json>
const char* known_divergence(format f, const Json& j, const encode_options& options = {}) {
    switch (f) {
        case format::cbor: return cbor_divergence(j, options);
        case format::msgpack: return msgpack_divergence(j, options);
        case format::ubjson: return ubjson_divergence(j, options);
        case format::bjdata: return bjdata_divergence(j, options);
        case format::bson: return bson_divergence(j, options);
        case format::bon8: return nullptr;
    }
    return nullptr;
}

}  // namespace sinkcheck
