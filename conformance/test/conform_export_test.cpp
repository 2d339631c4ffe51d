// conform_export_test.cpp — the JSON value notation and the exported corpus: every notation
// form both ways, doubles in both spellings (bits for the protocol, decimal for the export), the
// whole corpus through export and back field by field, and malformed exports refused with the
// file and the vector named.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/testkit/byte_choices.hpp"
#include "sinkcheck/testkit/edges.hpp"
#include "sinkcheck/testkit/value_from_bytes.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;

/// Wire text of `notation`: the token notation, as the corpus writes it, through JSON and back.
std::string wire_round_trip(const std::string& notation) {
    const parsed_value original = parse_value(notation);
    const std::string as_json = to_json_notation(original.wire);
    return from_json_notation(json::parse(as_json));
}

struct notation_case {
    const char* wire;
    const char* json;  // what to_json_notation writes
};

// Each form of docs/cli.md's table, and the edges of each choice the writer makes.
const notation_case cases[] = {
    {"null", "null"},
    {"[true,false]", "[true,false]"},
    {"0", "0"},
    {"-0", "0"},
    {"-1", "-1"},
    {"9007199254740992", "9007199254740992"},
    {"9007199254740993", R"({"$integer":"9007199254740993"})"},
    {"-9007199254740993", R"({"$integer":"-9007199254740993"})"},
    {"18446744073709551615", R"({"$integer":"18446744073709551615"})"},
    {"18446744073709551616", R"({"$integer":"18446744073709551616"})"},
    {"1.5", "1.5"},
    {"-2.5e-300", "-2.5e-300"},
    {"1.0", R"({"$float":"1.0"})"},
    {"-0.0", R"({"$float":"-0.0"})"},
    {"1e300", R"({"$float":"1e+300"})"},
    {"1E+300", R"({"$float":"1e+300"})"},
    {"1e400", R"({"$float":"inf"})"},
    {"0.10", "0.1"},
    {"NaN", R"({"$float":"nan"})"},
    {"-NaN", R"({"$float":"0xfff8000000000000"})"},
    {"Infinity", R"({"$float":"inf"})"},
    {"-Infinity", R"({"$float":"-inf"})"},
    {"f64'7ff0000000000001'", R"({"$float":"0x7ff0000000000001"})"},
    {"h''", R"({"$binary":""})"},
    {"h'0102ff'#5", R"({"$binary":"0102ff","$subtype":5})"},
    {"h'00'#18446744073709551615", R"({"$binary":"00","$subtype":"18446744073709551615"})"},
    {R"("a\"b\\c\n")", R"("a\"b\\c\u000a")"},
    {R"("\u00e9\ud83d\ude00")", "\"\xc3\xa9\xf0\x9f\x98\x80\""},
    {R"("a\xffb")", R"({"$string":"61ff62"})"},
    {"discarded", R"({"$discarded":true})"},
    {R"({"a":1,"b":[2]})", R"({"a":1,"b":[2]})"},
    {"{}", "{}"},
    {R"({"b":1,"a":2})", R"({"$members":[["b",1],["a",2]]})"},
    {R"({"aa":1,"b":2})", R"({"aa":1,"b":2})"},
    {R"({"$float":"x"})", R"({"$members":[["$float","x"]]})"},
    {R"({"\xc3":{"z":[],"y":{}}})", R"({"$members":[[{"$string":"c3"},{"$members":[["z",[]],["y",{}]]}]]})"},
    {R"([{"b":0,"a":0},{"a":0,"b":0}])", R"([{"$members":[["b",0],["a",0]]},{"a":0,"b":0}])"},
};

TEST(JsonNotation, WritesEachFormAsDocumented) {
    for (const notation_case& c : cases) {
        EXPECT_EQ(to_json_notation(parse_value(c.wire).wire), c.json) << c.wire;
    }
}

TEST(JsonNotation, ReadsBackToTheSameValueAndOrder) {
    for (const notation_case& c : cases) {
        const parsed_value original = parse_value(c.wire);
        const parsed_value back = parse_value(wire_round_trip(c.wire));
        // The rendering shows NaN bits, binary subtypes and discarded values; the JSON form
        // shows key order and which literals were integers.
        EXPECT_EQ(render_value(back.value), render_value(original.value)) << c.wire;
        EXPECT_EQ(to_json_notation(back.wire), to_json_notation(original.wire)) << c.wire;
    }
}

TEST(JsonNotation, ReadsTheCliForms) {
    // {"$object": ...} (the CLI's escape for a data object with notation keys) and a plain
    // object read in any order, a decimal without a point in $float still a double.
    EXPECT_EQ(from_json_notation(json::parse(R"({"$object":{"$float":"nan"}})")), R"({"$float":"nan"})");
    EXPECT_EQ(from_json_notation(json::parse(R"({"$float":"2"})")), "2.0");
    EXPECT_EQ(from_json_notation(json::parse(R"({"$binary":"00","$subtype":"7"})")), "h'00'#7");
    // A bare JSON number the parser read as a double stays a double, integral or not.
    EXPECT_EQ(from_json_notation(json::parse("[1.0,1e2,-0.0,18446744073709551616]")),
              "[1.0,100.0,-0.0,1.8446744073709552e+19]");
}

TEST(JsonNotation, RefusesMalformedNotationNamingThePointer) {
    const struct {
        const char* json;
        const char* message;
    } bad[] = {
        {R"([0,{"$float":"nope"}])", "at '/1': \"$float\" holds"},
        {R"({"k":{"$binary":"abc"}})", "at '/k': \"$binary\" holds a string of an even number"},
        {R"({"k":{"$binary":"00","$subtype":-1}})", "at '/k': \"$subtype\" holds an unsigned integer"},
        {R"({"$binary":"00","$subtype":"18446744073709551616"})", "at '': \"$subtype\" is at most"},
        {R"({"$integer":"1.5"})", "\"$integer\" holds an integer"},
        {R"({"$integer":"007"})", "\"$integer\" holds an integer"},
        {R"({"$string":"zz"})", "\"$string\" holds a string of an even number"},
        {R"({"$discarded":1})", "\"$discarded\" holds true"},
        {R"({"$members":{}})", "\"$members\" holds an array"},
        {R"({"$members":[["a"]]})", "at '/$members/0': a member is a [key, value] pair"},
        {R"({"$members":[[1,2]]})", "at '/$members/0/0': a key is a string"},
        {R"({"a/b":[{"$float":""}]})", "at '/a~1b/0': \"$float\" holds"},
    };
    for (const auto& b : bad) {
        try {
            from_json_notation(json::parse(b.json));
            ADD_FAILURE() << "accepted " << b.json;
        } catch (const notation_error& e) {
            EXPECT_NE(std::string(e.what()).find(b.message), std::string::npos) << b.json << " -> " << e.what();
        }
    }
    // Duplicate keys in $members reach the value parser, which refuses them.
    EXPECT_THROW(parse_value(from_json_notation(json::parse(R"({"$members":[["a",1],["a",2]]})"))), notation_error);
}

TEST(JsonNotation, DeepValuesNeedNoRecursion) {
    std::string wire;
    const int depth = 100000;
    for (int i = 0; i < depth; ++i) wire += "[{\"b\":0,\"a\":";
    wire += "NaN";
    for (int i = 0; i < depth; ++i) wire += "}]";
    const std::string as_json = to_json_notation(wire);
    EXPECT_EQ(as_json.substr(0, 30), R"([{"$members":[["b",0],["a",[{")");
    EXPECT_EQ(from_json_notation(json::parse(as_json)), wire);
}

// ---- doubles: the bits form (conform --notation json) and the decimal form (the export) -------

const notation_case bits_cases[] = {
    {"1.5", R"({"$float":"0x3ff8000000000000"})"},
    {"0.1", R"({"$float":"0x3fb999999999999a"})"},
    {"1.0", R"({"$float":"0x3ff0000000000000"})"},
    {"-0.0", R"({"$float":"0x8000000000000000"})"},
    {"1152921504606846976.0", R"({"$float":"0x43b0000000000000"})"},  // 2^60 as a double
    {"1e400", R"({"$float":"0x7ff0000000000000"})"},
    {"NaN", R"({"$float":"0x7ff8000000000000"})"},
    {"-NaN", R"({"$float":"0xfff8000000000000"})"},
    {"Infinity", R"({"$float":"0x7ff0000000000000"})"},
    {"-Infinity", R"({"$float":"0xfff0000000000000"})"},
    {"f64'7FF800000000BEEF'", R"({"$float":"0x7ff800000000beef"})"},
    // Everything but doubles is written as in the decimal form.
    {"[-0,9007199254740993,h'00'#5]", R"([0,{"$integer":"9007199254740993"},{"$binary":"00","$subtype":5}])"},
    {R"({"b":2.5,"a":{"$float":"x"}})",
     R"({"$members":[["b",{"$float":"0x4004000000000000"}],["a",{"$members":[["$float","x"]]}]]})"},
};

TEST(JsonNotation, BitsFormWritesEachDoubleAsDocumented) {
    for (const notation_case& c : bits_cases) {
        EXPECT_EQ(to_json_notation(parse_value(c.wire).wire, json_floats::bits), c.json) << c.wire;
    }
}

std::uint64_t bits_of(double d) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
}

/// A deliberately naive decimal reader, as simple JSON parsers have one: the digits gathered in
/// a double, then scaled by a power of ten. It rounds more than once, so for many 16- and
/// 17-digit texts it misses the nearest double.
double naive_decimal(const std::string& s) {
    std::size_t i = 0;
    const bool negative = s[i] == '-';
    if (negative) ++i;
    double mantissa = 0;
    int scale = 0;
    const auto digit = [&] { return i < s.size() && s[i] >= '0' && s[i] <= '9'; };
    for (; digit(); ++i) mantissa = mantissa * 10 + (s[i] - '0');
    if (i < s.size() && s[i] == '.') {
        for (++i; digit(); ++i, --scale) mantissa = mantissa * 10 + (s[i] - '0');
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) scale += std::atoi(s.c_str() + i + 1);
    const double v = scale < 0 ? mantissa / std::pow(10.0, -scale) : mantissa * std::pow(10.0, scale);
    return negative ? -v : v;
}

/// What a reader with that decimal parser gets from one double in the JSON notation: a bare
/// number (read from the text itself), or {"$float": ...} with bits, nan, inf, -inf or decimal.
std::uint64_t naive_read(const std::string& text) {
    const json j = json::parse(text);
    if (!j.is_object()) return bits_of(naive_decimal(text));
    const std::string& f = j.at("$float").get_ref<const std::string&>();
    if (f.rfind("0x", 0) == 0) return std::stoull(f.substr(2), nullptr, 16);
    if (f == "nan") return 0x7ff8000000000000ULL;
    if (f == "inf") return 0x7ff0000000000000ULL;
    if (f == "-inf") return 0xfff0000000000000ULL;
    return bits_of(naive_decimal(f));
}

/// True when the parsed JSON holds a number that is not an integer anywhere (iteratively).
bool holds_decimal_number(const json& root) {
    std::vector<const json*> todo = {&root};
    while (!todo.empty()) {
        const json* j = todo.back();
        todo.pop_back();
        if (j->is_number_float()) return true;
        if (j->is_structured()) {
            for (const json& child : *j) todo.push_back(&child);
        }
    }
    return false;
}

/// The test kit's edge doubles and 20,000 random bit patterns (a fixed seed: the same ones on
/// every run), each as the wire text the corpus would write for it.
std::vector<std::uint64_t> doubles_to_send() {
    std::vector<std::uint64_t> all(std::begin(testkit::edges::double_bits), std::end(testkit::edges::double_bits));
    std::mt19937_64 random(20240601);
    for (int i = 0; i < 20000; ++i) all.push_back(random());
    return all;
}

// The property --notation json exists for: a reader whose decimal parsing is lossy still gets
// every double's bits, because no double is sent as a JSON number or a decimal string. The same
// reader on the decimal form misses some, which shows that the check can fail.
TEST(JsonNotation, BitsFormGivesEveryDoubleToANaiveReader) {
    std::size_t naive_misses_in_decimal = 0;
    for (const std::uint64_t bits : doubles_to_send()) {
        const std::string wire = parse_value(render_value(json(testkit::edges::double_from_bits(bits)))).wire;
        const std::string sent = to_json_notation(wire, json_floats::bits);
        char want[40];
        std::snprintf(want, sizeof want, "{\"$float\":\"0x%016llx\"}", static_cast<unsigned long long>(bits));
        ASSERT_EQ(sent, want) << wire;
        ASSERT_EQ(naive_read(sent), bits) << sent;
        ASSERT_FALSE(holds_decimal_number(json::parse(sent))) << sent;
        // The runner's own reader (sinkcheck-encoder, encode) gets the same bits.
        const json back = parse_value(from_json_notation(json::parse(sent))).value;
        ASSERT_EQ(bits_of(back.get<double>()), bits) << sent;
        if (naive_read(to_json_notation(wire)) != bits) ++naive_misses_in_decimal;
    }
    EXPECT_GT(naive_misses_in_decimal, 1000U);
    std::printf("the naive reader misses %zu of %zu doubles in the decimal form, none in the bits form\n",
                naive_misses_in_decimal, doubles_to_send().size());
}

// The decimal form (the export, --notation json-decimal) is exact for a reader that rounds
// correctly: the shortest digits that read back to the same bits, through strtod and through
// the notation's own reader.
TEST(JsonNotation, DecimalFormReadsBackToTheSameBits) {
    for (const std::uint64_t bits : doubles_to_send()) {
        const double d = testkit::edges::double_from_bits(bits);
        const std::string wire = parse_value(render_value(json(d))).wire;
        const std::string text = to_json_notation(wire);
        const json parsed = json::parse(text);
        const json back = parse_value(from_json_notation(parsed)).value;
        ASSERT_EQ(bits_of(back.get<double>()), bits) << text;
        if (std::isnan(d)) continue;
        const std::string digits = parsed.is_object() ? parsed.at("$float").get<std::string>() : text;
        if (std::isinf(d)) {
            EXPECT_EQ(digits, d > 0 ? "inf" : "-inf");
            continue;
        }
        ASSERT_EQ(bits_of(std::strtod(digits.c_str(), nullptr)), bits) << text;
        // A bare JSON number only for a non-integral double; an integral one is {"$float": ...}
        // so that a reader with one number type can tell it from an integer.
        EXPECT_EQ(parsed.is_number_float(), std::trunc(d) != d) << text;
    }
}

// The wire text of a double is printf's %.Pg with the fewest digits P that read back (".0"
// added when it looks like an integer): the spelling every saved vector, id and shrinking
// comparison was made with. render_value gets there faster (to_chars, starting the search at
// the shortest round trip's digit count); this is the spelling it must keep.
TEST(ValueNotation, WritesEachDoubleAsTheFewestDigitsOfPrintfG) {
    for (const std::uint64_t bits : doubles_to_send()) {
        const double d = testkit::edges::double_from_bits(bits);
        if (std::isnan(d) || std::isinf(d)) continue;
        char buf[40];
        for (int precision = 1; precision <= 17; ++precision) {
            std::snprintf(buf, sizeof buf, "%.*g", precision, d);
            if (std::strtod(buf, nullptr) == d) break;
        }
        std::string want(buf);
        if (want.find_first_of(".e") == std::string::npos) want += ".0";
        ASSERT_EQ(render_value(json(d)), want) << bits;
    }
}

// Numbers read as strtoll, strtoull and strtod do: an integer beyond 64 bits, either sign, is
// the nearest double; a decimal beyond the double range is infinite, below it zero or denormal.
TEST(ValueNotation, ReadsNumbersAtTheEdgesOfTheirTypes) {
    const auto read = [](const char* text) { return parse_value(text).value; };
    EXPECT_TRUE(read("18446744073709551615").is_number_unsigned());
    EXPECT_EQ(read("18446744073709551615").get<std::uint64_t>(), 18446744073709551615ULL);
    EXPECT_TRUE(read("18446744073709551616").is_number_float());
    EXPECT_EQ(read("18446744073709551616").get<double>(), 18446744073709551616.0);
    EXPECT_TRUE(read("-9223372036854775808").is_number_integer());
    EXPECT_EQ(read("-9223372036854775808").get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
    EXPECT_TRUE(read("-9223372036854775809").is_number_float());
    EXPECT_EQ(read("-9223372036854775809").get<double>(), -9223372036854775808.0);
    EXPECT_TRUE(read("-0").is_number_integer());
    EXPECT_EQ(read("1e999").get<double>(), std::numeric_limits<double>::infinity());
    EXPECT_EQ(read("-1e999").get<double>(), -std::numeric_limits<double>::infinity());
    EXPECT_EQ(bits_of(read("1e-400").get<double>()), 0U);
    EXPECT_EQ(read("4.9406564584124654e-324").get<double>(), std::numeric_limits<double>::denorm_min());
    EXPECT_EQ(read("0.1").get<double>(), 0.1);
    // a string's plain runs, escapes and raw bytes, in order
    EXPECT_EQ(read(R"("a\"b\u00e9c\x41d\\e")").get<std::string>(),
              "a\"b\xc3\xa9"
              "cAd\\e");
}

// Without repetitions the parser does not build the wire text token by token: it is the text
// less the white space between tokens. Both ways must give the same wire, for every corpus
// vector written without a repetition and for text spaced out in every place it may be.
TEST(ValueNotation, WireWithoutRepetitionsIsTheTextLessItsSpaces) {
    parse_limits no_repeat;
    no_repeat.allow_repeat = false;
    std::size_t compared = 0;
    for (const test_vector& v : load_corpus(SINKCHECK_CORPUS_DIR)) {
        if (v.input_text.find('*') != std::string::npos) continue;
        const parsed_value read = parse_value(v.input_text, no_repeat);
        ASSERT_EQ(read.wire, v.input.wire) << v.id;
        ASSERT_EQ(read.plain_json, v.input.plain_json) << v.id;
        ++compared;
    }
    EXPECT_GT(compared, 1000U);
    const std::string spaced =
        " [ 1 ,\t\"a b\\\" \" ,\n{ \"k \" : h'00'#2 , \"\\\\\" : [ ] } ,\r-1.5e3 , f64'7ff8000000000001' ] ";
    const parsed_value with = parse_value(spaced);
    const parsed_value without = parse_value(spaced, no_repeat);
    EXPECT_EQ(without.wire, "[1,\"a b\\\" \",{\"k \":h'00'#2,\"\\\\\":[]},-1.5e3,f64'7ff8000000000001']");
    EXPECT_EQ(without.wire, with.wire);
}

/// Whether a and b are the same value in every node's type too (nlohmann's == takes 1 and 1u,
/// and no NaN, as equal): floats by their bits, members in order.
bool same_in_every_type(const json& a, const json& b) {
    std::vector<std::pair<const json*, const json*>> todo = {{&a, &b}};
    while (!todo.empty()) {
        const auto [x, y] = todo.back();
        todo.pop_back();
        if (x->type() != y->type() || x->size() != y->size()) return false;
        if (x->is_object()) {
            for (auto i = x->cbegin(), j = y->cbegin(); i != x->cend(); ++i, ++j) {
                if (i.key() != j.key()) return false;
                todo.emplace_back(&*i, &*j);
            }
        } else if (x->is_array()) {
            for (std::size_t k = 0; k < x->size(); ++k) todo.emplace_back(&(*x)[k], &(*y)[k]);
        } else if (x->is_number_float()) {
            if (bits_of(x->get<double>()) != bits_of(y->get<double>())) return false;
        } else if (x->is_binary()) {
            if (x->get_binary() != y->get_binary() || x->get_binary().has_subtype() != y->get_binary().has_subtype())
                return false;
        } else if (!x->is_discarded() && *x != *y) {
            return false;
        }
    }
    return true;
}

// conform --generate grades the value its notation reads back as. rendered_value gives it
// without reading the text: the same wire text, plainness and value, type for type, as
// parse_value(render_value(v)), for builder values of both profiles (hostile: invalid UTF-8,
// NaN payloads, discarded values, deep nesting).
TEST(ValueNotation, RenderedValueIsWhatItsTextReadsBackAs) {
    std::mt19937_64 random(20261206);
    parse_limits no_repeat;
    no_repeat.allow_repeat = false;
    std::size_t not_plain = 0;
    std::size_t signed_made_unsigned = 0;
    for (int i = 0; i < 6000; ++i) {
        std::vector<std::uint8_t> choices(1 + random() % 1024);
        for (std::uint8_t& b : choices) b = static_cast<std::uint8_t>(random());
        testkit::byte_choices in(choices.data(), choices.size());
        fuzz::build_limits limits;
        limits.hostile = i % 2 == 0;
        const json built = fuzz::value_from_bytes<json>(in, limits);
        const parsed_value read = parse_value(render_value(built), no_repeat);
        const parsed_value rendered = rendered_value(built);
        ASSERT_EQ(rendered.wire, read.wire);
        ASSERT_EQ(rendered.plain_json, read.plain_json) << read.wire.substr(0, 300);
        ASSERT_TRUE(same_in_every_type(rendered.value, read.value)) << read.wire.substr(0, 300);
        if (!read.plain_json) ++not_plain;
        if (!same_in_every_type(built, read.value)) ++signed_made_unsigned;
    }
    // Both ways of differing from plain text occurred, so the comparisons above were tested.
    EXPECT_GT(not_plain, 300U);
    EXPECT_GT(signed_made_unsigned, 300U);
}

// Every vector of the corpus, as --notation json sends it: no double in decimal, and the value
// read back is the vector's.
TEST(JsonNotation, BitsFormSendsTheWholeCorpusWithoutADecimalNumber) {
    std::size_t with_doubles = 0;
    for (const test_vector& v : load_corpus(SINKCHECK_CORPUS_DIR)) {
        const std::string sent = to_json_notation(v.input.wire, json_floats::bits);
        const json parsed = json::parse(sent);
        EXPECT_FALSE(holds_decimal_number(parsed)) << v.id << ": " << sent.substr(0, 200);
        EXPECT_EQ(render_value(parse_value(from_json_notation(parsed)).value), render_value(v.input.value)) << v.id;
        if (sent.find("\"$float\"") != std::string::npos) ++with_doubles;
    }
    EXPECT_GT(with_doubles, 200U);
}

TEST(CorpusExport, TheWholeCorpusComesBackFieldByField) {
    const std::vector<test_vector> all = load_corpus(SINKCHECK_CORPUS_DIR);
    const std::string doc = export_corpus_json(all, "test");
    const std::vector<test_vector> back = parse_corpus_json("export.json", doc);
    ASSERT_EQ(back.size(), all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        const test_vector& a = all[i];
        const test_vector& b = back[i];
        SCOPED_TRACE(a.id);
        EXPECT_EQ(b.id, a.id);
        EXPECT_EQ(b.fmt, a.fmt);
        EXPECT_EQ(b.use_size, a.use_size);
        EXPECT_EQ(b.use_type, a.use_type);
        EXPECT_EQ(b.levels, a.levels);
        EXPECT_EQ(b.expect, a.expect);
        EXPECT_EQ(b.alternatives, a.alternatives);
        EXPECT_EQ(b.error, a.error);
        EXPECT_EQ(b.rule, a.rule);
        EXPECT_EQ(b.source, a.source);
        EXPECT_EQ(b.divergence, a.divergence);
        EXPECT_EQ(b.input.plain_json, a.input.plain_json);
        EXPECT_EQ(render_value(b.input.value), render_value(a.input.value));
        EXPECT_EQ(to_json_notation(b.input.wire), to_json_notation(a.input.wire));
        EXPECT_EQ(b.location(), "export.json#/vectors/" + std::to_string(i));
    }
    // Same vectors, same version; one more byte in an expectation, another version.
    EXPECT_EQ(export_corpus_json(back, "test"), doc);
    std::vector<test_vector> changed = all;
    changed.front().expect.push_back(0);
    const auto version = [](const std::string& d) { return json::parse(d).at("corpus_version").get<std::string>(); };
    EXPECT_NE(version(export_corpus_json(changed, "test")), version(doc));
    EXPECT_EQ(version(doc).substr(0, 5), "test+");
}

TEST(CorpusExport, OneFormatOnly) {
    std::vector<test_vector> two = load_corpus(SINKCHECK_CORPUS_DIR, format::bson);
    const std::vector<test_vector> msgpack = load_corpus(SINKCHECK_CORPUS_DIR, format::msgpack);
    two.insert(two.end(), msgpack.begin(), msgpack.end());
    const std::string doc = export_corpus_json(two, "test");
    const std::vector<test_vector> bson = parse_corpus_json("export.json", doc, format::bson);
    ASSERT_FALSE(bson.empty());
    for (const test_vector& v : bson) EXPECT_EQ(v.fmt, format::bson);
    EXPECT_EQ(bson.size(), load_corpus(SINKCHECK_CORPUS_DIR, format::bson).size());
}

const char* const good_vector =
    R"({"id":"cbor/x","format":"cbor","input":1.5,"levels":["exact"],"expect":"fa3fc00000","rule":"r","source":"s"})";

std::string with_vectors(const std::string& vectors) {
    return R"({"schema_version":1,"corpus_version":"t+0000000000000000","vectors":[)" + vectors + "]}";
}

TEST(CorpusExport, MalformedExportsAreRefusedWithThePlace) {
    ASSERT_EQ(parse_corpus_json("e.json", with_vectors(good_vector)).size(), 1U);
    const struct {
        std::string text;
        const char* message;
    } bad[] = {
        {"{\"schema_version\":1,", "e.json: not JSON text: "},
        {"{\"schema_version\":1e400}", "e.json: JSON text this reader cannot hold: "},  // found by fuzz_vectors
        {"[]", "e.json: an exported corpus is a JSON object"},
        {R"({"schema_version":2,"corpus_version":"x","vectors":[]})", "e.json: \"schema_version\" must be 1"},
        {R"({"schema_version":1,"vectors":[]})", "e.json: \"corpus_version\" is a string"},
        {R"({"schema_version":1,"corpus_version":"x","vectors":{}})", "e.json: \"vectors\" is an array"},
        {R"({"schema_version":1,"corpus_version":"x","vectors":[],"extra":0})", "e.json: unknown member \"extra\""},
        {with_vectors(""), "e.json: holds no vector"},
        {with_vectors("7"), "e.json#/vectors/0: a vector is a JSON object"},
        {with_vectors(std::string(good_vector) + "," + good_vector), "e.json#/vectors/1: duplicate id 'cbor/x'"},
        {with_vectors(R"({"id":"cbor/x","format":"cbor","levels":["exact"],"expect":"00","rule":"r","source":"s"})"),
         "e.json#/vectors/0: missing \"input\""},
        {with_vectors(R"({"id":"cbor/x","format":"json","input":0,"rule":"r","source":"s"})"),
         "e.json#/vectors/0: \"format\" is one of"},
        {with_vectors(
             R"({"id":"bson/x","format":"cbor","input":0,"levels":["exact"],"expect":"00","rule":"r","source":"s"})"),
         "e.json#/vectors/0: an id in this file starts with 'cbor/'"},
        {with_vectors(
             R"({"id":"cbor/x","format":"cbor","input":[{"$float":"?"}],"levels":["exact"],"expect":"00","rule":"r","source":"s"})"),
         "e.json#/vectors/0: input: at '/0': \"$float\" holds"},
        {with_vectors(
             R"({"id":"cbor/x","format":"cbor","input":0,"levels":["exact"],"expect":"0","rule":"r","source":"s"})"),
         "e.json#/vectors/0: expect: "},
        {with_vectors(
             R"({"id":"cbor/x","format":"cbor","input":0,"levels":["best"],"expect":"00","rule":"r","source":"s"})"),
         "e.json#/vectors/0: unknown level 'best'"},
        {with_vectors(
             R"({"id":"cbor/x","format":"cbor","input":0,"levels":["exact"],"expect":"00","rule":"a\nb","source":"s"})"),
         "e.json#/vectors/0: \"rule\" is one line"},
        {with_vectors(R"({"id":"cbor/x","format":"cbor","input":0,"expect":"00","rule":"r","source":"s"})"),
         "e.json#/vectors/0: vector 'cbor/x': missing 'level'"},
        {with_vectors(
             R"({"id":"cbor/x","format":"cbor","input":0,"error":"type_error.316","expect":"00","rule":"r","source":"s"})"),
         "e.json#/vectors/0: vector 'cbor/x': a negative vector"},
        {with_vectors(
             R"({"id":"cbor/x","format":"cbor","input":0,"levels":["exact"],"expect":"00","rule":"r","source":"s","note":1})"),
         "e.json#/vectors/0: unknown member \"note\""},
    };
    for (const auto& b : bad) {
        try {
            parse_corpus_json("e.json", b.text);
            ADD_FAILURE() << "accepted " << b.text;
        } catch (const corpus_error& e) {
            EXPECT_EQ(std::string(e.what()).rfind(b.message, 0), 0U) << b.text << "\n -> " << e.what();
        }
    }
}

}  // namespace
}  // namespace sinkcheck::conform
