// conform_generate_test.cpp — `sinkcheck conform --generate`: generated values find a planted bug
// from a fixed seed, shrink it to the known minimal value, group its failures by class (one
// root cause, at most two classes), and save each as a vector that fails the same way when graded as a corpus; a correct encoder
// fails nothing, linked or as a batch process. The value builder's choices and the value
// shrinker's steps are pinned on hand-made inputs.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "planted_bug.hpp"
#include "sinkcheck/conform/canonical.hpp"
#include "sinkcheck/conform/run.hpp"
#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/testkit/byte_choices.hpp"
#include "sinkcheck/testkit/value_from_bytes.hpp"
#include "sinkcheck/testkit/value_shrink.hpp"

namespace sinkcheck::conform {
namespace {

/// A temporary folder of this process's own (with a trailing slash), so that two tests run side
/// by side, or the same test run by two builds at once, never share a file.
std::string scratch_file() {
    const std::string dir = ::testing::TempDir() + "conform_generate_test." + std::to_string(::getpid());
    std::filesystem::create_directories(dir);
    return dir + "/";
}

class planted_24 : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format f, const nlohmann::json& value, const std::string&,
                                     const encode_options& o) override {
        return test::encode_with_short_24(f, value, o);
    }
};

/// Writes the RFC 8949 §4.2.1 model's bytes: what an encoder claiming canonical CBOR must write.
class canonical_model : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format, const nlohmann::json& value, const std::string&,
                                     const encode_options&) override {
        return canonical_cbor(value);
    }
};

/// Refuses every value: every generated value fails, so the report keeps every input.
class refuses_all : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format, const nlohmann::json&, const std::string&,
                                     const encode_options&) override {
        throw std::runtime_error("refused");
    }
};

/// The reference, declaring unsupported every value that holds the integer 24 (at any depth):
/// its unsupported count is how many values the planted 24 bug reaches, counted from the values
/// themselves and not from the planted encoder's bytes.
class declares_24_unsupported : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format f, const nlohmann::json& value, const std::string&,
                                     const encode_options& o) override {
        std::vector<const nlohmann::json*> todo{&value};
        while (!todo.empty()) {
            const nlohmann::json& j = *todo.back();
            todo.pop_back();
            if (j.is_number_integer() && j.get<std::int64_t>() == 24) throw unsupported("holds 24");
            if (j.is_structured()) {
                for (const auto& child : j) todo.push_back(&child);
            }
        }
        return encode_to_vector(f, value, o);
    }
};

/// The reference with a bug confined to one class of values (planted_bug.hpp).
class planted_where : public linked_encoder {
public:
    using predicate = bool (*)(const nlohmann::json&);
    using mutation = void (*)(nlohmann::json&);
    planted_where(predicate wrong, mutation change) : wrong_(wrong), change_(change) {}
    std::vector<std::uint8_t> encode(format f, const nlohmann::json& value, const std::string&,
                                     const encode_options& o) override {
        return test::encode_wrong_where(f, value, o, wrong_, change_);
    }

private:
    predicate wrong_;
    mutation change_;
};

/// Wrong the first time it is asked for a value (a byte more), right every time after: an
/// encoder whose output depends on more than the value.
class first_answer_wrong : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format f, const nlohmann::json& value, const std::string& wire,
                                     const encode_options& o) override {
        std::vector<std::uint8_t> out = encode_to_vector(f, value, o);
        static std::mutex m;
        static std::set<std::string> seen;
        const std::lock_guard<std::mutex> lock(m);
        if (seen.insert(wire).second) out.push_back(0);
        return out;
    }
};

/// Wrong every time, each answer other bytes of one length (the reference's and a counter
/// more, so it never decodes): two answers of one class and size are still two answers.
class answer_varies : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format f, const nlohmann::json& value, const std::string&,
                                     const encode_options& o) override {
        // four bytes of the count, so that no two calls of a run answer alike (one byte repeated
        // every 256 calls: a value asked again 256 calls later got its first answer back)
        static std::atomic<std::uint32_t> calls{0};
        std::vector<std::uint8_t> out = encode_to_vector(f, value, o);
        const std::uint32_t n = ++calls;
        for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(n >> shift));
        return out;
    }
};

/// Integers whose magnitude has bit length 20 (2^19 .. 2^20 - 1): written one more.
bool in_band_20(const nlohmann::json& j) {
    const std::uint64_t m = test::integer_magnitude(j);
    return m >= (std::uint64_t{1} << 19) && m < (std::uint64_t{1} << 20);
}
void plus_one(nlohmann::json& j) {
    j = j.is_number_unsigned() ? nlohmann::json(j.get<std::uint64_t>() + 1) : nlohmann::json(j.get<std::int64_t>() + 1);
}
/// Strings of 300 to 400 bytes with a three-byte UTF-8 character: written with a '!' more.
bool long_text_300(const nlohmann::json& j) {
    if (!j.is_string()) return false;
    const auto& s = j.get_ref<const std::string&>();
    return s.size() >= 300 && s.size() <= 400 && test::has_three_byte_character(s);
}
void exclaim(nlohmann::json& j) { j.get_ref<std::string&>() += '!'; }
/// Arrays of 17 to 31 elements: written without their last.
bool array_17_31(const nlohmann::json& j) { return j.is_array() && j.size() >= 17 && j.size() <= 31; }
void drop_last(nlohmann::json& j) { j.erase(j.size() - 1); }

/// Doubles of integral value below 2^53 in magnitude (-0.0 too): written as that integer, as
/// msgpack-cxx, msgpackr and CBOR::XS write them.
bool whole_double(const nlohmann::json& j) {
    if (!j.is_number_float()) return false;
    const double x = j.get<double>();
    return std::isfinite(x) && std::trunc(x) == x && std::fabs(x) < 9007199254740992.0;
}
void as_integer(nlohmann::json& j) {
    const double x = j.get<double>();
    j = x < 0 ? nlohmann::json(static_cast<std::int64_t>(x)) : nlohmann::json(static_cast<std::uint64_t>(x));
}

/// Whether a value holds a node that wrong() picks, anywhere.
template <class Wrong>
bool holds_where(const nlohmann::json& value, Wrong wrong) {
    std::vector<const nlohmann::json*> todo{&value};
    while (!todo.empty()) {
        const nlohmann::json* j = todo.back();
        todo.pop_back();
        if (wrong(*j)) return true;
        if (j->is_structured()) {
            for (const auto& c : *j) todo.push_back(&c);
        }
    }
    return false;
}

/// CBOR: the reference's items, with every map's members written in reverse key order and whole
/// doubles written as integers: a wrong value inside maps whose order differs too, where the
/// first differing item is often a key. Other formats: the reference.
class reversed_whole_doubles : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format f, const nlohmann::json& value, const std::string&,
                                     const encode_options& o) override {
        if (f != format::cbor) return encode_to_vector(f, value, o);
        std::vector<std::uint8_t> out;
        write(value, o, out);
        return out;
    }

private:
    static void head(int major, std::uint64_t n, std::vector<std::uint8_t>& out) {
        // RFC 8949 §3: the shortest head, as the reference writes it
        const auto initial = static_cast<std::uint8_t>(major << 5);
        const int bytes = n < 24 ? 0 : n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x100000000 ? 4 : 8;
        out.push_back(static_cast<std::uint8_t>(initial | (bytes == 0   ? n
                                                           : bytes == 1 ? 24
                                                           : bytes == 2 ? 25
                                                           : bytes == 4 ? 26
                                                                        : 27)));
        for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
    }
    static void append(const std::vector<std::uint8_t>& bytes, std::vector<std::uint8_t>& out) {
        out.insert(out.end(), bytes.begin(), bytes.end());
    }
    static void write(const nlohmann::json& j, const encode_options& o, std::vector<std::uint8_t>& out) {
        if (j.is_object()) {
            head(5, j.size(), out);
            for (auto it = j.crbegin(); it != j.crend(); ++it) {
                append(encode_to_vector(format::cbor, nlohmann::json(it.key()), o), out);
                write(it.value(), o, out);
            }
        } else if (j.is_array()) {
            head(4, j.size(), out);
            for (const auto& element : j) write(element, o, out);
        } else if (whole_double(j)) {
            nlohmann::json wrong = j;
            as_integer(wrong);
            append(encode_to_vector(format::cbor, wrong, o), out);
        } else {
            append(encode_to_vector(format::cbor, j, o), out);
        }
    }
};

const bool registered = [] {
    const std::vector<format> every(all_formats.begin(), all_formats.end());
    register_linked_encoder({"first-answer-wrong", "the reference, with a byte more the first time it sees a value",
                             every, [] { return std::make_unique<first_answer_wrong>(); }});
    register_linked_encoder({"answer-varies", "the reference and a call counter: other bytes on every call", every,
                             [] { return std::make_unique<answer_varies>(); }});
    register_linked_encoder({"planted-band-20", "the reference, writing integers of 2^19..2^20-1 magnitude one more",
                             every, [] { return std::make_unique<planted_where>(in_band_20, plus_one); }});
    register_linked_encoder({"planted-text-300",
                             "the reference, appending '!' to strings of 300-400 bytes with a 3-byte character", every,
                             [] { return std::make_unique<planted_where>(long_text_300, exclaim); }});
    register_linked_encoder({"planted-array-17", "the reference, dropping the last element of arrays of 17-31", every,
                             [] { return std::make_unique<planted_where>(array_17_31, drop_last); }});
    register_linked_encoder({"planted-whole-doubles", "the reference, writing whole doubles as integers", every,
                             [] { return std::make_unique<planted_where>(whole_double, as_integer); }});
    register_linked_encoder({"reversed-whole-doubles",
                             "the reference, writing map members in reverse key order and whole doubles as integers",
                             every, [] { return std::make_unique<reversed_whole_doubles>(); }});
    register_linked_encoder({"planted-24", "the reference, writing CBOR 24 as 0x18 without its argument", every,
                             [] { return std::make_unique<planted_24>(); }});
    register_linked_encoder({"declares-24-unsupported", "the reference, declaring values that hold 24 unsupported",
                             every, [] { return std::make_unique<declares_24_unsupported>(); }});
    register_linked_encoder(
        {"refuses-all", "refuses every value", every, [] { return std::make_unique<refuses_all>(); }});
    register_linked_encoder(
        {"canonical-model", "RFC 8949 §4.2.1 core deterministic CBOR (the model)", {format::cbor}, [] {
             return std::make_unique<canonical_model>();
         }});
    return true;
}();

const linked_encoder_info& linked(const std::string& name) {
    for (const linked_encoder_info& info : linked_encoders()) {
        if (info.name == name) return info;
    }
    throw std::runtime_error("no linked encoder " + name);
}

conform_options generating(format f, std::uint64_t n, std::uint64_t seed) {
    conform_options o;
    o.fmt = f;
    o.generate.count = n;
    o.generate.seed = seed;
    o.limits.timeout_seconds = 20;
    return o;
}

run_summary generate_linked(const conform_options& o, const std::string& name) {
    auto factory = make_linked_factory(linked(name));
    return run_generated(o, *factory);
}

std::string failures_of(const run_summary& s) {
    std::string out;
    for (const finding& f : s.generation.findings) {
        const vector_result& r = s.results[f.representative];
        out += "class '" + f.difference + "', " + std::to_string(f.values) + " value(s), shrunk to " + r.vector->id +
               ": " + r.detail.substr(0, 300) + "\n";
    }
    for (const vector_result& r : s.results) {
        if (!r.success) out += r.vector->id + ": " + result_name(r.verdict) + ": " + r.detail + "\n";
    }
    return out.substr(0, 4000);
}

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

double rate(const run_summary& s) { return static_cast<double>(s.total()) / s.encode_seconds; }

// Seed 5 puts a 24 into some of the first 1,000 CBOR values (trees of nested arrays with their
// depths as siblings among them: 19 with the value builder of this writing), and into a few of
// the first 300; values_holding_24 counts them.
constexpr std::uint64_t planted_seed = 5;
constexpr std::uint64_t planted_values = 1000;
// Process encoders get fewer: a batch exchange costs 40 times more under AddressSanitizer.
constexpr std::uint64_t process_values = 300;

/// How many of the first n CBOR values of the planted seed hold the integer 24: every one of them
/// must fail with the planted encoder, and no other.
std::size_t values_holding_24(std::uint64_t n) {
    const run_summary s = generate_linked(generating(format::cbor, n, planted_seed), "declares-24-unsupported");
    EXPECT_GT(s.unsupported, 0u) << "seed " << planted_seed << " puts no 24 into its first " << n << " values";
    return s.unsupported;
}

/// The one planted bug shows in at most two classes: "malformed output" (24's missing argument
/// leaves bytes that do not decode) and, where the next byte happens to serve as the argument,
/// "different value: integer" (the 24 read as that byte). Returns the index of the first in s.generation.findings.
std::size_t expect_planted_finding(const run_summary& s, std::size_t failing) {
    EXPECT_GT(s.failures, 0u) << "the planted bug was not found";
    EXPECT_EQ(s.failures, failing) << failures_of(s);
    // Dedup: every failing value is counted in exactly one class, each class represented once.
    std::size_t counted = 0;
    std::size_t malformed = s.generation.findings.size();
    for (std::size_t i = 0; i < s.generation.findings.size(); ++i) {
        const finding& c = s.generation.findings[i];
        counted += c.values;
        if (c.difference == "malformed output") {
            malformed = i;
        } else {
            EXPECT_EQ(c.difference, "different value: integer") << failures_of(s);
        }
    }
    EXPECT_EQ(counted, s.failures);
    EXPECT_LE(s.generation.findings.size(), 2u) << failures_of(s);
    if (malformed == s.generation.findings.size()) {
        ADD_FAILURE() << "no class 'malformed output':\n" << failures_of(s);
        return 0;
    }
    const finding& f = s.generation.findings[malformed];
    const vector_result& r = s.results[f.representative];
    // Shrunk to the minimal value: 24 itself, at the root.
    EXPECT_EQ(r.vector->input_text, "24") << r.detail;
    EXPECT_EQ(r.vector->expect, (std::vector<std::uint8_t>{0x18, 0x18}));
    EXPECT_EQ(r.actual, (std::vector<std::uint8_t>{0x18}));
    EXPECT_GT(f.steps, 0u);
    EXPECT_FALSE(f.steps_exhausted);
    EXPECT_LE(f.shrunk_bytes, f.original_bytes);
    std::printf(
        "planted bug: %zu of %zu values fail, %zu class(es); 'malformed output' (%zu values) shrunk from %zu to "
        "%zu choice bytes in %zu steps (%.3f s)\n",
        s.failures, s.total(), s.generation.findings.size(), f.values, f.original_bytes, f.shrunk_bytes, f.steps,
        s.generation.shrink_seconds);
    return malformed;
}

TEST(Generate, FindsShrinksAndDedupsAPlantedBugFromAFixedSeed) {
    conform_options o = generating(format::cbor, planted_values, planted_seed);
    o.generate.save = scratch_file() + "cbor-findings.vectors";
    std::remove(o.generate.save.c_str());
    const run_summary s = generate_linked(o, "planted-24");
    const std::size_t malformed = expect_planted_finding(s, values_holding_24(planted_values));
    EXPECT_FALSE(s.conforms());

    // Each saved finding is a corpus vector that fails the same way, and passes the reference.
    const std::vector<test_vector> saved = load_corpus(o.generate.save);
    ASSERT_EQ(saved.size(), s.generation.findings.size()) << read(o.generate.save);
    const std::string shrunk_id = s.results[s.generation.findings[malformed].representative].vector->id;
    const auto shrunk =
        std::find_if(saved.begin(), saved.end(), [&](const test_vector& v) { return v.id == shrunk_id; });
    ASSERT_NE(shrunk, saved.end()) << read(o.generate.save);
    EXPECT_EQ(shrunk->input_text, "24");
    conform_options corpus;
    corpus.fmt = format::cbor;
    corpus.corpus = o.generate.save;
    auto planted = make_linked_factory(linked("planted-24"));
    const run_summary again = run_conformance(corpus, *planted);
    ASSERT_EQ(again.results.size(), saved.size());
    for (const vector_result& r : again.results) {
        EXPECT_EQ(r.verdict, result::fail) << r.vector->id;
        EXPECT_EQ(r.difference, r.vector->id == shrunk_id ? "malformed output" : "different value: integer")
            << r.vector->id;
    }
    auto reference = make_linked_factory(linked("reference"));
    EXPECT_TRUE(run_conformance(corpus, *reference).conforms());

    // ... and an expected-failures list can name them.
    const std::string list = scratch_file() + "cbor-findings.expected";
    std::ofstream expected(list);
    for (const test_vector& v : saved) {
        expected << v.id << "  # planted: 24 with a one-byte head\n";
    }
    expected.close();
    corpus.expected_failures = list;
    EXPECT_TRUE(run_conformance(corpus, *planted).conforms());
}

// Of the values shrunk for a class the smallest result represents it: with shrinking off, the
// shortest of them. Seed 5's failing values of the first 300 fall in classes of at most three,
// so every value of a class is one of those shrunk (the others' texts are cut at 201 characters).
TEST(Generate, TheSmallestShrunkValueRepresentsItsClass) {
    conform_options o = generating(format::cbor, process_values, planted_seed);
    o.generate.shrink_steps = 0;
    const run_summary s = generate_linked(o, "planted-24");
    std::size_t compared = 0;
    for (const finding& f : s.generation.findings) {
        if (f.shrunk != f.values) continue;
        const std::string& shown = s.results[f.representative].vector->input_text;
        for (const vector_result& r : s.results) {
            const std::string cls = r.difference.empty() ? result_name(r.verdict) : r.difference;
            if (r.success || cls != f.difference || &r == &s.results[f.representative]) continue;
            EXPECT_LT(shown.size(), r.vector->input_text.size()) << f.difference << ": " << r.vector->id;
            ++compared;
        }
    }
    EXPECT_GT(compared, 0u) << "no class of two values or more: the check shows nothing\n" << failures_of(s);
}

/// Runs 3,000 CBOR values from seed 1 against a planted encoder; expects one class and returns
/// its shrunk representative.
const vector_result& planted_band_finding(const run_summary& s) {
    EXPECT_GT(s.failures, 0u) << "the planted bug was not found in " << s.total() << " values";
    EXPECT_EQ(s.generation.findings.size(), 1u) << failures_of(s);
    if (s.generation.findings.empty()) throw std::runtime_error("no finding");
    const finding& f = s.generation.findings.front();
    const vector_result& r = s.results[f.representative];
    std::printf("%zu of %zu values fail as '%s'; shrunk in %zu steps to %s\n", f.values, s.total(),
                f.difference.c_str(), f.steps, r.vector->input_text.substr(0, 120).c_str());
    return r;
}

// Magnitude first: an integer band, a string length class with one UTF-8 width, an array size
// class are each reached by 3,000 values from seed 1 and shrunk to the class's smallest member.
TEST(Generate, FindsABugConfinedToOneIntegerBandAndShrinksToItsValueNearestZero) {
    const run_summary s = generate_linked(generating(format::cbor, 3000, 1), "planted-band-20");
    const vector_result& r = planted_band_finding(s);
    EXPECT_TRUE(r.vector->input_text == "524288" || r.vector->input_text == "-524288") << r.vector->input_text;
}

TEST(Generate, FindsABugConfinedToLongTextWithAThreeByteCharacterAndShrinksToItsShortest) {
    const run_summary s = generate_linked(generating(format::cbor, 3000, 1), "planted-text-300");
    const vector_result& r = planted_band_finding(s);
    ASSERT_TRUE(r.vector->input.value.is_string()) << r.vector->input_text;
    const auto& text = r.vector->input.value.get_ref<const std::string&>();
    EXPECT_EQ(text.size(), 300u) << r.vector->input_text;
    EXPECT_TRUE(test::has_three_byte_character(text)) << r.vector->input_text;
}

TEST(Generate, FindsABugConfinedToArraysOf17To31AndShrinksTo17Nulls) {
    const run_summary s = generate_linked(generating(format::cbor, 3000, 1), "planted-array-17");
    const vector_result& r = planted_band_finding(s);
    EXPECT_EQ(r.vector->input.value, nlohmann::json(nlohmann::json::array_t(17))) << r.vector->input_text;
}

// Whole doubles written as integers in maps whose keys are also reordered: the first differing
// item is often a key, the cause the double (before: "integer packing of whole doubles" where the
// double came first, "different value" where a key did). The wrong values are one class however
// the maps around them are ordered, and shrink, keeping it, to a whole double at the root; key
// order alone is the other class.
TEST(Generate, AWrongValueInAReorderedMapKeepsItsClassThroughShrinking) {
    const std::string packing = "integer packing of whole doubles";
    const run_summary s = generate_linked(generating(format::cbor, 3000, 1), "reversed-whole-doubles");
    std::set<std::string> classes;
    for (const finding& f : s.generation.findings) {
        classes.insert(f.difference);
        const vector_result& r = s.results[f.representative];
        EXPECT_EQ(r.difference, f.difference) << r.vector->input_text;
        std::printf("%zu of %zu values fail as '%s'; shrunk in %zu steps to %s\n", f.values, s.total(),
                    f.difference.c_str(), f.steps, r.vector->input_text.substr(0, 120).c_str());
        if (f.difference == packing) {
            EXPECT_TRUE(whole_double(r.vector->input.value)) << r.vector->input_text;
        } else if (f.difference == "key order") {
            EXPECT_TRUE(r.vector->input.value.is_object() && r.vector->input.value.size() == 2) << r.vector->input_text;
        }
    }
    EXPECT_EQ(classes, (std::set<std::string>{packing, "key order"})) << failures_of(s);
    // Every value kept with a whole double is in its class, wherever the double was, and no other
    // value is. (The report keeps the input of the others as text, cut at 201 bytes.)
    std::size_t checked[2] = {0, 0};
    for (const vector_result& r : s.results) {
        if (r.success || r.verdict == result::unsupported || r.vector->input_text.size() > 200) continue;
        const bool holds = holds_where(parse_value(r.vector->input_text).value, whole_double);
        ++checked[holds ? 1 : 0];
        EXPECT_EQ(r.difference, holds ? packing : "key order") << r.vector->input_text;
    }
    EXPECT_GE(checked[0], 5u) << "too few values checked: the test shows little";
    EXPECT_GE(checked[1], 2u) << "no whole double checked besides the representative: the test shows little";
    std::printf("checked %zu values with a whole double, %zu with keys reordered alone\n", checked[1], checked[0]);
    // As many values fail for their whole doubles as when the same bug leaves the key order alone.
    const run_summary in_order = generate_linked(generating(format::cbor, 3000, 1), "planted-whole-doubles");
    const auto packed = std::find_if(s.generation.findings.begin(), s.generation.findings.end(),
                                     [&](const finding& f) { return f.difference == packing; });
    ASSERT_NE(packed, s.generation.findings.end());
    ASSERT_EQ(in_order.generation.findings.size(), 1u) << failures_of(in_order);
    EXPECT_EQ(in_order.generation.findings[0].difference, packing);
    EXPECT_EQ(packed->values, in_order.generation.findings[0].values);
}

// A failing value is asked twice; an encoder that answers differently is its own class, not a
// bug of whatever class its first answer showed.
TEST(Generate, AnAnswerThatChangesWhenAskedAgainIsItsOwnClass) {
    run_summary s = generate_linked(generating(format::msgpack, 200, 1), "first-answer-wrong");
    // every value whose text it had not seen before (most of them) fails, then passes when asked again
    EXPECT_GT(s.failures, 100u);
    EXPECT_EQ(s.nondeterministic, s.failures);
    ASSERT_EQ(s.generation.findings.size(), 1u) << failures_of(s);
    EXPECT_EQ(s.generation.findings[0].difference, "nondeterministic output");
    EXPECT_NE(s.results[0].detail.find("asked twice, answered differently"), std::string::npos) << s.results[0].detail;
    // Most of them are only counted, passes and failures alike: TAP's line and JUnit's test case
    // for those fail when one of them failed, however many passed.
    ASSERT_GT(s.unlisted.passed, 0u);
    ASSERT_GT(s.unlisted.values - s.unlisted.passed, 0u);
    s.options.report = report_kind::tap;
    const std::string tap = render_report(s);
    EXPECT_NE(tap.find("\nnot ok " + std::to_string(s.results.size() + 1) + " - values not listed"), std::string::npos)
        << tap;
    s.options.report = report_kind::junit;
    const std::string junit = render_report(s);
    EXPECT_NE(junit.find("name=\"values not listed\" time=\"0\"><failure"), std::string::npos) << junit;

    // Two failing answers of one class and one length that differ in their bytes differ too.
    const run_summary varies = generate_linked(generating(format::msgpack, 40, 1), "answer-varies");
    EXPECT_EQ(varies.failures, 40u);
    EXPECT_EQ(varies.nondeterministic, varies.failures);
    ASSERT_EQ(varies.generation.findings.size(), 1u) << failures_of(varies);
    EXPECT_EQ(varies.generation.findings[0].difference, "nondeterministic output");

    const run_summary planted = generate_linked(generating(format::cbor, 300, planted_seed), "planted-24");
    EXPECT_GT(planted.failures, 0u);
    EXPECT_EQ(planted.nondeterministic, 0u);

    // The corpus's failing vectors are asked twice too.
    conform_options corpus;
    corpus.fmt = format::bjdata;
    auto flaky = make_linked_factory(linked("first-answer-wrong"));
    const run_summary c = run_conformance(corpus, *flaky);
    EXPECT_GT(c.failures, 100u);
    EXPECT_EQ(c.nondeterministic, c.failures);

    // Answers that differ only past the 4 KiB a verdict keeps of the output differ too.
    conform_options long_string;
    long_string.fmt = format::msgpack;
    long_string.filters = {"msgpack/string/length-32767"};
    auto counting = make_linked_factory(linked("answer-varies"));
    const run_summary l = run_conformance(long_string, *counting);
    ASSERT_EQ(l.failures, 1u) << failures_of(l);
    EXPECT_EQ(l.nondeterministic, 1u) << failures_of(l);
    EXPECT_EQ(l.results[0].actual_size, 32767u + 3 + 4);
}

// --shard I/N splits one run's values over N runs; --merge joins their JSON reports into the
// verdict, counts and classes of the one run, and refuses what is not every shard of one run.
TEST(Generate, ShardsMergeIntoTheVerdictOfOneRun) {
    const conform_options whole_options = generating(format::cbor, 3000, 1);
    const run_summary whole = generate_linked(whole_options, "planted-band-20");
    ASSERT_GT(whole.failures, 0u);
    std::vector<std::string> reports;
    std::size_t values = 0;
    for (std::uint64_t i = 0; i < 3; ++i) {
        conform_options o = whole_options;
        o.generate.shard_index = i;
        o.generate.shard_count = 3;
        o.report = report_kind::json;
        const run_summary part = generate_linked(o, "planted-band-20");
        values += part.total();
        reports.push_back(scratch_file() + "shard-" + std::to_string(i + 1) + ".json");
        std::ofstream(reports.back(), std::ios::binary) << render_report(part);
    }
    EXPECT_EQ(values, 3000u);
    const std::string merged = scratch_file() + "merged.json";
    std::vector<std::string> args;
    for (const std::string& r : reports) args.insert(args.end(), {"--merge", r});
    args.insert(args.end(), {"--report", "json", "--output", merged});
    EXPECT_EQ(run_conform_command(args), 1);
    const nlohmann::json m = nlohmann::json::parse(read(merged));
    EXPECT_EQ(m["total"], 3000u);
    EXPECT_EQ(m["failures"], whole.failures);
    EXPECT_EQ(m["conforms"], false);
    EXPECT_EQ(m["counts"]["pass"], whole.counts[static_cast<std::size_t>(result::pass)]);
    ASSERT_EQ(m["generated"]["findings"].size(), whole.generation.findings.size());
    EXPECT_EQ(m["generated"]["findings"][0]["values"], whole.generation.findings[0].values);
    EXPECT_EQ(m["generated"]["findings"][0]["input"], "524288");
    EXPECT_NE(m["verdict"].get<std::string>().find("merged from 3 shards"), std::string::npos) << m["verdict"];

    // Not every shard, a shard twice, something else: exit 2, naming the file.
    EXPECT_EQ(run_conform_command({"--merge", reports[0], "--merge", reports[1]}), 2);
    EXPECT_EQ(run_conform_command({"--merge", reports[0], "--merge", reports[0], "--merge", reports[1]}), 2);
    const std::string bad = scratch_file() + "not-a-report.json";
    std::ofstream(bad) << "{\"format\": \"cbor\"}";
    EXPECT_EQ(run_conform_command({"--merge", bad}), 2);
    EXPECT_EQ(run_conform_command({"--merge", reports[0], "--format", "cbor"}), 2);
}

using bytes = std::vector<std::uint8_t>;

// The model against RFC 8949 Appendix A's preferred encodings (written from the RFC's table).
TEST(Generate, CanonicalCborModelWritesTheRfcExamples) {
    using nlohmann::json;
    const std::pair<json, bytes> rows[] = {
        {json(0.0), {0xf9, 0x00, 0x00}},
        {json(-0.0), {0xf9, 0x80, 0x00}},
        {json(1.5), {0xf9, 0x3e, 0x00}},
        {json(65504.0), {0xf9, 0x7b, 0xff}},
        {json(100000.0), {0xfa, 0x47, 0xc3, 0x50, 0x00}},
        {json(3.4028234663852886e+38), {0xfa, 0x7f, 0x7f, 0xff, 0xff}},
        {json(1.0e+300), {0xfb, 0x7e, 0x37, 0xe4, 0x3c, 0x88, 0x00, 0x75, 0x9c}},
        {json(5.960464477539063e-8), {0xf9, 0x00, 0x01}},
        {json(0.00006103515625), {0xf9, 0x04, 0x00}},
        {json(-4.0), {0xf9, 0xc4, 0x00}},
        {json(-4.1), {0xfb, 0xc0, 0x10, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66}},
        {json(std::numeric_limits<double>::infinity()), {0xf9, 0x7c, 0x00}},
        {json(std::numeric_limits<double>::quiet_NaN()), {0xf9, 0x7e, 0x00}},
        {json(-std::numeric_limits<double>::infinity()), {0xf9, 0xfc, 0x00}},
        {json(24), {0x18, 0x18}},
        {json(-1000), {0x39, 0x03, 0xe7}},
        {json(18446744073709551615ULL), {0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
        {json::parse(R"({"a": 1, "b": [2, 3]})"), {0xa2, 0x61, 0x61, 0x01, 0x61, 0x62, 0x82, 0x02, 0x03}},
        // §4.2.1: the shorter key first, whatever its bytes
        {json::parse(R"({"aa": 0, "b": 1})"), {0xa2, 0x61, 0x62, 0x01, 0x62, 0x61, 0x61, 0x00}},
    };
    for (const auto& [value, expected] : rows) EXPECT_EQ(canonical_cbor(value), expected) << value.dump();
    EXPECT_THROW(canonical_cbor(nlohmann::json(nlohmann::json::value_t::discarded)), std::invalid_argument);
}

// At the canonical level a generated CBOR value is graded by the model's bytes: the model passes
// every value; the reference (nlohmann's widths: binary32 floats, two-byte tag heads) writes the
// same values in other bytes, found, shrunk and saved as canonical vectors.
TEST(Generate, CanonicalCborGradesByTheModel) {
    conform_options o = generating(format::cbor, 1000, planted_seed);
    o.level = run_level::canonical;
    const run_summary model = generate_linked(o, "canonical-model");
    EXPECT_TRUE(model.conforms()) << failures_of(model);
    EXPECT_EQ(model.total(), 1000u);

    o.generate.save = scratch_file() + "cbor-canonical.vectors";
    std::remove(o.generate.save.c_str());
    const run_summary reference = generate_linked(o, "reference");
    ASSERT_FALSE(reference.conforms());
    std::size_t floats = 0;
    for (const vector_result& r : reference.results) {
        if (r.success) continue;
        EXPECT_EQ(r.verdict, result::pass_equivalent) << r.vector->id << ": " << r.detail;
    }
    for (const finding& f : reference.generation.findings) {
        const vector_result& r = reference.results[f.representative];
        std::printf("canonical finding %s: %zu values, %s -> expected %s, actual %s (%zu steps)\n",
                    f.difference.c_str(), f.values, r.vector->input_text.c_str(), to_hex(r.vector->expect).c_str(),
                    to_hex(r.actual).c_str(), f.steps);
        if (f.difference == "float width") {
            ++floats;
            EXPECT_EQ(r.vector->input_text, "0.0");
            EXPECT_EQ(r.vector->expect, (bytes{0xf9, 0x00, 0x00}));
            EXPECT_EQ(r.actual, (bytes{0xfa, 0x00, 0x00, 0x00, 0x00}));
        }
    }
    EXPECT_EQ(floats, 1u) << "no float width class";

    // Saved, they are canonical vectors: the reference is equivalent but not canonical there, the
    // model canonical.
    const std::vector<test_vector> saved = load_corpus(o.generate.save);
    ASSERT_EQ(saved.size(), reference.generation.findings.size());
    for (const test_vector& v : saved) EXPECT_EQ(v.levels, unsigned{level_canonical}) << v.id;
    conform_options corpus;
    corpus.fmt = format::cbor;
    corpus.level = run_level::canonical;
    corpus.corpus = o.generate.save;
    auto ref = make_linked_factory(linked("reference"));
    const run_summary again = run_conformance(corpus, *ref);
    EXPECT_EQ(again.failures, saved.size());
    auto model_factory = make_linked_factory(linked("canonical-model"));
    EXPECT_TRUE(run_conformance(corpus, *model_factory).conforms());
}

TEST(Generate, SameSeedSameValues) {
    conform_options o = generating(format::cbor, 300, planted_seed);
    o.generate.shrink_steps = 0;
    const run_summary a = generate_linked(o, "refuses-all");
    const run_summary b = generate_linked(o, "refuses-all");
    ASSERT_EQ(a.total(), 300u);
    ASSERT_EQ(a.failures, a.total());
    // Every value fails in one class: its first 16 and its 3 smallest are listed, the rest counted.
    ASSERT_GE(a.results.size(), 16u);
    ASSERT_LE(a.results.size(), 19u);
    ASSERT_EQ(a.results.size(), b.results.size());
    for (std::size_t i = 0; i < a.results.size(); ++i) {
        EXPECT_EQ(a.results[i].vector->id, b.results[i].vector->id) << i;
        EXPECT_EQ(a.results[i].vector->input_text, b.results[i].vector->input_text) << i;
    }
    conform_options other = o;
    other.generate.seed = planted_seed + 1;
    const run_summary c = generate_linked(other, "refuses-all");
    std::size_t same = 0;
    for (std::size_t i = 0; i < 16; ++i) {
        if (a.results[i].vector->input_text == c.results[i].vector->input_text) ++same;
    }
    EXPECT_LT(same, 4u) << "another seed, mostly the same values";
}

// Workers take values in any order; what is listed, counted and found does not depend on it.
TEST(Generate, AnyNumberOfJobsGivesTheSameReport) {
    conform_options o = generating(format::cbor, 2000, planted_seed);
    const run_summary one = generate_linked(o, "planted-24");
    o.jobs = 3;
    const run_summary three = generate_linked(o, "planted-24");
    ASSERT_EQ(one.total(), three.total());
    EXPECT_EQ(one.failures, three.failures);
    for (std::size_t k = 0; k < 8; ++k) EXPECT_EQ(one.counts[k], three.counts[k]) << k;
    ASSERT_EQ(one.results.size(), three.results.size());
    for (std::size_t i = 0; i < one.results.size(); ++i) {
        EXPECT_EQ(one.results[i].vector->id, three.results[i].vector->id) << i;
        EXPECT_EQ(one.results[i].vector->input_text, three.results[i].vector->input_text) << i;
    }
    ASSERT_EQ(one.generation.findings.size(), three.generation.findings.size());
    for (std::size_t k = 0; k < one.generation.findings.size(); ++k) {
        EXPECT_EQ(one.generation.findings[k].difference, three.generation.findings[k].difference);
        EXPECT_EQ(one.generation.findings[k].values, three.generation.findings[k].values);
        EXPECT_EQ(one.generation.findings[k].representative, three.generation.findings[k].representative);
    }
}

TEST(Generate, ReferenceFailsNothingInEveryFormatAndProfile) {
    for (format f : all_formats) {
        for (bool hostile : {false, true}) {
            conform_options o = generating(f, 1000, 11);
            o.generate.hostile = hostile;
            const run_summary s = generate_linked(o, "reference");
            EXPECT_EQ(s.failures, 0u) << format_name(f) << (hostile ? " hostile\n" : " default\n") << failures_of(s);
            EXPECT_TRUE(s.generation.findings.empty());
            EXPECT_EQ(s.total(), 1000u);
            const std::size_t refused = s.counts[static_cast<std::size_t>(result::refused_correctly)];
            // The default profile keeps to values the format holds; the hostile one asks for refusals.
            if (hostile) {
                EXPECT_GT(refused, 0u) << format_name(f);
            } else {
                EXPECT_EQ(refused, 0u) << format_name(f);
            }
            std::printf("%s %s: linked reference, %.0f values/s, %zu redrawn\n", std::string(format_name(f)).c_str(),
                        hostile ? "hostile" : "default", rate(s), s.generation.redrawn);
        }
    }
}

TEST(Generate, ProcessEncodersGetTheSameValuesThroughBothModes) {
    conform_options o = generating(format::cbor, process_values, planted_seed);
    o.mode = process_mode::batch;
    auto reference = make_process_factory(SINKCHECK_ENCODER, o.mode, o.limits);
    const run_summary s = run_generated(o, *reference);
    EXPECT_TRUE(s.conforms()) << failures_of(s);
    EXPECT_EQ(s.failures, 0u);
    std::printf("cbor default: batch sinkcheck-encoder, %.0f values/s\n", rate(s));

    conform_options one_by_one = generating(format::ubjson, 60, planted_seed);
    one_by_one.generate.hostile = true;  // refusals too, by exit status
    auto per_vector = make_process_factory(SINKCHECK_ENCODER, one_by_one.mode, one_by_one.limits);
    const run_summary p = run_generated(one_by_one, *per_vector);
    EXPECT_TRUE(p.conforms()) << failures_of(p);
    EXPECT_EQ(p.total(), 60u);
    std::printf("ubjson hostile: per-vector sinkcheck-encoder, %.0f values/s\n", rate(p));

    auto planted = make_process_factory(std::string(CONFORM_HOSTILE_ENCODER) + " cbor-24", o.mode, o.limits);
    const run_summary found = run_generated(o, *planted);
    expect_planted_finding(found, values_holding_24(process_values));
    std::printf("cbor default: batch planted bug, %.0f values/s\n", rate(found));
}

TEST(Generate, CommandRefusesWhatDoesNotApply) {
    auto run = [](std::vector<std::string> args) {
        args.insert(args.begin(), {"--format", "cbor", "--encoder", "linked:reference"});
        return run_conform_command(args);
    };
    EXPECT_EQ(run({"--generate", "3", "--corpus", SINKCHECK_CORPUS_DIR}), 2);
    EXPECT_EQ(run({"--generate", "3", "--expected-failures", "x"}), 2);
    EXPECT_EQ(run({"--seed", "3"}), 2);
    EXPECT_EQ(run({"--generate", "0"}), 2);
    EXPECT_EQ(run({"--generate", "3", "--profile", "nasty"}), 2);
    EXPECT_EQ(run({"--generate", "3", "--save", scratch_file() + "findings.txt"}), 2);
    EXPECT_EQ(run({"--generate", "3", "--level", "canonical"}), 1);  // the reference is not canonical
    EXPECT_EQ(run_conform_command(
                  {"--format", "msgpack", "--encoder", "linked:reference", "--generate", "3", "--level", "canonical"}),
              2);
    EXPECT_EQ(
        run({"--generate", "30", "--seed", "5", "--report", "json", "--output", scratch_file() + "generated.json"}), 0);
    const std::string report = read(scratch_file() + "generated.json");
    EXPECT_NE(report.find("\"generated\""), std::string::npos);
    EXPECT_NE(report.find("30 generated values, seed 5, profile default"), std::string::npos);
}

// ---- the value builder's choices (byte_choices.hpp, value_from_bytes.hpp) ----------------------
// What --generate reaches rests on the builder reading its choices as documented: a builder that
// reaches less still builds values the reference passes, so no run above would notice. Each
// reading is pinned here on hand-made choice bytes (numbers are read from the back).

nlohmann::json built(std::vector<std::uint8_t> choices, bool hostile = true) {
    testkit::byte_choices in(choices.data(), choices.size());
    fuzz::build_limits limits;
    limits.hostile = hostile;
    return fuzz::value_from_bytes<nlohmann::json>(in, limits);
}

TEST(ValueBuilder, NumbersComeFromTheBackMostSignificantByteFirstAndStringsFromTheFront) {
    const std::uint8_t data[] = {'h', 'i', 2, 0x12, 0x34, 5};
    testkit::byte_choices in(data, sizeof data);
    EXPECT_EQ(in.ConsumeIntegral<std::uint8_t>(), 5);
    EXPECT_EQ(in.ConsumeIntegral<std::uint16_t>(), 0x3412);  // 0x34 read first: the high byte
    EXPECT_EQ(in.ConsumeRandomLengthString(64), "hi");       // its length 2 from the back
    EXPECT_EQ(in.remaining_bytes(), 0u);
    // exhausted: every number is the low end of its range
    EXPECT_EQ(in.ConsumeIntegral<std::uint64_t>(), 0u);
    EXPECT_EQ(in.ConsumeIntegralInRange<int>(-5, 5), -5);
}

TEST(ValueBuilder, MagnitudeFirstIntegersReachEveryBitLengthAtBothEnds) {
    const auto with_low_bits = [](std::uint8_t low, std::uint8_t length, std::uint8_t op) {
        std::vector<std::uint8_t> c(8, low);
        c.push_back(length);
        c.push_back(op);
        return built(c);
    };
    const auto lowest = [](unsigned k) { return k == 0 ? 0 : std::uint64_t{1} << (k - 1); };
    const auto highest = [](unsigned k) { return k == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1; };
    // op 5: an unsigned of bit length 0..64; zero bits below the leading one give its smallest
    for (unsigned k = 0; k <= 64; ++k) {
        const nlohmann::json low = with_low_bits(0, static_cast<std::uint8_t>(k), 5);
        const nlohmann::json high = with_low_bits(0xFF, static_cast<std::uint8_t>(k), 5);
        ASSERT_TRUE(low.is_number_unsigned() && high.is_number_unsigned()) << k << ": " << low << " " << high;
        EXPECT_EQ(low.get<std::uint64_t>(), lowest(k)) << "bit length " << k;
        EXPECT_EQ(high.get<std::uint64_t>(), highest(k)) << "bit length " << k;
    }
    // op 6: the same up to bit length 63, held as number_integer
    for (unsigned k = 0; k <= 63; ++k) {
        const nlohmann::json high = with_low_bits(0xFF, static_cast<std::uint8_t>(k), 6);
        ASSERT_TRUE(high.is_number_integer() && !high.is_number_unsigned()) << k << ": " << high;
        EXPECT_EQ(high.get<std::int64_t>(), static_cast<std::int64_t>(highest(k))) << "bit length " << k;
    }
    // op 7: a negative whose magnitude has bit length 1..64 (its choice is the length less one)
    for (unsigned k = 1; k <= 64; ++k) {
        const nlohmann::json low = with_low_bits(0, static_cast<std::uint8_t>(k - 1), 7);
        ASSERT_TRUE(low.is_number_integer()) << k << ": " << low;
        EXPECT_EQ(test::integer_magnitude(low), lowest(k)) << "bit length " << k << ": " << low;
        EXPECT_LT(low.get<std::int64_t>(), 0) << k;
    }
    EXPECT_EQ(with_low_bits(0, 63, 7).get<std::int64_t>(), (std::numeric_limits<std::int64_t>::min)());
    EXPECT_EQ(with_low_bits(0xFF, 62, 7).get<std::int64_t>(), -static_cast<std::int64_t>(highest(63)));
}

TEST(ValueBuilder, ALengthClassHoldsEachOfItsLengthsAndNoOther) {
    // op 17: an array whose count is drawn by class c (2^(c-1) .. 2^c - 1), then within it
    EXPECT_EQ(built({0, 17}), nlohmann::json::array());
    for (unsigned c = 1; c <= 8; ++c) {
        const std::size_t lo = std::size_t{1} << (c - 1);
        std::set<std::size_t> seen;
        for (unsigned b = 0; b < 256; ++b) {
            const nlohmann::json a = built({static_cast<std::uint8_t>(b), static_cast<std::uint8_t>(c), 17});
            ASSERT_TRUE(a.is_array()) << a;
            EXPECT_GE(a.size(), lo) << "class " << c << ", choice " << b;
            EXPECT_LT(a.size(), 2 * lo) << "class " << c << ", choice " << b;
            seen.insert(a.size());
        }
        EXPECT_EQ(seen.size(), lo) << "class " << c << " does not reach each of its lengths";
    }
}

/// Whether every string and key in j is valid UTF-8 and no value is discarded.
bool json_like(const nlohmann::json& root, std::string& why) {
    const auto valid = [](const std::string& s) {
        return sinkcheck::detail::utf8_invalid_at(s.data(), s.size()) == sinkcheck::detail::utf8_valid;
    };
    std::vector<const nlohmann::json*> todo{&root};
    while (!todo.empty()) {
        const nlohmann::json& j = *todo.back();
        todo.pop_back();
        if (j.is_discarded()) {
            why = "a discarded value";
            return false;
        }
        if (j.is_string() && !valid(j.get_ref<const std::string&>())) {
            why = "a string that is not UTF-8";
            return false;
        }
        if (j.is_object()) {
            for (auto it = j.begin(); it != j.end(); ++it) {
                if (!valid(it.key())) {
                    why = "a key that is not UTF-8";
                    return false;
                }
                todo.push_back(&it.value());
            }
        } else if (j.is_array()) {
            for (const nlohmann::json& e : j) todo.push_back(&e);
        }
    }
    return true;
}

TEST(ValueBuilder, TheDefaultProfileBuildsOnlyWhatAJsonLikeEncoderCanBeAskedFor) {
    // op 13: raw bytes as a string (its length, 3, from the back; the bytes from the front)
    EXPECT_EQ(built({0xFF, 0xFE, 'a', 3, 13}), nlohmann::json(std::string("\xFF\xFE"
                                                                          "a")));
    EXPECT_EQ(built({0xFF, 0xFE, 'a', 3, 13}, false), nlohmann::json("??a"));
    // op 28: a discarded value when its next choice is 0xD5, in the hostile profile only
    EXPECT_TRUE(built({0xD5, 28}).is_discarded());
    EXPECT_TRUE(built({0xD5, 28}, false).is_null());
    // and over many random choices
    std::mt19937 random(20240611);
    std::size_t hostile_only = 0;
    for (int i = 0; i < 3000; ++i) {
        std::vector<std::uint8_t> c(1 + random() % 256);
        for (std::uint8_t& b : c) b = static_cast<std::uint8_t>(random());
        std::string why;
        const nlohmann::json plain = built(c, false);
        ASSERT_TRUE(json_like(plain, why)) << "default profile: " << why << " from " << to_hex(c);
        if (!json_like(built(c, true), why)) ++hostile_only;
    }
    EXPECT_GT(hostile_only, 30u) << "the random choices hardly reach invalid UTF-8: the check shows nothing";
}

// ---- the value shrinker's steps (value_shrink.hpp) ---------------------------------------------

TEST(ValueShrink, AnIntegerIsOfferedZeroTheSmallestOfItsBitLengthItsHalfAndOneLess) {
    using list = std::vector<nlohmann::json>;
    EXPECT_EQ(testkit::node_candidates(nlohmann::json(std::uint64_t{1000})), (list{nullptr, 0, 512, 500, 999}));
    EXPECT_EQ(testkit::node_candidates(nlohmann::json(std::int64_t{-1000})), (list{nullptr, 0, -512, -500, -999}));
    EXPECT_EQ(testkit::node_candidates(nlohmann::json(std::uint64_t{1} << 63)),
              (list{nullptr, 0, std::uint64_t{1} << 62, (std::uint64_t{1} << 63) - 1}));
    EXPECT_EQ(testkit::node_candidates(nlohmann::json(1)), (list{nullptr, 0}));
}

TEST(ValueShrink, ACostFallsWithEveryEditTheShrinkerMakes) {
    using nlohmann::json;
    const auto cost = [](const json& j) { return testkit::cost_of(j); };
    EXPECT_LT(cost(json::array({1})), cost(json::array({1, 2})));  // nodes
    EXPECT_LT(cost(json("ab")), cost(json("abc")));                // bytes of strings
    EXPECT_LT(cost(json::object({{"a", 1}})), cost(json::object({{"ab", 1}})));
    EXPECT_LT(cost(json::binary({1})), cost(json::binary({1, 2})));
    EXPECT_LT(cost(json::binary({1})), cost(json::binary({1}, 0)));
    EXPECT_LT(cost(json(3)), cost(json(4)));  // bit length
    EXPECT_LT(cost(json(-3)), cost(json(-4)));
    EXPECT_LT(cost(json(nullptr)), cost(json(false)));  // non-null scalars
    EXPECT_LT(cost(json(4)), cost(json(5)));            // magnitude
    EXPECT_LT(cost(json(1.0)), cost(json(1.5)));
    EXPECT_FALSE(cost(json("ab")) < cost(json("ab")));
}

}  // namespace
}  // namespace sinkcheck::conform
