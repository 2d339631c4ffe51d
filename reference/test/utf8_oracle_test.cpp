// The kit's own UTF-8 validator (testkit/utf8_oracle.hpp) and the encoders' check
// (detail/utf8.hpp) are two routes to RFC 3629: they must agree on every sequence of up to three
// bytes and on four-byte ones around every boundary, and each must reject every class of
// invalid text the generators produce. Were one of them to slip, the properties that judge the
// encoders by the other would then see it; this test says which one moved.
#include <cstdint>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/testkit/generators.hpp"
#include "sinkcheck/testkit/hex.hpp"
#include "sinkcheck/testkit/utf8_oracle.hpp"

namespace {

using sinkcheck::testkit::first_invalid_utf8;
using sinkcheck::testkit::utf8_ok;

bool encoders_accept(const char* p, std::size_t n) {
    return sinkcheck::detail::utf8_invalid_at(p, n) == sinkcheck::detail::utf8_valid;
}

std::string hex(std::string_view s) { return sinkcheck::testkit::to_hex(s); }

TEST(Utf8Oracle, AgreesWithTheEncodersCheckOnEverySequenceUpToThreeBytes) {
    char buf[3];
    std::size_t disagreements = 0;
    for (std::size_t length = 1; length <= 3; ++length) {
        const std::uint32_t count = 1U << (8 * length);
        for (std::uint32_t v = 0; v < count; ++v) {
            for (std::size_t k = 0; k < length; ++k) {
                buf[k] = static_cast<char>((v >> (8 * k)) & 0xFFU);
            }
            const bool oracle = first_invalid_utf8(std::string_view(buf, length)) == utf8_ok;
            if (oracle != encoders_accept(buf, length) && ++disagreements <= 5) {
                ADD_FAILURE() << hex(std::string_view(buf, length)) << ": the kit's validator "
                              << (oracle ? "accepts" : "rejects") << " it, the encoders' check does not";
            }
        }
    }
    EXPECT_EQ(disagreements, 0U);
}

TEST(Utf8Oracle, AgreesWithTheEncodersCheckOnFourByteSequencesAtEveryBoundary) {
    // continuation bytes at the edges of the ranges each lead allows, and just outside them
    static constexpr unsigned char tails[] = {0x00, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF};
    for (unsigned lead = 0xE0; lead <= 0xFF; ++lead) {
        for (unsigned char a : tails) {
            for (unsigned char b : tails) {
                for (unsigned char c : tails) {
                    const char s[4] = {static_cast<char>(lead), static_cast<char>(a), static_cast<char>(b),
                                       static_cast<char>(c)};
                    const bool oracle = first_invalid_utf8(std::string_view(s, 4)) == utf8_ok;
                    ASSERT_EQ(oracle, encoders_accept(s, 4)) << hex(std::string_view(s, 4));
                }
            }
        }
    }
}

TEST(Utf8Oracle, RejectsEveryInvalidPieceTheGeneratorsUseAndAcceptsTheEdgesOfValidText) {
    for (const std::string& piece : sinkcheck::testkit::invalid_utf8_pieces()) {
        for (const std::string& text : {piece, "ab" + piece, piece + "ab", "\xC3\xA9" + piece}) {
            EXPECT_NE(first_invalid_utf8(text), utf8_ok) << hex(text);
            EXPECT_FALSE(encoders_accept(text.data(), text.size())) << hex(text);
        }
    }
    for (const char* valid : {"", "a", "\x7F", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80",
                              "\xEF\xBF\xBF", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"}) {
        EXPECT_EQ(first_invalid_utf8(valid), utf8_ok) << hex(valid);
    }
    EXPECT_EQ(first_invalid_utf8("ab\xED\xA0\x80"), 2U);
}

TEST(Utf8Oracle, NamesWhereInAValueTextIsNotUtf8) {
    using json = nlohmann::json;
    EXPECT_EQ(sinkcheck::testkit::invalid_utf8_in(json{{"a", {1, "ok", "x\xED\xA0\x80"}}}), "string at '/a/2', byte 1");
    EXPECT_EQ(sinkcheck::testkit::invalid_utf8_in(json{{"a/b", json{{"\xC0\x80", 1}}}}), "key in '/a~1b', byte 0");
    EXPECT_EQ(sinkcheck::testkit::invalid_utf8_in(json{{"a", {1, "\xF4\x8F\xBF\xBF"}}}), "");
}

}  // namespace
