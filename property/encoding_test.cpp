// Properties 2 and 3: the reference encoders against nlohmann 3.11.2, and round trips.
//
// 2. For every format 3.11.2 writes (and every UBJSON/BJData option combination), the reference
//    writes exactly 3.11.2's bytes, or refuses with 3.11.2's error id, unless known_divergence()
//    names a recorded divergence for the value. An unrecorded difference fails, with the first
//    differing byte and the JSON pointer being written there. For a recorded refusal (invalid
//    UTF-8, discarded values) what the reference wrote before refusing must be a prefix of what
//    3.11.2 writes: the two agree up to the offending value. Whether the value's text is UTF-8 is
//    judged by the kit's own validator (utf8_oracle.hpp), not by the encoders' check that
//    known_divergence() also calls: the reference must refuse exactly the values that validator
//    finds text in that is not UTF-8, so a slip in the shared check cannot hide behind itself.
//    Every refusal is also judged apart from the encoders and 3.11.2: the error id and the JSON
//    pointer must be those of the first value the format refuses, by the kit's own walk
//    (refusals.hpp). A recorded divergence is accepted only as its record describes it
//    (divergences.hpp): the refusal it names at that place, or 3.11.2's bytes for the value the
//    record says the reference writes instead.
// 3. What the reference writes, 3.11.2's decoder (sinkcheck's own for BON8) reads back as an
//    equal value, up to what the format cannot carry (UBJSON/BJData/BON8 have no binary type;
//    BSON writes subtype 0 for a binary without one; UBJSON writes NaN and ±Inf as null; 3.11.2
//    reads some BJData ND-arrays back as plain arrays). BON8 output must also be in the canonical
//    form, by a checker of its own (bon8_canonical.hpp): the decoder accepts longer forms.
// Both run for nlohmann::json (keys in bytewise order) and ordered_json (insertion order).
// Nesting stays within 64 levels: 3.11.2's writers, readers, == and copy recurse.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/format/bon8_decoder.hpp"
#include "sinkcheck/testkit/bon8_canonical.hpp"
#include "sinkcheck/testkit/check.hpp"
#include "sinkcheck/testkit/divergences.hpp"
#include "sinkcheck/testkit/oracle.hpp"
#include "sinkcheck/testkit/properties.hpp"
#include "sinkcheck/testkit/refusals.hpp"
#include "sinkcheck/testkit/utf8_oracle.hpp"
#include "test_support.hpp"

namespace sinkcheck::testkit {
namespace {

inline value_profile oracle_profile(bool hostile) {
    value_profile p;
    p.max_depth = 4;
    p.deep_limit = 64;
    p.hostile = hostile;
    return p;
}

std::vector<shape> shapes_for(format f) {
    if (takes_container_shape(f)) {
        return {shape::plain, shape::use_size, shape::use_size_and_type};
    }
    return {shape::plain};
}

std::string shape_name(format f, shape sh) {
    std::ostringstream os;
    os << format_name(f);
    if (sh != shape::plain) {
        os << ' ';
        showValue(sh, os);
    }
    return os.str();
}

/// "[json.exception.type_error.317] ..." -> "type_error.317"
std::string oracle_error(const nlohmann::json::exception& e) {
    const std::string what = e.what();
    const auto start = what.find("exception.");
    const auto end = what.find(']');
    if (start == std::string::npos || end == std::string::npos) {
        return what;
    }
    return what.substr(start + 10, end - start - 10);
}

std::string reference_error(const encode_error& e) { return std::string(e.category()) + "." + std::to_string(e.id()); }

struct encoded {
    std::vector<std::uint8_t> bytes;  // complete output, or what was written before a refusal
    std::string error;                // "" when the encoder completed
    int id = 0;
    std::optional<refusal> refused;  // the error id and the pointer it names
};

template <class Json>
encoded reference(format f, const Json& doc, const encode_options& o) {
    encoded out;
    memory_writer w;
    try {
        encode(f, doc, w, o);
    } catch (const encode_error& e) {
        out.error = reference_error(e) + " at '" + e.pointer() + "'";
        out.id = e.id();
        out.refused = refusal{reference_error(e), e.pointer()};
    }
    out.bytes = w.take();
    return out;
}

/// doc with what the reference refuses made acceptable: invalid UTF-8 bytes (in strings and
/// keys) become 'x', discarded values null. When this copy has no recorded divergence, the
/// refusal is the only difference between the reference and 3.11.2 on doc.
template <class Json>
Json without_refusals(const Json& doc) {
    const auto repair = [](std::string s) {
        for (std::size_t at = sinkcheck::detail::utf8_invalid_at(s); at != sinkcheck::detail::utf8_valid;
             at = sinkcheck::detail::utf8_invalid_at(s)) {
            s[at] = 'x';
        }
        return s;
    };
    Json out = doc;
    std::vector<Json*> todo{&out};
    while (!todo.empty()) {
        Json* node = todo.back();
        todo.pop_back();
        if (node->is_discarded()) {
            *node = nullptr;
        } else if (node->is_string()) {
            *node = repair(node->template get<std::string>());
        } else if (node->is_object()) {
            Json fixed = Json::object();
            for (auto it = node->begin(); it != node->end(); ++it) {
                fixed[repair(it.key())] = std::move(it.value());
            }
            *node = std::move(fixed);
            for (auto& child : *node) {
                todo.push_back(&child);
            }
        } else if (node->is_array()) {
            for (auto& child : *node) {
                todo.push_back(&child);
            }
        }
    }
    return out;
}

/// The reference refuses exactly what the kit's own walk finds first (refusals.hpp): the same
/// error id and the same JSON pointer, or writes the value when the walk finds nothing.
template <class Json>
void require_the_first_refusal(const std::string& at, format f, const Json& doc, const encode_options& o,
                               const encoded& ours) {
    const std::optional<refusal> expected = first_refusal(f, doc, o);
    if (expected != ours.refused) {
        RC_FAIL(at + ": the reference " +
                (ours.refused ? "refused with " + ours.refused->describe() : "wrote " + hex_of(ours.bytes)) +
                ", but the first value it must refuse, by the kit's own walk, is " +
                (expected ? expected->describe() : std::string("none: it must write the value")));
    }
}

template <class Json>
void encoders_match_nlohmann_or_record_a_divergence() {
    const bool hostile = *rc::gen::arbitrary<bool>();
    const auto j = *json_value<Json>(oracle_profile(hostile));
    // one tag per case: which divergences and common refusals the case met, in every format
    std::set<std::string> seen;
    for (format f : all_formats) {
        if (!oracle_has(f)) {
            continue;
        }
        for (shape sh : shapes_for(f)) {
            const Json doc = document_for(f, j);
            const encode_options o = options_for(f, sh);
            const std::string at = shape_name(f, sh);
            const encoded ours = reference(f, doc, o);
            require_the_first_refusal(at, f, doc, o, ours);
            const std::string bad_text = invalid_utf8_in(doc);
            if (!bad_text.empty() && ours.error.empty()) {
                RC_FAIL(at + ": the value holds text that is not UTF-8 (" + bad_text +
                        ", by the kit's own validator), yet the reference wrote " + hex_of(ours.bytes));
            }
            if (bad_text.empty() && !ours.error.empty() && ours.id == error_id::invalid_utf8) {
                RC_FAIL(at + ": the reference refused text as not UTF-8 (" + ours.error +
                        "), but the kit's own validator finds every string and key well-formed");
            }
            const char* divergence = known_divergence(f, doc, o);
            if (divergence != nullptr) {
                seen.insert(divergence);
                const std::string id = divergence;
                const bool refusal = id == "invalid-utf8" || id == "discarded-value";
                // 3.11.2 reaches JSON_ASSERT(false) for a discarded value in BSON
                if (refusal && f != format::bson && known_divergence(f, without_refusals(doc), o) == nullptr) {
                    if (ours.error.empty()) {
                        RC_FAIL(at + ": divergence '" + id + "' is recorded as a refusal, but the reference wrote " +
                                hex_of(ours.bytes));
                    }
                    const auto theirs = oracle_encode(f, doc, o);
                    const bool prefix = ours.bytes.size() <= theirs.size() &&
                                        std::equal(ours.bytes.begin(), ours.bytes.end(), theirs.begin());
                    if (!prefix) {
                        RC_FAIL(bytes_report(at + ": before refusing (" + ours.error +
                                                 ") the reference wrote bytes 3.11.2 does not write",
                                             theirs, ours.bytes, &doc, f, o));
                    }
                }
                // the difference must be the one the record describes, not any at all
                const std::string wrong = divergence_mismatch(f, doc, o, id, {ours.bytes, ours.refused});
                if (!wrong.empty()) {
                    RC_FAIL(at + ": " + wrong);
                }
                continue;
            }
            std::vector<std::uint8_t> theirs;
            std::string their_error;
            try {
                theirs = oracle_encode(f, doc, o);
            } catch (const nlohmann::json::exception& e) {
                their_error = oracle_error(e);
            }
            if (!their_error.empty() || !ours.error.empty()) {
                const std::string our_id = ours.error.substr(0, ours.error.find(' '));
                if (our_id != their_error) {
                    RC_FAIL(at + ": unrecorded divergence: 3.11.2 " +
                            (their_error.empty() ? "writes " + hex_of(theirs) : "throws " + their_error) +
                            ", the reference " +
                            (ours.error.empty() ? "writes " + hex_of(ours.bytes) : "throws " + ours.error));
                }
                seen.insert("both refuse " + their_error);
                continue;
            }
            if (ours.bytes != theirs) {
                RC_FAIL(bytes_report(at + ": unrecorded divergence from 3.11.2", theirs, ours.bytes, &doc, f, o));
            }
            // known_divergence() asks the encoders' own code; where the kit's reading of the records
            // finds one (an ND-array BJData does not allow, say), 3.11.2's bytes for the value as
            // recorded are what the reference must write
            const auto recorded = bytes_as_recorded(f, doc, o);
            if (recorded && ours.bytes != *recorded) {
                RC_FAIL(bytes_report(at + ": no divergence named, but the kit's reading of the records finds one, and "
                                          "the reference does not write 3.11.2's bytes for the value as recorded",
                                     *recorded, ours.bytes, &doc, f, o));
            }
        }
    }
    std::string tag;
    for (const auto& t : seen) {
        tag += (tag.empty() ? "" : ", ") + t;
    }
    if (!tag.empty()) {
        RC_TAG(tag);
    }
}

/// The dimensions of an object 3.11.2 writes as a BJData ND-array (docs/formats.md#bjdata:
/// exactly the three keys, a known type name, as many data as the dimensions multiply to), or
/// false.
template <class Json>
bool ndarray_dims(const Json& j, std::vector<std::uint64_t>& dims, std::string& type) {
    static const char* const names[] = {"uint8",  "int8",  "uint16", "int16",  "uint32", "int32",
                                        "uint64", "int64", "single", "double", "char"};
    if (!j.is_object() || j.size() != 3 || !j.contains("_ArrayType_") || !j.contains("_ArraySize_") ||
        !j.contains("_ArrayData_") || !j["_ArrayType_"].is_string() || !j["_ArraySize_"].is_array() ||
        !j["_ArrayData_"].is_array()) {
        return false;
    }
    type = j["_ArrayType_"].template get<std::string>();
    if (std::find(std::begin(names), std::end(names), type) == std::end(names)) {
        return false;
    }
    dims.clear();
    std::uint64_t product = j["_ArraySize_"].empty() ? 0 : 1;
    for (const auto& d : j["_ArraySize_"]) {
        if (!d.is_number_integer()) {
            return false;
        }
        dims.push_back(d.template get<std::uint64_t>());
        product *= dims.back();
    }
    return product == j["_ArrayData_"].size();
}

/// How 3.11.2 reads back an ND-array it wrote (binary_reader get_ubjson_size_value): a 1-D or
/// 1 x n array comes back as a plain array of its data, one with a zero dimension (or none) as
/// an empty array, "char" data as one-character strings; the rest as the object again.
template <class Json>
bool read_back_ndarray(Json& node) {
    std::vector<std::uint64_t> dims;
    std::string type;
    // an ND-array whose dimensions or data BJData does not allow is written as an ordinary
    // object (bjdata-ndarray-invalid) and reads back as one
    const ndarray verdict = classify_ndarray(node);
    if (!ndarray_dims(node, dims, type) || (verdict != ndarray::sound && verdict != ndarray::punned)) {
        return false;
    }
    Json data = node["_ArrayData_"];
    if (type == "single" || type == "double") {
        // written in the element type: an integer or a double binary32 cannot hold comes back
        // rounded to it
        for (auto& e : data) {
            if (type == "single") {
                e = static_cast<double>(e.template get<float>());
            } else {
                e = e.template get<double>();
            }
        }
    }
    if (type == "char") {
        for (auto& c : data) {
            c = std::string(1, static_cast<char>(c.template get<std::uint64_t>()));
        }
    }
    const bool empty = dims.empty() || std::find(dims.begin(), dims.end(), 0U) != dims.end();
    if (dims.size() == 1 || (dims.size() == 2 && dims[0] == 1)) {
        node = std::move(data);
    } else if (empty) {
        node = Json::array();
    } else {
        node["_ArrayData_"] = std::move(data);
    }
    return true;
}

/// What a decoder can give back for doc in format f (docs/formats.md#ubjson to #bson).
template <class Json>
Json after_round_trip(format f, const Json& doc) {
    Json out = doc;
    std::vector<Json*> todo{&out};
    while (!todo.empty()) {
        Json* node = todo.back();
        todo.pop_back();
        if (f == format::bjdata && read_back_ndarray(*node)) {
            continue;
        }
        if (f == format::ubjson && node->is_number_float() && !std::isfinite(node->template get<double>())) {
            // UBJSON Draft 12: infinity and NaN "are to be encoded as a null" (recorded divergence
            // ubjson-nonfinite-as-null)
            *node = nullptr;
        } else if (node->is_binary()) {
            if (f == format::ubjson || f == format::bjdata || f == format::bon8) {
                // no binary type: written as an array of its byte values, read back as one
                Json a = Json::array();
                for (std::uint8_t b : node->get_binary()) {
                    a.push_back(static_cast<std::uint64_t>(b));
                }
                *node = std::move(a);
            } else if (f == format::bson && !node->get_binary().has_subtype()) {
                node->get_binary().set_subtype(0);  // BSON always writes a subtype byte
            }
        } else if (node->is_array() || node->is_object()) {
            for (auto& child : *node) {
                todo.push_back(&child);
            }
        }
    }
    return out;
}

template <class Json>
void round_trips() {
    const auto j = *json_value<Json>(oracle_profile(false));
    for (format f : all_formats) {
        for (shape sh : shapes_for(f)) {
            const Json doc = document_for(f, j);
            const encode_options o = options_for(f, sh);
            const std::string at = shape_name(f, sh);
            const encoded ours = reference(f, doc, o);
            require_the_first_refusal(at, f, doc, o, ours);
            if (!ours.error.empty()) {
                RC_TAG(std::string(format_name(f)) + " refuses: " + ours.error.substr(0, ours.error.find(' ')));
                continue;
            }
            if (f == format::bon8) {
                // the decoder reads non-canonical input too: the canonical form has its own judge
                if (const auto flaw = bon8_canonical_flaw(ours.bytes, std::is_same_v<Json, nlohmann::json>)) {
                    RC_FAIL(at + ": not BON8's canonical form: " + flaw->describe() + "\n  bytes " +
                            hex_of(ours.bytes));
                }
            }
            Json back;
            try {
                back = f == format::bon8 ? decode_bon8<Json>(ours.bytes) : oracle_decode<Json>(f, ours.bytes);
            } catch (const std::exception& e) {
                RC_FAIL(at + ": cannot read back what the reference wrote (" + e.what() + "): " + hex_of(ours.bytes));
            }
            const Json expected = after_round_trip(f, doc);
            if (!test::deep_equal(back, expected)) {
                RC_FAIL(at + ": reads back as " + describe(back) + "\n  expected " + describe(expected) + "\n  bytes " +
                        hex_of(ours.bytes));
            }
        }
    }
}

SINKCHECK_PROPERTY(Encoders, MatchNlohmannOrRecordADivergence, 10.0) {
    encoders_match_nlohmann_or_record_a_divergence<nlohmann::json>();
}

SINKCHECK_PROPERTY(Encoders, MatchNlohmannOrRecordADivergenceWithOrderedKeys, 10.0) {
    encoders_match_nlohmann_or_record_a_divergence<nlohmann::ordered_json>();
}

SINKCHECK_PROPERTY(Encoders, RoundTripThroughTheDecoder, 10.0) { round_trips<nlohmann::json>(); }

SINKCHECK_PROPERTY(Encoders, RoundTripThroughTheDecoderWithOrderedKeys, 10.0) { round_trips<nlohmann::ordered_json>(); }

}  // namespace
}  // namespace sinkcheck::testkit
