// sinkcheck/testkit/divergences.hpp — a recorded divergence accepted only as the record describes it.
//
// known_divergence() names the reference/KNOWN_DIVERGENCES.md entry that applies to a value, and
// a check that then accepts any output at all would let a slip hide behind the entry: a refusal
// with the wrong id or at the wrong value, null written for a finite float, an ND-array written
// with garbage. Each entry says what the reference does instead of what 3.11.2 does; this file
// holds that as something to compare with:
//   - a refusal: the error id the entry names, at the first offending value (refusals.hpp);
//   - other bytes: 3.11.2's own bytes for a counterpart of the value, which the entry describes:
//     ubjson-nonfinite-as-null, every non-finite float as null; bjdata-ndarray-punned-float, the
//     integer data of a float ND-array as doubles; bjdata-ndarray-invalid, each ND-array object
//     whose dimensions or data BJData Draft 2 does not allow as an ordinary object (3.11.2 writes
//     one when a key differs, so the counterpart renames _ArrayType_ to a key of the same length
//     and sort position, and the name is put back in 3.11.2's bytes);
//   - an options error: ubjson-type-without-size, for use_type without use_size only.
// An id without a description here fails: a new entry must come with its check.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/options.hpp"
#include "sinkcheck/testkit/edges.hpp"
#include "sinkcheck/testkit/hex.hpp"
#include "sinkcheck/testkit/oracle.hpp"
#include "sinkcheck/testkit/refusals.hpp"

namespace sinkcheck::testkit {

/// What the reference did with a value: its bytes, or the refusal that stopped it.
struct reference_outcome {
    std::vector<std::uint8_t> bytes;  // the whole output, or what was written before a refusal
    std::optional<refusal> refused;
};

/// How the reference must treat an object as a BJData ND-array: not one; one it writes as 3.11.2
/// does; one of a float type holding integers, written converted (bjdata-ndarray-punned-float);
/// one whose dimensions or data BJData does not allow, written as an ordinary object
/// (bjdata-ndarray-invalid).
enum class ndarray { no, sound, punned, unsound };

template <class Json>
ndarray classify_ndarray(const Json& o) {
    if (!o.is_object() || o.size() != 3) {
        return ndarray::no;
    }
    const auto type = o.find("_ArrayType_");
    const auto size = o.find("_ArraySize_");
    const auto data = o.find("_ArrayData_");
    if (type == o.end() || size == o.end() || data == o.end() || !type->is_string()) {
        return ndarray::no;
    }
    const std::string& name = type->template get_ref<const std::string&>();
    const bool floating = name == "single" || name == "double";
    const edges::ndarray_range* t = nullptr;
    for (const edges::ndarray_range& r : edges::ndarray_ranges) {
        if (name == r.name) {
            t = &r;
        }
    }
    if (t == nullptr && !floating) {
        return ndarray::no;
    }
    if (!size->is_array() || !data->is_array()) {
        return ndarray::unsound;
    }
    // the dimensions: non-negative integers whose product, without overflow, is the data count
    // (no dimension at all counts 0, as 3.11.2 has it)
    std::uint64_t product = size->empty() ? 0 : 1;
    for (const auto& d : *size) {
        if (!(d.is_number_unsigned() || (d.is_number_integer() && d.template get<std::int64_t>() >= 0))) {
            return ndarray::unsound;
        }
        const auto n = d.template get<std::uint64_t>();
        if (n != 0 && product > UINT64_MAX / n) {
            return ndarray::unsound;
        }
        product *= n;
    }
    if (product != data->size()) {
        return ndarray::unsound;
    }
    bool integer_in_float = false;
    for (const auto& e : *data) {
        if (!e.is_number()) {
            return ndarray::unsound;
        }
        if (floating) {
            integer_in_float = integer_in_float || e.is_number_integer();
            continue;
        }
        if (e.is_number_float()) {
            return ndarray::unsound;
        }
        const bool in_range = e.is_number_unsigned() || e.template get<std::int64_t>() >= 0
                                  ? e.template get<std::uint64_t>() <= t->hi
                                  : e.template get<std::int64_t>() >= t->lo;
        if (!in_range) {
            return ndarray::unsound;
        }
    }
    return integer_in_float ? ndarray::punned : ndarray::sound;
}

namespace detail_divergences {

enum class kind { refusal, bytes, options };

struct record {
    const char* id;
    kind what;
    const char* error;  // the error id of a refusal
};

/// KNOWN_DIVERGENCES.md's index, each entry with what it changes.
inline constexpr record records[] = {
    {"invalid-utf8", kind::refusal, "type_error.316"},
    {"discarded-value", kind::refusal, "type_error.901"},
    {"msgpack-ext-subtype-truncated", kind::refusal, "out_of_range.902"},
    {"msgpack-length-overflow", kind::refusal, "out_of_range.903"},
    {"ubjson-nonfinite-as-null", kind::bytes, ""},
    {"ubjson-type-without-size", kind::options, ""},
    {"bjdata-ndarray-punned-float", kind::bytes, ""},
    {"bjdata-ndarray-invalid", kind::bytes, ""},
    {"bson-binary-subtype-truncated", kind::refusal, "out_of_range.902"},
    {"bson-binary-old-layout", kind::refusal, "type_error.904"},
    {"bson-length-overflow", kind::refusal, "out_of_range.903"},
};

/// The stand-in for "_ArrayType_": as long, and between "_ArraySize_" and any key after
/// "_ArrayType_" in bytewise order, so the member keeps its place in nlohmann::json too.
inline constexpr char stand_in[] = "_ArrayTypf_";
inline constexpr char type_key[] = "_ArrayType_";

/// The value whose 3.11.2 bytes the reference's must equal, and how many keys were renamed.
template <class Json>
Json counterpart(format f, const Json& doc, std::size_t& renamed) {
    Json out = doc;
    std::vector<Json*> todo{&out};
    while (!todo.empty()) {
        Json* node = todo.back();
        todo.pop_back();
        if (f == format::ubjson && node->is_number_float() && !std::isfinite(node->template get<double>())) {
            *node = nullptr;
            continue;
        }
        if (f == format::bjdata) {
            const ndarray verdict = classify_ndarray(*node);
            if (verdict == ndarray::punned) {
                for (auto& e : (*node)["_ArrayData_"]) {
                    if (e.is_number_integer()) {
                        e = e.is_number_unsigned() ? static_cast<double>(e.template get<std::uint64_t>())
                                                   : static_cast<double>(e.template get<std::int64_t>());
                    }
                }
                continue;
            }
            if (verdict == ndarray::unsound) {
                // rebuilt member by member, so ordered_json keeps the order too
                Json renamed_object = Json::object();
                for (auto it = node->begin(); it != node->end(); ++it) {
                    renamed_object[it.key() == type_key ? std::string(stand_in) : it.key()] = it.value();
                }
                *node = std::move(renamed_object);
                ++renamed;
            }
        }
        if (node->is_array() || node->is_object()) {
            for (auto& child : *node) {
                todo.push_back(&child);
            }
        }
    }
    return out;
}

/// bytes with each stand-in key put back; false when the stand-in occurs more often than it
/// was put in (the value held it already), and the bytes cannot be told apart.
inline bool put_back_type_keys(std::vector<std::uint8_t>& bytes, std::size_t renamed) {
    const std::size_t n = sizeof stand_in - 1;
    std::size_t found = 0;
    for (std::size_t i = 0; i + n <= bytes.size(); ++i) {
        if (std::memcmp(bytes.data() + i, stand_in, n) == 0) {
            std::memcpy(bytes.data() + i, type_key, n);
            ++found;
        }
    }
    return found == renamed;
}

}  // namespace detail_divergences

/// 3.11.2's bytes for the value the records say the reference writes for doc: doc itself where no
/// record applies, its counterpart where the kit's own reading (not known_divergence(), which asks
/// the encoders' code) finds non-finite UBJSON floats or ND-arrays BJData writes otherwise. nullopt
/// when 3.11.2 cannot be asked: a refusal, or a divergence the counterpart still has.
template <class Json>
std::optional<std::vector<std::uint8_t>> bytes_as_recorded(format f, const Json& doc, const encode_options& o) {
    std::size_t renamed = 0;
    const Json theirs_for = detail_divergences::counterpart(f, doc, renamed);
    if (known_divergence(f, theirs_for, o) != nullptr || first_refusal(f, theirs_for, o)) {
        return std::nullopt;
    }
    std::vector<std::uint8_t> theirs = oracle_encode(f, theirs_for, o);
    if (!detail_divergences::put_back_type_keys(theirs, renamed)) {
        return std::nullopt;
    }
    return theirs;
}

/// "" when what the reference did with doc (ours) is the difference the record `id` describes;
/// otherwise what is wrong. doc must not be deeper than 3.11.2 survives (it is encoded by it).
template <class Json>
std::string divergence_mismatch(format f, const Json& doc, const encode_options& o, const std::string& id,
                                const reference_outcome& ours) {
    using namespace detail_divergences;
    const record* r = nullptr;
    for (const record& x : records) {
        if (id == x.id) {
            r = &x;
        }
    }
    if (r == nullptr) {
        return "divergence '" + id + "' has no description in testkit/divergences.hpp";
    }
    const std::optional<refusal> expected = first_refusal(f, doc, o);
    switch (r->what) {
        case kind::options:
            return o.use_type && !o.use_size ? "" : "divergence '" + id + "' named for options that do not have it";
        case kind::refusal:
            if (!ours.refused) {
                return "divergence '" + id + "' is a refusal (" + r->error + "), but the reference wrote " +
                       to_hex(ours.bytes);
            }
            if (ours.refused->error != r->error || !expected || *ours.refused != *expected) {
                return "divergence '" + id + "' is a refusal with " + r->error + " at the first offending value (" +
                       (expected ? expected->describe() : std::string("none found")) + "), but the reference threw " +
                       ours.refused->describe();
            }
            return "";
        case kind::bytes: break;
    }
    if (ours.refused) {
        // a refusal later in the value than this divergence: the refusal is judged on its own
        return expected && *expected == *ours.refused
                   ? ""
                   : "divergence '" + id + "' changes bytes, but the reference threw " + ours.refused->describe();
    }
    // nullopt: the counterpart still diverges (another entry in the same value), no bytes to trust
    const std::optional<std::vector<std::uint8_t>> expected_bytes = bytes_as_recorded(f, doc, o);
    if (!expected_bytes) {
        return "";
    }
    const std::vector<std::uint8_t>& theirs = *expected_bytes;
    if (theirs != ours.bytes) {
        const std::size_t at = static_cast<std::size_t>(
            std::mismatch(theirs.begin(), theirs.end(), ours.bytes.begin(), ours.bytes.end()).first - theirs.begin());
        return "divergence '" + id + "': the reference's bytes are not 3.11.2's for the value the record describes" +
               "\n  3.11.2 (counterpart) " + hex_window(theirs, at) + "\n  reference            " +
               hex_window(ours.bytes, at);
    }
    return "";
}

}  // namespace sinkcheck::testkit
