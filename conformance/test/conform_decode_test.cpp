// conform_decode_test.cpp — the runner's annotating decoders read what the encoders write.
//
// They decide pass-equivalent and guard nlohmann's recursive readers, so they must accept every
// byte string of the corpus and agree with nlohmann 3.11.2 (or sinkcheck's BON8 decoder) on the
// value, and reject malformed input with an offset instead of crashing or allocating wildly.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <system_error>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "listed_bytes.hpp"
#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/decode.hpp"
#include "sinkcheck/conform/run.hpp"
#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/format/bon8_decoder.hpp"
#include "sinkcheck/testkit/oracle.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;

std::vector<std::uint8_t> bytes_of(const char* hex) { return parse_hex(hex); }

TEST(ConformDecode, AgreesWithTheOracleOnEveryCorpusByteString) {
    std::size_t compared = 0;
    for (const test_vector& v : load_corpus(SINKCHECK_CORPUS_DIR)) {
        std::vector<std::vector<std::uint8_t>> all = v.alternatives;
        if (!v.negative()) all.push_back(v.expect);
        for (const auto& b : all) {
            const decoded mine = decode_annotated(v.fmt, b);
            ASSERT_TRUE(mine.ok) << v.id << ": " << to_hex(b) << ": byte " << mine.error_offset << ": " << mine.error;
            if (mine.max_depth > 200 || !mine.oracle_misreads.empty()) continue;
            json theirs;
            try {
                theirs = v.fmt == format::bon8 ? decode_bon8<json>(b) : oracle_decode<json>(v.fmt, b);
            } catch (const std::exception&) {
                continue;  // 3.11.2 cannot read one-byte CBOR tag heads; nothing to compare with
            }
            EXPECT_TRUE(same_value(mine.value, theirs))
                << v.id << ": " << render_value(mine.value, 200) << " vs " << render_value(theirs, 200);
            ++compared;
        }
    }
    EXPECT_GT(compared, 1500u);
}

TEST(ConformDecode, SurvivesMutatedCorpusBytes) {
    // What a broken encoder might write: every small corpus byte string with a byte flipped,
    // cut short, or grown by random bytes. Decoding must end in a value or an error with an
    // offset inside the input: no crash, no hang, no sanitizer report (the clang build runs
    // this under ASan and UBSan).
    const char* seed_text = std::getenv("SINKCHECK_SEED");  // the project's seed override
    const std::uint64_t seed = seed_text != nullptr ? std::strtoull(seed_text, nullptr, 0) : 20261202;
    std::mt19937_64 rng(seed);
    SCOPED_TRACE("SINKCHECK_SEED=" + std::to_string(seed));
    std::size_t rejected = 0, tried = 0;
    for (const test_vector& v : load_corpus(SINKCHECK_CORPUS_DIR)) {
        if (v.negative() || v.expect.size() > 2048 || v.expect.empty()) continue;
        for (int k = 0; k < 4; ++k) {
            std::vector<std::uint8_t> b = v.expect;
            const std::size_t at = rng() % b.size();
            switch (k) {
                case 0: b[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;
                case 1: b[at] = static_cast<std::uint8_t>(rng()); break;
                case 2: b.resize(at); break;
                default:
                    for (int i = 0; i < 6; ++i)
                        b.insert(b.begin() + static_cast<std::ptrdiff_t>(rng() % (b.size() + 1)),
                                 static_cast<std::uint8_t>(rng()));
            }
            ++tried;
            const decoded d = decode_annotated(v.fmt, b);
            if (!d.ok) {
                ++rejected;
                EXPECT_LE(d.error_offset, b.size()) << v.id << ": " << to_hex(b);
            }
            (void)decode_value(v.fmt, b);
        }
    }
    EXPECT_GT(tried, 6000u);
    EXPECT_GT(rejected, tried / 4);
}

TEST(ConformDecode, AnnotatesEveryItemWithItsOffset) {
    const decoded d = decode_annotated(format::cbor, bytes_of("a2616101616282f93e00f6"));
    ASSERT_TRUE(d.ok) << d.error;
    ASSERT_EQ(d.lines.size(), 7u);
    EXPECT_EQ(d.lines[0].text, "map(2)");
    EXPECT_EQ(d.lines[1].offset, 1u);
    EXPECT_EQ(d.lines[1].text, "key text(1) \"a\"");
    EXPECT_EQ(d.lines[4].text, "array(2)");
    EXPECT_EQ(d.lines[5].text, "float16 1.5");
    EXPECT_EQ(d.lines[5].offset, 7u);
    EXPECT_EQ(d.lines[5].length, 3u);
    EXPECT_EQ(d.lines[5].depth, 2u);
}

TEST(ConformDecode, RejectsCountsTheBytesCannotHold) {
    // An array announcing 2^32 elements in 5 bytes, and a UBJSON [$Z# of 2^62 nulls: both must
    // fail fast instead of looping or allocating.
    decoded a = decode_annotated(format::cbor, bytes_of("9affffffff"));
    EXPECT_FALSE(a.ok);
    EXPECT_NE(a.error.find("count"), std::string::npos) << a.error;
    decoded b = decode_annotated(format::ubjson, bytes_of("5b245a234c4000000000000000"));
    EXPECT_FALSE(b.ok);
    decoded c = decode_annotated(format::msgpack, bytes_of("dfffffffff"));
    EXPECT_FALSE(c.ok);
}

TEST(ConformDecode, ReportsTruncationAndTrailingBytesWithOffsets) {
    decoded t = decode_annotated(format::msgpack, bytes_of("92 01 cd 00"));
    EXPECT_FALSE(t.ok);
    EXPECT_EQ(t.error_offset, 3u) << t.error;
    EXPECT_NE(t.error.find("unexpected end"), std::string::npos) << t.error;
    decoded x = decode_annotated(format::cbor, bytes_of("01 02"));
    EXPECT_FALSE(x.ok);
    EXPECT_EQ(x.error_offset, 1u);
    decoded s = decode_annotated(format::bson, bytes_of("0600000000"));
    EXPECT_FALSE(s.ok) << "a document size larger than the input";
}

TEST(ConformDecode, ReadsDeepNestingWithoutRecursion) {
    std::vector<std::uint8_t> deep(200000, 0x81);
    deep.push_back(0x00);
    const decoded d = decode_annotated(format::cbor, deep);
    EXPECT_TRUE(d.ok) << d.error;
    EXPECT_EQ(d.max_depth, 200000u);
    const decoded_value v = decode_value(format::cbor, deep);
    EXPECT_TRUE(v.ok);
    EXPECT_NE(v.how.find("too deep"), std::string::npos) << v.how;
}

TEST(ConformDecode, ReadsOneByteTagHeadsThatTheOracleCannot) {
    const decoded_value v = decode_value(format::cbor, bytes_of("d74401020304"));
    ASSERT_TRUE(v.ok) << v.how;
    EXPECT_TRUE(same_value(v.value, json::binary({1, 2, 3, 4}, 23)));
}

TEST(ConformDecode, SameValueSeparatesIntegersFromFloatsButNotSignedness) {
    EXPECT_TRUE(same_value(json(std::uint64_t{5}), json(std::int64_t{5})));
    // -1 and 2^64 - 1 are one int64 bit pattern (nlohmann's own == says they are equal)
    EXPECT_FALSE(same_value(json(std::int64_t{-1}), json(~std::uint64_t{0})));
    EXPECT_FALSE(same_value(json(~std::uint64_t{0}), json(std::int64_t{-1})));
    EXPECT_FALSE(same_value(json(1), json(1.0)));
    EXPECT_FALSE(same_value(json(0.0), json(-0.0)));
    EXPECT_TRUE(same_value(json(std::nan("")), json(-std::nan("1"))));
    EXPECT_FALSE(same_value(json(std::nan("")), json(1.0)));  // a NaN equals only a NaN
    EXPECT_FALSE(same_value(json(0.0), json(-std::nan(""))));
    EXPECT_FALSE(same_value(json::binary({1}), json::binary({1}, 0)));
    EXPECT_FALSE(same_value(json::binary({1}, 1), json::binary({1}, 2)));  // the subtype is part of the value
    EXPECT_TRUE(same_value(json::binary({1}, 2), json::binary({1}, 2)));
    EXPECT_TRUE(same_value(json::parse(R"({"a":[1,{"b":null}]})"), json::parse(R"({"a":[1,{"b":null}]})")));
    EXPECT_FALSE(same_value(json::parse(R"({"a":[1,{"b":null}]})"), json::parse(R"({"a":[1,{"c":null}]})")));
}

/// Whether two encodings are one value to the runner (decode_value, then decodes_to: what
/// classify() asks).
bool same_cbor(const char* a, const char* b) {
    const decoded_value d = decode_value(format::cbor, bytes_of(a));
    EXPECT_TRUE(d.ok) << a << ": " << d.how;
    return decodes_to(format::cbor, bytes_of(b), d.value);
}

TEST(ConformDecode, CborBignumsAndIntegersAreOneNumberSpace) {
    // RFC 8949 §3.4.3: leading zeros are accepted, and a bignum is the integer of its value.
    EXPECT_TRUE(same_cbor("c249010000000000000000", "c24a00010000000000000000"));
    EXPECT_TRUE(same_cbor("c249010000000000000000", "c24b0000010000000000000000"));
    EXPECT_TRUE(same_cbor("c249010000000000000000", "d80249010000000000000000"));  // a head nlohmann reads
    EXPECT_TRUE(same_cbor("3b8000000000000000", "c3488000000000000000"));          // -2^63-1
    EXPECT_TRUE(same_cbor("3bffffffffffffffff", "c348ffffffffffffffff"));          // -2^64
    EXPECT_TRUE(same_cbor("3bffffffffffffffff", "c34a0000ffffffffffffffff"));
    EXPECT_TRUE(same_cbor("01", "c24101"));
    EXPECT_TRUE(same_cbor("00", "c240"));
    EXPECT_TRUE(same_cbor("20", "c340"));
    EXPECT_TRUE(same_cbor("3b7fffffffffffffff", "c3487fffffffffffffff"));  // INT64_MIN
    EXPECT_TRUE(same_cbor("1bffffffffffffffff", "c24900ffffffffffffffff"));
    EXPECT_TRUE(same_cbor("82c24101616a", "8201616a"));  // inside containers too
    EXPECT_TRUE(same_cbor("a16161c3420000", "a1616120"));
    EXPECT_TRUE(same_cbor("a16161c3420000", "bf616120ff"));
    // Other values stay other values.
    EXPECT_FALSE(same_cbor("c249010000000000000000", "c249010000000000000001"));  // off by one
    EXPECT_FALSE(same_cbor("c249010000000000000000", "1bffffffffffffffff"));
    EXPECT_FALSE(same_cbor("3bffffffffffffffff", "3bfffffffffffffffe"));    // once both the double -2^64
    EXPECT_FALSE(same_cbor("3bffffffffffffffff", "c248ffffffffffffffff"));  // tag 2 is never negative
    EXPECT_FALSE(same_cbor("20", "c24101"));
    EXPECT_FALSE(same_cbor("20", "c240"));
    EXPECT_FALSE(same_cbor("01", "fa3f800000"));  // an integer is no float (RFC 8949 §2)
    EXPECT_FALSE(same_cbor("c249010000000000000000", "fa5f800000"));
    EXPECT_FALSE(same_cbor("c24101", "d8174101"));  // another tag: binary with a subtype
    EXPECT_FALSE(same_cbor("c24101", "4101"));
    EXPECT_FALSE(same_cbor("01", "d8024401000000"));  // 2^24, not 1
}

TEST(ConformDecode, ANegativeBeyondInt64IsHeldExactly) {
    const decoded_value v = decode_value(format::cbor, bytes_of("3bffffffffffffffff"));
    ASSERT_TRUE(v.ok) << v.how;
    EXPECT_TRUE(same_value(v.value, json::binary({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 3)))
        << render_value(v.value);
    EXPECT_NE(v.how.find("sinkcheck's decoder"), std::string::npos) << v.how;
}

using test::listed_bytes;

/// A corpus of the one CBOR vector `id`: its entry of corpus/conformance/cbor.vectors, copied
/// verbatim after the file's header into a directory of its own, made once per id. The run then
/// reads one vector, not the whole CBOR corpus for each of this file's gradings (under the
/// sanitizers that was a second and more each).
std::string corpus_of(const std::string& id) {
    struct directories {
        std::map<std::string, std::string> by_id;
        directories() = default;
        directories(const directories&) = delete;
        directories& operator=(const directories&) = delete;
        ~directories() {
            std::error_code ec;  // left behind rather than thrown from a destructor
            for (const auto& entry : by_id) {
                std::filesystem::remove_all(entry.second, ec);
            }
        }
    };
    static directories made;
    if (const auto it = made.by_id.find(id); it != made.by_id.end()) {
        return it->second;
    }
    std::ifstream in(std::string(SINKCHECK_CORPUS_DIR) + "/cbor.vectors");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t first = text.find("\nid: ");
    const std::size_t at = text.find("\nid: " + id + "\n");
    if (first == std::string::npos || at == std::string::npos) {
        ADD_FAILURE() << "no vector " << id << " in cbor.vectors";
        return SINKCHECK_CORPUS_DIR;
    }
    const std::size_t end = text.find("\n\n", at + 1);
    // CTest runs this file's tests as processes side by side: each process its own directories
    const std::string dir =
        ::testing::TempDir() + "conform-decode-" + std::to_string(::getpid()) + "-" + std::to_string(made.by_id.size());
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/cbor.vectors") << text.substr(0, first + 1)
                                         << text.substr(at + 1, end == std::string::npos ? end : end - at) << "\n";
    return made.by_id[id] = dir;
}

/// Grades one corpus vector, the encoder answering `hex`, at `level`, through the whole run.
vector_result graded(const std::string& id, const std::string& hex, run_level level) {
    static const std::vector<test_vector> all = load_corpus(SINKCHECK_CORPUS_DIR, format::cbor);
    std::string wire;
    for (const test_vector& v : all) {
        if (v.id == id) wire = v.input.wire;
    }
    EXPECT_FALSE(wire.empty()) << "no vector " << id;
    listed_bytes::answers()[wire] = hex;
    conform_options o;
    o.fmt = format::cbor;
    o.level = level;
    o.corpus = corpus_of(id);
    o.filters = {id};
    auto factory = make_linked_factory(test::listed_bytes_encoder());
    const run_summary s = run_conformance(o, *factory);
    EXPECT_EQ(s.results.size(), 1u) << id;
    return s.results.empty() ? vector_result{} : s.results[0];
}

TEST(ConformDecode, BignumsOfTheRightValuePassAtTheEquivalentLevel) {
    struct answer {
        const char* id;
        const char* hex;
    };
    // `equivalent` vectors (integers beyond 64 bits) are judged by value at every level.
    for (const answer& a : {answer{"cbor/bigint/18446744073709551616", "c24a00010000000000000000"},
                            {"cbor/bigint/18446744073709551616", "c24b0000010000000000000000"},
                            {"cbor/rfc8949-a/18446744073709551616", "c24a00010000000000000000"},
                            {"cbor/bigint/-9223372036854775809", "c3488000000000000000"},
                            {"cbor/bigint/-18446744073709551616", "c348ffffffffffffffff"},
                            {"cbor/bigint/-18446744073709551617", "c34a00010000000000000000"}}) {
        for (run_level level : {run_level::exact, run_level::equivalent}) {
            const vector_result r = graded(a.id, a.hex, level);
            EXPECT_EQ(r.verdict, result::pass_equivalent) << a.id << " " << a.hex << ": " << r.detail;
            EXPECT_TRUE(r.success) << a.id << " " << a.hex << " at " << level_name(level);
        }
    }
    // `exact` vectors: the same value in other bytes conforms at the equivalent level only.
    for (const answer& a : {answer{"cbor/int/1", "c24101"},
                            {"cbor/int/-1", "c340"},
                            {"cbor/int/18446744073709551615", "c24900ffffffffffffffff"},
                            {"cbor/int/-9223372036854775808", "c3487fffffffffffffff"}}) {
        const vector_result exact = graded(a.id, a.hex, run_level::exact);
        EXPECT_EQ(exact.verdict, result::pass_equivalent) << a.id << " " << a.hex << ": " << exact.detail;
        EXPECT_FALSE(exact.success) << a.id << " " << a.hex;
        const vector_result equivalent = graded(a.id, a.hex, run_level::equivalent);
        EXPECT_EQ(equivalent.verdict, result::pass_equivalent) << a.id << " " << a.hex << ": " << equivalent.detail;
        EXPECT_TRUE(equivalent.success) << a.id << " " << a.hex;
    }
}

// A listed alternative (RFC 8949 Appendix A's half-precision 1.0 beside the reference's binary32)
// is the same value in other bytes: it conforms at the equivalent level, never where the exact
// bytes are asked for; and a vector with alternatives still fails another value.
TEST(ConformDecode, AListedAlternativeIsOnlyEquivalent) {
    const vector_result exact = graded("cbor/rfc8949-a/1.0", "f93c00", run_level::exact);
    EXPECT_EQ(exact.verdict, result::pass_equivalent) << exact.detail;
    EXPECT_FALSE(exact.success) << exact.detail;
    EXPECT_NE(exact.detail.find("matches listed alternative 1"), std::string::npos) << exact.detail;
    const vector_result equivalent = graded("cbor/rfc8949-a/1.0", "f93c00", run_level::equivalent);
    EXPECT_EQ(equivalent.verdict, result::pass_equivalent) << equivalent.detail;
    EXPECT_TRUE(equivalent.success) << equivalent.detail;
    for (run_level level : {run_level::exact, run_level::equivalent}) {
        const vector_result other = graded("cbor/rfc8949-a/1.0", "f93e00", level);  // 1.5
        EXPECT_EQ(other.verdict, result::fail) << level_name(level) << ": " << other.detail;
        EXPECT_EQ(other.difference, "different value: float") << other.detail;
    }
}

TEST(ConformDecode, BignumsOfAnotherValueFail) {
    struct answer {
        const char* id;
        const char* hex;
    };
    for (const answer& a : {answer{"cbor/bigint/18446744073709551616", "c24a00010000000000000001"},  // 2^64+1
                            {"cbor/bigint/18446744073709551616", "c248ffffffffffffffff"},            // 2^64-1
                            {"cbor/bigint/-18446744073709551616", "c348fffffffffffffffe"},           // -2^64+1
                            {"cbor/bigint/-18446744073709551616", "3bfffffffffffffffe"},
                            {"cbor/bigint/-18446744073709551616", "c248ffffffffffffffff"},  // tag 2: positive
                            {"cbor/int/-1", "c24101"},
                            {"cbor/int/-1", "1bffffffffffffffff"},  // 2^64 - 1: -1's bits as an int64
                            {"cbor/int/-1", "c240"},
                            {"cbor/int/1", "c24102"}}) {
        for (run_level level : {run_level::exact, run_level::equivalent}) {
            const vector_result r = graded(a.id, a.hex, level);
            EXPECT_EQ(r.verdict, result::fail)
                << a.id << " " << a.hex << " at " << level_name(level) << ": " << r.detail;
            EXPECT_FALSE(r.success) << a.id << " " << a.hex;
        }
    }
}

}  // namespace
}  // namespace sinkcheck::conform
