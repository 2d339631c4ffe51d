// sinkcheck/encode.hpp — one entry point over the six format encoders.
//
// Each format header provides
//   template <class Json, class Sink> void encode_<fmt>(const Json&, Sink&, const encode_options&);
// and, for the five formats nlohmann 3.11.2 writes,
//   template <class Json> const char* <fmt>_divergence(const Json&, const encode_options&);
// which returns the KNOWN_DIVERGENCES.md id that applies to the value (or nullptr when the
// reference must agree with 3.11.2 byte for byte).
//
// A sink is what has write(std::uint8_t), write(const std::uint8_t*, std::size_t) and position()
// (BSON also uses seek(std::size_t) when there is one). A sink may also lend the room ahead of its
// cursor: room_for(n) returns where n bytes would go, or null, and commit(n) makes them written.
// CBOR, MessagePack, UBJSON and BJData then write a string of 256 bytes or more in place, checking
// it for UTF-8 as they copy it (detail/utf8.hpp, write_text_in_room); what the sink ends up
// holding is the same. vector_sink, legacy_vector_sink and string_sink lend their zero-filled room.
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

// Compiled once, where a program wants it. encode_to_vector and the encoders of nlohmann::json
// and nlohmann::ordered_json into a memory_writer or a seekable_memory_writer are what most code
// around an encoder calls, and each translation unit that calls them compiles all six walks again:
// about 35 s of 70 for a test unit under clang's sanitizers and coverage. A program whose units
// are compiled with SINKCHECK_EXTERN_JSON_ENCODERS defined finds them declared here as explicit
// instantiations (extern template: the units call them and compile none), and must define them in
// exactly one unit each, which includes this header and writes SINKCHECK_JSON_ENCODERS_OF(, Json)
// at namespace scope for each type of SINKCHECK_JSON_ENCODERS (sinkcheck's test kit does, in its
// library sinkcheck::testkit_encoders, whose users get the definitions with the library). The
// list is written once, here, for both.
// The arguments are a keyword and types, which parentheses would not compile.
// NOLINTBEGIN(bugprone-macro-parentheses)
/// Every JSON type compiled once, and what is compiled of each.
#define SINKCHECK_JSON_ENCODERS(extern_or_nothing)                \
    SINKCHECK_JSON_ENCODERS_OF(extern_or_nothing, nlohmann::json) \
    SINKCHECK_JSON_ENCODERS_OF(extern_or_nothing, nlohmann::ordered_json)

/// The entry points of every format for Json (part of the list above).
#define SINKCHECK_JSON_ENCODERS_OF(extern_or_nothing, Json)                                                     \
    extern_or_nothing template std::vector<std::uint8_t> sinkcheck::encode_to_vector<Json>(                     \
        sinkcheck::format, const Json&, const sinkcheck::encode_options&);                                      \
    extern_or_nothing template const char* sinkcheck::known_divergence<Json>(sinkcheck::format, const Json&,    \
                                                                             const sinkcheck::encode_options&); \
    SINKCHECK_JSON_ENCODERS_INTO(extern_or_nothing, Json, sinkcheck::memory_writer)                             \
    SINKCHECK_JSON_ENCODERS_INTO(extern_or_nothing, Json, sinkcheck::seekable_memory_writer)

/// The entry points of every format for Json into Sink (part of the list above).
#define SINKCHECK_JSON_ENCODERS_INTO(extern_or_nothing, Json, Sink)                                          \
    extern_or_nothing template void sinkcheck::encode<Json, Sink>(sinkcheck::format, const Json&, Sink&,     \
                                                                  const sinkcheck::encode_options&);         \
    extern_or_nothing template void sinkcheck::encode_cbor<Json, Sink>(const Json&, Sink&,                   \
                                                                       const sinkcheck::encode_options&);    \
    extern_or_nothing template void sinkcheck::encode_msgpack<Json, Sink>(const Json&, Sink&,                \
                                                                          const sinkcheck::encode_options&); \
    extern_or_nothing template void sinkcheck::encode_ubjson<Json, Sink>(const Json&, Sink&,                 \
                                                                         const sinkcheck::encode_options&);  \
    extern_or_nothing template void sinkcheck::encode_bjdata<Json, Sink>(const Json&, Sink&,                 \
                                                                         const sinkcheck::encode_options&);  \
    extern_or_nothing template void sinkcheck::encode_bson<Json, Sink>(const Json&, Sink&,                   \
                                                                       const sinkcheck::encode_options&);    \
    extern_or_nothing template void sinkcheck::encode_bon8<Json, Sink>(const Json&, Sink&,                   \
                                                                       const sinkcheck::encode_options&);
// NOLINTEND(bugprone-macro-parentheses)

#if defined(SINKCHECK_EXTERN_JSON_ENCODERS)
#include <nlohmann/json.hpp>

#include "sinkcheck/sink/seekable_memory_writer.hpp"

SINKCHECK_JSON_ENCODERS(extern)
#endif
