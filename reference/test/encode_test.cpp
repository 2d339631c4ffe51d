// encode_test.cpp — what the six encoders share: the format names (options.hpp), the dispatch
// and divergence lookup (encode.hpp), the oracle's reach (oracle.hpp) and the JSON pointer that
// every encoder error carries (detail/walk.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sinkcheck/encode.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using sinkcheck::format;

// A scoped enumeration holds any value of its underlying type, so a format read from outside
// (a cast integer) may name none of the six.
constexpr auto unknown_format = static_cast<format>(sinkcheck::all_formats.size());

TEST(Formats, ParseBackEachNameAndNameAnUnknownValueQuestionMark) {
    const std::vector<std::string> names = {"cbor", "msgpack", "ubjson", "bjdata", "bson", "bon8"};
    ASSERT_EQ(names.size(), sinkcheck::all_formats.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        const format f = sinkcheck::all_formats[i];
        EXPECT_EQ(sinkcheck::format_name(f), names[i]);
        EXPECT_EQ(sinkcheck::parse_format(names[i]), std::optional<format>(f)) << names[i];
    }
    EXPECT_EQ(sinkcheck::format_name(unknown_format), "?");
    EXPECT_FALSE(sinkcheck::parse_format("?").has_value());
    EXPECT_FALSE(sinkcheck::parse_format("CBOR").has_value());
}

// nlohmann 3.11.2 has no BON8 writer or reader: the oracle answers with no bytes and a null
// value, while it does answer for the formats it has.
TEST(Oracle, HasEveryFormatButBon8AndGivesNothingForBon8) {
    for (const format f : sinkcheck::all_formats) {
        EXPECT_EQ(sinkcheck::oracle_has(f), f != format::bon8) << sinkcheck::format_name(f);
    }
    const json value = json::array({1, "x"});
    EXPECT_TRUE(sinkcheck::oracle_encode(format::bon8, value).empty());
    EXPECT_TRUE(sinkcheck::oracle_decode<json>(format::bon8, {0x82, 0x91, 0x78, 0xff}).is_null());
    // RFC 8949: 0x82 array of two, 0x01 the integer 1, 0x61 0x78 the text "x"
    EXPECT_EQ(sinkcheck::test::hex(sinkcheck::oracle_encode(format::cbor, value)), "82016178");
    EXPECT_EQ(sinkcheck::oracle_decode<json>(format::cbor, {0x82, 0x01, 0x61, 0x78}), value);
}

// A value that diverges in every format with an oracle: only the formats without one name no
// divergence.
TEST(KnownDivergence, IsNullForBon8AndForAValueOutsideTheFormats) {
    const json invalid = json::array({std::string("\xff")});
    for (const format f : {format::cbor, format::msgpack, format::ubjson, format::bjdata}) {
        EXPECT_STREQ(sinkcheck::known_divergence(f, invalid), "invalid-utf8") << sinkcheck::format_name(f);
    }
    EXPECT_STREQ(sinkcheck::known_divergence(format::bson, json{{"a", invalid}}), "invalid-utf8");
    EXPECT_EQ(sinkcheck::known_divergence(format::bon8, invalid), nullptr);
    EXPECT_EQ(sinkcheck::known_divergence(unknown_format, invalid), nullptr);
}

// RFC 6901 §3: '~' is written "~0" and '/' "~1" in a reference token. Escaping '/' first and
// then '~' would turn "/~" into "~01~0" instead of "~1~0", hence keys with both orders.
TEST(EncodeError, PointerEscapesTildeAndSlashInKeysInEveryFormat) {
    const std::string invalid = "\xff";
    struct pointer_case {
        json value;
        std::string pointer;
    };
    const std::vector<pointer_case> cases = {
        {json{{"a~b/c", invalid}}, "/a~0b~1c"},
        {json{{"~/", json::array({0, json{{"/~", invalid}}})}}, "/~0~1/1/~1~0"},
    };
    for (const format f : sinkcheck::all_formats) {
        for (const auto& c : cases) {
            SCOPED_TRACE(std::string(sinkcheck::format_name(f)) + " " + c.pointer);
            const auto e = sinkcheck::test::refusal(f, c.value);
            ASSERT_TRUE(e);
            EXPECT_EQ(e->id(), sinkcheck::error_id::invalid_utf8);
            EXPECT_EQ(e->pointer(), c.pointer);
            EXPECT_NE(std::string(e->what()).find("(at '" + c.pointer + "')"), std::string::npos) << e->what();
        }
    }
}

}  // namespace

namespace {

template <std::size_t... I>
void expect_encode_as_equals_encode(const nlohmann::json& j, std::index_sequence<I...>) {
    (
        [&] {
            constexpr sinkcheck::format f = sinkcheck::all_formats[I];
            sinkcheck::memory_writer w;
            sinkcheck::encode_as<f>(j, w);
            EXPECT_EQ(w.take(), sinkcheck::encode_to_vector(f, j)) << sinkcheck::format_name(f);
        }(),
        ...);
}

}  // namespace

// encode_as<F> (the format fixed at compile time, for code compiled per format) writes what
// encode() dispatching on F at run time writes, in every format.
TEST(EncodeAs, WritesWhatEncodeWritesInEveryFormat) {
    const nlohmann::json j{{"a", {1, -2, 3.5, "x", nullptr, true}}, {"b", {{"c", std::string(300, 'y')}}}};
    expect_encode_as_equals_encode(j, std::make_index_sequence<sinkcheck::all_formats.size()>{});
}
