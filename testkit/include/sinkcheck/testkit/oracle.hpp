// sinkcheck/testkit/oracle.hpp — nlohmann 3.11.2's own writers and readers, behind sinkcheck's names.
//
// The oracle every comparison is made against. Callers must not hand it a value for which
// known_divergence() names an id: 3.11.2 may write garbage for those, or assert (BSON with a
// discarded value).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/options.hpp"

namespace sinkcheck {

/// True for the formats nlohmann 3.11.2 writes and reads (format_table's oracle column: all but
/// BON8). oracle_encode and oracle_decode switch over every format (-Wswitch).
inline constexpr bool oracle_has(format f) noexcept { return describe(f).oracle; }

/// The formats oracle_has, in enum order.
inline std::vector<format> oracle_formats() {
    std::vector<format> out;
    for (const format f : all_formats) {
        if (oracle_has(f)) {
            out.push_back(f);
        }
    }
    return out;
}

template <class Json>
std::vector<std::uint8_t> oracle_encode(format f, const Json& j, const encode_options& o = {}) {
    switch (f) {
        case format::cbor: return Json::to_cbor(j);
        case format::msgpack: return Json::to_msgpack(j);
        case format::ubjson: return Json::to_ubjson(j, o.use_size, o.use_type);
        case format::bjdata: return Json::to_bjdata(j, o.use_size, o.use_type);
        case format::bson: return Json::to_bson(j);
        case format::bon8: break;
    }
    return {};
}

/// Decodes with 3.11.2 (CBOR tags kept as binary subtypes); throws nlohmann's parse_error.
template <class Json>
Json oracle_decode(format f, const std::vector<std::uint8_t>& bytes) {
    switch (f) {
        case format::cbor: return Json::from_cbor(bytes, true, true, Json::cbor_tag_handler_t::store);
        case format::msgpack: return Json::from_msgpack(bytes);
        case format::ubjson: return Json::from_ubjson(bytes);
        case format::bjdata: return Json::from_bjdata(bytes);
        case format::bson: return Json::from_bson(bytes);
        case format::bon8: break;
    }
    return Json();
}

}  // namespace sinkcheck

// 3.11.2's writers and readers of nlohmann::json and ordered_json, compiled once in the kit's
// library for the units that link it, like the reference encoders (SINKCHECK_EXTERN_JSON_ENCODERS,
// sinkcheck/encode.hpp): its binary writer and five readers are as costly to compile as the
// reference's six walks.
// The arguments are a keyword and a type, which parentheses would not compile.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define SINKCHECK_JSON_ORACLE(extern_or_nothing)                \
    SINKCHECK_JSON_ORACLE_OF(extern_or_nothing, nlohmann::json) \
    SINKCHECK_JSON_ORACLE_OF(extern_or_nothing, nlohmann::ordered_json)
#define SINKCHECK_JSON_ORACLE_OF(extern_or_nothing, Json)                                \
    extern_or_nothing template std::vector<std::uint8_t> sinkcheck::oracle_encode<Json>( \
        sinkcheck::format, const Json&, const sinkcheck::encode_options&);               \
    extern_or_nothing template Json sinkcheck::oracle_decode<Json>(sinkcheck::format, const std::vector<std::uint8_t>&);
// NOLINTEND(bugprone-macro-parentheses)

#if defined(SINKCHECK_EXTERN_JSON_ENCODERS)
SINKCHECK_JSON_ORACLE(extern)
#endif
