// Annotated, iterative decoding of the six formats, and value equivalence (decode.hpp). Each
// format's decoder is in decode_<format>.cpp; this file picks one, and decides which decoder's
// value to trust.
#include "sinkcheck/conform/decode.hpp"

#include <utility>

#include "decoder_base.hpp"
#include "sinkcheck/format/bon8_decoder.hpp"
#include "sinkcheck/testkit/oracle.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;
using decoding::failure;

/// nlohmann's readers recurse; deeper values are only decoded here.
constexpr std::size_t oracle_max_depth = 256;

}  // namespace

decoded decode_annotated(format f, const std::uint8_t* data, std::size_t size, const decode_limits& limits) {
    decoded out;
    decode_limits lim = limits;
    if (f == format::bon8) lim.build_value = false;
    try {
        switch (f) {
            case format::cbor: decoding::decode_annotated_cbor(data, size, lim, out); break;
            case format::msgpack: decoding::decode_annotated_msgpack(data, size, lim, out); break;
            case format::ubjson: decoding::decode_annotated_ubjson(data, size, lim, out, false); break;
            case format::bjdata: decoding::decode_annotated_ubjson(data, size, lim, out, true); break;
            case format::bson: decoding::decode_annotated_bson(data, size, lim, out); break;
            case format::bon8: decoding::decode_annotated_bon8(data, size, lim, out); break;
        }
        out.ok = true;
    } catch (const failure& e) {
        out.ok = false;
        out.error = e.message;
        out.error_offset = e.offset;
    }
    if (out.ok && f == format::bon8 && limits.build_value) {
        try {
            out.value = decode_bon8<json>(data, size);
        } catch (const std::exception& e) {
            out.ok = false;
            out.error = e.what();
        }
    }
    return out;
}

namespace {

decoded_value decode_model_value(format f, const std::vector<std::uint8_t>& bytes) {
    decoded_value r;
    decode_limits lim;
    lim.max_lines = 0;
    decoded mine = decode_annotated(f, bytes, lim);
    if (!mine.ok) {
        r.how = "not decodable: byte " + std::to_string(mine.error_offset) + ": " + mine.error;
        return r;
    }
    if (f == format::bon8) {
        r.ok = true;
        r.value = std::move(mine.value);
        r.how = "sinkcheck's BON8 decoder";
        return r;
    }
    if (!mine.oracle_misreads.empty()) {
        r.how = "sinkcheck's decoder (the bytes hold " + mine.oracle_misreads + ")";
    } else if (oracle_has(f) && mine.max_depth <= oracle_max_depth) {
        try {
            r.value = oracle_decode<json>(f, bytes);
            r.ok = true;
            r.how = "nlohmann 3.11.2";
            return r;
        } catch (const std::exception& e) {
            r.how = std::string("sinkcheck's decoder (nlohmann 3.11.2 cannot read it: ") + e.what() + ")";
        }
    } else {
        r.how = "sinkcheck's decoder (too deep for nlohmann 3.11.2's recursive reader)";
    }
    r.ok = true;
    r.value = std::move(mine.value);
    return r;
}

}  // namespace

decoded_value decode_value(format f, const std::vector<std::uint8_t>& bytes) {
    decoded_value r = decode_model_value(f, bytes);
    // Each format's own data model (docs/formats.md, "what counts as the same value"): only
    // CBOR has numbers that the JSON model holds in two shapes.
    if (r.ok && f == format::cbor) decoding::to_cbor_number_space(r.value);
    return r;
}

bool decodes_to(format f, const std::vector<std::uint8_t>& bytes, const nlohmann::json& value) {
    const decoded_value d = decode_value(f, bytes);
    return d.ok && same_value(d.value, value);
}

}  // namespace sinkcheck::conform
