// conform_command_test.cpp — `sinkcheck conform` as a user meets it: options, exit codes,
// malformed vector files, the expected-failures list, the five report formats, the linked
// encoders, and the Python batch encoders.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/conform/run.hpp"
#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/encode.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/testkit/oracle.hpp"

namespace sinkcheck::conform {
namespace {

namespace fs = std::filesystem;

const std::string hostile_encoder = CONFORM_HOSTILE_ENCODER;
const std::string python_dir = SINKCHECK_PYTHON_ADAPTERS;

/// The reference, declaring every value that holds a float unsupported: an encoder that grades
/// some vectors and not others, as third-party encoders do.
class declines_floats : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format f, const nlohmann::json& value, const std::string&,
                                     const encode_options& o) override {
        std::vector<const nlohmann::json*> todo = {&value};
        while (!todo.empty()) {
            const nlohmann::json* v = todo.back();
            todo.pop_back();
            if (v->is_number_float()) throw unsupported("no floats here");
            if (v->is_structured()) {
                for (const auto& child : *v) todo.push_back(&child);
            }
        }
        return encode_to_vector(f, value, o);
    }
};

const bool registered = [] {
    register_linked_encoder({"declines-floats",
                             "the reference, declaring values with a float unsupported",
                             {all_formats.begin(), all_formats.end()},
                             [] { return std::make_unique<declines_floats>(); }});
    return true;
}();

/// The reference with whole doubles written as the integers of the same value and invalid UTF-8
/// written anyway (as a nil), what msgpack-cxx's packer does by design; `slip` also negates every
/// double that is not whole, a bug no declaration covers.
class integer_floats : public linked_encoder {
public:
    explicit integer_floats(bool slip) : slip_(slip) {}
    std::vector<std::uint8_t> encode(format f, const nlohmann::json& value, const std::string&,
                                     const encode_options& o) override {
        nlohmann::json copy = value;
        std::vector<nlohmann::json*> todo = {&copy};
        while (!todo.empty()) {
            nlohmann::json& v = *todo.back();
            todo.pop_back();
            if (v.is_structured()) {
                for (auto& child : v) todo.push_back(&child);
            } else if (v.is_number_float()) {
                const double d = v.get<double>();
                if (d == std::trunc(d) && std::fabs(d) < 9.0e18) {
                    v = static_cast<std::int64_t>(d);
                } else if (slip_ && d == d) {
                    v = -d;
                }
            }
        }
        try {
            return encode_to_vector(f, copy, o);
        } catch (const encode_error& e) {
            if (e.id() != error_id::invalid_utf8) throw;
            return {0xc0};
        }
    }

private:
    bool slip_;
};

const bool integer_floats_registered = [] {
    for (const auto& [name, declares, slip] : {std::tuple<const char*, bool, bool>{"integer-floats", true, false},
                                               {"integer-floats-undeclared", false, false},
                                               {"integer-floats-and-a-slip", true, true}}) {
        linked_encoder_info info{
            name, "the reference, whole doubles as integers, invalid UTF-8 written", {format::msgpack}, [slip = slip] {
                return std::make_unique<integer_floats>(slip);
            }};
        info.declared.whole_floats_as_integers = declares;
        info.declared.writes_invalid_utf8 = declares;
        register_linked_encoder(std::move(info));
    }
    return true;
}();

class Command : public ::testing::Test {
protected:
    void SetUp() override {
        // one directory, removed whole by TearDown: a parameterised test's name holds a '/'
        std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        std::replace(name.begin(), name.end(), '/', '.');
        dir_ = fs::temp_directory_path() / ("conform_command_test." + std::to_string(::getpid()) + "." + name);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string file(const std::string& name, const std::string& text) {
        const fs::path p = dir_ / name;
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
    static std::string read(const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    /// Runs the command; returns its exit status, stderr in err_.
    int run(const std::vector<std::string>& args) {
        ::testing::internal::CaptureStderr();
        const int rc = run_conform_command(args);
        err_ = ::testing::internal::GetCapturedStderr();
        return rc;
    }
    std::string out_path() const { return (dir_ / "report").string(); }

    fs::path dir_;
    std::string err_;
};

// ---- malformed vector files ---------------------------------------------------------------------

struct malformed_case {
    const char* name;
    const char* text;
    int line;
    const char* message;
};

const char* const good_vector = "id: cbor/x\ninput: 1\nlevel: exact\nexpect: 01\nrule: r\nsource: s\n";

class MalformedCorpus : public Command, public ::testing::WithParamInterface<malformed_case> {};

TEST_P(MalformedCorpus, IsReportedAsFileLineMessageWithExit2) {
    const malformed_case& c = GetParam();
    const std::string path = file("cbor.vectors", std::string(good_vector) + "\n" + c.text);
    const int rc = run({"--format", "cbor", "--encoder", "linked:reference", "--corpus", path, "--output", out_path()});
    EXPECT_EQ(rc, 2);
    const std::string where = path + ":" + std::to_string(c.line) + ": ";
    EXPECT_NE(err_.find(where), std::string::npos) << "want '" << where << "' in: " << err_;
    EXPECT_NE(err_.find(c.message), std::string::npos) << err_;
}

const malformed_case malformed_cases[] = {
    {"unknown_field", "id: cbor/y\ninput: 1\ncolour: red\n", 10, "unknown field 'colour'"},
    {"bad_hex", "id: cbor/y\ninput: 1\nlevel: exact\nexpect: 0g\nrule: r\nsource: s\n", 11, "not a hex digit"},
    {"odd_hex", "id: cbor/y\ninput: 1\nlevel: exact\nexpect: 012\nrule: r\nsource: s\n", 11,
     "odd number of hex digits"},
    {"bad_input", "id: cbor/y\ninput: [1,\nlevel: exact\nexpect: 01\nrule: r\nsource: s\n", 9, "input:"},
    {"missing_expect", "id: cbor/y\ninput: 1\nlevel: exact\nrule: r\nsource: s\n", 8, "missing 'expect'"},
    {"duplicate_id", "id: cbor/x\ninput: 1\nlevel: exact\nexpect: 01\nrule: r\nsource: s\n", 8, "duplicate id"},
    {"no_colon", "id: cbor/y\ninput 1\n", 9, "expected 'field: value'"},
    {"wrong_prefix", "id: msgpack/y\n", 8, "starts with 'cbor/'"},
    {"unknown_level", "id: cbor/y\ninput: 1\nlevel: strict\n", 10, "unknown level"},
    {"error_and_expect", "id: cbor/y\ninput: 1\nerror: type_error.316\nexpect: 01\nrule: r\nsource: s\n", 8,
     "takes no 'expect'"},
    {"bad_error", "id: cbor/y\ninput: 1\nerror: nope\n", 10, "error is"},
    {"unclosed_group", "id: cbor/y\ninput: 1\nlevel: exact\nexpect: (00\nrule: r\nsource: s\n", 11, "without ')'"},
};

INSTANTIATE_TEST_SUITE_P(Cases, MalformedCorpus, ::testing::ValuesIn(malformed_cases),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

TEST_F(Command, AFileNamedForNoFormatIsRefused) {
    const std::string path = file("vectors.txt", good_vector);
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference", "--corpus", path}), 2);
    EXPECT_NE(err_.find(path + ":1: a vector file is named"), std::string::npos) << err_;
}

TEST_F(Command, AFileWithoutAVectorIsReportedAsSuch) {
    // Before: "no cbor vector matches the level and filters", exit 2, no file named.
    for (const char* text : {"", "# only a comment\n\n# and another\n"}) {
        const std::string path = file("cbor.vectors", text);
        EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference", "--corpus", path}), 2);
        EXPECT_NE(err_.find(path + ": holds no vector"), std::string::npos) << err_;
    }
}

TEST_F(Command, ACorpusPathThatIsNoFileIsRefusedBeforeReading) {
    // Before: --corpus /dev/zero read 8.4 GB in 35 s before the file name was looked at.
    const fs::path zero = dir_ / "cbor.vectors";
    fs::create_symlink("/dev/zero", zero);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference", "--corpus", "/dev/zero"}), 2);
    EXPECT_NE(err_.find("/dev/zero:1: a vector file is named"), std::string::npos) << err_;
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference", "--corpus", zero.string()}), 2);
    EXPECT_NE(err_.find(zero.string() + ": is not a regular file"), std::string::npos) << err_;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0);
    // Nor one beyond the size bound.
    fs::remove(zero);
    { std::ofstream(zero, std::ios::binary).flush(); }
    fs::resize_file(zero, max_vector_file_bytes + 1);
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference", "--corpus", zero.string()}), 2);
    EXPECT_NE(err_.find("too large for a vector file"), std::string::npos) << err_;
}

TEST_F(Command, CorpusProblemsSayWhatIsWrongWithoutALineZero) {
    const std::string missing = (dir_ / "nowhere").string();
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference", "--corpus", missing}), 2);
    EXPECT_NE(err_.find(missing + ": no such corpus"), std::string::npos) << err_;
    EXPECT_EQ(err_.find(":0:"), std::string::npos) << err_;
    ::setenv("SINKCHECK_CORPUS", "", 1);
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference"}), 2);
    EXPECT_NE(err_.find("SINKCHECK_CORPUS is set but empty"), std::string::npos) << err_;
    ::setenv("SINKCHECK_CORPUS", missing.c_str(), 1);
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference"}), 2);
    EXPECT_NE(err_.find(missing + ": no such corpus"), std::string::npos) << err_;
    ::unsetenv("SINKCHECK_CORPUS");
}

TEST_F(Command, ARepetitionIsBoundedAndTheLineCheckedBeforeExpanding) {
    // Before: 39 bytes cost 7.7 s, 8.3 million empty strings made before the stray text after
    // the value was noticed.
    const std::string head = "id: msgpack/s\ninput: ";
    for (const char* input : {"[\"\"]*08333833 x]", "\"\"*08333833 x]", "[\"\"]*08333833", "[[0]*1024]*1024"}) {
        const std::string path =
            file("msgpack.vectors", head + input + "\nlevel: exact\nexpect: 90\nrule: r\nsource: s\n");
        const auto t0 = std::chrono::steady_clock::now();
        EXPECT_EQ(run({"--format", "msgpack", "--encoder", "linked:reference", "--corpus", path}), 2) << input;
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.5) << input;
        EXPECT_NE(err_.find(path + ":2: input: "), std::string::npos) << err_;
    }
    EXPECT_NE(err_.find("repetitions create more than 1048576 elements"), std::string::npos) << err_;
}

// ---- options ------------------------------------------------------------------------------------

TEST_F(Command, UsageErrorsExit2WithAMessage) {
    EXPECT_EQ(run({"--encoder", "x"}), 2);
    EXPECT_NE(err_.find("--format and --encoder are required"), std::string::npos);
    EXPECT_EQ(run({"--format", "yaml", "--encoder", "x"}), 2);
    EXPECT_NE(err_.find("unknown format 'yaml'"), std::string::npos);
    EXPECT_EQ(run({"--format", "msgpack", "--level", "canonical", "--encoder", "linked:reference"}), 2);
    EXPECT_NE(err_.find("defines no canonical encoding"), std::string::npos) << err_;
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:nothing"}), 2);
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "'unterminated"}), 2);
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference", "--filter", "no/such/*"}), 2);
    EXPECT_NE(err_.find("no cbor vector matches"), std::string::npos) << err_;
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "x", "--jobs", "zero"}), 2);
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "x", "--bogus"}), 2);
}

TEST_F(Command, OutOfRangeOptionValuesAreRefused) {
    // Before: --timeout inf (or 1e10: nanoseconds overflow) timed every vector out at once, and
    // --max-output 18446744073709551616 wrapped to 0 and made every output a flood.
    const std::vector<std::pair<std::string, std::string>> refused = {{"--timeout", "inf"},
                                                                      {"--timeout", "nan"},
                                                                      {"--timeout", "1e10"},
                                                                      {"--timeout", "1000000.5"},
                                                                      {"--timeout", "0"},
                                                                      {"--timeout", "0.0009"},
                                                                      {"--timeout", "-1"},
                                                                      {"--timeout", "3s"},
                                                                      {"--max-output", "18446744073709551616"},
                                                                      {"--max-output", "0"},
                                                                      {"--max-output", "1073741825"},
                                                                      {"--max-output", "1e6"},
                                                                      {"--max-output", "-1"},
                                                                      {"--jobs", "257"},
                                                                      {"--jobs", "1.5"},
                                                                      {"--jobs", "0"}};
    for (const auto& [option, value] : refused) {
        EXPECT_EQ(run({"--format", "cbor", "--encoder", hostile_encoder, "--filter", "cbor/int/0", option, value}), 2)
            << option << " " << value;
        EXPECT_NE(err_.find(option + " is"), std::string::npos) << err_;
    }
    // The edges themselves are accepted.
    const std::vector<std::pair<std::string, std::string>> accepted = {{"--timeout", "1000000"},
                                                                       {"--timeout", "0.5"},
                                                                       {"--max-output", "1073741824"},
                                                                       {"--max-output", "1"},
                                                                       {"--jobs", "256"}};
    for (const auto& [option, value] : accepted) {
        EXPECT_EQ(run({"--format", "cbor", "--encoder", hostile_encoder, "--filter", "cbor/int/0", option, value,
                       "--output", out_path()}),
                  0)
            << option << " " << value << ": " << err_;
    }
}

TEST_F(Command, AnOptionGivenTwiceIsRefusedAndLinkedEncodersWarnOfWhatTheyIgnore) {
    EXPECT_EQ(run({"--format", "cbor", "--format", "msgpack", "--encoder", "linked:reference"}), 2);
    EXPECT_NE(err_.find("option '--format' is given twice"), std::string::npos) << err_;
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference", "--report", "json", "--report=tap"}), 2);
    EXPECT_EQ(run({"--format", "bon8", "--encoder", "linked:reference", "--mode", "batch", "--timeout", "3", "--output",
                   out_path()}),
              0);
    EXPECT_NE(err_.find("warning: --mode does not apply to a linked encoder"), std::string::npos) << err_;
    EXPECT_NE(err_.find("warning: --timeout does not apply to a linked encoder"), std::string::npos) << err_;
    // --filter is the one option meant to be repeated.
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:reference", "--filter", "cbor/int/0", "--filter",
                   "cbor/int/1", "--output", out_path()}),
              0);
    EXPECT_EQ(err_.find("warning"), std::string::npos) << err_;
}

TEST_F(Command, AMissingEncoderIsOneMessageAndExit2) {
    // Before: harness-error on every vector, a 1,602-line report and exit 1.
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "sinkcheck-encoder-typo", "--output", out_path()}), 2);
    EXPECT_EQ(err_,
              "sinkcheck conform: --encoder: cannot run 'sinkcheck-encoder-typo': No such file or directory "
              "(looked up in PATH)\n");
    EXPECT_FALSE(fs::exists(out_path()));
}

TEST_F(Command, ExitStatusIs0WhenTheEncoderConformsAnd1WhenNot) {
    EXPECT_EQ(run({"--format", "bon8", "--encoder", "linked:reference", "--output", out_path()}), 0);
    EXPECT_EQ(run({"--format", "cbor", "--encoder", hostile_encoder + " flip", "--filter", "cbor/int/*", "--jobs", "2",
                   "--output", out_path()}),
              1);
}

// ---- expected failures --------------------------------------------------------------------------

TEST_F(Command, ExpectedFailuresAreReportedAndANowPassingEntryFailsTheRun) {
    const std::vector<std::string> base = {
        "--format", "cbor",     "--encoder", hostile_encoder + " float-width", "--filter", "cbor/float/1.*", "--output",
        out_path(), "--report", "json"};
    // float-width writes 1.5, 1.1e.., 1.0 as binary64: 1.0 and 1.5 become pass-equivalent (not
    // exact), 1.1 and 1.0000000000000002 already are binary64 and pass.
    auto with = [&](const std::string& list) {
        std::vector<std::string> a = base;
        a.push_back("--expected-failures");
        a.push_back(file("failures.txt", list));
        return a;
    };
    EXPECT_EQ(run(base), 1);
    EXPECT_EQ(run(with("# floats come out as binary64\ncbor/float/1.0   # binary64\ncbor/float/1.5  # binary64\n")), 0)
        << err_;
    const auto report = nlohmann::json::parse(read(out_path()));
    EXPECT_EQ(report["expected_failures"], 2);
    EXPECT_EQ(report["unexpected_passes"], 0);
    EXPECT_EQ(run(with("cbor/float/1.0 # binary64\ncbor/float/1.5 # binary64\ncbor/float/1.1 # passes already\n")), 1);
    EXPECT_EQ(nlohmann::json::parse(read(out_path()))["unexpected_passes"], 1);
    // A CI that reads only JUnit's counts sees the unexpected pass as a failure, the listed ones skipped.
    std::vector<std::string> junit =
        with("cbor/float/1.0 # binary64\ncbor/float/1.5 # binary64\ncbor/float/1.1 # passes\n");
    *std::find(junit.begin(), junit.end(), "json") = "junit";
    EXPECT_EQ(run(junit), 1);
    EXPECT_NE(read(out_path()).find("failures=\"1\" errors=\"0\" skipped=\"2\""), std::string::npos)
        << read(out_path());
    EXPECT_NE(read(out_path()).find("listed as an expected failure but now passes"), std::string::npos);
    EXPECT_EQ(run(with("cbor/float/1.0\ncbor/no-such-vector # typo\n")), 2);
    EXPECT_NE(err_.find(":2: no vector of this format has the id 'cbor/no-such-vector'"), std::string::npos) << err_;
    EXPECT_EQ(run(with("cbor/float/1.0 cbor/float/1.5\n")), 2);
    // Before: a directory read as an empty list, exit 0.
    std::vector<std::string> a = base;
    a.insert(a.end(), {"--expected-failures", dir_.string()});
    EXPECT_EQ(run(a), 2);
    EXPECT_NE(err_.find(dir_.string() + ": is a directory, not an expected-failures list"), std::string::npos) << err_;
    a.back() = "/dev/zero";
    EXPECT_EQ(run(a), 2);
    EXPECT_NE(err_.find("/dev/zero: is not a regular file"), std::string::npos) << err_;
}

TEST_F(Command, WriteExpectedFailuresListsWhatFailsSoThatTheNextRunPasses) {
    const std::string list = (dir_ / "written.txt").string();
    const std::vector<std::string> base = {"--format", "cbor",           "--encoder", hostile_encoder + " float-width",
                                           "--filter", "cbor/float/1.*", "--output",  out_path()};
    std::vector<std::string> a = base;
    a.insert(a.end(), {"--write-expected-failures", list});
    EXPECT_EQ(run(a), 1);
    const std::string written = read(list);
    EXPECT_NE(written.find("cbor/float/1.0  # pass-equivalent: float width"), std::string::npos) << written;
    EXPECT_NE(written.find("cbor/float/1.5  # pass-equivalent: float width"), std::string::npos) << written;
    EXPECT_EQ(written.find("cbor/float/1.1 "), std::string::npos) << written;
    a = base;
    a.insert(a.end(), {"--expected-failures", list});
    EXPECT_EQ(run(a), 0) << err_;
}

// ---- reports ------------------------------------------------------------------------------------

TEST_F(Command, EveryReportFormatDescribesTheFailures) {
    const std::vector<std::string> base = {
        "--format", "cbor",          "--encoder", hostile_encoder + " flip", "--filter", "cbor/string/IETF",
        "--filter", "cbor/int/1000", "--filter",  "cbor/refuse/discarded",   "--output", out_path(),
        "--report"};
    auto report = [&](const char* kind) {
        std::vector<std::string> a = base;
        a.push_back(kind);
        EXPECT_EQ(run(a), 1) << kind << ": " << err_;
        return read(out_path());
    };
    const std::string text = report("text");
    EXPECT_NE(text.find("fail  cbor/string/IETF"), std::string::npos) << text;
    EXPECT_NE(text.find("expected: 000000: 64 49 [45]"), std::string::npos) << text;
    EXPECT_NE(text.find(">>000000  6449455446"), std::string::npos) << text;
    EXPECT_NE(text.find("DOES NOT CONFORM"), std::string::npos);

    const auto json = nlohmann::json::parse(report("json"));
    EXPECT_EQ(json["counts"]["fail"], 2);
    EXPECT_EQ(json["counts"]["refused-correctly"], 1);
    EXPECT_EQ(json["vectors"].size(), 3u);
    EXPECT_EQ(json["vectors"][0]["first_difference"], 1);  // 1903e8 with its middle byte flipped
    EXPECT_EQ(json["vectors"][1]["first_difference"], 2);  // 6449455446 likewise

    const std::string junit = report("junit");
    EXPECT_NE(junit.find("<testsuite name=\"sinkcheck-conform.cbor.exact\" tests=\"3\" failures=\"2\""),
              std::string::npos)
        << junit;
    EXPECT_NE(junit.find("<failure type=\"fail\""), std::string::npos);

    const std::string tap = report("tap");
    EXPECT_EQ(tap.rfind("TAP version 13\n1..3\n", 0), 0u) << tap;
    EXPECT_NE(tap.find("not ok 1 - cbor/int/1000"), std::string::npos) << tap;
    EXPECT_NE(tap.find("ok 3 - cbor/refuse/discarded (refused-correctly)"), std::string::npos) << tap;

    const std::string html = report("html");
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("<td class=\"id\">cbor/string/IETF</td>"), std::string::npos);
    EXPECT_NE(html.find("<details>"), std::string::npos);
    // One page, readable offline: nothing fetched from anywhere.
    EXPECT_EQ(html.find("src="), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(html.find("http"), std::string::npos);
}

TEST_F(Command, EveryReportIsValidForItsFormatWhateverTheEncoderWrites) {
    // Before: an encoder writing \377 to stderr made the JUnit report invalid XML.
    for (const char* mode : {"per-vector", "batch"}) {
        for (const char* kind : {"text", "json", "junit", "tap", "html"}) {
            EXPECT_EQ(
                run({"--format", "cbor", "--mode", mode, "--encoder", hostile_encoder + " stderr-binary", "--filter",
                     "cbor/string/*", "--filter", "cbor/refuse/*", "--report", kind, "--output", out_path()}),
                1)
                << kind << ": " << err_;
            const std::string report = read(out_path());
            EXPECT_EQ(detail::utf8_invalid_at(report.data(), report.size()), detail::utf8_valid) << kind;
            for (char c : report) {
                const auto b = static_cast<unsigned char>(c);
                EXPECT_FALSE(b < 0x20 && b != '\n' && b != '\t') << kind << ": control byte " << int{b};
                if (b < 0x20 && b != '\n' && b != '\t') break;
            }
            EXPECT_EQ(report.find("\xef\xbf\xbe"), std::string::npos) << kind << ": U+FFFE is no XML character";
            if (std::string(kind) == "json") {
                EXPECT_FALSE(nlohmann::json::parse(report, nullptr, false).is_discarded());
            }
            if (std::string(kind) == "junit" || std::string(kind) == "html") {
                EXPECT_NE(report.find("\\xff\\xfe"), std::string::npos) << kind << ": the bytes are shown escaped";
            }
            if (std::string(kind) == "junit") {
                // Expat, as the reader used.
                const std::string check =
                    "/usr/bin/python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' " + out_path();
                EXPECT_EQ(std::system(check.c_str()), 0) << "not well-formed XML:\n" << report.substr(0, 2000);
            }
        }
    }
}

TEST_F(Command, OneValueHasOneVerdictWhicheverVectorCarriesIt) {
    // Before: the bignum for 2^64 conformed under cbor/bigint/ and failed under
    // cbor/rfc8949-a/ at the exact level, and at the canonical level the float did the reverse.
    std::vector<const test_vector*> twins;
    const std::vector<test_vector> all = load_corpus(SINKCHECK_CORPUS_DIR, format::cbor);
    for (const test_vector& v : all) {
        if (v.input_text == "18446744073709551616") twins.push_back(&v);
    }
    ASSERT_GE(twins.size(), 2u);
    const std::vector<std::string> encodings = {"fa5f800000", "c249010000000000000000", "fb43f0000000000000",
                                                "1bffffffffffffffff"};
    for (run_level level : {run_level::exact, run_level::canonical, run_level::equivalent}) {
        for (const std::string& hex : encodings) {
            encode_outcome o;
            o.what = encode_outcome::kind::output;
            o.bytes = parse_hex(hex);
            const vector_result first = classify(*twins[0], level, {}, o);
            for (const test_vector* v : twins) {
                const vector_result r = classify(*v, level, {}, o);
                EXPECT_EQ(r.success, first.success) << v->id << " vs " << twins[0]->id << ": " << hex;
                EXPECT_EQ(r.verdict, first.verdict) << v->id << " vs " << twins[0]->id << ": " << hex;
            }
            EXPECT_EQ(first.success, hex != "1bffffffffffffffff") << level_name(level) << ": " << hex;
        }
    }
}

TEST_F(Command, PassEquivalentSaysWhichBytesItIsNot) {
    // Before: "pass-equivalent (not exact)" at the canonical level too. float-width writes
    // binary64 where the canonical form is binary16 and the reference's binary32.
    EXPECT_EQ(run({"--format", "cbor", "--level", "canonical", "--encoder", hostile_encoder + " float-width",
                   "--filter", "cbor/float/1.5*", "--output", out_path()}),
              1);
    const std::string text = read(out_path());
    EXPECT_NE(text.find("pass-equivalent (not canonical)  cbor/float/1.5/canonical"), std::string::npos) << text;
    EXPECT_EQ(run({"--format", "cbor", "--encoder", hostile_encoder + " float-width", "--filter", "cbor/float/1.5*",
                   "--output", out_path()}),
              1);
    EXPECT_NE(read(out_path()).find("pass-equivalent (not exact)  cbor/float/1.5\n"), std::string::npos);
}

// ---- unsupported values --------------------------------------------------------------------------

/// Two integers the encoder writes and two floats it declares unsupported.
std::vector<std::string> half_unsupported(const std::string& out) {
    return {"--format", "cbor",       "--encoder", "linked:declines-floats", "--filter", "cbor/int/0",
            "--filter", "cbor/int/1", "--filter",  "cbor/float/1.0",         "--filter", "cbor/float/1.5",
            "--output", out};
}

TEST_F(Command, AnUndeclaredUnsupportedValueFailsTheRunAndSaysSo) {
    // Before: 2 of 4 vectors unsupported, nothing listed or allowed: CONFORMS, exit 0.
    EXPECT_EQ(run(half_unsupported(out_path())), 1);
    const std::string text = read(out_path());
    EXPECT_NE(text.find("DOES NOT CONFORM at level exact: 2 of 4 graded, 2 unsupported not declared "
                        "(--max-unsupported 0 allows 0: raise it, or list them in the expected-failures list); "
                        "0 failing"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("unsupported (not declared)  cbor/float/1.5\n  declared unsupported: no floats here"),
              std::string::npos)
        << text;
    EXPECT_NE(err_.find("2 of 4 graded, 0 failing, 0 expected failures, 0 unexpected passes, 2 unsupported (2 not "
                        "declared)"),
              std::string::npos)
        << err_;
    // An encoder that declares everything unsupported has graded nothing, allowed or not.
    std::vector<std::string> floats = {"--format", "cbor",           "--encoder",         "linked:declines-floats",
                                       "--filter", "cbor/float/1.5", "--max-unsupported", "100%",
                                       "--output", out_path()};
    EXPECT_EQ(run(floats), 1);
    EXPECT_NE(read(out_path())
                  .find("NOTHING GRADED at level exact: 0 of 1 graded (1 unsupported: 1 within "
                        "--max-unsupported 100%)"),
              std::string::npos)
        << read(out_path());
}

TEST_F(Command, UnsupportedVectorsNamedInTheListAreDeclared) {
    std::vector<std::string> a = half_unsupported(out_path());
    a.insert(a.end(), {"--report", "json", "--expected-failures",
                       file("list.txt", "cbor/float/1.0  # unsupported: no floats\ncbor/float/1.5  # unsupported\n")});
    EXPECT_EQ(run(a), 0) << err_;
    auto report = nlohmann::json::parse(read(out_path()));
    EXPECT_EQ(report["conforms"], true);
    EXPECT_EQ(report["unsupported_listed"], 2);
    EXPECT_EQ(report["unsupported_declared"], 2);
    EXPECT_EQ(report["unsupported_undeclared"], 0);
    EXPECT_EQ(report["expected_failures"], 0);  // unsupported is not a failure, listed or not
    EXPECT_EQ(report["verdict"],
              "CONFORMS at level exact: 2 of 4 graded (2 unsupported: 2 listed); 0 failing, 0 expected failures, "
              "0 unexpected passes");
    // One listed, the other not: the list declares only what it names.
    a.back() = file("one.txt", "cbor/float/1.0  # unsupported: no floats\n");
    EXPECT_EQ(run(a), 1);
    report = nlohmann::json::parse(read(out_path()));
    EXPECT_EQ(report["unsupported_listed"], 1);
    EXPECT_EQ(report["unsupported_undeclared"], 1);
    for (const auto& v : report["vectors"]) {
        if (v["result"] == "unsupported") {
            EXPECT_EQ(v["declared"], v["id"] == "cbor/float/1.0") << v.dump();
        }
    }
    // ...and listed ones do not count against --max-unsupported: one allowed covers the other.
    a.insert(a.end(), {"--max-unsupported", "1"});
    EXPECT_EQ(run(a), 0) << err_;
    EXPECT_EQ(nlohmann::json::parse(read(out_path()))["verdict"],
              "CONFORMS at level exact: 2 of 4 graded (2 unsupported: 1 listed, 1 within --max-unsupported 1); "
              "0 failing, 0 expected failures, 0 unexpected passes");
    // A listed vector that the encoder now supports and passes is an unexpected pass, as for any
    // entry: the list must shrink when support arrives, or a later regression would hide.
    a = half_unsupported(out_path());
    a.insert(a.end(), {"--expected-failures", file("stale.txt",
                                                   "cbor/float/1.0 # unsupported\ncbor/float/1.5 # unsupported\n"
                                                   "cbor/int/0 # unsupported: before integers\n")});
    EXPECT_EQ(run(a), 1);
    EXPECT_NE(read(out_path()).find("pass (listed as expected failure, now passes)  cbor/int/0"), std::string::npos)
        << read(out_path());
}

TEST_F(Command, WriteExpectedFailuresListsUnsupportedVectorsMarkedAsSuch) {
    const std::string list = (dir_ / "written.txt").string();
    std::vector<std::string> a = half_unsupported(out_path());
    a.insert(a.end(), {"--write-expected-failures", list});
    EXPECT_EQ(run(a), 1);
    const std::string written = read(list);
    EXPECT_NE(written.find("cbor/float/1.0  # unsupported: no floats here\n"), std::string::npos) << written;
    EXPECT_NE(written.find("cbor/float/1.5  # unsupported: no floats here\n"), std::string::npos) << written;
    EXPECT_EQ(written.find("cbor/int/"), std::string::npos) << written;
    EXPECT_NE(err_.find("2 vectors listed as expected failures, 2 of them unsupported"), std::string::npos) << err_;
    a = half_unsupported(out_path());
    a.insert(a.end(), {"--expected-failures", list});
    EXPECT_EQ(run(a), 0) << err_;
    const std::string text = read(out_path());
    EXPECT_NE(text.find("unsupported (listed)  cbor/float/1.0\n  declared unsupported: no floats here\n  listed "
                        "because: unsupported: no floats here\n"),
              std::string::npos)
        << text;
}

TEST_F(Command, MaxUnsupportedIsACountOrAShareOfTheRun) {
    auto with = [&](const std::string& budget) {
        std::vector<std::string> a = half_unsupported(out_path());
        a.insert(a.end(), {"--max-unsupported", budget});
        return run(a);
    };
    // Two unsupported of four vectors.
    EXPECT_EQ(with("1"), 1);
    EXPECT_NE(read(out_path()).find("2 unsupported not declared (--max-unsupported 1 allows 1"), std::string::npos)
        << read(out_path());
    EXPECT_EQ(with("2"), 0) << err_;
    EXPECT_NE(read(out_path())
                  .find("CONFORMS at level exact: 2 of 4 graded (2 unsupported: 2 within "
                        "--max-unsupported 2); 0 failing"),
              std::string::npos)
        << read(out_path());
    EXPECT_EQ(with("50%"), 0) << err_;  // 2 of 4
    EXPECT_EQ(with("49.999%"), 1);      // 1.99996, rounded down
    EXPECT_EQ(with("100%"), 0) << err_;
    EXPECT_EQ(with("0"), 1);
    EXPECT_EQ(with("100000000"), 0) << err_;
}

TEST_F(Command, BadMaxUnsupportedValuesExit2NamingTheOption) {
    for (const char* value :
         {"-1", "abc", "101%", "100.001%", "1.5", "1e3", "%", "", "50 %", "0.0001%", "100000001", "1000%"}) {
        std::vector<std::string> a = half_unsupported(out_path());
        a.insert(a.end(), {"--max-unsupported", value});
        EXPECT_EQ(run(a), 2) << value;
        EXPECT_NE(err_.find("sinkcheck conform: --max-unsupported is a whole number from 0 to 100000000 or a "
                            "percentage from 0% to 100% (at most three decimals), not '" +
                            std::string(value) + "'"),
                  std::string::npos)
            << err_;
    }
    std::vector<std::string> twice = half_unsupported(out_path());
    twice.insert(twice.end(), {"--max-unsupported", "1", "--max-unsupported=2"});
    EXPECT_EQ(run(twice), 2);
    EXPECT_NE(err_.find("option '--max-unsupported' is given twice"), std::string::npos) << err_;
}

TEST_F(Command, EveryReportShowsHowMuchWasGraded) {
    auto report = [&](const char* kind) {
        std::vector<std::string> a = half_unsupported(out_path());
        a.insert(a.end(), {"--report", kind});
        EXPECT_EQ(run(a), 1) << kind << ": " << err_;
        return read(out_path());
    };
    const std::string verdict =
        "DOES NOT CONFORM at level exact: 2 of 4 graded, 2 unsupported not declared (--max-unsupported 0 allows 0: "
        "raise it, or list them in the expected-failures list); 0 failing, 0 expected failures, 0 unexpected passes";
    const std::string text = report("text");
    EXPECT_NE(text.find("vectors: 4 in "), std::string::npos) << text;
    EXPECT_NE(text.find("), 2 graded\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n" + verdict + "\n"), std::string::npos) << text;

    const auto json = nlohmann::json::parse(report("json"));
    EXPECT_EQ(json["total"], 4);
    EXPECT_EQ(json["graded"], 2);
    EXPECT_EQ(json["unsupported"], 2);
    EXPECT_EQ(json["unsupported_declared"], 0);
    EXPECT_EQ(json["unsupported_undeclared"], 2);
    EXPECT_EQ(json["max_unsupported"], "0");
    EXPECT_EQ(json["unsupported_allowed"], 0);
    EXPECT_EQ(json["conforms"], false);
    EXPECT_EQ(json["verdict"], verdict);

    // JUnit: undeclared unsupported vectors are failures, so a CI reading only the counts fails too.
    const std::string junit = report("junit");
    EXPECT_NE(junit.find("tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"0\""), std::string::npos) << junit;
    EXPECT_NE(junit.find("<failure type=\"unsupported\" message=\"declared unsupported: no floats here; not listed"),
              std::string::npos)
        << junit;
    for (const char* property :
         {"<property name=\"total\" value=\"4\"/>", "<property name=\"graded\" value=\"2\"/>",
          "<property name=\"passed\" value=\"2\"/>", "<property name=\"unsupported_undeclared\" value=\"2\"/>",
          "<property name=\"conforms\" value=\"false\"/>"}) {
        EXPECT_NE(junit.find(property), std::string::npos) << property << "\n" << junit;
    }
    EXPECT_NE(junit.find("<property name=\"verdict\" value=\"DOES NOT CONFORM at level exact: 2 of 4 graded"),
              std::string::npos)
        << junit;

    const std::string tap = report("tap");
    EXPECT_NE(tap.find("not ok 3 - cbor/float/1.0 (unsupported: not listed"), std::string::npos) << tap;
    EXPECT_NE(tap.find("# " + verdict + "\n"), std::string::npos) << tap;

    const std::string html = report("html");
    EXPECT_NE(html.find("2 of 4 vectors graded in "), std::string::npos) << html;
    EXPECT_NE(html.find("<strong>DOES NOT CONFORM at level exact: 2 of 4 graded, 2 unsupported not declared"),
              std::string::npos)
        << html;

    // Tolerated, they are skipped and said to be.
    std::vector<std::string> a = half_unsupported(out_path());
    a.insert(a.end(), {"--report", "junit", "--max-unsupported", "2"});
    EXPECT_EQ(run(a), 0) << err_;
    const std::string tolerated = read(out_path());
    EXPECT_NE(tolerated.find("tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"2\""), std::string::npos) << tolerated;
    EXPECT_NE(tolerated.find("<skipped message=\"declared unsupported: no floats here (tolerated)\"/>"),
              std::string::npos)
        << tolerated;
}

TEST_F(Command, CountsAndVerdictTellOneStoryAtTheExactLevel) {
    // Before: "summary: pass 2, pass-equivalent 2, fail 0, ..." above "DOES NOT CONFORM ...: 2
    // failing", and one "differences:" line for conforming and failing results alike.
    const std::vector<std::string> base = {"--format", "cbor",           "--encoder", hostile_encoder + " float-width",
                                           "--filter", "cbor/float/1.*", "--output",  out_path()};
    EXPECT_EQ(run(base), 1);
    std::string text = read(out_path());
    EXPECT_NE(text.find("summary: pass 2, pass-equivalent 2 (2 not exact: failing), fail 0,"), std::string::npos)
        << text;
    EXPECT_NE(text.find("DOES NOT CONFORM at level exact: 4 of 4 graded (0 unsupported); 2 failing (2 "
                        "pass-equivalent (not exact)), 0 expected failures"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("differences in results that do not conform: float width 2\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("differences allowed at this level"), std::string::npos) << text;
    // At the equivalent level the same bytes conform, and the summary says they are allowed.
    std::vector<std::string> a = base;
    a.insert(a.end(), {"--level", "equivalent", "--report", "json"});
    EXPECT_EQ(run(a), 0) << err_;
    const auto json = nlohmann::json::parse(read(out_path()));
    EXPECT_EQ(json["differences_allowed"]["float width"], 2);
    EXPECT_TRUE(json["differences_failing"].empty()) << json["differences_failing"].dump();
    EXPECT_EQ(json["differences"]["float width"], 2);
    EXPECT_EQ(json["failing"]["pass-equivalent"], 0);
    a.back() = "text";
    EXPECT_EQ(run(a), 0) << err_;
    text = read(out_path());
    EXPECT_NE(text.find("summary: pass 2, pass-equivalent 2, fail 0,"), std::string::npos) << text;
    EXPECT_NE(text.find("differences allowed at this level: float width 2\n"), std::string::npos) << text;
}

TEST_F(Command, GeneratedValuesHonourMaxUnsupported) {
    // Generated ids depend on the seed and cannot be listed: the budget is how unsupported values
    // are declared there.
    auto generate = [&](const std::vector<std::string>& extra) {
        std::vector<std::string> a = {"--format",   "cbor", "--encoder", "linked:declines-floats",
                                      "--generate", "60",   "--seed",    "3",
                                      "--report",   "json", "--output",  out_path()};
        a.insert(a.end(), extra.begin(), extra.end());
        return run(a);
    };
    EXPECT_EQ(generate({}), 1);
    const auto report = nlohmann::json::parse(read(out_path()));
    const int unsupported = report["unsupported"].get<int>();
    ASSERT_GT(unsupported, 0) << "no generated value holds a float: the test shows nothing";
    ASSERT_LT(unsupported, 60);
    EXPECT_EQ(report["unsupported_undeclared"], unsupported);
    EXPECT_EQ(report["graded"], 60 - unsupported);
    EXPECT_EQ(report["failures"], 0);
    EXPECT_EQ(generate({"--max-unsupported", std::to_string(unsupported - 1)}), 1);
    EXPECT_EQ(generate({"--max-unsupported", std::to_string(unsupported)}), 0) << err_;
    EXPECT_EQ(nlohmann::json::parse(read(out_path()))["unsupported_declared"], unsupported);
    EXPECT_EQ(generate({"--max-unsupported", "100%"}), 0) << err_;
}

TEST_F(Command, GeneratedFindingsNameTheirShrunkValueAndHowManyValuesWereShrunk) {
    // Before: findings[].shrunk was a count beside "input", the shrunk value itself.
    EXPECT_EQ(run({"--format", "cbor", "--encoder", hostile_encoder + " cbor-24", "--mode", "batch", "--generate",
                   "300", "--seed", "5", "--shrink-steps", "200", "--report", "json", "--output", out_path()}),
              1);
    const auto report = nlohmann::json::parse(read(out_path()));
    ASSERT_FALSE(report["generated"]["findings"].empty());
    for (const auto& f : report["generated"]["findings"]) {
        EXPECT_FALSE(f.contains("shrunk")) << f.dump();
        EXPECT_GE(f["values_shrunk"].get<int>(), 1) << f.dump();
        EXPECT_LE(f["values_shrunk"].get<int>(), f["values"].get<int>()) << f.dump();
        EXPECT_TRUE(f["input"].is_string()) << f.dump();
    }
}

// ---- linked encoders ----------------------------------------------------------------------------

TEST_F(Command, LinkedNlohmannFailsExactlyTheRecordedDivergences) {
    // 3.11.2 is the oracle: every vector it does not pass must record a divergence from it.
    for (const format which : all_formats) {
        if (!oracle_has(which)) continue;
        const std::string f(format_name(which));
        ASSERT_EQ(run({"--format", f, "--encoder", "linked:nlohmann", "--report", "json", "--output", out_path()}), 1)
            << f;
        const auto report = nlohmann::json::parse(read(out_path()));
        std::set<std::string> failing;
        for (const auto& v : report["vectors"]) {
            if (!v["success"].get<bool>() && v["result"] != "unsupported") failing.insert(v["id"].get<std::string>());
        }
        std::set<std::string> recorded;
        for (const test_vector& v : load_corpus(SINKCHECK_CORPUS_DIR, parse_format(f))) {
            if (!v.divergence.empty() && (v.levels & level_canonical) == 0) recorded.insert(v.id);
        }
        // BSON: 3.11.2 asserts on a discarded value, so that vector is declared unsupported.
        if (std::string(f) == "bson") recorded.erase("bson/refuse/discarded");
        EXPECT_EQ(failing, recorded) << f;
    }
}

// ---- declared behaviour -------------------------------------------------------------------------

TEST_F(Command, WhatAnEncoderDeclaresIsAnExpectedFailureAndNothingElseIs) {
    const auto graded = [&](const std::string& encoder, std::vector<std::string> extra) {
        std::vector<std::string> a = {"--format", "msgpack",    "--encoder",         "linked:" + encoder,
                                      "--level",  "equivalent", "--max-unsupported", "100%",
                                      "--report", "json",       "--output",          out_path()};
        a.insert(a.end(), extra.begin(), extra.end());
        const int rc = run(a);
        return std::make_pair(rc, nlohmann::json::parse(read(out_path())));
    };
    // The declaration in the registration: the whole doubles and the invalid UTF-8 are expected.
    const auto [declared_rc, declared] = graded("integer-floats", {});
    EXPECT_EQ(declared_rc, 0) << declared["verdict"];
    EXPECT_EQ(declared["declared"], nlohmann::json({"whole_floats_as_integers", "writes_invalid_utf8"}));
    const std::size_t explained = declared["declared_failures"].get<std::size_t>();
    EXPECT_GE(explained, 15u);  // 17 whole doubles, an integer beyond 64 bits, 3 invalid UTF-8 strings
    EXPECT_EQ(declared["expected_failures"].get<std::size_t>(), explained);
    std::set<std::string> reasons;
    for (const auto& v : declared["vectors"]) {
        if (v.value("expected_failure", false)) reasons.insert(v["expected_reason"].get<std::string>());
    }
    EXPECT_EQ(reasons, (std::set<std::string>{"the encoder declares whole_floats_as_integers",
                                              "the encoder declares writes_invalid_utf8"}));
    // The same answers undeclared fail the run, each of them ...
    const auto [undeclared_rc, undeclared] = graded("integer-floats-undeclared", {});
    EXPECT_EQ(undeclared_rc, 1);
    EXPECT_EQ(undeclared["failures"].get<std::size_t>(), explained);
    EXPECT_EQ(undeclared["declared_failures"].get<std::size_t>(), 0u);
    // ... and --declare says for an encoder what its registration would, one name at a time.
    const auto [utf8_rc, utf8_only] = graded("integer-floats-undeclared", {"--declare", "writes-invalid-utf8"});
    EXPECT_EQ(utf8_rc, 1);
    EXPECT_EQ(utf8_only["declared_failures"].get<std::size_t>(), 3u);
    EXPECT_EQ(utf8_only["failures"].get<std::size_t>(), explained - 3);
    const auto [both_rc, both] = graded("integer-floats-undeclared",
                                        {"--declare", "writes_invalid_utf8", "--declare", "whole-floats-as-integers"});
    EXPECT_EQ(both_rc, 0) << both["verdict"];
    EXPECT_EQ(both["declared_failures"].get<std::size_t>(), explained);
    // A declaration covers what it says and no more: the negated fractions still fail.
    const auto [slip_rc, slip] = graded("integer-floats-and-a-slip", {});
    EXPECT_EQ(slip_rc, 1);
    EXPECT_LE(slip["declared_failures"].get<std::size_t>(), explained);
    for (const auto& v : slip["vectors"]) {
        if (v["id"].get<std::string>().rfind("msgpack/refuse/invalid-utf8", 0) == 0) {
            EXPECT_TRUE(v.value("expected_failure", false)) << v["id"];
        } else if (!v["success"].get<bool>() && !v.value("expected_failure", false) && v["result"] != "unsupported") {
            EXPECT_NE(v["detail"].get<std::string>().find("decodes to a different value"), std::string::npos) << v;
        }
    }
    EXPECT_GE(slip["failures"].get<std::size_t>(), 10u);
    // Generated values: what a declaration explains is counted as expected, not a finding.
    for (const auto& [encoder, rc] :
         {std::pair<const char*, int>{"integer-floats", 0}, {"integer-floats-undeclared", 1}}) {
        const auto [generated_rc, generated] = graded(encoder, {"--generate", "400"});
        EXPECT_EQ(generated_rc, rc) << encoder << ": " << generated["verdict"];
        if (rc == 0) {
            EXPECT_GT(generated["declared_failures"].get<std::size_t>(), 0u);
            EXPECT_TRUE(generated["generated"]["findings"].empty()) << generated["generated"]["findings"];
        }
    }
    // Shards of a declaring encoder's run merge into the same counts.
    const auto [whole_rc, whole] = graded("integer-floats", {"--generate", "400"});
    std::vector<std::string> merge;
    for (const char* shard : {"1/2", "2/2"}) {
        const auto [shard_rc, part] = graded("integer-floats", {"--generate", "400", "--shard", shard});
        EXPECT_EQ(shard_rc, 0) << shard;
        merge.insert(merge.end(), {"--merge", file(std::string("shard") + shard[0] + ".json", part.dump())});
    }
    merge.insert(merge.end(), {"--report", "json", "--output", out_path()});
    EXPECT_EQ(run(merge), 0) << err_;
    const auto merged = nlohmann::json::parse(read(out_path()));
    EXPECT_EQ(merged["declared"], whole["declared"]);
    EXPECT_EQ(merged["declared_failures"], whole["declared_failures"]);
    EXPECT_EQ(merged["expected_failures"], whole["expected_failures"]);
    // --list-linked says what each linked encoder declares.
    ::testing::internal::CaptureStdout();
    EXPECT_EQ(run({"--list-linked"}), 0);
    std::istringstream listed(::testing::internal::GetCapturedStdout());
    std::map<std::string, std::string> lines;
    for (std::string line; std::getline(listed, line);) lines[line.substr(0, line.find(' '))] = line;
    EXPECT_NE(lines["linked:integer-floats"].find("(declares whole_floats_as_integers, writes_invalid_utf8)"),
              std::string::npos)
        << lines["linked:integer-floats"];
    EXPECT_EQ(lines["linked:integer-floats-undeclared"].find("declares"), std::string::npos);
    EXPECT_NE(lines["linked:libbson"].find("(declares writes_invalid_utf8)"), std::string::npos);
    EXPECT_EQ(run({"--format", "msgpack", "--encoder", "linked:integer-floats", "--declare", "floats-as-ints"}), 2);
    EXPECT_NE(err_.find("--declare names one of whole_floats_as_integers, writes_invalid_utf8, not 'floats_as_ints'"),
              std::string::npos)
        << err_;
}

TEST_F(Command, LinkedReferenceConformsInEveryFormat) {
    for (const format which : all_formats) {
        const std::string f(format_name(which));
        EXPECT_EQ(run({"--format", f, "--encoder", "linked:reference", "--output", out_path()}), 0)
            << f << ": " << err_;
    }
}

TEST_F(Command, LinkedThirdPartyEncodersAreGradedNotCrashed) {
    EXPECT_EQ(run({"--format", "cbor", "--encoder", "linked:libcbor", "--report", "json", "--output", out_path()}), 1);
    auto report = nlohmann::json::parse(read(out_path()));
    EXPECT_GT(report["counts"]["pass"].get<int>(), 150);
    EXPECT_GT(report["differences"]["float width"].get<int>(), 10);
    EXPECT_EQ(
        run({"--format", "msgpack", "--encoder", "linked:msgpack-cxx", "--report", "json", "--output", out_path()}), 1);
    report = nlohmann::json::parse(read(out_path()));
    EXPECT_GT(report["differences"]["integer packing of whole doubles"].get<int>(), 10);
    // At the exact level its declaration (whole_floats_as_integers) explains the integers, not the
    // floats it writes in another width: those stay failures of their own.
    std::size_t declared = 0;
    std::size_t widths = 0;
    for (const auto& v : report["vectors"]) {
        const std::string difference = v.value("difference", "");
        if (difference == "integer packing of whole doubles") {
            EXPECT_TRUE(v.value("expected_failure", false)) << v["id"];
            ++declared;
        } else if (v["result"] == "pass-equivalent" && !v["success"].get<bool>()) {
            EXPECT_FALSE(v.value("expected_failure", false)) << v["id"] << ": " << difference;
            ++widths;
        }
    }
    EXPECT_GT(declared, 10u);
    EXPECT_GT(widths, 10u);
}

// ---- Python encoders ----------------------------------------------------------------------------

TEST_F(Command, PythonBatchEncoderRunsEveryVectorWithoutCrashOrHarnessError) {
    // Every CBOR vector of up to 1 KiB of input (the length-edge giants measure Python's
    // parser, not the protocol). The rate, interpreter start included, is printed for the
    // record and not asserted: speed is for benchmarks on this shared machine, not for tests.
    conform_options o;
    o.fmt = format::cbor;
    o.mode = process_mode::batch;
    o.level = run_level::equivalent;
    o.corpus = SINKCHECK_CORPUS_DIR;
    for (const test_vector& v : load_corpus(o.corpus, format::cbor)) {
        if (v.input.wire.size() <= 1024) o.filters.push_back(v.id);
    }
    ASSERT_GT(o.filters.size(), 250u);
    auto factory = make_process_factory("/usr/bin/python3 " + python_dir + "/cbor2_encoder.py", o.mode, o.limits);
    const run_summary s = run_conformance(o, *factory);
    const double rate = static_cast<double>(s.results.size()) / s.encode_seconds;
    std::printf("python batch encoder: %zu vectors in %.3f s, %.0f vectors/s\n", s.results.size(), s.encode_seconds,
                rate);
    EXPECT_GT(s.results.size(), 250u);
    EXPECT_EQ(
        s.counts[static_cast<std::size_t>(result::crash)] + s.counts[static_cast<std::size_t>(result::harness_error)],
        0u);
}

TEST_F(Command, AnEncoderDyingOfAnErrorIsNoRefusal) {
    // Before: a Python encoder that raised on every input scored refused-correctly on all 8 CBOR
    // refusal vectors ("Traceback (most recent call last):"). A refusal is deliberate now: exit
    // 65 per vector, status 1 in batch; the helper sends only Refused and the adapter's listed
    // exceptions as refusals and dies with a traceback (exit 70) of anything else.
    const std::string plain = file("raises.py", "import sys\nsys.stdin.read()\nraise KeyError('x')\n");
    const std::string helped =
        file("helped.py", "import sys\nsys.path.insert(0, '" + python_dir +
                              "')\nfrom sinkcheck_protocol import Refused, serve\n"
                              "def encode(value, fmt, use_size, use_type):\n"
                              "    if '--refuse' in sys.argv: raise Refused('no, deliberately')\n"
                              "    return {}['x']\n"
                              "sys.exit(serve(encode))\n");
    conform_options o;
    o.fmt = format::cbor;
    o.corpus = SINKCHECK_CORPUS_DIR;
    o.filters = {"cbor/refuse/*"};
    for (const std::string& script : {plain, helped}) {
        const run_summary s = run_conformance(o, *make_process_factory("/usr/bin/python3 " + script, o.mode, o.limits));
        EXPECT_EQ(s.results.size(), 8u);
        EXPECT_EQ(s.counts[static_cast<std::size_t>(result::refused_correctly)], 0u) << script;
        EXPECT_EQ(s.counts[static_cast<std::size_t>(result::crash)], 8u) << script;
        EXPECT_NE(s.results[0].stderr_text.find("KeyError"), std::string::npos) << s.results[0].stderr_text;
    }
    // In batch mode the first request already ends the process: the run stops and says why.
    o.mode = process_mode::batch;
    try {
        run_conformance(o, *make_process_factory("/usr/bin/python3 " + helped, o.mode, o.limits));
        ADD_FAILURE() << "the run went on";
    } catch (const conform_error& e) {
        EXPECT_NE(std::string(e.what()).find("exited with status 70"), std::string::npos) << e.what();
    }
    // A deliberate refusal earns the credit, in both modes.
    for (process_mode mode : {process_mode::per_vector, process_mode::batch}) {
        o.mode = mode;
        const run_summary s =
            run_conformance(o, *make_process_factory("/usr/bin/python3 " + helped + " --refuse", o.mode, o.limits));
        EXPECT_EQ(s.counts[static_cast<std::size_t>(result::refused_correctly)], 8u);
    }
}

TEST_F(Command, CanonicalCborVectorsAreWhatCbor2sDeterministicEncoderWrites) {
    // The canonical bytes come from the generator's RFC 8949 §4.2.1 model and the RFC's own
    // examples; cbor2's pure-Python encoder (canonical=True) is an independent implementation
    // of the same rules, so it must write every one of them byte for byte.
    const std::string encoder = "/usr/bin/python3 " + python_dir + "/cbor2_encoder.py --canonical-pure";
    // Python has no discarded value: those three are declared unsupported, and tolerated here.
    EXPECT_EQ(run({"--format", "cbor", "--level", "canonical", "--mode", "batch", "--encoder", encoder, "--output",
                   out_path(), "--report", "json", "--max-unsupported", "3"}),
              0)
        << err_;
    const auto report = nlohmann::json::parse(read(out_path()));
    std::set<std::string> not_passing;
    for (const auto& v : report["vectors"]) {
        if (!v["success"].get<bool>()) {
            not_passing.insert(v["id"].get<std::string>() + " " + v["result"].get<std::string>());
        }
    }
    const std::set<std::string> expected = {"cbor/refuse/discarded unsupported",
                                            "cbor/refuse/discarded-in-array unsupported",
                                            "cbor/refuse/discarded-in-map unsupported"};
    EXPECT_EQ(not_passing, expected);
    EXPECT_GT(report["counts"]["pass"].get<int>(), 250);
}

TEST_F(Command, PythonEncodersGiveTheSameVerdictsInBothModes) {
    for (const auto& [f, script] : {std::pair<format, std::string>{format::cbor, "cbor2_encoder.py"},
                                    std::pair<format, std::string>{format::msgpack, "msgpack_encoder.py"}}) {
        conform_options o;
        o.fmt = f;
        o.corpus = SINKCHECK_CORPUS_DIR;
        o.jobs = 2;
        o.filters = {"*/float/*", "*/refuse/*", "*/map/key-order-*", "*/binary/subtype-2*", "*/bigint/*"};
        const std::string command = "/usr/bin/python3 " + python_dir + "/" + script;
        o.mode = process_mode::per_vector;
        const run_summary a = run_conformance(o, *make_process_factory(command, o.mode, o.limits));
        o.mode = process_mode::batch;
        const run_summary b = run_conformance(o, *make_process_factory(command, o.mode, o.limits));
        ASSERT_EQ(a.results.size(), b.results.size());
        for (std::size_t i = 0; i < a.results.size(); ++i) {
            EXPECT_EQ(a.results[i].verdict, b.results[i].verdict)
                << a.results[i].vector->id << ": " << a.results[i].detail << " / " << b.results[i].detail;
        }
        EXPECT_EQ(a.counts[static_cast<std::size_t>(result::harness_error)], 0u);
    }
}

}  // namespace
}  // namespace sinkcheck::conform
