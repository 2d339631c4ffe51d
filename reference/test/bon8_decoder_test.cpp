// bon8_decoder_test.cpp — what decode_bon8 accepts, what it builds, and where it rejects.
//
// Inputs are written by hand from hikoworks/hikogui docs/BON8.md and nlohmann/json's BON8 page
// (docs/mkdocs/docs/features/binary_formats/bon8.md), which also says which non-canonical
// forms a decoder accepts. Each rejection names the byte offset the decoder must report: the
// lead byte of an invalid UTF-8 sequence, the misplaced byte itself, or the input size when the
// input ends too early.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "sinkcheck/format/bon8_decoder.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;
namespace sct = sinkcheck::test;

json decode(const char* hex) { return sinkcheck::decode_bon8(sct::unhex(hex)); }

/// decode_bon8 must throw decode_error at offset, with message_part in its message.
void expect_rejected(const char* hex, std::size_t offset, const std::string& message_part) {
    try {
        const json j = decode(hex);
        ADD_FAILURE() << hex << " decoded as " << sct::describe(j);
    } catch (const sinkcheck::decode_error& e) {
        EXPECT_EQ(e.offset(), offset) << hex << ": " << e.what();
        EXPECT_NE(e.message().find(message_part), std::string::npos) << hex << ": " << e.what();
    }
}

// page: non-negative integers are number_unsigned, negative ones number_integer
TEST(Bon8Decoder, ReadsIntegersAsUnsignedOrSignedBySign) {
    EXPECT_TRUE(decode("90").is_number_unsigned());
    EXPECT_TRUE(decode("c2 00").is_number_unsigned());
    EXPECT_EQ(decode("c2 00").get<std::uint64_t>(), 40u);
    EXPECT_TRUE(decode("b8").is_number_integer());
    EXPECT_EQ(decode("b8").get<std::int64_t>(), -1);
    EXPECT_EQ(decode("f7 ff ff ff").get<std::int64_t>(), -33818506);
    EXPECT_EQ(decode("f7 7f ff ff").get<std::uint64_t>(), 67637031u);
    EXPECT_TRUE(decode("8c 00 00 00 05").is_number_unsigned());
    EXPECT_EQ(decode("8c ff ff ff ff").get<std::int64_t>(), -1);
    EXPECT_EQ(decode("8d 80 00 00 00 00 00 00 00").get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
}

TEST(Bon8Decoder, ReadsFloatsAndOneByteConstants) {
    EXPECT_TRUE(decode("fc").is_number_float());
    EXPECT_EQ(decode("fb").get<double>(), -1.0);
    EXPECT_EQ(decode("fd").get<double>(), 1.0);
    EXPECT_TRUE(std::signbit(decode("8e 80 00 00 00").get<double>()));
    EXPECT_TRUE(std::isnan(decode("8e 7f 80 00 01").get<double>()));
    EXPECT_EQ(decode("8e 3f c0 00 00").get<double>(), 1.5);
    EXPECT_EQ(decode("8f 3f b9 99 99 99 99 99 9a").get<double>(), 0.1);
    EXPECT_EQ(decode("fa"), json(nullptr));
    EXPECT_EQ(decode("f9"), json(true));
    EXPECT_EQ(decode("f8"), json(false));
}

// page: "integers with a longer encoding than necessary, arrays and objects with up to four
// elements that are terminated by 0xFE, unsorted object keys, or a 0xFF after a string that
// would also end without it, are accepted"
TEST(Bon8Decoder, AcceptsNonCanonicalFormsThePageAllows) {
    EXPECT_EQ(decode("8c 00 00 00 28"), json(40));
    EXPECT_EQ(decode("8d 00 00 00 00 00 00 00 01"), json(1));
    EXPECT_EQ(decode("85 91 fe"), json::parse("[1]"));
    EXPECT_EQ(decode("8b fe"), json::object());
    EXPECT_EQ(decode("88 62 91 61 92"), json::parse(R"({"a":2,"b":1})"));
    EXPECT_EQ(decode("82 61 ff 91"), json::parse(R"(["a",1])"));
}

// page: "A second 0xFF is not a terminator but an empty string."
TEST(Bon8Decoder, ReadsASecondEosAsAnEmptyString) {
    EXPECT_EQ(decode("82 61 ff ff"), json::parse(R"(["a",""])"));
    EXPECT_EQ(decode("ff"), json(""));
}

TEST(Bon8Decoder, EndsAStringAtTheFirstByteThatCannotContinueIt) {
    EXPECT_EQ(decode("82 61 c2 00"), json::parse(R"(["a",40])"));     // integer after "a"
    EXPECT_EQ(decode("81 61 c3 a9 ff"), json::array({"a\xc3\xa9"}));  // a 2-byte character continues it
    EXPECT_EQ(decode("85 61 62 fe"), json::parse(R"(["ab"])"));
    EXPECT_EQ(decode("87 61 80"), json::parse(R"({"a":[]})"));
}

TEST(Bon8Decoder, KeepsMessageKeyOrderForOrderedJson) {
    const auto j = sinkcheck::decode_bon8<ordered_json>(sct::unhex("88 62 91 61 92"));
    EXPECT_EQ(j.dump(), R"({"b":1,"a":2})");
}

TEST(Bon8Decoder, RejectsEmptyInput) { expect_rejected("", 0, "empty input"); }

TEST(Bon8Decoder, RejectsTruncatedNumbers) {
    expect_rejected("8c 00 00", 3, "int32");
    expect_rejected("8d 00", 2, "int64");
    expect_rejected("8e 3f", 2, "binary32");
    expect_rejected("8f", 1, "binary64");
    expect_rejected("c2", 1, "first byte is 0xc2");
    expect_rejected("e0 00", 2, "3-byte integer");
    expect_rejected("81 f0 00 00", 4, "4-byte integer");
}

// spec: "String MUST end with eos (0xff) ... If there are no more bytes left in the message";
// page: "a string at the very end of a message must be terminated by 0xFF"
TEST(Bon8Decoder, RejectsAStringThatRunsToTheEndWithoutEos) {
    expect_rejected("61 62", 2, "string at byte 0");
    expect_rejected("81 65", 2, "string at byte 1");
}

// RFC 3629 §4 via spec "Strings MUST be a valid UTF-8 encoded string": offset of the lead byte
TEST(Bon8Decoder, RejectsInvalidUtf8AtTheLeadByte) {
    expect_rejected("e0 80 80 ff", 0, "overlong");
    expect_rejected("61 e0 9f bf ff", 1, "overlong");
    expect_rejected("f0 8f bf bf ff", 0, "overlong");
    expect_rejected("ed a0 80 ff", 0, "surrogate");
    expect_rejected("61 ed bf bf ff", 1, "surrogate");
    expect_rejected("f4 90 80 80 ff", 0, "above U+10FFFF");
    expect_rejected("f5 80 80 80 ff", 0, "above U+10FFFF");
    expect_rejected("e2 82 41 ff", 0, "too few continuation bytes");
    expect_rejected("61 e2 82", 1, "end of the message");
    expect_rejected("87 e2 82 41 ff 91", 1, "too few continuation bytes");  // in a key
}

TEST(Bon8Decoder, RejectsMisplacedEndOfContainer) {
    expect_rejected("fe", 0, "outside any container");
    expect_rejected("82 91 fe", 2, "has a count (1 more expected)");
    expect_rejected("87 fe", 1, "has a count");
    expect_rejected("8b 61 fe", 2, "value of key \"a\"");
}

TEST(Bon8Decoder, RejectsContainersThatEndEarly) {
    expect_rejected("82 91", 2, "inside the array at byte 0");
    expect_rejected("85 91 92", 3, "inside the array at byte 0");
    expect_rejected("8b 61 91", 3, "inside the object at byte 0");
    expect_rejected("87 61", 2, "string at byte 1");
}

TEST(Bon8Decoder, RejectsKeysThatAreNotStrings) {
    expect_rejected("87 91 91", 1, "object key must be a string, found 0x91");
    expect_rejected("8b 61 91 80 91 fe", 3, "found 0x80");
    expect_rejected("87 c2 00 91", 1, "found 0xc2");  // c2 00 is the integer 40
}

TEST(Bon8Decoder, RejectsDuplicateKeys) { expect_rejected("88 61 91 61 92", 3, "duplicate object key \"a\""); }

TEST(Bon8Decoder, RejectsTrailingBytes) {
    expect_rejected("90 90", 1, "1 byte(s) after");
    expect_rejected("61 62 ff ff", 3, "after");
    expect_rejected("81 65 fe", 2, "after");
    expect_rejected("80 fe fe", 1, "2 byte(s) after");
}

TEST(Bon8Decoder, DecodesAndRejectsDepth100000WithoutRecursion) {
    constexpr std::size_t depth = 100000;
    std::vector<std::uint8_t> open_ended(depth, 0x85);
    try {
        sinkcheck::decode_bon8(open_ended);
        ADD_FAILURE() << "unterminated arrays decoded";
    } catch (const sinkcheck::decode_error& e) {
        EXPECT_EQ(e.offset(), depth);
    }
    open_ended.insert(open_ended.end(), depth, 0xfe);
    const json j = sinkcheck::decode_bon8(open_ended);
    const json* cur = &j;
    std::size_t levels = 1;
    while (!cur->empty()) {
        ASSERT_EQ(cur->size(), 1u);
        cur = &(*cur)[0];
        ++levels;
    }
    EXPECT_EQ(levels, depth);
}

// Random bytes (drawn mostly from markers, lead bytes and continuation bytes) and one-byte
// mutations of valid messages: the decoder either throws decode_error at an offset inside the
// input or returns a value, and whatever it returns the encoder writes canonically and the
// decoder reads back equal.
TEST(Bon8Decoder, ReadsOrRejectsArbitraryBytesAndReencodesWhatItReads) {
    const std::uint64_t seed = sct::seed();
    std::mt19937_64 rng(seed);
    static const std::uint8_t interesting[] = {0x00, 0x61, 0x7f, 0x80, 0x82, 0x85, 0x87, 0x8b, 0x8c, 0x8e,
                                               0x90, 0xb8, 0xc1, 0xc2, 0xc3, 0xdf, 0xe0, 0xe2, 0xed, 0xef,
                                               0xf0, 0xf4, 0xf5, 0xf7, 0xf8, 0xfa, 0xfd, 0xfe, 0xff, 0xbf};
    constexpr int count = 20000;
    int accepted = 0;
    for (int i = 0; i < count; ++i) {
        std::vector<std::uint8_t> input;
        if (i % 2 == 0) {
            input.resize(rng() % 24);
            for (auto& b : input) {
                b = rng() % 3 == 0 ? static_cast<std::uint8_t>(rng()) : interesting[rng() % sizeof interesting];
            }
        } else {
            sct::random_profile small;
            small.max_depth = 2;
            small.length_edges = false;
            try {
                input = sinkcheck::encode_to_vector(sinkcheck::format::bon8, sct::random_value<json>(rng, small));
            } catch (const sinkcheck::out_of_range&) {
                continue;  // unsigned > INT64_MAX: no message to mutate
            }
            input[rng() % input.size()] = static_cast<std::uint8_t>(rng());
        }
        json j;
        try {
            j = sinkcheck::decode_bon8(input);
        } catch (const sinkcheck::decode_error& e) {
            ASSERT_LE(e.offset(), input.size()) << sct::hex(input) << ": " << e.what();
            continue;
        }
        ++accepted;
        const auto canonical = sinkcheck::encode_to_vector(sinkcheck::format::bon8, j);
        ASSERT_TRUE(sct::deep_equal(sinkcheck::decode_bon8(canonical), j))
            << "seed " << seed << " input " << sct::hex(input) << " canonical " << sct::hex(canonical);
    }
    std::cout << "bon8 decoder on arbitrary bytes: seed " << seed << ", " << count << " inputs, " << accepted
              << " decoded and re-encoded\n";
    EXPECT_GT(accepted, count / 20);
}

TEST(Bon8Decoder, ReadsFromPointerAndLength) {
    const std::uint8_t bytes[] = {0x82, 0x61, 0xff, 0x91};
    EXPECT_EQ(sinkcheck::decode_bon8(bytes, sizeof bytes), json::parse(R"(["a",1])"));
    EXPECT_THROW(sinkcheck::decode_bon8(bytes, 3), sinkcheck::decode_error);
}

}  // namespace
