// msgpack_test.cpp — the MessagePack encoder against hand-derived vectors and nlohmann 3.11.2.
//
// Every expected marker and length below is written by hand from the MessagePack specification
// (msgpack/msgpack spec.md) and docs/formats.md#messagepack for 3.11.2's choices; expect_bytes()
// checks that the oracle and the reference both produce it. Payload bytes that are only copied
// (string contents, filler elements) are appended by loops.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
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
void expect_msgpack(const Json& j, std::string_view hex) {
    expect_bytes(format::msgpack, j, hex);
}

struct unsigned_vector {
    std::uint64_t value;
    const char* hex;
};

struct signed_vector {
    std::int64_t value;
    const char* hex;
};

// positive fixint 0xxxxxxx, then uint 8/16/32/64 (cc..cf), big-endian
TEST(Msgpack, WritesSmallestUintFamilyForNonNegativeIntegers) {
    const unsigned_vector vectors[] = {
        {0, "00"},
        {23, "17"},
        {24, "18"},
        {127, "7f"},
        {128, "cc80"},
        {255, "ccff"},
        {256, "cd0100"},
        {65535, "cdffff"},
        {65536, "ce00010000"},
        {4294967295ULL, "ceffffffff"},
        {4294967296ULL, "cf0000000100000000"},
        {static_cast<std::uint64_t>(i64_max), "cf7fffffffffffffff"},
        {u64_max, "cfffffffffffffffff"},
    };
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.value);
        expect_msgpack(json(v.value), v.hex);
        // nlohmann 3.11.2: a non-negative number_integer takes the uint family too, never int 8..64
        if (v.value <= static_cast<std::uint64_t>(i64_max)) {
            expect_msgpack(json(static_cast<std::int64_t>(v.value)), v.hex);
        }
    }
}

// negative fixint 111xxxxx (-32..-1), then int 8/16/32/64 (d0..d3), two's complement big-endian
TEST(Msgpack, WritesSmallestIntFamilyForNegativeIntegers) {
    const signed_vector vectors[] = {
        {-1, "ff"},
        {-24, "e8"},
        {-25, "e7"},
        {-32, "e0"},
        {-33, "d0df"},
        {-128, "d080"},
        {-129, "d1ff7f"},
        {-256, "d1ff00"},
        {-257, "d1feff"},
        {-32768, "d18000"},
        {-32769, "d2ffff7fff"},
        {-65536, "d2ffff0000"},
        {-2147483648LL, "d280000000"},
        {-2147483649LL, "d3ffffffff7fffffff"},
        {-4294967296LL, "d3ffffffff00000000"},
        {i64_min, "d38000000000000000"},
    };
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.value);
        expect_msgpack(json(v.value), v.hex);
    }
}

TEST(Msgpack, WritesNilAndBooleans) {
    expect_msgpack(json(nullptr), "c0");
    expect_msgpack(json(false), "c2");
    expect_msgpack(json(true), "c3");
}

// nlohmann 3.11.2 write_compact_float: float 32 (ca) when the double survives the round trip
TEST(Msgpack, WritesFloat32WhenExact) {
    expect_msgpack(json(1.5), "ca 3fc00000");
    expect_msgpack(json(0.0), "ca 00000000");
    expect_msgpack(json(65504.0), "ca 477fe000");
    expect_msgpack(json(3.4028234663852886e38), "ca 7f7fffff");
    expect_msgpack(json(-3.4028234663852886e38), "ca ff7fffff");
    expect_msgpack(json(18446744073709551616.0), "ca 5f800000");
}

TEST(Msgpack, WritesFloat64WhenFloat32WouldLoseBits) {
    expect_msgpack(json(0.1), "cb 3fb999999999999a");
    expect_msgpack(json(-4.1), "cb c010666666666666");
    expect_msgpack(json(1e300), "cb 7e37e43c8800759c");
    expect_msgpack(json(double_from_bits(0x47efffffe0000001ULL)), "cb 47efffffe0000001");
}

TEST(Msgpack, WritesNegativeZeroAsFloat32WithSignBit) { expect_msgpack(json(-0.0), "ca 80000000"); }

TEST(Msgpack, WritesFloat32ExactDenormalAsFloat32) {
    expect_msgpack(json(1.401298464324817e-45), "ca 00000001");
    expect_msgpack(json(1e-45), "cb 3696d601ad376ab9");
    expect_msgpack(json(5e-324), "cb 0000000000000001");
}

// NaN and ±Inf fail the ±FLT_MAX range test, so 3.11.2 writes all 64 bits: sign and payload kept
TEST(Msgpack, WritesNanAndInfinityAsFloat64KeepingAllBits) {
    expect_msgpack(json(std::numeric_limits<double>::quiet_NaN()), "cb 7ff8000000000000");
    expect_msgpack(json(double_from_bits(0xfff8000000000000ULL)), "cb fff8000000000000");
    expect_msgpack(json(double_from_bits(0x7ff800000000beefULL)), "cb 7ff800000000beef");
    expect_msgpack(json(double_from_bits(0x7ff0000000000001ULL)), "cb 7ff0000000000001");
    expect_msgpack(json(std::numeric_limits<double>::infinity()), "cb 7ff0000000000000");
    expect_msgpack(json(-std::numeric_limits<double>::infinity()), "cb fff0000000000000");
}

// fixstr 101xxxxx up to 31 bytes, then str 8 (d9), str 16 (da), str 32 (db): lengths in bytes
TEST(Msgpack, WritesStrHeadOnByteLengthAtEachEdge) {
    struct text_vector {
        std::string text;
        const char* head;
    };
    const std::string e_acute = "\xc3\xa9";        // 2 bytes
    const std::string euro = "\xe2\x82\xac";       // 3 bytes
    const std::string smile = "\xf0\x9f\x98\x80";  // 4 bytes
    const text_vector vectors[] = {
        {"", "a0"},
        {repeat("a", 31), "bf"},
        {repeat(euro, 10) + "a", "bf"},
        {repeat("a", 32), "d920"},
        {repeat(smile, 8), "d920"},
        {repeat("a", 255), "d9ff"},
        {repeat(euro, 85), "d9ff"},
        {repeat("a", 256), "da0100"},
        {repeat(e_acute, 128), "da0100"},
        {repeat("a", 65535), "daffff"},
        {repeat(euro, 21845), "daffff"},
        {repeat("a", 65536), "db00010000"},
        {repeat(smile, 16384), "db00010000"},
    };
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.text.size());
        expect_msgpack(json(v.text), v.head + hex_of(v.text));
    }
}

// fixarray 1001xxxx up to 15, then array 16 (dc), array 32 (dd)
TEST(Msgpack, WritesArrayHeadAtEachSizeEdge) {
    struct size_vector {
        std::size_t size;
        const char* head;
    };
    const size_vector vectors[] = {{0, "90"}, {15, "9f"}, {16, "dc0010"}, {65535, "dcffff"}, {65536, "dd00010000"}};
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.size);
        expect_msgpack(json(json::array_t(v.size, json(nullptr))), v.head + repeat("c0", v.size));
    }
}

// fixmap 1000xxxx up to 15, then map 16 (de), map 32 (df)
TEST(Msgpack, WritesMapHeadAtEachSizeEdge) {
    struct size_vector {
        std::size_t size;
        const char* head;
    };
    const size_vector vectors[] = {{0, "80"}, {15, "8f"}, {16, "de0010"}, {65535, "deffff"}, {65536, "df00010000"}};
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.size);
        json object = json::object();
        std::string expected = v.head;
        for (std::size_t i = 0; i < v.size; ++i) {
            // five digits, so std::map order is numeric order
            std::string key = std::to_string(i);
            key.insert(0, 5 - key.size(), '0');
            object[key] = i % 2 == 0;
            expected += "a5" + hex_of(key) + (i % 2 == 0 ? "c3" : "c2");
        }
        expect_msgpack(object, expected);
    }
}

// bin 8/16/32 (c4..c6); there is no fixbin
TEST(Msgpack, WritesBinaryWithoutSubtypeAsBin) {
    const std::size_t sizes[] = {0, 1, 255, 256, 65535, 65536};
    const char* heads[] = {"c400", "c401", "c4ff", "c50100", "c5ffff", "c600010000"};
    for (std::size_t i = 0; i < 6; ++i) {
        SCOPED_TRACE(sizes[i]);
        expect_msgpack(json::binary(json::binary_t::container_type(sizes[i], 0xab)), heads[i] + repeat("ab", sizes[i]));
    }
}

// fixext 1/2/4/8/16 (d4..d8) for those sizes, else ext 8/16/32 (c7..c9) + length; the type
// byte follows the length. nlohmann 3.11.2 quirk: size 0 is ext 8 "c7 00 tt".
TEST(Msgpack, WritesBinaryWithSubtypeAtEveryExtSize) {
    struct ext_vector {
        std::size_t size;
        const char* head;
    };
    const ext_vector vectors[] = {
        {0, "c70005"},       {1, "d405"},
        {2, "d505"},         {3, "c70305"},
        {4, "d605"},         {5, "c70505"},
        {8, "d705"},         {15, "c70f05"},
        {16, "d805"},        {17, "c71105"},
        {255, "c7ff05"},     {256, "c8010005"},
        {65535, "c8ffff05"}, {65536, "c90001000005"},
    };
    for (const auto& v : vectors) {
        SCOPED_TRACE(v.size);
        expect_msgpack(json::binary(json::binary_t::container_type(v.size, 0xab), 5), v.head + repeat("ab", v.size));
    }
}

// the ext type is a signed byte; 3.11.2 writes the subtype's low 8 bits, so 128..255 become
// -128..-1 (reserved types; -1 is the timestamp type) and read back as 128..255
TEST(Msgpack, WritesSubtypeUpTo255AsExtTypeByte) {
    expect_msgpack(json::binary({0x2a}, 0), "d400 2a");
    expect_msgpack(json::binary({0x2a}, 127), "d47f 2a");
    expect_msgpack(json::binary({0x2a}, 128), "d480 2a");
    expect_msgpack(json::binary({0x2a}, 255), "d4ff 2a");
    expect_msgpack(json::binary({1, 2, 3}, 255), "c703ff 010203");
}

TEST(Msgpack, WritesKeysInStdMapOrder) {
    expect_msgpack(json{{"b", 1}, {"aa", 2}}, "82 a26161 02 a162 01");
    expect_msgpack(json{{"k2", 1}, {"k10", 2}}, "82 a36b3130 02 a26b32 01");
    expect_msgpack(json{{"\xf0\x9f\x98\x80", 1}, {"\xef\xbc\xa1", 2}}, "82 a3efbca1 02 a4f09f9880 01");
    expect_msgpack(json{{"", nullptr}}, "81 a0 c0");
}

TEST(Msgpack, KeepsInsertionOrderForOrderedJson) {
    ordered_json j;
    j["b"] = 1;
    j["aa"] = 2;
    expect_msgpack(j, "82 a162 01 a26161 02");
}

TEST(Msgpack, WritesNestedContainers) {
    expect_msgpack(json::parse(R"({"a":[1,[2,{}]],"b":{"c":-1}})"), "82 a161 92 01 92 02 80 a162 81 a163 ff");
}

// Divergence invalid-utf8: the spec's str "stores UTF-8 string"; 3.11.2 copies any bytes
TEST(Msgpack, RefusesInvalidUtf8StringWithTypeError316) {
    const json j = json::array({"ok", "\xc0\xaf"});                          // overlong '/'
    EXPECT_EQ(sinkcheck::test::hex(json::to_msgpack(j)), "92a26f6ba2c0af");  // what 3.11.2 writes
    EXPECT_STREQ(sinkcheck::msgpack_divergence(j), "invalid-utf8");
    const auto e = sinkcheck::test::refusal(format::msgpack, j);
    ASSERT_TRUE(e);
    EXPECT_STREQ(e->category(), "type_error");
    EXPECT_EQ(e->id(), 316);
    EXPECT_EQ(e->pointer(), "/1");
    EXPECT_NE(std::string(e->what()).find("'/1'"), std::string::npos) << e->what();
}

TEST(Msgpack, RefusesInvalidUtf8KeyWithTypeError316) {
    const json j = {{"a", {{"x\xff", 1}}}};
    EXPECT_EQ(sinkcheck::test::hex(json::to_msgpack(j)), "81a16181a278ff01");
    EXPECT_STREQ(sinkcheck::msgpack_divergence(j), "invalid-utf8");
    const auto e = sinkcheck::test::refusal(format::msgpack, j);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->id(), 316);
    EXPECT_EQ(e->pointer(), "/a/x\xff");
}

// Divergence discarded-value: 3.11.2 writes nothing, so the map head promises one more pair
// than follows
TEST(Msgpack, RefusesDiscardedValueWithTypeError901) {
    const json j = {{"a", json(json::value_t::discarded)}, {"b", 2}};
    EXPECT_EQ(sinkcheck::test::hex(json::to_msgpack(j)), "82a161a16202");
    EXPECT_STREQ(sinkcheck::msgpack_divergence(j), "discarded-value");
    const auto e = sinkcheck::test::refusal(format::msgpack, j);
    ASSERT_TRUE(e);
    EXPECT_STREQ(e->category(), "type_error");
    EXPECT_EQ(e->id(), sinkcheck::error_id::discarded_value);
    EXPECT_EQ(e->pointer(), "/a");
}

// Divergence msgpack-ext-subtype-truncated: subtype 256 would be written as ext type 0 and read
// back as subtype 0
TEST(Msgpack, RefusesSubtypeAbove255WithOutOfRange902) {
    const std::uint64_t subtypes[] = {256, 65535, 65536, 4294967296ULL, u64_max};
    for (std::uint64_t subtype : subtypes) {
        SCOPED_TRACE(subtype);
        const json j = json::array({json::binary({0x2a}, subtype)});
        const std::string low = sinkcheck::test::hex({static_cast<std::uint8_t>(subtype)});
        EXPECT_EQ(sinkcheck::test::hex(json::to_msgpack(j)), "91d4" + low + "2a");
        EXPECT_STREQ(sinkcheck::msgpack_divergence(j), "msgpack-ext-subtype-truncated");
        const auto e = sinkcheck::test::refusal(format::msgpack, j);
        ASSERT_TRUE(e);
        EXPECT_STREQ(e->category(), "out_of_range");
        EXPECT_EQ(e->id(), sinkcheck::error_id::subtype_too_large);
        EXPECT_EQ(e->pointer(), "/0");
    }
}

// Divergence msgpack-length-overflow: no MessagePack head holds 2^32 bytes; 3.11.2 then writes
// no head at all. Needs 4 GiB for the value, so it runs only when SINKCHECK_LARGE_TESTS is set.
TEST(Msgpack, RefusesStringOf2To32BytesWithOutOfRange903) {
    if (std::getenv("SINKCHECK_LARGE_TESTS") == nullptr) {
        GTEST_SKIP() << "set SINKCHECK_LARGE_TESTS=1 to allocate a 4 GiB string";
    }
    const json j = json::array({std::string(std::size_t{1} << 32, 'a')});
    EXPECT_STREQ(sinkcheck::msgpack_divergence(j), "msgpack-length-overflow");
    const auto e = sinkcheck::test::refusal(format::msgpack, j);
    ASSERT_TRUE(e);
    EXPECT_STREQ(e->category(), "out_of_range");
    EXPECT_EQ(e->id(), sinkcheck::error_id::length_too_large);
    EXPECT_EQ(e->pointer(), "/0");
}

TEST(Msgpack, NamesNoDivergenceForValidValues) {
    EXPECT_EQ(sinkcheck::msgpack_divergence(json::parse(R"({"a":["b",1,2.5,null]})")), nullptr);
    EXPECT_EQ(sinkcheck::msgpack_divergence(json::binary({1}, 255)), nullptr);
    EXPECT_EQ(sinkcheck::msgpack_divergence(json::binary({1})), nullptr);
}

// 0x91 is a fixarray of one element, 0x90 the empty one; 0x81 0xa1 0x61 a fixmap of one pair
// keyed "a"
TEST(Msgpack, EncodesArraysNested100000Deep) {
    const auto deep = sinkcheck::test::nested_arrays<json>(100000);
    const auto bytes = sinkcheck::encode_to_vector(format::msgpack, deep);
    ASSERT_EQ(bytes.size(), 100000u);
    EXPECT_EQ(std::count(bytes.begin(), bytes.end() - 1, 0x91), 99999);
    EXPECT_EQ(bytes.back(), 0x90);
    EXPECT_EQ(sinkcheck::msgpack_divergence(deep), nullptr);
}

TEST(Msgpack, EncodesObjectsNested100000Deep) {
    const auto deep = sinkcheck::test::nested_objects<json>(100000);
    const auto bytes = sinkcheck::encode_to_vector(format::msgpack, deep);
    ASSERT_EQ(bytes.size(), 3u * 99999 + 1);
    EXPECT_EQ(bytes[0], 0x81);
    EXPECT_EQ(bytes[1], 0xa1);
    EXPECT_EQ(bytes[2], 0x61);
    EXPECT_EQ(bytes[3], 0x81);
    EXPECT_EQ(bytes[bytes.size() - 2], 0x61);
    EXPECT_EQ(bytes.back(), 0x80);
}

TEST(Msgpack, WritesEachHeadAndNumberInOneSinkCall) {
    // 94 | cd03e8 | a2 + "ab" | ca3fc00000 | c7032a + 010203  (1 + 1 + 2 + 1 + 2 calls)
    const json j = json::array({1000, "ab", 1.5, json::binary({1, 2, 3}, 42)});
    sinkcheck::test::call_counting_sink sink;
    sinkcheck::encode_msgpack(j, sink);
    EXPECT_EQ(sink.calls, 7u);
    EXPECT_EQ(sink.bytes, 1u + 3 + 3 + 5 + 6);
}

// 82 | a161 92 01 02 | a162 c0: a member's mark is where its key starts (1, 6), an array
// element's where its own bytes do (4, 5)
TEST(Msgpack, RecordsMarksAtEachValueStart) {
    std::vector<sinkcheck::value_mark> marks;
    sinkcheck::encode_options o;
    o.marks = &marks;
    sinkcheck::memory_writer sink;
    sinkcheck::encode_msgpack(json::parse(R"({"a":[1,2],"b":null})"), sink, o);
    EXPECT_EQ(sinkcheck::test::hex(sink.take()), "82a161920102a162c0");
    std::vector<std::pair<std::size_t, std::string>> got;
    for (const auto& m : marks) {
        got.emplace_back(m.offset, m.pointer);
    }
    const std::vector<std::pair<std::size_t, std::string>> expected = {
        {0, ""}, {1, "/a"}, {4, "/a/0"}, {5, "/a/1"}, {6, "/b"}};
    EXPECT_EQ(got, expected);
}

/// The error id encode_msgpack throws for each divergence id (-1: not a MessagePack divergence).
int expected_error_id(std::string_view divergence) {
    if (divergence == "invalid-utf8") return sinkcheck::error_id::invalid_utf8;
    if (divergence == "discarded-value") return sinkcheck::error_id::discarded_value;
    if (divergence == "msgpack-ext-subtype-truncated") return sinkcheck::error_id::subtype_too_large;
    if (divergence == "msgpack-length-overflow") return sinkcheck::error_id::length_too_large;
    return -1;
}

// Values for which msgpack_divergence names an id must be refused with the matching error;
// everything else must come out byte for byte as nlohmann 3.11.2 writes it.
TEST(Msgpack, MatchesOracleOnRandomValues) {
    const std::uint64_t seed = sinkcheck::test::seed();
    sinkcheck::test::random_profile hostile;
    hostile.hostile = true;
    const auto plain = sinkcheck::test::compare_with_oracle<json>(format::msgpack, seed, 2000, {}, expected_error_id);
    const auto ordered =
        sinkcheck::test::compare_with_oracle<ordered_json>(format::msgpack, seed + 1, 1000, {}, expected_error_id);
    const auto mixed =
        sinkcheck::test::compare_with_oracle<json>(format::msgpack, seed + 2, 2000, hostile, expected_error_id);
    std::cout << "[ msgpack  ] seed " << seed
              << " (SINKCHECK_SEED overrides): " << plain.compared + ordered.compared + mixed.compared
              << " random values compared with nlohmann 3.11.2, " << plain.refused + ordered.refused + mixed.refused
              << " divergent values refused\n";
    EXPECT_EQ(plain.refused + ordered.refused, 0);
    EXPECT_GT(mixed.refused, 0);
    EXPECT_GE(plain.compared + ordered.compared + mixed.compared, 4000);
}

}  // namespace
