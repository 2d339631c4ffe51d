// KNOWN_DIVERGENCES.md and the code agree: every recorded id is returned by known_divergence()
// for its minimal value, and every id the minimal values produce has an entry in the file.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "test_support.hpp"

namespace {

using nlohmann::json;
using sinkcheck::format;

struct recorded {
    format fmt;
    json value;
    sinkcheck::encode_options options;
    std::string id;
};

std::vector<recorded> minimal_values() {
    sinkcheck::encode_options type_only;
    type_only.use_type = true;
    const json invalid = json::array({std::string("\xff")});
    const json discarded = json::array({1, json(json::value_t::discarded)});
    std::vector<recorded> rows;
    for (format f : {format::cbor, format::msgpack, format::ubjson, format::bjdata}) {
        rows.push_back({f, invalid, {}, "invalid-utf8"});
        rows.push_back({f, discarded, {}, "discarded-value"});
    }
    rows.push_back({format::bson, json{{"a", std::string("\xff")}}, {}, "invalid-utf8"});
    rows.push_back({format::bson, json{{"a", json(json::value_t::discarded)}}, {}, "discarded-value"});
    rows.push_back({format::msgpack, json::binary({0x2a}, 256), {}, "msgpack-ext-subtype-truncated"});
    rows.push_back({format::ubjson, json(std::nan("")), {}, "ubjson-nonfinite-as-null"});
    rows.push_back({format::ubjson, json::array({1, 2}), type_only, "ubjson-type-without-size"});
    rows.push_back({format::bjdata, json::array({1, 2}), type_only, "ubjson-type-without-size"});
    rows.push_back({format::bjdata,
                    json{{"_ArrayType_", "double"}, {"_ArraySize_", {1}}, {"_ArrayData_", {1}}},
                    {},
                    "bjdata-ndarray-punned-float"});
    rows.push_back({format::bjdata,
                    json{{"_ArrayType_", "uint8"}, {"_ArraySize_", {1}}, {"_ArrayData_", {300}}},
                    {},
                    "bjdata-ndarray-invalid"});
    rows.push_back({format::bson, json{{"b", json::binary({1}, 256)}}, {}, "bson-binary-subtype-truncated"});
    rows.push_back({format::bson, json{{"b", json::binary({1, 2}, 2)}}, {}, "bson-binary-old-layout"});
    return rows;
}

// Ids whose minimal value needs more than 2 GiB: limits_test.cpp reaches them with strings mapped
// from a few MiB and containers that only claim their size.
const std::set<std::string> too_large_to_build = {"msgpack-length-overflow", "bson-length-overflow"};

std::set<std::string> ids_in_file() {
    std::ifstream in(SINKCHECK_SOURCE_DIR "/reference/KNOWN_DIVERGENCES.md");
    EXPECT_TRUE(in) << "cannot read reference/KNOWN_DIVERGENCES.md";
    std::set<std::string> ids;
    const std::regex heading("^### ([a-z0-9-]+)\\s*$");
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_match(line, m, heading)) {
            ids.insert(m[1]);
        }
    }
    return ids;
}

}  // namespace

TEST(KnownDivergences, EveryMinimalValueIsRecognisedAndRecorded) {
    const auto ids = ids_in_file();
    for (const auto& row : minimal_values()) {
        const char* got = sinkcheck::known_divergence(row.fmt, row.value, row.options);
        EXPECT_EQ(got == nullptr ? std::string("(none)") : std::string(got), row.id)
            << sinkcheck::format_name(row.fmt) << " " << sinkcheck::test::describe(row.value);
        EXPECT_EQ(ids.count(row.id), 1u) << row.id << " has no entry in KNOWN_DIVERGENCES.md";
    }
}

TEST(KnownDivergences, EveryRecordedIdHasAMinimalValueHere) {
    std::set<std::string> covered(too_large_to_build);
    for (const auto& row : minimal_values()) {
        covered.insert(row.id);
    }
    for (const auto& id : ids_in_file()) {
        EXPECT_EQ(covered.count(id), 1u) << "KNOWN_DIVERGENCES.md records " << id
                                         << " but no minimal value here exercises it";
    }
}

TEST(KnownDivergences, EncoderDoesNotSilentlyAgreeWithTheOracleOnRecordedValues) {
    // each minimal value is refused or written differently from 3.11.2; a refusal must be one
    // of sinkcheck's own exception types, never a crash or a stray std::exception
    for (const auto& row : minimal_values()) {
        try {
            const auto ours = sinkcheck::encode_to_vector(row.fmt, row.value, row.options);
            if (row.id == "ubjson-type-without-size") {
                ADD_FAILURE() << "use_type without use_size was accepted";
            }
            const auto theirs = sinkcheck::oracle_encode(row.fmt, row.value, row.options);
            EXPECT_NE(sinkcheck::test::hex(ours), sinkcheck::test::hex(theirs)) << row.id;
        } catch (const sinkcheck::encode_error&) {
        } catch (const std::invalid_argument&) {
            EXPECT_EQ(row.id, "ubjson-type-without-size");
        }
    }
}
