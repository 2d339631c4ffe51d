// ubjson_test.cpp — the UBJSON encoder against hand-derived Draft 12 vectors and nlohmann 3.11.2.
//
// Every expected marker, length and number below is written by hand from UBJSON Draft 12
// (big-endian; docs/formats.md#ubjson for 3.11.2's choices) and checked by expect_bytes()
// against both the oracle and the reference. Payload bytes that are only copied (string
// contents, filler elements) are appended by loops.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.hpp"
#include "ubjson_family_checks.hpp"

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;
using sinkcheck::format;
using namespace sinkcheck::test::ubjson_family;

template <class Json = json>
void expect_ubjson(const Json& j, std::string_view expected, const sinkcheck::encode_options& o = plain) {
    sinkcheck::test::expect_bytes(format::ubjson, j, expected, o);
}

/// One value, its hex without options, with use_size, and with use_size + use_type.
struct option_vector {
    json value;
    const char* plain_hex;
    const char* sized_hex;
    const char* typed_hex;
};

void expect_option_vectors(const std::vector<option_vector>& vectors) {
    for (const auto& v : vectors) {
        expect_each_option(format::ubjson, v.value, v.plain_hex, v.sized_hex, v.typed_hex);
    }
}

// UBJSON Draft 12 "Numeric": i int8, U uint8, I int16, l int32, L int64, big-endian; 3.11.2
// takes the first that fits, i before U
TEST(Ubjson, WritesSmallestIntegerMarkerAtEveryLadderEdge) {
    expect_integer_vectors(format::ubjson, {
                                               {0, "69 00"},
                                               {127, "69 7f"},
                                               {128, "55 80"},
                                               {255, "55 ff"},
                                               {256, "49 0100"},
                                               {32767, "49 7fff"},
                                               {32768, "6c 00008000"},
                                               {65535, "6c 0000ffff"},
                                               {65536, "6c 00010000"},
                                               {2147483647, "6c 7fffffff"},
                                               {2147483648, "4c 0000000080000000"},
                                               {4294967295, "4c 00000000ffffffff"},
                                               {4294967296, "4c 0000000100000000"},
                                               {std::numeric_limits<std::int64_t>::max(), "4c 7fffffffffffffff"},
                                               {-1, "69 ff"},
                                               {-128, "69 80"},
                                               {-129, "49 ff7f"},
                                               {-32768, "49 8000"},
                                               {-32769, "6c ffff7fff"},
                                               {-2147483648, "6c 80000000"},
                                               {-2147483649, "4c ffffffff7fffffff"},
                                               {std::numeric_limits<std::int64_t>::min(), "4c 8000000000000000"},
                                           });
}

// UBJSON Draft 12 "High-Precision": H, a length, the decimal digits; 3.11.2 uses it only for a
// number_unsigned above INT64_MAX
TEST(Ubjson, WritesUnsignedAboveInt64AsHighPrecisionDigits) {
    expect_ubjson(json(std::uint64_t{9223372036854775808ULL}), "48 69 13" + hex_of("9223372036854775808"));
    expect_ubjson(json(std::numeric_limits<std::uint64_t>::max()), "48 69 14" + hex_of("18446744073709551615"));
}

TEST(Ubjson, WritesNullAndBooleansAsMarkers) {
    expect_ubjson(json(nullptr), "5a");
    expect_ubjson(json(true), "54");
    expect_ubjson(json(false), "46");
}

// 3.11.2 always writes float64 (D, big-endian IEEE 754), never d
TEST(Ubjson, WritesEveryFiniteFloatAsFloat64) {
    expect_ubjson(json(1.5), "44 3ff8000000000000");
    expect_ubjson(json(0.0), "44 0000000000000000");
    expect_ubjson(json(-0.0), "44 8000000000000000");
    expect_ubjson(json(0.1), "44 3fb999999999999a");
    expect_ubjson(json(-4.1), "44 c010666666666666");
    expect_ubjson(json(1e300), "44 7e37e43c8800759c");
    expect_ubjson(json(std::numeric_limits<double>::denorm_min()), "44 0000000000000001");
}

// UBJSON Draft 12 "String": S, a length of the integer ladder, the UTF-8 bytes; the length
// counts bytes, not characters
TEST(Ubjson, WritesStringLengthAtEachLadderEdge) {
    expect_string_heads(format::ubjson, {
                                            {0, "53 69 00"},
                                            {1, "53 69 01"},
                                            {127, "53 69 7f"},
                                            {128, "53 55 80"},
                                            {255, "53 55 ff"},
                                            {256, "53 49 0100"},
                                            {32767, "53 49 7fff"},
                                            {32768, "53 6c 00008000"},
                                            {65535, "53 6c 0000ffff"},
                                            {65536, "53 6c 00010000"},
                                        });
}

TEST(Ubjson, CountsMultiByteUtf8InBytes) {
    expect_ubjson(json("\xc3\xa9"), "53 69 02 c3a9");              // é
    expect_ubjson(json("\xe2\x82\xac"), "53 69 03 e282ac");        // €
    expect_ubjson(json("\xf0\x9f\x98\x80"), "53 69 04 f09f9880");  // 😀
    std::string e64;
    for (int i = 0; i < 64; ++i) {
        e64 += "\xc3\xa9";
    }
    expect_ubjson(json(e64), "53 55 80" + repeat("c3a9", 64));  // 64 characters, 128 bytes: U
    std::string emoji;
    for (int i = 0; i < 8192; ++i) {
        emoji += "\xf0\x9f\x98\x80";
    }
    expect_ubjson(json(emoji), "53 6c 00008000" + repeat("f09f9880", 8192));
}

// Plain: [ ... ] and { ... }; use_size: # count and no end marker; use_type: $ when every
// element has the same marker (UBJSON Draft 12 "Optimized Format")
TEST(Ubjson, WritesArraysWithEachOptionCombination) {
    expect_option_vectors({
        {json::array({1, "a", nullptr}), "5b 6901 5369 0161 5a 5d", "5b 2369 03 6901 5369 0161 5a",
         "5b 2369 03 6901 5369 0161 5a"},
        {json::array({1, 2, 3}), "5b 6901 6902 6903 5d", "5b 2369 03 6901 6902 6903", "5b 2469 2369 03 01 02 03"},
        {json::array({-1, -2}), "5b 69ff 69fe 5d", "5b 2369 02 69ff 69fe", "5b 2469 2369 02 ff fe"},
        {json::array({200, 201}), "5b 55c8 55c9 5d", "5b 2369 02 55c8 55c9", "5b 2455 2369 02 c8 c9"},
        {json::array({256, 257}), "5b 490100 490101 5d", "5b 2369 02 490100 490101", "5b 2449 2369 02 0100 0101"},
        {json::array({1.5, 2.5}), "5b 443ff8000000000000 444004000000000000 5d",
         "5b 2369 02 443ff8000000000000 444004000000000000", "5b 2444 2369 02 3ff8000000000000 4004000000000000"},
    });
}

TEST(Ubjson, WritesObjectsWithEachOptionCombination) {
    expect_option_vectors({
        {json::parse(R"({"a":1,"b":2})"), "7b 6901 61 6901 6901 62 6902 7d", "7b 2369 02 6901 61 6901 6901 62 6902",
         "7b 2469 2369 02 6901 61 01 6901 62 02"},
        {json::parse(R"({"a":"x","b":"yz"})"), "7b 6901 61 5369 0178 6901 62 5369 02797a 7d",
         "7b 2369 02 6901 61 5369 0178 6901 62 5369 02797a", "7b 2453 2369 02 6901 61 6901 78 6901 62 6902 797a"},
        {json::parse(R"({"a":1,"b":true})"), "7b 6901 61 6901 6901 62 54 7d", "7b 2369 02 6901 61 6901 6901 62 54",
         "7b 2369 02 6901 61 6901 6901 62 54"},
    });
}

TEST(Ubjson, WritesNestedContainersWithEachOptionCombination) {
    expect_option_vectors({
        {json::parse(R"({"a":[1,2],"b":{"c":"d"}})"), "7b 6901 61 5b 6901 6902 5d 6901 62 7b 6901 63 5369 0164 7d 7d",
         "7b 2369 02 6901 61 5b 2369 02 6901 6902 6901 62 7b 2369 01 6901 63 5369 0164",
         "7b 2369 02 6901 61 5b 2469 2369 02 01 02 6901 62 7b 2453 2369 01 6901 63 6901 64"},
        {json::parse(R"([[1,"x"],[true]])"), "5b 5b 6901 5369 0178 5d 5b 54 5d 5d",
         "5b 2369 02 5b 2369 02 6901 5369 0178 5b 2369 01 54", "5b 245b 2369 02 2369 02 6901 5369 0178 2454 2369 01"},
    });
}

// Empty containers never get $ (3.11.2), with use_type too
TEST(Ubjson, WritesEmptyContainersWithoutType) {
    expect_option_vectors({
        {json::array(), "5b 5d", "5b 2369 00", "5b 2369 00"},
        {json::object(), "7b 7d", "7b 2369 00", "7b 2369 00"},
        {json::parse(R"([[],{}])"), "5b 5b5d 7b7d 5d", "5b 2369 02 5b2369 00 7b2369 00",
         "5b 2369 02 5b2369 00 7b2369 00"},
        {json::binary({}), "5b 5d", "5b 2369 00", "5b 2369 00"},
    });
}

// UBJSON Draft 12: binary data is a strongly-typed array of uint8; 3.11.2 drops the subtype
TEST(Ubjson, WritesBinaryAsUint8ArrayWithEachOptionCombination) {
    expect_option_vectors({
        {json::binary({1, 2, 0xff}), "5b 5501 5502 55ff 5d", "5b 2369 03 5501 5502 55ff", "5b 2455 2369 03 01 02 ff"},
        {json::binary({1, 2}, 42), "5b 5501 5502 5d", "5b 2369 02 5501 5502", "5b 2455 2369 02 01 02"},
    });
    std::vector<std::uint8_t> bytes(300, 0xab);
    expect_ubjson(json::binary(bytes), "5b" + repeat("55ab", 300) + "5d");
    expect_ubjson(json::binary(bytes), "5b 2455 2349 012c" + repeat("ab", 300), typed);
}

// No widening: i and U, T and F, D and anything else are different markers
TEST(Ubjson, WritesNoTypeWhenMarkersDiffer) {
    expect_ubjson(json::array({1, 200}), "5b 2369 02 6901 55c8", typed);
    expect_ubjson(json::array({127, 128}), "5b 2369 02 697f 5580", typed);
    expect_ubjson(json::array({true, false}), "5b 2369 02 54 46", typed);
    expect_ubjson(json::array({1, 1.0}), "5b 2369 02 6901 443ff0000000000000", typed);
    expect_ubjson(json::array({"a", nullptr}), "5b 2369 02 5369 0161 5a", typed);
    expect_ubjson(json::array({json::array(), json::object()}), "5b 2369 02 5b2369 00 7b2369 00", typed);
}

// number_integer and number_unsigned of the same size share a marker
TEST(Ubjson, TypesMixedSignednessByMarker) {
    expect_ubjson(json::array({json(std::int64_t{5}), json(std::uint64_t{6})}), "5b 2469 2369 02 05 06", typed);
}

// UBJSON Draft 12 "Special case: Marker-only types": with $Z, $T, $F the elements have no
// bytes at all
TEST(Ubjson, WritesMarkerOnlyTypesWithoutPayload) {
    expect_ubjson(json::array({nullptr, nullptr}), "5b 245a 2369 02", typed);
    expect_ubjson(json::array({true, true, true}), "5b 2454 2369 03", typed);
    expect_ubjson(json::array({false}), "5b 2446 2369 01", typed);
    expect_ubjson(json::parse(R"({"a":null,"bb":null})"), "7b 245a 2369 02 6901 61 6902 6262", typed);
    expect_ubjson(json(std::vector<json>(512, true)), "5b 2454 2349 0200", typed);  // the spec's own example
}

// $S drops S and keeps each length; $H drops H and keeps length and digits
TEST(Ubjson, WritesStringAndHighPrecisionTypesKeepingLengths) {
    expect_ubjson(json::array({"ab", "", "c"}), "5b 2453 2369 03 6902 6162 6900 6901 63", typed);
    const std::string digits = hex_of("9223372036854775808");
    expect_ubjson(json::array({std::uint64_t{9223372036854775808ULL}, std::uint64_t{9223372036854775808ULL}}),
                  "5b 2448 2369 02 6913" + digits + "6913" + digits, typed);
}

// $[ and ${: children drop their opening marker but keep their own $ and #
TEST(Ubjson, WritesContainerTypesDroppingChildOpeningMarker) {
    expect_ubjson(json::parse("[[1],[2]]"), "5b 245b 2369 02 2469 2369 01 01 2469 2369 01 02", typed);
    expect_ubjson(json::parse("[[],[1,2]]"), "5b 245b 2369 02 2369 00 2469 2369 02 01 02", typed);
    expect_ubjson(json::parse(R"([{"a":1},{"b":"c"}])"),
                  "5b 247b 2369 02 2469 2369 01 6901 61 01 2453 2369 01 6901 62 6901 63", typed);
    expect_ubjson(json::parse(R"({"a":[1],"b":[2,"x"]})"),
                  "7b 245b 2369 02 6901 61 2469 2369 01 01 6901 62 2369 02 6902 5369 0178", typed);
    // binary and arrays share the marker [
    expect_ubjson(json::array({json::binary({7}), json::array({8})}), "5b 245b 2369 02 2455 2369 01 07 2469 2369 01 08",
                  typed);
}

TEST(Ubjson, WritesCountAtEachLadderEdge) {
    expect_ubjson(json(std::vector<json>(127, 0)), "5b 2469 2369 7f" + repeat("00", 127), typed);
    expect_ubjson(json(std::vector<json>(128, nullptr)), "5b 2355 80" + repeat("5a", 128), sized);
    expect_ubjson(json(std::vector<json>(256, 0)), "5b 2469 2349 0100" + repeat("00", 256), typed);
    expect_ubjson(json(std::vector<json>(32768, 0)), "5b 2469 236c 00008000" + repeat("00", 32768), typed);
}

TEST(Ubjson, WritesKeysWithoutStringMarkerInStdMapOrder) {
    expect_ubjson(json::parse(R"({"b":1,"aa":2})"), "7b 6902 6161 6902 6901 62 6901 7d");
    expect_ubjson(json::parse(R"({"":null})"), "7b 6900 5a 7d");
    json long_key = json::object();
    long_key[std::string(128, 'k')] = 0;
    expect_ubjson(long_key, "7b 5580" + repeat("6b", 128) + "6900 7d");
}

TEST(Ubjson, KeepsInsertionOrderForOrderedJson) {
    ordered_json j;
    j["b"] = 1;
    j["a"] = 2;
    expect_ubjson(j, "7b 6901 62 6901 6901 61 6902 7d");
}

// ND-array objects are BJData's; in UBJSON they are ordinary objects
TEST(Ubjson, WritesNdArrayShapedObjectAsOrdinaryObject) {
    const json nd = json::parse(R"({"_ArrayType_":"uint8","_ArraySize_":[1],"_ArrayData_":[5]})");
    expect_ubjson(nd, "7b 690b" + hex_of("_ArrayData_") + "5b 6905 5d 690b" + hex_of("_ArraySize_") +
                          "5b 6901 5d 690b" + hex_of("_ArrayType_") + "5369 05" + hex_of("uint8") + "7d");
    EXPECT_EQ(sinkcheck::ubjson_divergence(json::parse(R"({"_ArrayType_":1,"_ArraySize_":[],"_ArrayData_":[]})")),
              nullptr);
}

// Divergence ubjson-nonfinite-as-null: UBJSON Draft 12 "Numeric" says infinity and NaN "are to
// be encoded as a null in all cases"; 3.11.2 writes D and the IEEE bits
TEST(Ubjson, WritesNonFiniteFloatsAsNull) {
    expect_divergent_vectors(
        format::ubjson, "ubjson-nonfinite-as-null",
        {
            {json(qnan), "44 7ff8000000000000", "5a", plain},
            {json(inf), "44 7ff0000000000000", "5a", plain},
            {json(-inf), "44 fff0000000000000", "5a", plain},
            {json(-qnan), "44 fff8000000000000", "5a", plain},
            {json::array({qnan, inf}), "5b 2444 2369 02 7ff8000000000000 7ff0000000000000", "5b 245a 2369 02", typed},
            {json::array({nullptr, -inf}), "5b 2369 02 5a 44fff0000000000000", "5b 245a 2369 02", typed},
            {json::array({qnan, 1.0}), "5b 2444 2369 02 7ff8000000000000 3ff0000000000000",
             "5b 2369 02 5a 443ff0000000000000", typed},
            {json{{"a", 1.0}, {"b", qnan}}, "7b 6901 61 443ff0000000000000 6901 62 447ff8000000000000 7d",
             "7b 6901 61 443ff0000000000000 6901 62 5a 7d", plain},
        });
}

// Divergence ubjson-type-without-size: Draft 12 "Additional rules": "If a type is specified,
// a count must also be specified"; 3.11.2 asserts, or without assertions writes $ and no #
TEST(Ubjson, RefusesTypeWithoutSizeBeforeWriting) {
    for (const json& j :
         {json(1), json(nullptr), json::array({1, 2}), json::parse(R"({"a":[true]})"), json::binary({1})}) {
        expect_options_refused(format::ubjson, j);
    }
}

// Divergence invalid-utf8: Draft 12 "String": UTF-8 is required; 3.11.2 copies the bytes
TEST(Ubjson, RefusesInvalidUtf8StringWithTypeError316) {
    const json j = {{"a", json::array({"ok"})}, {"b", json::array({"x", "\xff"})}};
    EXPECT_EQ(hex(json::to_ubjson(j)), "7b6901615b5369026f6b5d6901625b53690178536901ff5d7d");  // 3.11.2
    EXPECT_STREQ(sinkcheck::ubjson_divergence(j), "invalid-utf8");
    const auto e = refusal(format::ubjson, j);
    ASSERT_TRUE(e);
    EXPECT_STREQ(e->category(), "type_error");
    EXPECT_EQ(e->id(), 316);
    EXPECT_EQ(e->pointer(), "/b/1");
    EXPECT_NE(std::string(e->what()).find("'/b/1'"), std::string::npos) << e->what();
}

TEST(Ubjson, RefusesInvalidUtf8KeyWithTypeError316) {
    const json j = {{"k", {{"\xc0\xaf", 1}}}};  // overlong '/'
    EXPECT_EQ(hex(json::to_ubjson(j, true, true)),
              "7b247b236901"
              "69016b"
              "2469236901"
              "6902c0af"
              "01");  // 3.11.2
    EXPECT_STREQ(sinkcheck::ubjson_divergence(j, typed), "invalid-utf8");
    const auto e = refusal(format::ubjson, j, typed);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->id(), 316);
    EXPECT_EQ(e->pointer(), "/k/\xc0\xaf");
}

// Divergence discarded-value: 3.11.2 writes nothing, so "#i\x02" promises an element that never
// comes (Draft 12 "Additional rules": a container with a count must contain that many)
TEST(Ubjson, RefusesDiscardedValueWithTypeError901) {
    const json j = json::array({1, json(json::value_t::discarded)});
    EXPECT_EQ(hex(json::to_ubjson(j, true)), "5b2369026901");
    EXPECT_STREQ(sinkcheck::ubjson_divergence(j, sized), "discarded-value");
    const auto e = refusal(format::ubjson, j, sized);
    ASSERT_TRUE(e);
    EXPECT_STREQ(e->category(), "type_error");
    EXPECT_EQ(e->id(), sinkcheck::error_id::discarded_value);
    EXPECT_EQ(e->pointer(), "/1");
    const auto root = refusal(format::ubjson, json(json::value_t::discarded));
    ASSERT_TRUE(root);
    EXPECT_EQ(root->pointer(), "");
}

TEST(Ubjson, NamesNoDivergenceForValidValues) {
    for (const auto& o : {plain, sized, typed}) {
        EXPECT_EQ(sinkcheck::ubjson_divergence(json::parse(R"({"a":["b",1,2.5,null,-0.0]})"), o), nullptr);
        EXPECT_EQ(sinkcheck::ubjson_divergence(json::binary({1}, 7), o), nullptr);
    }
}

// 100,000 levels: each level is "[" ... "]", "[#i\x01", or under $[ only "$[#i\x01"
TEST(Ubjson, EncodesArraysNested100000Deep) {
    constexpr std::size_t depth = 100000;
    const auto deep = sinkcheck::test::nested_arrays<json>(depth);
    expect_plain_nesting(format::ubjson, deep, depth);

    const auto s = sinkcheck::encode_to_vector(format::ubjson, deep, sized);
    ASSERT_EQ(s.size(), 4 * depth);
    EXPECT_EQ(hex({s.begin(), s.begin() + 8}), "5b2369015b236901");
    EXPECT_EQ(hex({s.end() - 4, s.end()}), "5b236900");

    // outer "[$[#i\x01", then "$[#i\x01" per level below it, the innermost "#i\x00"
    const auto t = sinkcheck::encode_to_vector(format::ubjson, deep, typed);
    ASSERT_EQ(t.size(), 6 + 5 * (depth - 2) + 3);
    EXPECT_EQ(hex({t.begin(), t.begin() + 11}), "5b245b236901245b236901");
    EXPECT_EQ(hex({t.end() - 8, t.end()}), "245b236901236900");
    EXPECT_EQ(sinkcheck::ubjson_divergence(deep, typed), nullptr);
}

TEST(Ubjson, EncodesObjectsNested100000Deep) {
    constexpr std::size_t depth = 100000;
    const auto deep = sinkcheck::test::nested_objects<json>(depth);
    const auto bytes = sinkcheck::encode_to_vector(format::ubjson, deep);
    ASSERT_EQ(bytes.size(), 4 * (depth - 1) + 2 + (depth - 1));
    EXPECT_EQ(hex({bytes.begin(), bytes.begin() + 8}), "7b6901617b690161");
    EXPECT_EQ(hex({bytes.begin() + 4 * (depth - 1), bytes.begin() + 4 * (depth - 1) + 3}), "7b7d7d");
    EXPECT_EQ(std::count(bytes.begin() + 4 * (depth - 1) + 1, bytes.end(), '}'), static_cast<long>(depth));
}

TEST(Ubjson, NamesDeepPointerInErrors) {
    auto deep = sinkcheck::test::nested_arrays<json>(1000);
    json* cur = &deep;
    while (!cur->empty()) {
        cur = &(*cur)[0];
    }
    cur->push_back("\xff");
    const auto e = refusal(format::ubjson, deep);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer(), repeat("/0", 1000));
}

// The hot-path contract: a marker and its number (or a string's marker, length and short
// contents) reach the sink in one write
TEST(Ubjson, WritesEachMarkerAndNumberInOneSinkCall) {
    // [ | l 00011170 | S i 02 "ab" | D 3ff8000000000000 | Z | ]
    const json j = json::array({70000, "ab", 1.5, nullptr});
    call_counting_sink sink;
    sinkcheck::encode_ubjson(j, sink);
    EXPECT_EQ(sink.calls, 6u);
    EXPECT_EQ(sink.bytes, 1u + 5 + 5 + 9 + 1 + 1);
}

TEST(Ubjson, RecordsMarksAtEachValueStart) {
    std::vector<sinkcheck::value_mark> marks;
    sinkcheck::encode_options o;
    o.marks = &marks;
    sinkcheck::memory_writer sink;
    sinkcheck::encode_ubjson(json::parse(R"({"a":[1,"x"]})"), sink, o);
    // { i01 'a' [ i01 S i01 'x' ]: a member's mark is where its key starts (1); the elements
    // of "a" start at 5 and 7
    ASSERT_EQ(marks.size(), 4u);
    EXPECT_EQ(marks[0].offset, 0u);
    EXPECT_EQ(marks[1].offset, 1u);
    EXPECT_EQ(marks[1].pointer, "/a");
    EXPECT_EQ(marks[2].offset, 5u);
    EXPECT_EQ(marks[3].offset, 7u);
    EXPECT_EQ(marks[3].pointer, "/a/1");
}

TEST(Ubjson, MatchesOracleOnRandomValues) { differential_all_options(format::ubjson, 3000); }

}  // namespace
