// cbor_test.cpp — the CBOR encoder against hand-derived RFC 8949 vectors and nlohmann 3.11.2.
//
// Every expected head below is written by hand from RFC 8949 §3 (and docs/formats.md#cbor for
// 3.11.2's choices); expect_bytes() checks that the oracle and the reference both produce it.
// Payload bytes that are only copied (string contents, filler elements) are appended by loops.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;
using sinkcheck::format;
using sinkcheck::test::double_from_bits;
using sinkcheck::test::expect_bytes;
using sinkcheck::test::hex_of;
using sinkcheck::test::repeat;

constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();
constexpr std::int64_t i64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t i64_min = std::numeric_limits<std::int64_t>::min();

template <class Json = json>
void expect_cbor(const Json& j, std::string_view hex) {
    expect_bytes(format::cbor, j, hex);
}

struct unsigned_vector {
    std::uint64_t value;
    const char* hex;
};

struct signed_vector {
    std::int64_t value;
    const char* hex;
};

// RFC 8949 §3: argument < 24 in the initial byte, then 1/2/4/8 following bytes (ai 24..27)
TEST(Cbor, WritesShortestHeadForEveryUnsignedWidth) {
    const unsigned_vector vectors[] = {
        {0, "00"},
        {23, "17"},
        {24, "1818"},
        {255, "18ff"},
        {256, "190100"},
        {65535, "19ffff"},
        {65536, "1a00010000"},
        {4294967295ULL, "1affffffff"},
        {4294967296ULL, "1b0000000100000000"},
        {static_cast<std::uint64_t>(i64_max), "1b7fffffffffffffff"},
        {u64_max, "1bffffffffffffffff"},
    };
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.value);
        expect_cbor(json(v.value), v.hex);
        // nlohmann 3.11.2: a non-negative number_integer takes major type 0 like an unsigned
        if (v.value <= static_cast<std::uint64_t>(i64_max)) {
            expect_cbor(json(static_cast<std::int64_t>(v.value)), v.hex);
        }
    }
}

// RFC 8949 §3.1 major type 1: the argument is -1 - value
TEST(Cbor, WritesShortestHeadForEveryNegativeWidth) {
    const signed_vector vectors[] = {
        {-1, "20"},
        {-24, "37"},
        {-25, "3818"},
        {-256, "38ff"},
        {-257, "390100"},
        {-65536, "39ffff"},
        {-65537, "3a00010000"},
        {-4294967296LL, "3affffffff"},
        {-4294967297LL, "3b0000000100000000"},
        {i64_min, "3b7fffffffffffffff"},
    };
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.value);
        expect_cbor(json(v.value), v.hex);
    }
}

TEST(Cbor, WritesSimpleValues) {
    expect_cbor(json(nullptr), "f6");
    expect_cbor(json(true), "f5");
    expect_cbor(json(false), "f4");
}

// nlohmann 3.11.2 write_compact_float: binary32 when the double survives the round trip
TEST(Cbor, WritesFloat32WhenExact) {
    expect_cbor(json(1.5), "fa 3fc00000");
    expect_cbor(json(0.0), "fa 00000000");
    expect_cbor(json(65504.0), "fa 477fe000");  // RFC preferred would be half f97bff
    expect_cbor(json(100000.0), "fa 47c35000");
    expect_cbor(json(3.4028234663852886e38), "fa 7f7fffff");   // FLT_MAX
    expect_cbor(json(-3.4028234663852886e38), "fa ff7fffff");  // lowest()
    expect_cbor(json(18446744073709551616.0), "fa 5f800000");  // 2^64, no bignum
}

TEST(Cbor, WritesFloat64WhenFloat32WouldLoseBits) {
    expect_cbor(json(0.1), "fb 3fb999999999999a");
    expect_cbor(json(1.1), "fb 3ff199999999999a");
    expect_cbor(json(1e300), "fb 7e37e43c8800759c");
    // one ulp above FLT_MAX: out of binary32 range
    expect_cbor(json(double_from_bits(0x47efffffe0000001ULL)), "fb 47efffffe0000001");
}

TEST(Cbor, WritesNegativeZeroAsFloat32WithSignBit) { expect_cbor(json(-0.0), "fa 80000000"); }

TEST(Cbor, WritesFloat32ExactDenormalAsFloat32) {
    expect_cbor(json(1.401298464324817e-45), "fa 00000001");  // 2^-149, the smallest binary32
    expect_cbor(json(1e-45), "fb 3696d601ad376ab9");          // rounds to 2^-149, not equal
    expect_cbor(json(5e-324), "fb 0000000000000001");         // binary64 denormal, binary32 0
}

// nlohmann 3.11.2 writes every NaN as the half quiet NaN (RFC 8949 §4.2.2 allows that)
TEST(Cbor, WritesEveryNanAsHalfQuietNan) {
    expect_cbor(json(std::numeric_limits<double>::quiet_NaN()), "f9 7e00");
    expect_cbor(json(double_from_bits(0xfff8000000000000ULL)), "f9 7e00");  // negative
    expect_cbor(json(double_from_bits(0x7ff800000000beefULL)), "f9 7e00");  // payload
    expect_cbor(json(double_from_bits(0x7ff0000000000001ULL)), "f9 7e00");  // signalling
}

TEST(Cbor, WritesInfinitiesAsHalfFloats) {
    expect_cbor(json(std::numeric_limits<double>::infinity()), "f9 7c00");
    expect_cbor(json(-std::numeric_limits<double>::infinity()), "f9 fc00");
}

// RFC 8949 §3.1 major type 3: the head counts bytes, not characters
TEST(Cbor, WritesTextHeadOnByteLengthAtEachEdge) {
    struct text_vector {
        std::string text;
        const char* head;
    };
    const std::string e_acute = "\xc3\xa9";        // 2 bytes
    const std::string euro = "\xe2\x82\xac";       // 3 bytes
    const std::string smile = "\xf0\x9f\x98\x80";  // 4 bytes
    const text_vector vectors[] = {
        {"", "60"},
        {repeat("a", 23), "77"},
        {repeat(e_acute, 11) + "a", "77"},
        {repeat("a", 24), "7818"},
        {repeat(e_acute, 12), "7818"},
        {repeat(euro, 8), "7818"},
        {repeat("a", 255), "78ff"},
        {repeat(euro, 85), "78ff"},
        {repeat("a", 256), "790100"},
        {repeat(smile, 64), "790100"},
        {repeat("a", 65535), "79ffff"},
        {repeat(euro, 21845), "79ffff"},
        {repeat("a", 65536), "7a00010000"},
        {repeat(smile, 16384), "7a00010000"},
    };
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.text.size());
        expect_cbor(json(v.text), v.head + hex_of(v.text));
    }
}

TEST(Cbor, WritesArrayHeadAtEachSizeEdge) {
    struct size_vector {
        std::size_t size;
        const char* head;
    };
    const size_vector vectors[] = {{0, "80"},       {23, "97"},        {24, "9818"},         {255, "98ff"},
                                   {256, "990100"}, {65535, "99ffff"}, {65536, "9a00010000"}};
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.size);
        expect_cbor(json(json::array_t(v.size, json(nullptr))), v.head + repeat("f6", v.size));
    }
}

TEST(Cbor, WritesMapHeadAtEachSizeEdge) {
    struct size_vector {
        std::size_t size;
        const char* head;
    };
    const size_vector vectors[] = {{0, "a0"},       {23, "b7"},        {24, "b818"},         {255, "b8ff"},
                                   {256, "b90100"}, {65535, "b9ffff"}, {65536, "ba00010000"}};
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.size);
        json object = json::object();
        std::string expected = v.head;
        for (std::size_t i = 0; i < v.size; ++i) {
            // five digits, so std::map order is numeric order
            std::string key = std::to_string(i);
            key.insert(0, 5 - key.size(), '0');
            object[key] = i % 2 == 0;
            expected += "65" + hex_of(key) + (i % 2 == 0 ? "f5" : "f4");
        }
        expect_cbor(object, expected);
    }
}

TEST(Cbor, WritesBinaryWithoutSubtypeAsByteString) {
    expect_cbor(json::binary({}), "40");
    expect_cbor(json::binary({1, 2, 3}), "43 010203");
    const std::size_t sizes[] = {23, 24, 255, 256, 65535, 65536};
    const char* heads[] = {"57", "5818", "58ff", "590100", "59ffff", "5a00010000"};
    for (std::size_t i = 0; i < 6; ++i) {
        SCOPED_TRACE(sizes[i]);
        expect_cbor(json::binary(json::binary_t::container_type(sizes[i], 0xab)), heads[i] + repeat("ab", sizes[i]));
    }
}

// nlohmann 3.11.2 quirk: the subtype tag head is d8 xx even below 24 (RFC 8949 §4.1 prefers c0+xx)
TEST(Cbor, WritesSubtypeTagWithAtLeastTwoByteHead) {
    struct subtype_vector {
        std::uint64_t subtype;
        const char* tag;
    };
    const subtype_vector vectors[] = {
        {0, "d800"},
        {23, "d817"},
        {24, "d818"},
        {255, "d8ff"},
        {256, "d90100"},
        {65535, "d9ffff"},
        {65536, "da00010000"},
        {4294967295ULL, "daffffffff"},
        {4294967296ULL, "db0000000100000000"},
        {u64_max, "dbffffffffffffffff"},
    };
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.subtype);
        expect_cbor(json::binary({1, 2, 3}, v.subtype), std::string(v.tag) + "43 010203");
    }
    expect_cbor(json::binary({}, 7), "d807 40");
}

// docs/formats.md#value-model: std::map orders keys bytewise, so "aa" < "b" (RFC 8949 §4.2.1 would
// put the shorter "b" first)
TEST(Cbor, WritesKeysInStdMapOrder) {
    expect_cbor(json{{"b", 1}, {"aa", 2}}, "a2 626161 02 6162 01");
    expect_cbor(json{{"k2", 1}, {"k10", 2}}, "a2 636b3130 02 626b32 01");
    // U+FF21 (ef bc a1) sorts before U+1F600 (f0 9f 98 80) bytewise, unlike UTF-16 order
    expect_cbor(json{{"\xf0\x9f\x98\x80", 1}, {"\xef\xbc\xa1", 2}}, "a2 63efbca1 02 64f09f9880 01");
    expect_cbor(json{{"", nullptr}}, "a1 60 f6");
}

TEST(Cbor, KeepsInsertionOrderForOrderedJson) {
    ordered_json j;
    j["b"] = 1;
    j["aa"] = 2;
    expect_cbor(j, "a2 6162 01 626161 02");
}

TEST(Cbor, WritesNestedContainers) {
    expect_cbor(json::parse(R"({"a":[1,[2,{}]],"b":{"c":-1}})"), "a2 6161 82 01 82 02 a0 6162 a1 6163 20");
}

// Divergence invalid-utf8: RFC 8949 §3.1 makes major type 3 UTF-8 and §5.3.1 makes a text
// string with invalid UTF-8 invalid; 3.11.2 copies the bytes.
TEST(Cbor, RefusesInvalidUtf8StringWithTypeError316) {
    const json j = json::array({"ok", "\xff"});
    EXPECT_EQ(sinkcheck::test::hex(json::to_cbor(j)), "82626f6b61ff");  // what 3.11.2 writes
    EXPECT_STREQ(sinkcheck::cbor_divergence(j), "invalid-utf8");
    const auto e = sinkcheck::test::refusal(format::cbor, j);
    ASSERT_TRUE(e);
    EXPECT_STREQ(e->category(), "type_error");
    EXPECT_EQ(e->id(), 316);
    EXPECT_EQ(e->pointer(), "/1");
    EXPECT_NE(std::string(e->what()).find("'/1'"), std::string::npos) << e->what();
}

TEST(Cbor, RefusesInvalidUtf8KeyWithTypeError316) {
    const json j = {{"a", {{"\xed\xa0\x80", 1}}}};  // an encoded UTF-16 surrogate
    EXPECT_EQ(sinkcheck::test::hex(json::to_cbor(j)), "a16161a163eda08001");
    EXPECT_STREQ(sinkcheck::cbor_divergence(j), "invalid-utf8");
    const auto e = sinkcheck::test::refusal(format::cbor, j);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->id(), 316);
    EXPECT_EQ(e->pointer(), "/a/\xed\xa0\x80");
}

// Divergence discarded-value: 3.11.2 writes nothing, so the array head promises one more item
// than follows (RFC 8949 §3.1, major type 4)
TEST(Cbor, RefusesDiscardedValueWithTypeError901) {
    const json j = json::array({1, json(json::value_t::discarded)});
    EXPECT_EQ(sinkcheck::test::hex(json::to_cbor(j)), "8201");
    EXPECT_STREQ(sinkcheck::cbor_divergence(j), "discarded-value");
    const auto e = sinkcheck::test::refusal(format::cbor, j);
    ASSERT_TRUE(e);
    EXPECT_STREQ(e->category(), "type_error");
    EXPECT_EQ(e->id(), sinkcheck::error_id::discarded_value);
    EXPECT_EQ(e->pointer(), "/1");

    const auto root = sinkcheck::test::refusal(format::cbor, json(json::value_t::discarded));
    ASSERT_TRUE(root);
    EXPECT_EQ(root->pointer(), "");
}

TEST(Cbor, NamesNoDivergenceForValidValues) {
    EXPECT_EQ(sinkcheck::cbor_divergence(json::parse(R"({"a":["b",1,2.5,null]})")), nullptr);
    EXPECT_EQ(sinkcheck::cbor_divergence(json::binary({1}, 70000)), nullptr);
}

// RFC 8949 §3.1: 0x81 is an array of one item, 0x80 the empty array; 0xa1 0x61 0x61 a map of
// one pair keyed "a"
TEST(Cbor, EncodesArraysNested100000Deep) {
    const auto deep = sinkcheck::test::nested_arrays<json>(100000);
    const auto bytes = sinkcheck::encode_to_vector(format::cbor, deep);
    ASSERT_EQ(bytes.size(), 100000u);
    EXPECT_EQ(std::count(bytes.begin(), bytes.end() - 1, 0x81), 99999);
    EXPECT_EQ(bytes.back(), 0x80);
    EXPECT_EQ(sinkcheck::cbor_divergence(deep), nullptr);
}

TEST(Cbor, EncodesObjectsNested100000Deep) {
    const auto deep = sinkcheck::test::nested_objects<json>(100000);
    const auto bytes = sinkcheck::encode_to_vector(format::cbor, deep);
    ASSERT_EQ(bytes.size(), 3u * 99999 + 1);
    EXPECT_EQ(bytes[0], 0xa1);
    EXPECT_EQ(bytes[1], 0x61);
    EXPECT_EQ(bytes[2], 0x61);
    EXPECT_EQ(bytes[3], 0xa1);
    EXPECT_EQ(bytes[bytes.size() - 2], 0x61);
    EXPECT_EQ(bytes.back(), 0xa0);
}

TEST(Cbor, WritesEachHeadAndNumberInOneSinkCall) {
    // 83 | 1903e8 | 62 + "ab" | fa3fc00000 | d9012c 42 + 0102  (1 + 1 + 2 + 1 + 2 calls)
    const json j = json::array({1000, "ab", 1.5, json::binary({1, 2}, 300)});
    sinkcheck::test::call_counting_sink sink;
    sinkcheck::encode_cbor(j, sink);
    EXPECT_EQ(sink.calls, 7u);
    EXPECT_EQ(sink.bytes, 1u + 3 + 3 + 5 + 6);
}

/// The error id encode_cbor throws for each divergence id (-1: not a CBOR divergence).
int expected_error_id(std::string_view divergence) {
    if (divergence == "invalid-utf8") return sinkcheck::error_id::invalid_utf8;
    if (divergence == "discarded-value") return sinkcheck::error_id::discarded_value;
    return -1;
}

// Values for which cbor_divergence names an id must be refused with the matching error;
// everything else must come out byte for byte as nlohmann 3.11.2 writes it.
TEST(Cbor, MatchesOracleOnRandomValues) {
    const std::uint64_t seed = sinkcheck::test::seed();
    sinkcheck::test::random_profile hostile;
    hostile.hostile = true;
    const auto plain = sinkcheck::test::compare_with_oracle<json>(format::cbor, seed, 2000, {}, expected_error_id);
    const auto ordered =
        sinkcheck::test::compare_with_oracle<ordered_json>(format::cbor, seed + 1, 1000, {}, expected_error_id);
    const auto mixed =
        sinkcheck::test::compare_with_oracle<json>(format::cbor, seed + 2, 2000, hostile, expected_error_id);
    std::cout << "[ cbor     ] seed " << seed
              << " (SINKCHECK_SEED overrides): " << plain.compared + ordered.compared + mixed.compared
              << " random values compared with nlohmann 3.11.2, " << plain.refused + ordered.refused + mixed.refused
              << " divergent values refused\n";
    EXPECT_EQ(plain.refused + ordered.refused, 0);
    EXPECT_GT(mixed.refused, 0);
    EXPECT_GE(plain.compared + ordered.compared + mixed.compared, 4000);
}

}  // namespace
