// bjdata_test.cpp — the BJData encoder against hand-derived Draft 2 vectors and nlohmann 3.11.2.
//
// Every expected marker, length and number below is written by hand from BJData Draft 2
// (little-endian, integer ladder i U I u l m L M; docs/formats.md#bjdata for 3.11.2's choices,
// ND-arrays included) and checked by expect_bytes() against both the oracle and the reference.
// Payload bytes that are only copied (string contents, filler elements) are appended by loops.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <limits>
#include <random>
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
void expect_bjdata(const Json& j, std::string_view expected, const sinkcheck::encode_options& o = plain) {
    sinkcheck::test::expect_bytes(format::bjdata, j, expected, o);
}

template <class Json = json>
void expect_each_option(const Json& j, std::string_view plain_hex, std::string_view sized_hex,
                        std::string_view typed_hex) {
    sinkcheck::test::ubjson_family::expect_each_option(format::bjdata, j, plain_hex, sized_hex, typed_hex);
}

json ndarray(const char* type, json size, json data) {
    return {{"_ArrayType_", type}, {"_ArraySize_", std::move(size)}, {"_ArrayData_", std::move(data)}};
}

const std::string data_key = "690b" + hex_of("_ArrayData_");
const std::string size_key = "690b" + hex_of("_ArraySize_");
const std::string type_key = "690b" + hex_of("_ArrayType_");

// BJData Draft 2 "Numeric": i U I u l m L M, little-endian; 3.11.2 takes the first that fits
TEST(Bjdata, WritesSmallestIntegerMarkerAtEveryLadderEdge) {
    expect_integer_vectors(format::bjdata, {
                                               {0, "69 00"},
                                               {127, "69 7f"},
                                               {128, "55 80"},
                                               {255, "55 ff"},
                                               {256, "49 0001"},
                                               {32767, "49 ff7f"},
                                               {32768, "75 0080"},
                                               {65535, "75 ffff"},
                                               {65536, "6c 00000100"},
                                               {2147483647, "6c ffffff7f"},
                                               {2147483648, "6d 00000080"},
                                               {4294967295, "6d ffffffff"},
                                               {4294967296, "4c 0000000001000000"},
                                               {std::numeric_limits<std::int64_t>::max(), "4c ffffffffffffff7f"},
                                               {-1, "69 ff"},
                                               {-128, "69 80"},
                                               {-129, "49 7fff"},
                                               {-32768, "49 0080"},
                                               {-32769, "6c ff7fffff"},
                                               {-2147483648, "6c 00000080"},
                                               {-2147483649, "4c ffffff7fffffffff"},
                                               {std::numeric_limits<std::int64_t>::min(), "4c 0000000000000080"},
                                           });
}

// M uint64 above INT64_MAX, where UBJSON needs H
TEST(Bjdata, WritesUnsignedAboveInt64AsUint64) {
    expect_bjdata(json(std::uint64_t{9223372036854775808ULL}), "4d 0000000000000080");
    expect_bjdata(json(std::numeric_limits<std::uint64_t>::max()), "4d ffffffffffffffff");
}

TEST(Bjdata, WritesNullAndBooleansAsMarkers) {
    expect_bjdata(json(nullptr), "5a");
    expect_bjdata(json(true), "54");
    expect_bjdata(json(false), "46");
}

// Float64 little-endian; BJData Draft 2 "Numeric" notes: ±Inf and NaN keep their IEEE 754 bits
// (unlike UBJSON), which 3.11.2 does, payload and sign included
TEST(Bjdata, WritesFloatsAsLittleEndianFloat64WithNonFiniteBits) {
    expect_bjdata(json(1.5), "44 000000000000f83f");
    expect_bjdata(json(-0.0), "44 0000000000000080");
    expect_bjdata(json(0.1), "44 9a9999999999b93f");
    expect_bjdata(json(qnan), "44 000000000000f87f");
    expect_bjdata(json(-qnan), "44 000000000000f8ff");
    expect_bjdata(json(inf), "44 000000000000f07f");
    expect_bjdata(json(-inf), "44 000000000000f0ff");
    expect_bjdata(json(sinkcheck::test::double_from_bits(0x7ff800000000beefULL)), "44 efbe00000000f87f");
    expect_bjdata(json::array({qnan, inf}), "5b 2444 2369 02 000000000000f87f 000000000000f07f", typed);
    EXPECT_EQ(sinkcheck::bjdata_divergence(json::array({qnan, -inf})), nullptr);
}

TEST(Bjdata, WritesStringLengthAtEachLadderEdge) {
    expect_string_heads(format::bjdata, {
                                            {0, "53 69 00"},
                                            {1, "53 69 01"},
                                            {127, "53 69 7f"},
                                            {128, "53 55 80"},
                                            {255, "53 55 ff"},
                                            {256, "53 49 0001"},
                                            {32767, "53 49 ff7f"},
                                            {32768, "53 75 0080"},
                                            {65535, "53 75 ffff"},
                                            {65536, "53 6c 00000100"},
                                        });
    std::string euros;
    for (int i = 0; i < 11000; ++i) {
        euros += "\xe2\x82\xac";
    }
    expect_bjdata(json(euros), "53 75 e880" + repeat("e282ac", 11000));  // 33000 bytes: u
}

TEST(Bjdata, WritesArraysWithEachOptionCombination) {
    expect_each_option(json::array({1, "a", nullptr}), "5b 6901 5369 0161 5a 5d", "5b 2369 03 6901 5369 0161 5a",
                       "5b 2369 03 6901 5369 0161 5a");
    expect_each_option(json::array({1, 2, 3}), "5b 6901 6902 6903 5d", "5b 2369 03 6901 6902 6903",
                       "5b 2469 2369 03 01 02 03");
    expect_each_option(json::array({256, 257}), "5b 490001 490101 5d", "5b 2369 02 490001 490101",
                       "5b 2449 2369 02 0001 0101");
    expect_each_option(json::array({40000, 40001}), "5b 75409c 75419c 5d", "5b 2369 02 75409c 75419c",
                       "5b 2475 2369 02 409c 419c");
    expect_each_option(json::array({3000000000, 3000000001}), "5b 6d005ed0b2 6d015ed0b2 5d",
                       "5b 2369 02 6d005ed0b2 6d015ed0b2", "5b 246d 2369 02 005ed0b2 015ed0b2");
    expect_each_option(json::array({std::uint64_t{9223372036854775808ULL}, std::uint64_t{9223372036854775809ULL}}),
                       "5b 4d0000000000000080 4d0100000000000080 5d",
                       "5b 2369 02 4d0000000000000080 4d0100000000000080",
                       "5b 244d 2369 02 0000000000000080 0100000000000080");
    expect_each_option(json::array({1.5, 2.5}), "5b 44000000000000f83f 440000000000000440 5d",
                       "5b 2369 02 44000000000000f83f 440000000000000440",
                       "5b 2444 2369 02 000000000000f83f 0000000000000440");
}

TEST(Bjdata, WritesObjectsAndNestedContainersWithEachOptionCombination) {
    expect_each_option(json::parse(R"({"a":1,"b":2})"), "7b 6901 61 6901 6901 62 6902 7d",
                       "7b 2369 02 6901 61 6901 6901 62 6902", "7b 2469 2369 02 6901 61 01 6901 62 02");
    expect_each_option(json::parse(R"({"a":40000,"b":1})"), "7b 6901 61 75409c 6901 62 6901 7d",
                       "7b 2369 02 6901 61 75409c 6901 62 6901", "7b 2369 02 6901 61 75409c 6901 62 6901");
    expect_each_option(json::parse(R"({"a":[1,2],"b":{"c":"d"}})"),
                       "7b 6901 61 5b 6901 6902 5d 6901 62 7b 6901 63 5369 0164 7d 7d",
                       "7b 2369 02 6901 61 5b 2369 02 6901 6902 6901 62 7b 2369 01 6901 63 5369 0164",
                       "7b 2369 02 6901 61 5b 2469 2369 02 01 02 6901 62 7b 2369 01 6901 63 5369 0164");
}

TEST(Bjdata, WritesEmptyContainersWithoutType) {
    expect_each_option(json::array(), "5b 5d", "5b 2369 00", "5b 2369 00");
    expect_each_option(json::object(), "7b 7d", "7b 2369 00", "7b 2369 00");
    expect_each_option(json::binary({}), "5b 5d", "5b 2369 00", "5b 2369 00");
}

// Binary is a uint8 array, $U when typed (3.11.2 writes Draft 2, not Draft 3's $B)
TEST(Bjdata, WritesBinaryAsUint8ArrayWithEachOptionCombination) {
    expect_each_option(json::binary({1, 2, 0xff}, 9), "5b 5501 5502 55ff 5d", "5b 2369 03 5501 5502 55ff",
                       "5b 2455 2369 03 01 02 ff");
    std::vector<std::uint8_t> bytes(40000, 0x5a);
    expect_bjdata(json::binary(bytes), "5b 2455 2375 409c" + repeat("5a", 40000), typed);
}

// BJData Draft 2 "Type - $": only fixed-length non-zero-size types; 3.11.2 refuses
// [ { S H T F N Z, so these get # but no $
TEST(Bjdata, RefusesTypeMarkersOutsideFixedSizeTypes) {
    expect_bjdata(json::array({nullptr, nullptr}), "5b 2369 02 5a 5a", typed);
    expect_bjdata(json::array({true, true}), "5b 2369 02 54 54", typed);
    expect_bjdata(json::array({false, false}), "5b 2369 02 46 46", typed);
    expect_bjdata(json::array({"a", "b"}), "5b 2369 02 5369 0161 5369 0162", typed);
    expect_bjdata(json::parse("[[1],[2]]"), "5b 2369 02 5b 2469 2369 01 01 5b 2469 2369 01 02", typed);
    expect_bjdata(json::parse("[{},{}]"), "5b 2369 02 7b 2369 00 7b 2369 00", typed);
    expect_bjdata(json::parse(R"({"a":{}})"), "7b 2369 01 6901 61 7b 2369 00", typed);
    expect_bjdata(json::array({json::binary({7}), json::binary({8})}),
                  "5b 2369 02 5b 2455 2369 01 07 5b 2455 2369 01 08", typed);
}

TEST(Bjdata, WritesNoTypeWhenMarkersDiffer) {
    expect_bjdata(json::array({32767, 32768}), "5b 2369 02 49ff7f 750080", typed);
    expect_bjdata(json::array({2147483647, 2147483648}), "5b 2369 02 6cffffff7f 6d00000080", typed);
    expect_bjdata(json::array({json(std::int64_t{5}), json(std::uint64_t{6})}), "5b 2469 2369 02 05 06", typed);
}

TEST(Bjdata, WritesCountAtEachLadderEdge) {
    expect_bjdata(json(std::vector<json>(255, 0)), "5b 2469 2355 ff" + repeat("00", 255), typed);
    expect_bjdata(json(std::vector<json>(32768, 0)), "5b 2469 2375 0080" + repeat("00", 32768), typed);
    expect_bjdata(json(std::vector<json>(65536, nullptr)), "5b 236c 00000100" + repeat("5a", 65536), typed);
}

// ND-arrays (BJData Draft 2 "Optimized N-dimensional array of uniform type"): [ $ type # then
// the dimensions as an array written with the current options, then the packed elements
struct nd_vector {
    const char* type;
    const char* marker;
    json data;
    const char* data_hex;
};

TEST(Bjdata, WritesNdArrayOfEachElementTypeWithEachOptionCombination) {
    const nd_vector vectors[] = {
        {"uint8", "55", {1, 255}, "01 ff"},
        {"int8", "69", {-128, 127}, "80 7f"},
        {"uint16", "75", {1, 65535}, "0100 ffff"},
        {"int16", "49", {-32768, 32767}, "0080 ff7f"},
        {"uint32", "6d", {1, 4294967295}, "01000000 ffffffff"},
        {"int32", "6c", {-2147483648, 2147483647}, "00000080 ffffff7f"},
        {"uint64", "4d", {1, std::numeric_limits<std::uint64_t>::max()}, "0100000000000000 ffffffffffffffff"},
        {"int64",
         "4c",
         {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()},
         "0000000000000080 ffffffffffffff7f"},
        {"single", "64", {1.5, -0.0}, "0000c03f 00000080"},
        {"double", "44", {1.5, -0.0}, "000000000000f83f 0000000000000080"},
        {"char", "43", {97, 127}, "61 7f"},
    };
    for (const auto& v : vectors) {
        const std::string head = std::string("5b 24") + v.marker + "23";
        expect_each_option(ndarray(v.type, {1, 2}, v.data), head + "5b 6901 6902 5d" + v.data_hex,
                           head + "5b 2369 02 6901 6902" + v.data_hex, head + "5b 2469 2369 02 01 02" + v.data_hex);
    }
}

// The element's number kind does not matter when the value fits (the union members alias in
// 3.11.2); single rounds a double to binary32 like 3.11.2's cast
TEST(Bjdata, WritesNdArrayElementsOfEitherSignednessAndRoundsSingles) {
    expect_bjdata(ndarray("uint16", {2}, {json(std::int64_t{7}), json(std::uint64_t{8})}),
                  "5b2475 23 5b69025d 0700 0800");
    expect_bjdata(ndarray("int8", {2}, {json(std::uint64_t{5}), json(std::int64_t{-5})}), "5b2469 23 5b69025d 05 fb");
    expect_bjdata(ndarray("single", {1}, {0.1}), "5b2464 23 5b69015d cdcccc3d");
}

// 3.11.2 quirk: one dimension still gets "#[...]" (docs/formats.md#bjdata); Draft 2 admits it
TEST(Bjdata, WritesOneDimensionalNdArrayWithDimensionVector) {
    expect_each_option(ndarray("uint8", {3}, {1, 2, 3}), "5b2455 23 5b 6903 5d 010203",
                       "5b2455 23 5b 2369 01 6903 010203", "5b2455 23 5b 2469 2369 01 03 010203");
}

// 3.11.2 counts an empty _ArraySize_ as 0 elements; a 0 dimension makes any shape empty
TEST(Bjdata, WritesEmptyNdArrays) {
    expect_each_option(ndarray("uint8", json::array(), json::array()), "5b2455 23 5b 5d", "5b2455 23 5b 2369 00",
                       "5b2455 23 5b 2369 00");
    expect_each_option(ndarray("int32", {2, 0}, json::array()), "5b246c 23 5b 6902 6900 5d",
                       "5b246c 23 5b 2369 02 6902 6900", "5b246c 23 5b 2469 2369 02 02 00");
}

TEST(Bjdata, WritesNdArrayDimensionsWithTheirOwnLadder) {
    expect_bjdata(ndarray("uint8", {1, 200}, json(std::vector<json>(200, 0))),
                  "5b2455 23 5b 2369 02 6901 55c8" + repeat("00", 200), typed);
    expect_bjdata(ndarray("uint8", {1, 200}, json(std::vector<json>(200, 0))),
                  "5b2455 23 5b 6901 55c8 5d" + repeat("00", 200), plain);
}

TEST(Bjdata, WritesNdArrayInsideContainers) {
    const json nd = ndarray("uint8", {2}, {1, 2});
    const std::string nd_hex = "5b2455 23 5b2469 2369 01 02 0102";
    expect_bjdata(json::array({nd, nd}), "5b 2369 02" + nd_hex + nd_hex, typed);  // { may not follow $
    expect_bjdata(json{{"x", nd}}, "7b 2369 01 6901 78" + nd_hex, typed);
    ordered_json ordered;
    ordered["_ArrayData_"] = {1, 2};
    ordered["_ArrayType_"] = "uint8";
    ordered["_ArraySize_"] = {2};
    expect_bjdata(ordered, nd_hex, typed);
}

// The data length must equal the product of the dimensions, else 3.11.2 writes the ordinary
// object (keys in std::map order: _ArrayData_, _ArraySize_, _ArrayType_)
TEST(Bjdata, WritesNdArrayWithSizeMismatchAsOrdinaryObject) {
    const json j = ndarray("uint8", {2}, {1});
    const std::string type_value = "5369 05" + hex_of("uint8");
    expect_each_option(
        j, "7b" + data_key + "5b 6901 5d" + size_key + "5b 6902 5d" + type_key + type_value + "7d",
        "7b 2369 03" + data_key + "5b 2369 01 6901" + size_key + "5b 2369 01 6902" + type_key + type_value,
        "7b 2369 03" + data_key + "5b 2469 2369 01 01" + size_key + "5b 2469 2369 01 02" + type_key + type_value);
    EXPECT_EQ(sinkcheck::bjdata_divergence(j), nullptr);
}

TEST(Bjdata, WritesObjectsThatAreNotNdArraysAsOrdinaryObjects) {
    expect_bjdata(ndarray("float32", {1}, {1}), "7b" + data_key + "5b 6901 5d" + size_key + "5b 6901 5d" + type_key +
                                                    "5369 07" + hex_of("float32") + "7d");
    json four = ndarray("uint8", {1}, {1});
    four["x"] = 0;
    expect_bjdata(four,
                  "7b 2369 04" + data_key + "5b 2469 2369 01 01" + size_key + "5b 2469 2369 01 01" + type_key +
                      "5369 05" + hex_of("uint8") + "6901 78 6900",
                  typed);
}

// Three 11-byte keys starting with '_' pass the cheap first test of an ND-array candidate, but
// with one of the three names missing the object is ordinary; each name goes missing once
// (keys in std::map order: the replaced name sorts where the original did)
TEST(Bjdata, WritesUnderscoreKeysThatLackAnNdArrayNameAsOrdinaryObject) {
    const std::string names[3][3] = {{"_ArrayDatum", "_ArraySize_", "_ArrayType_"},
                                     {"_ArrayData_", "_ArraySizes", "_ArrayType_"},
                                     {"_ArrayData_", "_ArraySize_", "_ArrayTyped"}};
    for (const auto& n : names) {
        SCOPED_TRACE(n[0] + " " + n[1] + " " + n[2]);
        const json j = {{n[0], {1}}, {n[1], {1}}, {n[2], "uint8"}};
        expect_bjdata(j, "7b 690b" + hex_of(n[0]) + "5b 6901 5d 690b" + hex_of(n[1]) + "5b 6901 5d 690b" +
                             hex_of(n[2]) + "5369 05" + hex_of("uint8") + "7d");
        EXPECT_EQ(sinkcheck::bjdata_divergence(j), nullptr);
    }
}

// 3.11.2 converts _ArrayType_ to a string and throws type_error.302 when it is not one
TEST(Bjdata, RefusesNonStringNdArrayTypeWithTypeError302) {
    const json j = json::array({ndarray("uint8", {1}, {1})});
    json bad = j;
    bad[0]["_ArrayType_"] = 8;
    EXPECT_THROW(json::to_bjdata(bad), json::type_error);
    EXPECT_EQ(sinkcheck::bjdata_divergence(bad), nullptr);
    const auto e = refusal(format::bjdata, bad);
    ASSERT_TRUE(e);
    EXPECT_STREQ(e->category(), "type_error");
    EXPECT_EQ(e->id(), 302);
    EXPECT_EQ(e->pointer(), "/0");
}

/// What the reference must write for an ND-array-shaped object it does not trust: the ordinary
/// object. Taken from the oracle for the same object under a type name it does not know, with
/// the name's bytes put back.
std::string ordinary_object_hex(const json& j, const sinkcheck::encode_options& o = plain) {
    json renamed = j;
    const std::string name = j["_ArrayType_"].get<std::string>();
    renamed["_ArrayType_"] = "?" + name.substr(1);
    std::string out = hex(json::to_bjdata(renamed, o.use_size, o.use_type));
    const std::string from = hex_of("?" + name.substr(1));
    out.replace(out.find(from), from.size(), hex_of(name));
    return out;
}

// Divergence bjdata-ndarray-punned-float: 3.11.2 reads the double member of an integer element,
// writing its bit pattern as a float; the reference writes the value converted
TEST(Bjdata, WritesIntegerDataOfFloatNdArrayConverted) {
    expect_divergent_vectors(
        format::bjdata, "bjdata-ndarray-punned-float",
        {
            {ndarray("double", {2}, {1, 2.5}), "5b2444 23 5b69025d 0100000000000000 0000000000000440",
             "5b2444 23 5b69025d 000000000000f03f 0000000000000440", plain},
            {ndarray("single", {1}, {1}), "5b2464 23 5b69015d 00000000", "5b2464 23 5b69015d 0000803f", plain},
            {ndarray("single", {1}, {-1}), "5b2464 23 5b69015d ffffffff", "5b2464 23 5b69015d 000080bf", plain},
            {ndarray("double", {1}, json::array({json(std::uint64_t{3})})),
             "5b2444 23 5b2469236901 01 0300000000000000", "5b2444 23 5b2469236901 01 0000000000000840", typed},
        });
}

// Divergence bjdata-ndarray-invalid: for these 3.11.2 writes bytes that are truncated, wrapped,
// read from the wrong union member, or not the value at all; the reference writes the object
TEST(Bjdata, WritesUntrustworthyNdArraysAsOrdinaryObjects) {
    struct vector {
        json value;
        const char* nlohmann_hex;  // measured; nullptr: 3.11.2 writes a pointer's bytes
    };
    const vector vectors[] = {
        {ndarray("uint8", {-1, -1}, {1}), "5b2455235b69ff69ff5d01"},  // sizes wrap to 1
        {ndarray("uint8", {1}, {300}), "5b2455235b69015d2c"},         // truncated to 8 bits
        {ndarray("uint8", {1}, {-1}), "5b2455235b69015dff"},
        {ndarray("int64", {1}, json::array({json(std::uint64_t{9223372036854775808ULL})})),
         "5b244c235b69015d0000000000000080"},
        {ndarray("int8", {1}, {1.5}), "5b2469235b69015d00"},  // low byte of the double
        {ndarray("char", {1}, {200}), "5b2443235b69015dc8"},  // char is 0..127
        {ndarray("uint8", 2, {1, 2}), "5b24552369020102"},    // decodes as the array [1,2]
        {ndarray("uint8", {{"a", 2}}, {1, 2}), "5b2455237b69016169027d0102"},
        {ndarray("uint8", {2.0, 3.0}, json::array()),
         "5b2455235b440000000000000040440000000000000840"
         "5d"},
        {ndarray("uint8", {1}, {{"a", 7}}), "5b2455235b69015d07"},
        {ndarray("uint8", {1}, 7), "5b2455235b69015d07"},
        {ndarray("uint8", {4294967296, 4294967296}, json::array()), "5b2455235b4c00000000010000004c00000000010000005d"},
        {ndarray("uint8", {1}, {"x"}), nullptr},
        {ndarray("double", {1}, {nullptr}), "5b2444235b69015d0000000000000000"},  // null's zeroed union
    };
    // one by hand: {"_ArrayData_":[300],"_ArraySize_":[1],"_ArrayType_":"uint8"}
    EXPECT_EQ(ordinary_object_hex(vectors[1].value),
              hex(unhex("7b" + data_key + "5b 492c01 5d" + size_key + "5b 6901 5d" + type_key + "5369 05" +
                        hex_of("uint8") + "7d")));
    for (const auto& v : vectors) {
        if (v.nlohmann_hex != nullptr) {
            EXPECT_EQ(hex(json::to_bjdata(v.value)), v.nlohmann_hex) << v.value.dump();
        }
        EXPECT_EQ(hex(sinkcheck::encode_to_vector(format::bjdata, v.value)), ordinary_object_hex(v.value))
            << v.value.dump();
        const char* id = sinkcheck::bjdata_divergence(v.value);
        EXPECT_STREQ(id == nullptr ? "" : id, "bjdata-ndarray-invalid") << v.value.dump();
    }
}

/// An ND-array-shaped object with random parts, sound or not: sizes of every kind 3.11.2's
/// product loop can meet, data with elements in and out of every type's range.
json random_ndarray_shape(std::mt19937_64& rng) {
    const auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    static const char* types[] = {"uint8",  "int8",  "uint16", "int16",  "uint32", "int32",
                                  "uint64", "int64", "single", "double", "char"};
    const json size_parts[] = {0, 1, 2, 3, 2, 1, -1, 4294967296, 2.0, nullptr, true, "x"};
    const json data_parts[] = {0,       1,     127, 200,  -1,   -129,
                               300,     70000, 1.5, -0.0, qnan, json(std::uint64_t{9223372036854775808ULL}),
                               nullptr, "x"};
    json size;
    switch (pick(8)) {
        case 0: size = 2; break;
        case 1: size = nullptr; break;
        case 2: size = {{"a", 2}}; break;
        default:
            size = json::array();
            for (std::size_t k = pick(4); k > 0; --k) {
                size.push_back(pick(3) == 0 ? size_parts[pick(std::size(size_parts))] : json(pick(4)));
            }
    }
    json data = json::array();
    const std::size_t count = pick(3) == 0 ? pick(9)
                                           : (size.is_array() && size.size() == 2 && size[0].is_number_unsigned() &&
                                                      size[1].is_number_unsigned()
                                                  ? size[0].get<std::size_t>() * size[1].get<std::size_t>()
                                                  : pick(4));
    const bool clean = pick(2) == 0;
    for (std::size_t i = 0; i < count; ++i) {
        data.push_back(clean ? json(pick(100)) : data_parts[pick(std::size(data_parts))]);
    }
    if (pick(10) == 0) {
        data = 7;
    }
    return ndarray(types[pick(11)], std::move(size), std::move(data));
}

// Checks the divergence function against 3.11.2 itself: unflagged shapes must be written as
// 3.11.2 writes them (ND-array or, by its own size arithmetic, ordinary object), flagged
// invalid ones as the ordinary object
TEST(Bjdata, ClassifiesRandomNdArrayShapesAsNlohmannWritesThem) {
    const std::uint64_t seed = sinkcheck::test::seed();
    std::mt19937_64 rng(seed);
    int agreed = 0;
    int as_ndarray = 0;
    int invalid = 0;
    int punned = 0;
    for (int i = 0; i < 6000; ++i) {
        const json j = random_ndarray_shape(rng);
        const sinkcheck::encode_options& o = i % 3 == 0 ? plain : i % 3 == 1 ? sized : typed;
        const std::string ours = hex(sinkcheck::encode_to_vector(format::bjdata, j, o));
        const char* id = sinkcheck::bjdata_divergence(j, o);
        SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(i) + ": " + j.dump());
        if (id == nullptr) {
            ++agreed;
            as_ndarray += ours.compare(0, 4, "5b24") == 0 ? 1 : 0;
            ASSERT_EQ(ours, hex(json::to_bjdata(j, o.use_size, o.use_type)));
        } else if (std::string_view(id) == "bjdata-ndarray-invalid") {
            ++invalid;
            ASSERT_EQ(ours, ordinary_object_hex(j, o));
        } else {
            ++punned;
            ASSERT_STREQ(id, "bjdata-ndarray-punned-float");
            ASSERT_EQ(ours.size(), hex(json::to_bjdata(j, o.use_size, o.use_type)).size());
        }
    }
    std::cout << "[ bjdata ] seed " << seed << ": ND-array shapes " << agreed << " written as 3.11.2 writes them ("
              << as_ndarray << " as ND-arrays), " << invalid << " invalid written as objects, " << punned
              << " punned floats converted\n";
    EXPECT_GT(as_ndarray, 300);
    EXPECT_GT(agreed - as_ndarray, 500);
    EXPECT_GT(invalid, 500);
    EXPECT_GT(punned, 10);
}

TEST(Bjdata, RefusesTypeWithoutSizeBeforeWriting) {
    for (const json& j : {json(1), json::array({1, 2}), ndarray("uint8", {1}, {1}), json::binary({1})}) {
        expect_options_refused(format::bjdata, j);
    }
}

// Divergence invalid-utf8: BJData Draft 2 "String" requires UTF-8; 3.11.2 copies the bytes
TEST(Bjdata, RefusesInvalidUtf8WithTypeError316) {
    const json j = {{"a", json::array({"x", "\xed\xa0\x80"})}};  // an encoded UTF-16 surrogate
    EXPECT_EQ(hex(json::to_bjdata(j)),
              "7b6901615b536901785369"
              "03eda080"
              "5d7d");  // 3.11.2
    EXPECT_STREQ(sinkcheck::bjdata_divergence(j), "invalid-utf8");
    const auto e = refusal(format::bjdata, j);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->id(), 316);
    EXPECT_EQ(e->pointer(), "/a/1");

    const json k = {{"\xff", 1}};
    EXPECT_EQ(hex(json::to_bjdata(k)), "7b6901ff69017d");
    EXPECT_STREQ(sinkcheck::bjdata_divergence(k), "invalid-utf8");
    const auto ek = refusal(format::bjdata, k);
    ASSERT_TRUE(ek);
    EXPECT_EQ(ek->pointer(), "/\xff");
}

// Divergence discarded-value: 3.11.2 writes nothing under a count that includes it
TEST(Bjdata, RefusesDiscardedValueWithTypeError901) {
    const json j = json::array({json(json::value_t::discarded)});
    EXPECT_EQ(hex(json::to_bjdata(j, true)), "5b236901");
    EXPECT_STREQ(sinkcheck::bjdata_divergence(j, sized), "discarded-value");
    const auto e = refusal(format::bjdata, j, sized);
    ASSERT_TRUE(e);
    EXPECT_STREQ(e->category(), "type_error");
    EXPECT_EQ(e->id(), sinkcheck::error_id::discarded_value);
    EXPECT_EQ(e->pointer(), "/0");
}

TEST(Bjdata, NamesNoDivergenceForValidValues) {
    for (const auto& o : {plain, sized, typed}) {
        EXPECT_EQ(sinkcheck::bjdata_divergence(json::parse(R"({"a":["b",1,2.5,null]})"), o), nullptr);
        EXPECT_EQ(sinkcheck::bjdata_divergence(ndarray("single", {2}, {1.5, 2.0}), o), nullptr);
        EXPECT_EQ(sinkcheck::bjdata_divergence(ndarray("int8", {1}, {-1}), o), nullptr);
    }
}

// '[' may not follow '$' in BJData, so typed output equals sized output: "[#i\x01" per level
TEST(Bjdata, EncodesArraysNested100000Deep) {
    constexpr std::size_t depth = 100000;
    const auto deep = sinkcheck::test::nested_arrays<json>(depth);
    expect_plain_nesting(format::bjdata, deep, depth);
    const auto t = sinkcheck::encode_to_vector(format::bjdata, deep, typed);
    ASSERT_EQ(t.size(), 4 * depth);
    EXPECT_EQ(hex({t.begin(), t.begin() + 8}), "5b2369015b236901");
    EXPECT_EQ(hex({t.end() - 4, t.end()}), "5b236900");
    EXPECT_EQ(t, sinkcheck::encode_to_vector(format::bjdata, deep, sized));
    EXPECT_EQ(sinkcheck::bjdata_divergence(deep, typed), nullptr);
}

// A marker and its number in one write; an ND-array (small) in one write altogether
TEST(Bjdata, WritesEachMarkerAndNumberInOneSinkCall) {
    call_counting_sink sink;
    sinkcheck::encode_bjdata(json::array({40000, "ab", 1.5}), sink);  // [ | u409c | Si02ab | D... | ]
    EXPECT_EQ(sink.calls, 5u);
    EXPECT_EQ(sink.bytes, 1u + 3 + 5 + 9 + 1);
    call_counting_sink nd;
    sinkcheck::encode_bjdata(ndarray("uint16", {2, 2}, {1, 2, 3, 4}), nd, typed);
    EXPECT_EQ(nd.calls, 1u);
    EXPECT_EQ(nd.bytes, 4u + 8 + 8);  // [$u# | [$i#i\x02 2 2 | four uint16
}

TEST(Bjdata, MatchesOracleOnRandomValues) { differential_all_options(format::bjdata, 3000); }

}  // namespace
