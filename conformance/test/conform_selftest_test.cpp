// conform_selftest_test.cpp — the harness grades right encoders as right and wrong ones as wrong.
//
// The reference encoder, served over the protocol by sinkcheck-encoder, must pass every vector
// at the exact level in both modes; deliberately broken encoders (conform_hostile_encoder: byte
// flip, truncation, wrong float width, crash, hang, flood, garbage, stderr-only, ...) must each
// get the verdict that names what they did, in bounded time, in both modes.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "listed_bytes.hpp"
#include "sinkcheck/conform/protocol.hpp"
#include "sinkcheck/conform/run.hpp"

namespace sinkcheck::conform {
namespace {

// The runner's peak RSS while an encoder misbehaves: 100 MB (issue 15's bound). Under
// AddressSanitizer the same run costs 3-4x (shadow memory, a 64 MiB quarantine, redzones): there
// the bound is 512 MiB, which still fails a runner whose memory grows with the vector count
// (the flood of every CBOR vector needed gigabytes before).
#if defined(__SANITIZE_ADDRESS__)
constexpr long rss_bound_kib = 512L * 1024;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr long rss_bound_kib = 512L * 1024;
#else
constexpr long rss_bound_kib = 100L * 1024;
#endif
#else
constexpr long rss_bound_kib = 100L * 1024;
#endif

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
                         ::testing::Combine(::testing::ValuesIn(all_formats),
                                            ::testing::Values(process_mode::per_vector, process_mode::batch)),
                         [](const auto& param_info) {
                             return std::string(format_name(std::get<0>(param_info.param))) +
                                    (std::get<1>(param_info.param) == process_mode::batch ? "Batch" : "PerVector");
                         });

// --notation json and json-decimal: the reference process reads the JSON notation
// (from_json_notation), so the whole corpus must pass through it as through the token notation.
// The JSON text differs from the tokens for the values a stock parser would lose (binaries, big
// integers, key order, strings that are not UTF-8; doubles: every one in json, those written as
// integers in json-decimal): those must be many, or the test shows nothing.
TEST(JsonNotation, TheReferenceReadsEveryVectorInEveryFormat) {
    for (const wire_notation notation : {wire_notation::json, wire_notation::json_decimal}) {
        const json_floats floats = notation == wire_notation::json ? json_floats::bits : json_floats::decimal;
        std::size_t differing = 0;
        for (format f : all_formats) {
            conform_options o = options(f, process_mode::batch);
            o.notation = notation;
            auto factory = make_process_factory(reference_encoder, o.mode, o.limits, o.notation);
            const run_summary s = run_conformance(o, *factory);
            EXPECT_TRUE(s.conforms()) << format_name(f) << "\n" << failures_of(s);
            EXPECT_NE(s.encoder_description.find("JSON notation"), std::string::npos) << s.encoder_description;
            for (const vector_result& r : s.results) {
                if (to_json_notation(r.vector->input.wire, floats) != r.vector->input.wire) ++differing;
            }
        }
        EXPECT_GT(differing, 300u);
        std::printf("%zu vectors are sent in other text with --notation %s\n", differing, notation_name(notation));
    }
}

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
    const char* batch_stops = nullptr;     // batch mode: the run stops (exit 2) with this message
};

class Sabotage : public ::testing::TestWithParam<std::tuple<sabotage_case, process_mode>> {};

TEST_P(Sabotage, IsClassifiedByWhatItDid) {
    const auto& [c, mode] = GetParam();
    conform_options o = slice(mode);
    o.limits.timeout_seconds = 1.5;
    o.limits.max_output = 1 << 20;
    const auto t0 = std::chrono::steady_clock::now();
    if (mode == process_mode::batch && c.batch_stops != nullptr) {
        // An encoder that answers nothing to its very first request is not graded 6 times over.
        try {
            run(o, hostile_encoder + " " + c.kind);
            ADD_FAILURE() << c.kind << ": the run went on";
        } catch (const conform_error& e) {
            EXPECT_NE(std::string(e.what()).find(c.batch_stops), std::string::npos) << e.what();
        }
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0) << c.kind;
        return;
    }
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
    {"hang", {{result::timeout, 6}}, "", "did you mean --mode per-vector?"},
    {"flood", {{result::fail, 6}}, "flood"},
    {"garbage", {{result::fail, 6}}, ""},
    {"refuse-all", {{result::fail, 4}, {result::refused_correctly, 2}}, "refused a valid value"},
    {"wrong-category", {{result::pass, 4}, {result::fail, 2}}, "expected type_error"},
    {"unsupported", {{result::unsupported, 6}}, ""},
    // Dying of an error (exit 1 and a traceback) is no refusal, not even of a value to refuse.
    {"raise-all", {{result::crash, 6}}, "exit status 1", "exited with status 1 without a byte of an answer"},
    // Bytes no report format can carry, in the reason and on stderr: refusals all the same.
    {"stderr-binary", {{result::fail, 4}, {result::refused_correctly, 2}}, "refused a valid value"},
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

TEST(Harness, AnEncoderThatCannotBeStartedStopsTheRunAtOnce) {
    // Not one harness-error per vector (a 1,602-line report): one message, exit 2.
    for (const char* command : {"/nonexistent/encoder --flag", "sinkcheck-no-such-encoder"}) {
        for (process_mode mode : {process_mode::per_vector, process_mode::batch}) {
            conform_options o = options(format::cbor, mode);
            o.filters.clear();
            try {
                run(o, command);
                ADD_FAILURE() << command << ": the run went on";
            } catch (const conform_error& e) {
                EXPECT_NE(std::string(e.what()).find("--encoder: cannot run"), std::string::npos) << e.what();
                const bool searched = std::string(command).find('/') == std::string::npos;
                EXPECT_EQ(std::string(e.what()).find("looked up in PATH") != std::string::npos, searched) << e.what();
            }
        }
    }
}

// ---- hostile encoders: each misbehaviour, its verdict, the time and memory it costs ----------

struct measured_run {
    int exit_status = -1;
    long peak_rss_kib = 0;
    double seconds = 0;
};

/// Runs `sinkcheck conform ARGS` (the tool, as a user runs it) with its output and messages
/// dropped; wait4 gives its peak resident set.
measured_run run_tool(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {SINKCHECK_CLI, "conform"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> argp;
    argp.reserve(argv.size() + 1);
    for (std::string& a : argv) argp.push_back(a.data());
    argp.push_back(nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::dup2(null, 2);
        ::execv(argp[0], argp.data());
        std::_Exit(127);
    }
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    measured_run m;
    m.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    m.peak_rss_kib = usage.ru_maxrss;
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return m;
}

TEST(Hostile, FloodingEveryVectorKeepsTheRunnerUnder100MB) {
    // The runner kept every flood to the end: 751 MB after 9 vectors, 1.5 GB after 21 (at the
    // then default --max-output of 64 MiB). Now the peak is one flood's worth at the default,
    // whatever the count: 69 CBOR vectors per vector (kept, they would hold over 4 GB; every
    // vector took 157 s under AddressSanitizer on a loaded machine, past the bound that says no
    // flood makes the run hang), every BSON vector in batch mode.
    struct flood_case {
        const char* name;
        std::vector<std::string> args;
    };
    const flood_case cases[] = {
        {"per-vector, raw flood, 69 CBOR vectors",
         {"--format", "cbor", "--filter", "cbor/array/*", "--filter", "cbor/map/*", "--encoder",
          hostile_encoder + " flood"}},
        {"batch, a 16 MiB frame and more",
         {"--format", "cbor", "--filter", "cbor/int/1*", "--filter", "cbor/float/1*", "--mode", "batch", "--encoder",
          hostile_encoder + " flood-framed 01000000"}},
        {"batch, unframed flood, every BSON vector",
         {"--format", "bson", "--mode", "batch", "--encoder", hostile_encoder + " flood"}},
    };
    for (const flood_case& c : cases) {
        const measured_run m = run_tool(c.args);
        std::printf("%s: exit %d, peak RSS %ld KiB, %.1f s\n", c.name, m.exit_status, m.peak_rss_kib, m.seconds);
        EXPECT_EQ(m.exit_status, 1) << c.name;
        EXPECT_LT(m.peak_rss_kib, rss_bound_kib) << c.name;
        EXPECT_LT(m.seconds, 120.0) << c.name;
    }
}

TEST(Hostile, EveryMisbehaviourCostsBoundedTimeAndMemory) {
    // The tool as a user runs it, on the six-vector slice, 1.5 s per vector at most: the exit
    // status its verdicts give, the wall time and the peak RSS of the runner.
    struct misbehaviour {
        const char* encoder;  // hostile kind and arguments
        process_mode mode;
        int exit_status;  // 1: graded as not conforming; 2: the run stopped; 0: conforms
    };
    const misbehaviour cases[] = {
        {"flip", process_mode::per_vector, 1},
        {"flip", process_mode::batch, 1},
        {"crash", process_mode::per_vector, 1},
        {"crash", process_mode::batch, 1},
        {"hang", process_mode::per_vector, 1},
        {"hang", process_mode::batch, 2},
        {"flood", process_mode::per_vector, 1},
        {"flood", process_mode::batch, 1},
        {"flood-framed 01000000", process_mode::batch, 1},
        {"garbage", process_mode::batch, 1},
        {"stderr-flood", process_mode::per_vector, 0},
        {"stderr-binary", process_mode::per_vector, 1},
        {"stderr-binary", process_mode::batch, 1},
        {"raise-all", process_mode::per_vector, 1},
        {"raise-all", process_mode::batch, 2},
        {"extra-frame", process_mode::batch, 1},
        {"announce ffffffff", process_mode::batch, 1},
        {"quit-after-2", process_mode::batch, 1},
        {"per-vector-only", process_mode::batch, 2},
        {"orphan", process_mode::per_vector, 0},
        {"setsid-orphan", process_mode::per_vector, 0},
        {"setsid-orphan", process_mode::batch, 0},
        {"no-read", process_mode::per_vector, 1},
    };
    for (const misbehaviour& c : cases) {
        std::vector<std::string> args = {"--format",  "cbor",
                                         "--timeout", "1.5",
                                         "--mode",    c.mode == process_mode::batch ? "batch" : "per-vector",
                                         "--encoder", hostile_encoder + " " + c.encoder};
        for (const std::string& id : slice(c.mode).filters) args.insert(args.end(), {"--filter", id});
        const measured_run m = run_tool(args);
        const std::string name = std::string(c.encoder) + (c.mode == process_mode::batch ? " (batch)" : "");
        std::printf("%-28s exit %d, %.2f s, peak RSS %ld KiB\n", name.c_str(), m.exit_status, m.seconds,
                    m.peak_rss_kib);
        EXPECT_EQ(m.exit_status, c.exit_status) << name;
        EXPECT_LT(m.seconds, 12.0) << name;  // six vectors at 1.5 s each at worst
        EXPECT_LT(m.peak_rss_kib, rss_bound_kib) << name;
    }
}

TEST(Hostile, AnAnswerAnnouncedBeyondMaxOutputFailsAtOnce) {
    // Before: up to 0xFFFFFFFA a timeout after the full --timeout; from 0xFFFFFFFB a "flood"
    // (the length plus 5 wrapped in 32 bits).
    for (const char* length : {"00100001", "04000001", "fffffffa", "fffffffb", "ffffffff"}) {
        conform_options o = options(format::cbor, process_mode::batch);
        o.filters = {"cbor/int/1000"};
        o.limits.max_output = 1 << 20;
        o.limits.timeout_seconds = 10;
        const auto t0 = std::chrono::steady_clock::now();
        const run_summary s = run(o, hostile_encoder + " announce " + length);
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0) << length;
        ASSERT_EQ(count(s, result::fail), 1u) << length << "\n" << failures_of(s);
        EXPECT_NE(s.results[0].detail.find("announced as"), std::string::npos) << s.results[0].detail;
    }
}

TEST(Hostile, AnExtraFrameIsAProtocolViolationOfTheVectorThatSentIt) {
    // Before: read as the next vector's answer, so the first passed and the rest failed as
    // "different value". Every answer echoes its request's sequence number now.
    conform_options o = options(format::cbor, process_mode::batch);
    o.filters = {"cbor/int/*"};
    const auto t0 = std::chrono::steady_clock::now();
    const run_summary s = run(o, hostile_encoder + " extra-frame");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30.0);
    EXPECT_GT(s.results.size(), 30u);
    for (const vector_result& r : s.results) {
        EXPECT_EQ(r.verdict, result::fail) << r.vector->id;
        EXPECT_NE(r.detail.find("protocol violation"), std::string::npos) << r.vector->id << ": " << r.detail;
    }
}

TEST(Hostile, APerVectorEncoderInBatchModeStopsTheRunWithAHint) {
    // Before: a timeout on every vector, no hint (the whole CBOR corpus: about 52 minutes).
    conform_options o = options(format::cbor, process_mode::batch);
    o.filters.clear();
    o.limits.timeout_seconds = 1;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        run(o, hostile_encoder + " per-vector-only");
        ADD_FAILURE() << "the run went on";
    } catch (const conform_error& e) {
        EXPECT_NE(std::string(e.what()).find("did you mean --mode per-vector?"), std::string::npos) << e.what();
    }
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
    // The same encoder in the mode it speaks conforms.
    o.mode = process_mode::per_vector;
    o.filters = {"cbor/int/*"};
    EXPECT_TRUE(run(o, hostile_encoder + " per-vector-only").conforms());
}

TEST(Hostile, DescendantsThatLeaveTheProcessGroupDoNotOutliveTheRun) {
    // A child that calls setsid() escapes the group kill; the runner, a child subreaper, adopts
    // it when the encoder dies and kills it (before: 9 left after one batch run).
    const std::string pids_file = ::testing::TempDir() + "conform_orphans." + std::to_string(::getpid());
    std::remove(pids_file.c_str());
    ::setenv("CONFORM_ORPHAN_PIDS", pids_file.c_str(), 1);
    for (process_mode mode : {process_mode::per_vector, process_mode::batch}) {
        conform_options o = slice(mode);
        o.limits.timeout_seconds = 5;
        const auto t0 = std::chrono::steady_clock::now();
        const run_summary s = run(o, hostile_encoder + " setsid-orphan");
        EXPECT_TRUE(s.conforms()) << failures_of(s);
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
    }
    ::unsetenv("CONFORM_ORPHAN_PIDS");
    std::ifstream in(pids_file);
    int pid = 0;
    std::size_t orphans = 0;
    while (in >> pid) {
        ++orphans;
        EXPECT_TRUE(::kill(pid, 0) != 0 && errno == ESRCH) << "pid " << pid << " outlived the run";
    }
    EXPECT_GE(orphans, 7u);  // six per-vector processes, at least one batch process
    std::remove(pids_file.c_str());
}

/// sinkcheck-encoder in batch mode fed `frames` (then end of input): its exit status, stdout
/// and stderr.
struct served_batch {
    int status = -1;
    std::string out;
    std::string err;
};
served_batch serve_frames(const std::string& frames) {
    const std::string dir = testing::TempDir();
    const std::string in = dir + "/speed-frames.in", out = dir + "/speed-frames.out", err = dir + "/speed-frames.err";
    std::ofstream(in, std::ios::binary) << frames;
    const std::string command = "SINKCHECK_MODE=batch SINKCHECK_FORMAT=cbor timeout 20 " + reference_encoder + " <" +
                                in + " >" + out + " 2>" + err;
    served_batch r;
    const int status = std::system(command.c_str());
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    const auto slurp = [](const std::string& path) {
        std::ifstream f(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    };
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

std::string request_frame(std::uint32_t seq, const std::string& value) {
    protocol::request r;
    r.seq = seq;
    r.value_text = value;
    return protocol::encode_request(r);
}

// sinkcheck-encoder reads requests in chunks and answers a window of them together: every
// request is answered in order however they arrive, and a request cut short by the end of the
// input, or one announcing more bytes than ever come (2^32 - 1), ends the process with exit 2
// and a message once the input ends, after the answers before it: never a hang, never an
// allocation of the announced length.
TEST(Harness, TheEncoderAnswersEveryWholeRequestAndStopsAtACutOne) {
    std::string frames;
    for (std::uint32_t seq = 1; seq <= 100; ++seq) frames += request_frame(seq, std::to_string(seq));
    const served_batch all = serve_frames(frames);
    EXPECT_EQ(all.status, 0) << all.err;
    // 1..23 encode in one byte, 24..100 in two: 9-byte heads and the payloads, in order
    ASSERT_EQ(all.out.size(), 100u * 9 + 23 + 77 * 2);
    std::size_t at = 0;
    for (std::uint32_t seq = 1; seq <= 100; ++seq) {
        const auto* p = reinterpret_cast<const unsigned char*>(all.out.data() + at);
        EXPECT_EQ(p[0], protocol::status_encoded);
        EXPECT_EQ(protocol::get_u32(p + 1), seq);
        at += 9 + protocol::get_u32(p + 5);
    }

    const std::string whole = request_frame(1, "1") + request_frame(2, "2");
    const served_batch cut = serve_frames(whole + request_frame(3, "[1,2,3]").substr(0, 10));
    EXPECT_EQ(cut.status, 2);
    EXPECT_NE(cut.err.find("truncated request frame"), std::string::npos) << cut.err;
    EXPECT_EQ(cut.out.size(), 2u * (9 + 1)) << "the two whole requests are answered";

    const served_batch huge = serve_frames(whole + std::string("\xff\xff\xff\xff", 4) + "id=x\n");
    EXPECT_EQ(huge.status, 2);
    EXPECT_NE(huge.err.find("truncated request frame"), std::string::npos) << huge.err;
    EXPECT_EQ(huge.out.size(), 2u * (9 + 1));
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

// ---- difference classes: one root cause, one class ------------------------------------------

/// Grades one CBOR value whose expected bytes are `expect`, the encoder answering `actual`. The
/// value comes as a vector of a corpus of its own (`input` in the corpus notation), or, with
/// id set, the corpus vector of that id.
vector_result graded_cbor(const std::string& input, const std::string& expect, const std::string& actual,
                          const std::string& id = "") {
    conform_options o;
    o.fmt = format::cbor;
    if (id.empty()) {
        const std::string path = ::testing::TempDir() + "cbor-classes." + std::to_string(::getpid()) + ".vectors";
        std::ofstream(path) << "id: cbor/classes/one\ninput: " << input << "\nlevel: exact\nexpect: " << expect
                            << "\nrule: the test's value\nsource: conform_selftest_test\n";
        o.corpus = path;
    } else {
        o.corpus = SINKCHECK_CORPUS_DIR;
        o.filters = {id};
    }
    const std::vector<test_vector> vectors = load_corpus(o.corpus, format::cbor);
    for (const test_vector& v : vectors) {
        if (id.empty() || v.id == id) test::listed_bytes::answers()[v.input.wire] = actual;
    }
    auto factory = make_linked_factory(test::listed_bytes_encoder());
    const run_summary s = run_conformance(o, *factory);
    EXPECT_EQ(s.results.size(), 1u) << input << id;
    return s.results.empty() ? vector_result{} : s.results[0];
}

/// The annotated line marked ">>" in the expected (first) or actual (second) half of a diff.
std::string marked(const std::string& diff, bool actual) {
    const std::size_t half = diff.find("actual:");
    const std::size_t from = actual ? half : 0;
    const std::size_t at = diff.find("\n>>", from);
    if (at == std::string::npos || (!actual && at > half)) return "";
    return diff.substr(at + 1, diff.find('\n', at + 1) - at - 1);
}

TEST(Classes, KeysReorderedAndOneWrongIntegerIsOneDifferenceOfValueMarkedAtTheInteger) {
    // {"a":1,"b":2,"c":3} written c, b, a with b = 5: the first differing item is a key, but
    // the cause is the integer (before: "key order", the marker on the key "c").
    const vector_result r = graded_cbor(R"({"a":1,"b":2,"c":3})", "a3616101616202616303", "a3616303616205616101");
    EXPECT_EQ(r.verdict, result::fail) << r.detail;
    EXPECT_EQ(r.difference, "different value: integer") << r.diff_text;
    EXPECT_NE(r.detail.find("(the values part at /b)"), std::string::npos) << r.detail;
    EXPECT_NE(marked(r.diff_text, false).find("unsigned 2"), std::string::npos) << r.diff_text;
    EXPECT_NE(marked(r.diff_text, true).find("unsigned 5"), std::string::npos) << r.diff_text;
    // The same keys in order, the same wrong integer: the same class.
    EXPECT_EQ(graded_cbor(R"({"a":1,"b":2,"c":3})", "a3616101616202616303", "a3616101616205616303").difference,
              "different value: integer");
}

TEST(Classes, ADifferenceOfValueIsNamedByWhatDiffers) {
    struct case_ {
        const char* input;
        const char* expect;
        const char* actual;
        const char* difference;
        const char* actual_marked;  // in the line the actual side marks
    };
    for (const case_& c : {
             case_{R"(["ab",1])", "8262616201", "8262616301", "different value: string", "\"ac\""},
             {R"([1.5,true])", "82fa3fc00000f5", "82fa3fc00000f4", "different value: boolean", "false"},
             {"[0.5,1.5]", "82f93800fa3fc00000", "82f93800f93c00", "different value: float", "float16 1.0"},
             {"[2.0,1.0]", "82fa40000000fa3f800000", "82fa4000000001", "integer packing of whole doubles",
              "unsigned 1"},
             {"[2.0,-0.0]", "82fa40000000fa80000000", "82fa4000000000", "integer packing of whole doubles",
              "unsigned 0"},
             {"[2.0,1.5]", "82fa40000000fa3fc00000", "82fa4000000001", "different type", "unsigned 1"},
             {R"({"a":null,"b":1})", "a26161f6616201", "a2616101616201", "different type", "unsigned 1"},
             {R"({"a":1,"b":2})", "a2616101616202", "a2616101616302", "length or structure", "map(2)"},
             {"[[1,2],3]", "8282010203", "82810103", "length or structure", "array(1)"},
         }) {
        const vector_result r = graded_cbor(c.input, c.expect, c.actual);
        EXPECT_EQ(r.verdict, result::fail) << c.input << ": " << r.detail;
        EXPECT_EQ(r.difference, c.difference) << c.input << "\n" << r.diff_text;
        EXPECT_NE(marked(r.diff_text, true).find(c.actual_marked), std::string::npos) << c.input << "\n" << r.diff_text;
    }
}

TEST(Classes, AWrongNegativeBignumIsADifferentIntegerNotAnIntegerBeyond64Bits) {
    // CBOR::XS wrote -9223372036854775809 as tag 3 over 01 80 00 00 00 00 00 00 01: an integer,
    // but not this one. The vector lists the exact integer (3b8000000000000000) beside
    // nlohmann's double; the output is compared with the value of its own kind.
    const std::string id = "cbor/bigint/-9223372036854775809";
    const vector_result wrong = graded_cbor("", "", "c349018000000000000001", id);
    EXPECT_EQ(wrong.verdict, result::fail) << wrong.detail;
    EXPECT_EQ(wrong.difference, "different value: integer") << wrong.diff_text;
    EXPECT_NE(marked(wrong.diff_text, true).find("tag 3"), std::string::npos) << wrong.diff_text;
    // The exact integer, as a bignum, is the choice the class "integer beyond 64 bits" names.
    const vector_result exact = graded_cbor("", "", "c3488000000000000000", id);
    EXPECT_EQ(exact.verdict, result::pass_equivalent) << exact.detail;
    EXPECT_EQ(exact.difference, "integer beyond 64 bits") << exact.diff_text;
    // A wrong double is a wrong double.
    const vector_result float_wrong = graded_cbor("", "", "fadf100000", id);
    EXPECT_EQ(float_wrong.difference, "different value: float") << float_wrong.diff_text;
}

TEST(Classes, FloatWidthAndKeyOrderInOneEqualValueAreOneClass) {
    // {"a":1.5,"b":[1.5]}, expected a then b, floats as binary32. Written b then a with binary16
    // floats, the first differing item is the key "b" (before: "key order"); every float is
    // narrower all the same, and key order alone is its own class.
    const char* input = R"({"a":1.5,"b":[1.5]})";
    const char* expect = "a26161fa3fc00000616281fa3fc00000";
    const vector_result both = graded_cbor(input, expect, "a2616281f93e006161f93e00");
    EXPECT_EQ(both.verdict, result::pass_equivalent) << both.detail;
    EXPECT_EQ(both.difference, "float width") << both.diff_text;
    EXPECT_NE(marked(both.diff_text, false).find("float32 1.5"), std::string::npos) << both.diff_text;
    EXPECT_NE(marked(both.diff_text, true).find("float16 1.5"), std::string::npos) << both.diff_text;
    const vector_result width = graded_cbor(input, expect, "a26161f93e00616281f93e00");
    EXPECT_EQ(width.difference, "float width") << width.diff_text;
    const vector_result order = graded_cbor(input, expect, "a2616281fa3fc000006161fa3fc00000");
    EXPECT_EQ(order.verdict, result::pass_equivalent) << order.detail;
    EXPECT_EQ(order.difference, "key order") << order.diff_text;
    EXPECT_NE(marked(order.diff_text, true).find("key text(1) \"a\""), std::string::npos) << order.diff_text;
    // Nested: the inner map's float is narrower, the outer map's keys reordered.
    const vector_result nested =
        graded_cbor(R"({"a":{"x":1.5},"b":1})", "a26161a16178fa3fc00000616201", "a26162016161a16178f93e00");
    EXPECT_EQ(nested.difference, "float width") << nested.diff_text;
    // A head of another width on a reordered map's key: the head width, not the order.
    const vector_result head = graded_cbor(R"({"a":1,"b":2})", "a2616101616202", "a261620278016101");
    EXPECT_EQ(head.difference, "head width") << head.diff_text;
}

}  // namespace
}  // namespace sinkcheck::conform
