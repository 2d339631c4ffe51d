// declared.cpp — what an encoder declares it does differently from the reference, judged once for
// the runner and the encoder fuzzer (encoder.hpp, explained_by).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/conform/decode.hpp"
#include "sinkcheck/conform/encoder.hpp"

namespace sinkcheck::conform {

namespace {

/// Whole doubles (and -0.0) within the 64-bit integer range become the integers of the same
/// value. Iterative, so any depth the decoders accept.
void whole_floats_to_integers(nlohmann::json& root) {
    std::vector<nlohmann::json*> todo{&root};
    while (!todo.empty()) {
        nlohmann::json& j = *todo.back();
        todo.pop_back();
        if (j.is_structured()) {
            for (nlohmann::json& child : j) todo.push_back(&child);
        } else if (j.is_number_float()) {
            const double d = j.get<double>();
            if (d != std::trunc(d)) continue;
            if (d >= 0 && d < 18446744073709551616.0) {
                j = static_cast<std::uint64_t>(d);
            } else if (d < 0 && d >= -9223372036854775808.0) {
                j = static_cast<std::int64_t>(d);
            }
        }
    }
}

/// The name all_declarations gives a declaration.
const char* name_of(bool declared_behaviour::*member) noexcept {
    for (const declaration& each : all_declarations) {
        if (each.member == member) return each.name;
    }
    return "?";
}

}  // namespace

std::string declaration_names(const declared_behaviour& d) {
    std::string out;
    for (const declaration& each : all_declarations) {
        if (d.*each.member) out += (out.empty() ? "" : ", ") + std::string(each.name);
    }
    return out;
}

const char* explained_by(const declared_behaviour& declared, format f, const std::vector<std::uint8_t>* expected,
                         bool refusal_for_invalid_utf8, const std::vector<std::uint8_t>& actual) {
    if (expected == nullptr) {
        return declared.writes_invalid_utf8 && refusal_for_invalid_utf8
                   ? name_of(&declared_behaviour::writes_invalid_utf8)
                   : nullptr;
    }
    if (!declared.whole_floats_as_integers) return nullptr;
    decoded_value want = decode_value(f, *expected);
    decoded_value got = decode_value(f, actual);
    // A difference that is there before the whole doubles are read as integers (a float's width at
    // the exact level) is not what the declaration says: it explains only what the reading removes.
    if (!want.ok || !got.ok || same_value(want.value, got.value)) return nullptr;
    whole_floats_to_integers(want.value);
    whole_floats_to_integers(got.value);
    return same_value(want.value, got.value) ? name_of(&declared_behaviour::whole_floats_as_integers) : nullptr;
}

}  // namespace sinkcheck::conform
