// encode_test.cpp — what the six encoders share: the format names (options.hpp), the dispatch
// and divergence lookup (encode.hpp), the oracle's reach (oracle.hpp) and the JSON pointer that
// every encoder error carries (detail/walk.hpp).
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/sink/ostream_sink.hpp"
#include "sinkcheck/sink/vector_sink.hpp"
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

// Help and error texts name the formats from format_table: each placeholder, every time it
// occurs, and nothing else in the text.
TEST(Formats, HelpTextsNameEveryFormatFromTheTable) {
    EXPECT_EQ(sinkcheck::format_names(), "cbor, msgpack, ubjson, bjdata, bson, bon8");
    EXPECT_EQ(sinkcheck::format_names(" "), "cbor msgpack ubjson bjdata bson bon8");
    EXPECT_EQ(sinkcheck::with_format_names("--to F   {formats-or}\n{titles}.\n{formats}|{formats}"),
              "--to F   cbor, msgpack, ubjson, bjdata, bson or bon8\n"
              "CBOR, MessagePack, UBJSON, BJData, BSON and BON8.\n"
              "cbor, msgpack, ubjson, bjdata, bson, bon8|cbor, msgpack, ubjson, bjdata, bson, bon8");
    EXPECT_EQ(sinkcheck::with_format_names("{format} {formats"), "{format} {formats");
    EXPECT_EQ(sinkcheck::with_format_names(""), "");
}

// The encode options each format is recorded and fuzzed in: the defaults; UBJSON's and BJData's
// counted and counted-and-typed containers; BSON's patched lengths, only for a sink that seeks.
TEST(Formats, OptionShapesAreTheDefaultsAndWhatTheFormatTakes) {
    for (const format f : sinkcheck::all_formats) {
        for (const bool seekable : {false, true}) {
            const std::vector<sinkcheck::option_shape> shapes = sinkcheck::option_shapes(f, seekable);
            std::vector<std::string> described;
            described.reserve(shapes.size());
            for (const sinkcheck::option_shape& s : shapes) {
                described.push_back(std::string(s.name) + "=" + std::to_string(s.options.use_size) +
                                    std::to_string(s.options.use_type) + std::to_string(s.options.bson_patch_lengths));
            }
            std::vector<std::string> expected = {"=000"};
            if (f == format::ubjson || f == format::bjdata) {
                expected.insert(expected.end(), {"use_size=100", "use_size, use_type=110"});
            }
            if (f == format::bson && seekable) expected.push_back("lengths patched by seeking=001");
            EXPECT_EQ(described, expected) << sinkcheck::format_name(f) << (seekable ? ", seekable" : "");
        }
    }
    EXPECT_TRUE(sinkcheck::describe(format::bson).root_object);
    EXPECT_FALSE(sinkcheck::describe(format::cbor).root_object);
    EXPECT_EQ(sinkcheck::describe(unknown_format).name, "?");
    EXPECT_FALSE(sinkcheck::describe(unknown_format).oracle);
    EXPECT_FALSE(sinkcheck::takes_container_shape(unknown_format));
    EXPECT_EQ(sinkcheck::option_shapes(unknown_format, true).size(), 1U);
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

/// A value holding one invalid string, and the pointer every format's refusal must name.
struct pointer_case {
    json value;
    std::string pointer;
};

/// Every format refuses each case's value with type_error.316 at its pointer, which the message
/// quotes too.
void expect_invalid_utf8_at(const std::vector<pointer_case>& cases) {
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

// The walker writes a container of up to 16 children without putting it on its stack until its
// first container child; the pointer must name the value either way, before and after that child,
// and in containers too large for it.
TEST(EncodeError, PointerNamesTheValueWhereverItsContainerIsWritten) {
    const json invalid = std::string("\xff");
    json large = json::array();
    json large_of_pairs = json::array();
    for (int i = 0; i < 17; ++i) {
        large.push_back(i);
        large_of_pairs.push_back(json::array({i, i}));
    }
    large.push_back(invalid);
    large_of_pairs.push_back(json::array({1, invalid}));
    expect_invalid_utf8_at({
        {json{{"a", json::array({1, 2, invalid})}}, "/a/2"},
        {json{{"a", json::array({1, json::array({2}), invalid})}}, "/a/2"},
        {json{{"a", json::array({1, json::array({2, invalid})})}}, "/a/1/1"},
        {json{{"a", json{{"b", 1}, {"c", json{{"d", invalid}}}}}}, "/a/c/d"},
        {json{{"a", json{{"b", json::array()}, {"c", invalid}}}}, "/a/c"},
        {json{{"a", large}}, "/a/17"},
        {json{{"a", large_of_pairs}}, "/a/17/1"},
    });
}

// RFC 6901 §3: '~' is written "~0" and '/' "~1" in a reference token. Escaping '/' first and
// then '~' would turn "/~" into "~01~0" instead of "~1~0", hence keys with both orders.
TEST(EncodeError, PointerEscapesTildeAndSlashInKeysInEveryFormat) {
    const std::string invalid = "\xff";
    expect_invalid_utf8_at({
        {json{{"a~b/c", invalid}}, "/a~0b~1c"},
        {json{{"~/", json::array({0, json{{"/~", invalid}}})}}, "/~0~1/1/~1~0"},
    });
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

namespace {

/// A vector_sink that counts the strings encoders wrote in its room (room_for, then commit).
class lending_sink {
public:
    explicit lending_sink(std::vector<std::uint8_t>& v) : inner_(v) {}
    void write(std::uint8_t b) { inner_.write(b); }
    void write(const std::uint8_t* p, std::size_t n) { inner_.write(p, n); }
    std::size_t position() const { return inner_.position(); }
    std::uint8_t* room_for(std::size_t n) noexcept { return inner_.room_for(n); }
    void commit(std::size_t n) noexcept {
        ++commits_;
        inner_.commit(n);
    }
    std::size_t commits() const noexcept { return commits_; }

private:
    sinkcheck::vector_sink inner_;
    std::size_t commits_ = 0;
};

struct outcome {
    std::vector<std::uint8_t> bytes;
    std::string error;
};

template <class Write>
outcome run(Write write) {
    outcome o;
    try {
        write(o.bytes);
    } catch (const std::exception& e) {
        o.error = e.what();
    }
    return o;
}

std::string text_of(std::size_t n, int kind) {
    static const char* const pieces[] = {"a", "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x8c\x80"};
    std::string s;
    while (s.size() < n) {
        const std::string piece = pieces[(static_cast<std::size_t>(kind) + s.size()) % 4];
        s += s.size() + piece.size() <= n ? piece : std::string(n - s.size(), 'z');
    }
    return s;
}

}  // namespace

// A long string goes into the room of a sink that lends it (vector_sink), checked as it is
// copied (detail/utf8.hpp, write_text_in_room); a sink that does not (ostream_sink) gets the check,
// then the writes. Both write the same bytes and refuse the same strings with the same error, in
// every format, with the string as the root, in an array and as a member.
TEST(EncodeText, InASinksRoomWritesAndRefusesWhatCheckThenWriteDoes) {
    std::size_t in_room = 0;
    for (std::size_t n : {std::size_t{255}, std::size_t{256}, std::size_t{257}, std::size_t{1000}, std::size_t{4095},
                          std::size_t{65535}, std::size_t{65536}, std::size_t{70000}}) {
        for (int kind = 0; kind < 6; ++kind) {
            std::string s = kind == 0 ? std::string(n, 'q') : text_of(n, kind);
            if (kind == 4) {
                s[n / 2] = '\xff';  // an invalid byte in the middle
            } else if (kind == 5) {
                s[n - 1] = '\xe4';  // a sequence cut short at the end
            }
            for (const json& j : {json(s), json{1, s, 2}, json{{"k", s}}}) {
                for (format f : sinkcheck::all_formats) {
                    const outcome plain = run([&](std::vector<std::uint8_t>& out) {
                        std::ostringstream os;
                        sinkcheck::ostream_sink sink(os);
                        sinkcheck::encode(f, j, sink);
                        const std::string written = os.str();
                        out.assign(written.begin(), written.end());
                    });
                    std::size_t commits = 0;
                    const outcome lent = run([&](std::vector<std::uint8_t>& out) {
                        out.reserve(1 << 20);  // a room as large as the window from the first write
                        lending_sink sink(out);
                        sinkcheck::encode(f, j, sink);
                        commits = sink.commits();
                    });
                    const std::string what = std::string(sinkcheck::format_name(f)) + ", " + std::to_string(n) +
                                             " bytes, kind " + std::to_string(kind) + ", in " + j.type_name();
                    EXPECT_EQ(lent.error, plain.error) << what;
                    if (lent.error.empty()) {
                        EXPECT_EQ(lent.bytes, plain.bytes) << what;
                    }
                    in_room += commits;
                }
            }
        }
    }
    EXPECT_GT(in_room, 100U) << "the strings never went into the sink's room";
}
