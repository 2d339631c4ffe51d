// conform_selftest_test.cpp — the harness grades right encoders as right and wrong ones as wrong.
//
// The reference encoder, served over the protocol by sinkcheck-encoder, must pass every vector
// at the exact level in both modes; deliberately broken encoders (conform_hostile_encoder: byte
// flip, truncation, wrong float width, crash, hang, flood, garbage, stderr-only, ...) must each
// get the verdict that names what they did, in bounded time, in both modes.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "sinkcheck/conform/run.hpp"

namespace sinkcheck::conform {
namespace {

const std::string reference_encoder = SINKCHECK_ENCODER;
const std::string hostile_encoder = CONFORM_HOSTILE_ENCODER;

conform_options options(format f, process_mode mode) {
    conform_options o;
    o.fmt = f;
    o.mode = mode;
    o.jobs = 2;
    o.corpus = SINKCHECK_CORPUS_DIR;
    o.limits.timeout_seconds = 20;
    return o;
}

run_summary run(const conform_options& o, const std::string& command) {
    auto factory = make_process_factory(command, o.mode, o.limits);
    return run_conformance(o, *factory);
}

std::size_t count(const run_summary& s, result r) { return s.counts[static_cast<std::size_t>(r)]; }

std::string failures_of(const run_summary& s) {
    std::string out;
    for (const vector_result& r : s.results) {
        if (!r.success) out += r.vector->id + ": " + result_name(r.verdict) + ": " + r.detail + "\n";
    }
    return out.substr(0, 4000);
}

class ReferencePasses : public ::testing::TestWithParam<std::tuple<format, process_mode>> {};

TEST_P(ReferencePasses, EveryVectorAtTheExactLevel) {
    const auto [f, mode] = GetParam();
    const run_summary s = run(options(f, mode), reference_encoder);
    EXPECT_TRUE(s.conforms()) << failures_of(s);
    EXPECT_EQ(count(s, result::pass) + count(s, result::refused_correctly), s.results.size()) << failures_of(s);
    EXPECT_GE(s.results.size(), 150u);
}

INSTANTIATE_TEST_SUITE_P(AllFormatsBothModes, ReferencePasses,
                         ::testing::Combine(::testing::Values(format::cbor, format::msgpack, format::ubjson,
                                                              format::bjdata, format::bson, format::bon8),
                                            ::testing::Values(process_mode::per_vector, process_mode::batch)),
                         [](const auto& param_info) {
                             return std::string(format_name(std::get<0>(param_info.param))) +
                                    (std::get<1>(param_info.param) == process_mode::batch ? "Batch" : "PerVector");
                         });

/// A small slice of the CBOR corpus: floats, a string and an array, and two refusals.
conform_options slice(process_mode mode) {
    conform_options o = options(format::cbor, mode);
    o.filters = {"cbor/float/1.5",   "cbor/float/0.1",        "cbor/string/IETF",
                 "cbor/array/1-2-3", "cbor/refuse/discarded", "cbor/refuse/invalid-utf8-string"};
    return o;
}

struct sabotage_case {
    const char* kind;
    std::map<result, std::size_t> expect;  // verdict counts over the six-vector slice
    const char* detail;                    // a word the failing vectors' detail must contain
};

class Sabotage : public ::testing::TestWithParam<std::tuple<sabotage_case, process_mode>> {};

TEST_P(Sabotage, IsClassifiedByWhatItDid) {
    const auto& [c, mode] = GetParam();
    conform_options o = slice(mode);
    o.limits.timeout_seconds = 1.5;
    o.limits.max_output = 1 << 20;
    const auto t0 = std::chrono::steady_clock::now();
    const run_summary s = run(o, hostile_encoder + " " + c.kind);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(s.results.size(), 6u);
    for (result r : all_results) {
        const auto it = c.expect.find(r);
        EXPECT_EQ(count(s, r), it == c.expect.end() ? 0u : it->second) << c.kind << ": " << result_name(r) << "\n"
                                                                       << failures_of(s);
    }
    // Declaring everything unsupported fails nothing, but shows nothing either.
    EXPECT_FALSE(s.conforms()) << c.kind;
    for (const vector_result& r : s.results) {
        if (!r.success && r.verdict != result::unsupported) {
            EXPECT_NE(r.detail.find(c.detail), std::string::npos) << c.kind << ": " << r.vector->id << ": " << r.detail;
        }
    }
    // Six vectors, two at a time, 1.5 s each at worst, plus restarts: never near a hang.
    EXPECT_LT(seconds, 15.0) << c.kind;
}

const sabotage_case sabotage_cases[] = {
    {"flip", {{result::fail, 4}, {result::refused_correctly, 2}}, "differs at byte"},
    {"truncate", {{result::fail, 4}, {result::refused_correctly, 2}}, "does not decode"},
    {"float-width", {{result::pass_equivalent, 1}, {result::pass, 3}, {result::refused_correctly, 2}}, "same value"},
    {"crash", {{result::crash, 6}}, ""},
    {"hang", {{result::timeout, 6}}, ""},
    {"flood", {{result::fail, 6}}, "flood"},
    {"garbage", {{result::fail, 6}}, ""},
    {"refuse-all", {{result::fail, 4}, {result::refused_correctly, 2}}, "refused a valid value"},
    {"wrong-category", {{result::pass, 4}, {result::fail, 2}}, "expected type_error"},
    {"unsupported", {{result::unsupported, 6}}, ""},
};

INSTANTIATE_TEST_SUITE_P(BothModes, Sabotage,
                         ::testing::Combine(::testing::ValuesIn(sabotage_cases),
                                            ::testing::Values(process_mode::per_vector, process_mode::batch)),
                         [](const auto& param_info) {
                             std::string name = std::get<0>(param_info.param).kind;
                             for (char& ch : name) {
                                 if (ch == '-') ch = '_';
                             }
                             return name +
                                    (std::get<1>(param_info.param) == process_mode::batch ? "_batch" : "_per_vector");
                         });

TEST(SabotagePerVector, StderrOnlyWithExitZeroIsAFailureShowingTheStderr) {
    const run_summary s = run(slice(process_mode::per_vector), hostile_encoder + " stderr-only");
    EXPECT_EQ(count(s, result::fail), 6u) << failures_of(s);
    for (const vector_result& r : s.results) {
        EXPECT_NE(r.stderr_text.find("all went well"), std::string::npos);
    }
}

TEST(SabotagePerVector, AnEncoderThatNeverReadsItsInputDoesNotHurtTheRunner) {
    conform_options o = options(format::cbor, process_mode::per_vector);
    o.filters = {"cbor/string/length-65536", "cbor/array/count-65536", "cbor/map/count-65536"};
    const run_summary s = run(o, hostile_encoder + " no-read");
    EXPECT_EQ(count(s, result::fail), 3u) << failures_of(s);
}

TEST(SabotagePerVector, AChildLeftHoldingStdoutDoesNotStallTheRunner) {
    // The encoder answers and exits, but a process it forked keeps stdout open and sleeps. The
    // runner stops waiting for EOF shortly after the encoder's exit and kills the group.
    conform_options o = slice(process_mode::per_vector);
    o.limits.timeout_seconds = 5;
    const auto t0 = std::chrono::steady_clock::now();
    const run_summary s = run(o, hostile_encoder + " orphan");
    EXPECT_TRUE(s.conforms()) << failures_of(s);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

TEST(SabotagePerVector, AStderrFloodIsCappedAndTheVectorsStillPass) {
    const run_summary s = run(slice(process_mode::per_vector), hostile_encoder + " stderr-flood");
    EXPECT_TRUE(s.conforms()) << failures_of(s);
    for (const vector_result& r : s.results) EXPECT_LE(r.stderr_text.size(), process_limits().max_stderr);
}

TEST(SabotageBatch, AnEncoderQuittingMidBatchIsACrashAndIsRestarted) {
    conform_options o = slice(process_mode::batch);
    o.jobs = 1;
    const run_summary s = run(o, hostile_encoder + " quit-after-2");
    // Each process answers two requests and quits on the third, which is reported as a crash;
    // the next vector starts a fresh process: pass, pass, crash, pass, pass, crash.
    EXPECT_EQ(count(s, result::crash), 2u) << failures_of(s);
    EXPECT_EQ(count(s, result::pass) + count(s, result::refused_correctly), 4u) << failures_of(s);
}

TEST(Harness, AMissingEncoderIsAHarnessError) {
    const run_summary s = run(slice(process_mode::per_vector), "/nonexistent/encoder --flag");
    EXPECT_EQ(count(s, result::harness_error), 6u);
    EXPECT_NE(s.results[0].detail.find("cannot run"), std::string::npos) << s.results[0].detail;
}

TEST(Harness, PerVectorAndBatchModesAgreeVectorByVector) {
    for (const char* kind : {"", " flip", " float-width", " refuse-all"}) {
        conform_options a = options(format::cbor, process_mode::per_vector);
        conform_options b = options(format::cbor, process_mode::batch);
        const run_summary sa = run(a, hostile_encoder + kind);
        const run_summary sb = run(b, hostile_encoder + kind);
        ASSERT_EQ(sa.results.size(), sb.results.size());
        for (std::size_t i = 0; i < sa.results.size(); ++i) {
            EXPECT_EQ(sa.results[i].verdict, sb.results[i].verdict) << kind << ": " << sa.results[i].vector->id;
            EXPECT_EQ(sa.results[i].actual, sb.results[i].actual) << kind << ": " << sa.results[i].vector->id;
        }
    }
}

}  // namespace
}  // namespace sinkcheck::conform
