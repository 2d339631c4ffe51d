// sinkcheck/conform/run.hpp — `sinkcheck conform`: run an encoder against the corpus and grade it.
//
// The runner selects the vectors of one format and level, sends each to the encoder (a process
// or a linked C++ encoder, see encoder.hpp), classifies what comes back, applies the expected
// failures list, and writes one report. Classification and the exit status are documented in
// docs/conformance.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/decode.hpp"
#include "sinkcheck/conform/encoder.hpp"

namespace sinkcheck::conform {

enum class result { pass, pass_equivalent, fail, refused_correctly, crash, timeout, unsupported, harness_error };
inline constexpr result all_results[] = {
    result::pass,  result::pass_equivalent, result::fail,        result::refused_correctly,
    result::crash, result::timeout,         result::unsupported, result::harness_error};
const char* result_name(result r) noexcept;

enum class report_kind { text, json, junit, tap, html };

/// `--generate N`: values from the test kit's value builder instead of the corpus (generate.cpp).
struct generate_options {
    std::uint64_t count = 0;  // values to generate; 0: grade the corpus
    std::uint64_t seed = 1;
    /// false (profile "default"): only values the format can hold (the reference encodes them)
    /// and a JSON-like encoder can be asked for; true ("hostile"): invalid UTF-8, discarded
    /// values, huge counts and lengths, deep nesting, and the refusals they call for.
    bool hostile = false;
    std::string save;                 // file for the shrunk findings as .vectors entries, or empty
    std::size_t shrink_steps = 2000;  // candidates tried per failing value shrunk
    /// --shard I/N: this run grades the values whose index is I-1 modulo N (shard_index = I-1),
    /// so N runs side by side grade exactly the values of one run; --merge joins their reports.
    std::uint64_t shard_index = 0;
    std::uint64_t shard_count = 1;
};

/// `--max-unsupported N|P%`: how many results the encoder may declare unsupported without the
/// expected-failures list naming them (docs/conformance.md, "Unsupported values"). The default,
/// 0, tolerates none: a value the encoder did not grade is no pass unless the user said so.
struct unsupported_budget {
    std::string text = "0";   // as given, for the reports
    bool share = false;       // P%: a share of the vectors (or values) in the run
    std::uint64_t count = 0;  // N; for a share, P in thousandths of a percent (50% = 50000)
    /// How many unlisted unsupported results a run of `total` vectors tolerates: N, or
    /// floor(total * P / 100), so a share never rounds up into more than it says.
    std::size_t allowed(std::size_t total) const noexcept {
        return share ? static_cast<std::size_t>(total * count / 100000) : static_cast<std::size_t>(count);
    }
};

struct conform_options {
    format fmt = format::cbor;
    std::string encoder;  // "CMD ARGS", or "linked:NAME"
    process_mode mode = process_mode::per_vector;
    wire_notation notation = wire_notation::token;
    run_level level = run_level::exact;
    std::vector<std::string> filters;  // globs over ids; empty: all
    unsigned jobs = 1;
    process_limits limits;
    std::string expected_failures;  // file, or empty
    report_kind report = report_kind::text;
    std::string output;                   // file, or empty for stdout
    std::string corpus;                   // file or directory; empty: the built-in corpus
    std::string write_expected_failures;  // file to list the failing vectors in, or empty
    unsupported_budget max_unsupported;
    /// What the encoder does differently on purpose (--declare, and a linked encoder's own
    /// declaration): a failing answer one explains is an expected failure with it as the reason.
    declared_behaviour declared;
    generate_options generate;
    std::vector<std::string> merge;  // --merge: shard reports to join instead of a run
};

/// One vector's verdict.
struct vector_result {
    const test_vector* vector = nullptr;
    result verdict = result::harness_error;
    bool strict = true;    // bytes must be identical (pass-equivalent is not enough)
    bool success = false;  // conforms at the run level
    bool expected_failure = false;
    std::string expected_reason;
    const char* declared = nullptr;    // the declaration that explains this failure (then expected), or nullptr
    std::string detail;                // one line: why this verdict
    std::string difference;            // pass-equivalent and fail: class of difference (float width, key order, ...)
    std::vector<std::uint8_t> actual;  // the encoder's output, its first 4 KiB
    std::size_t actual_size = 0;       // and how long it was
    std::uint64_t actual_digest = 0;   // fnv1a64 of the whole output when it is longer than that
    std::size_t first_diff = static_cast<std::size_t>(-1);
    std::string diff_text;    // hex windows and annotated decodes of both sides
    std::string stderr_text;  // its first 8 KiB
    double seconds = 0;
};

/// One class of failure found by --generate (a difference class, or the verdict of failures
/// without one): how many values failed that way, and the smallest of them after shrinking.
struct finding {
    std::string difference;
    std::size_t values = 0;          // generated values that failed this way
    std::size_t representative = 0;  // index into run_summary::results: the shrunk value
    std::size_t shrunk = 0;          // values of the class that were shrunk (JSON: values_shrunk)
    std::size_t steps = 0;           // candidates the representative's shrinking tried
    bool steps_exhausted = false;    // it stopped at --shrink-steps, not at a fixed point
    std::size_t original_bytes = 0;  // its choice bytes before shrinking
    std::size_t shrunk_bytes = 0;    // and after
};

struct generation_summary {
    bool active = false;
    std::size_t redrawn = 0;  // default profile: values the format cannot hold, drawn again
    double shrink_seconds = 0;
    std::vector<finding> findings;  // in the order their classes first appeared
};

/// Results a run counted but does not keep. `conform --generate` keeps only what its reports
/// detail (the first failing values of each class, the smallest ones it shrinks, a few
/// unsupported ones), so that its memory grows with the classes of failure, not the values.
/// None of them is named in an expected-failures list.
struct unlisted_results {
    std::size_t values = 0;
    std::size_t counts[8] = {};   // per result
    std::size_t failing[8] = {};  // not conforming, per result
    std::size_t passed = 0;       // conforming at the level
    std::size_t declared = 0;     // failing as a declaration of the encoder explains (expected failures)
    std::map<std::string, std::size_t> differences_failing;
    std::map<std::string, std::size_t> differences_allowed;
    void add(const vector_result& r);
};

struct run_summary {
    conform_options options;
    std::string encoder_description;
    std::string corpus;                // the file or directory the vectors came from
    std::vector<test_vector> vectors;  // the selected vectors, in corpus order
    std::vector<vector_result> results;
    std::size_t counts[8] = {};         // per result, indexed by result
    std::size_t failing[8] = {};        // of those, not conforming and not listed, per result
    std::size_t failures = 0;           // not conforming and not expected to fail
    std::size_t expected_failures = 0;  // listed and still failing
    std::size_t unexpected_passes = 0;  // listed but now conforming
    std::size_t unsupported = 0;
    std::size_t unsupported_listed = 0;      // unsupported and named in the expected-failures list
    std::size_t unsupported_tolerated = 0;   // not listed, and no more of them than --max-unsupported allows
    std::size_t unsupported_undeclared = 0;  // not listed, and more of them than it allows: all fail the run
    std::size_t unsupported_allowed = 0;     // what --max-unsupported allows in this run
    double seconds = 0;                      // the whole run, corpus loading included
    double encode_seconds = 0;               // from the first vector sent to the last verdict
    generation_summary generation;
    unlisted_results unlisted;
    std::size_t nondeterministic = 0;  // failing vectors (values) answered differently when asked again
    /// Every vector (or value) run: those in results and those only counted.
    std::size_t total() const noexcept { return results.size() + unlisted.values; }
    /// The vectors (or values) the encoder answered: every one but the unsupported.
    std::size_t graded() const noexcept { return total() - unsupported; }
    std::size_t unsupported_declared() const noexcept { return unsupported_listed + unsupported_tolerated; }
    /// No failure, no unexpected pass, no unsupported result the user did not declare, and at
    /// least one vector graded (an encoder that supports nothing has not shown anything).
    bool conforms() const noexcept {
        return failures == 0 && unexpected_passes == 0 && unsupported_undeclared == 0 && graded() > 0;
    }
    /// Whether this unsupported result is one the run did not tolerate (listed ones are).
    bool undeclared(const vector_result& r) const noexcept {
        return r.verdict == result::unsupported && !r.expected_failure && unsupported_undeclared != 0;
    }
};

/// A usage or input problem (bad option, malformed vector file, unknown expected-failure id):
/// the command prints the message and exits 2.
class conform_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Loads and selects the vectors, runs them all through the factory's sessions, classifies.
/// Throws conform_error.
run_summary run_conformance(const conform_options& options, encoder_factory& factory);

/// Generates options.generate.count values, grades them, shrinks the failures and groups them by
/// class (docs/conformance.md, "Generated values"). Throws conform_error.
run_summary run_generated(const conform_options& options, encoder_factory& factory);

/// Sends every vector through sessions of the factory (jobs at a time) and classifies each.
/// Throws conform_error when a session stops the run (run_stopped).
std::vector<vector_result> grade_vectors(const std::vector<test_vector>& vectors, run_level level,
                                         const declared_behaviour& declared, unsigned jobs, encoder_factory& factory);

/// One vector through one session; an exception other than run_stopped is a harness error.
encode_outcome send_vector(encoder_session& session, const test_vector& v);

/// Fills the counts of s from its results (expected-failure flags already set) and applies
/// s.options.max_unsupported to the unsupported ones that are not listed.
void count_results(run_summary& s);

/// Classifies one outcome for one vector at a level (exposed for tests). A failing answer that
/// one of the declarations explains (explained_by) is marked an expected failure.
vector_result classify(const test_vector& v, run_level level, const declared_behaviour& declared,
                       const encode_outcome& outcome);

/// The reason an expected failure that a declaration explains is given (r.declared set).
inline std::string declared_reason(const vector_result& r) {
    return r.declared == nullptr ? std::string() : std::string("the encoder declares ") + r.declared;
}

/// The class of a vector whose two answers differ.
inline constexpr const char* nondeterministic_class = "nondeterministic output";

/// Asks the encoder for a failing vector a second time. An encoder whose answers differ (Go's
/// map order, a timing-dependent buffer) would otherwise be blamed for whichever answer came
/// first, and the same finding regraded under another class on the next run: the vector gets
/// the class nondeterministic_class, with both answers in its detail. Returns whether they differed.
bool ask_again(encoder_session& session, const test_vector& v, run_level level, const declared_behaviour& declared,
               vector_result& first);

/// Whether a result is asked again: a fail or a failing pass-equivalent. A crash, timeout or
/// harness error is not: a second one costs another timeout, and a batch process that quit says
/// something of the process, not of the value.
bool worth_asking_again(const vector_result& r);

/// Warns on stderr when s.nondeterministic is not 0.
void warn_nondeterministic(const run_summary& s);

/// text as valid UTF-8 without control characters but newline and tab: anything else, and
/// every byte of an invalid sequence, becomes \xHH. What an encoder writes (stderr, refusal
/// reasons) goes through it, so every report is valid for its format whatever the encoder said.
std::string printable(std::string_view text);

/// Writes the report of kind summary.options.report.
std::string render_report(const run_summary& summary);

/// Reads budget text as --max-unsupported does ("N" or "P%"); throws conform_error naming option.
unsupported_budget parse_unsupported_budget(const std::string& option, const std::string& text);

/// `conform --merge REPORT...`: the JSON reports of the N shards of one --generate run joined into
/// one verdict, written as kind (text or json) to output (or stdout). Returns the exit status: 0
/// conforms, 1 not, 2 when a report is missing, malformed, of another run or a shard twice.
int merge_reports(const std::vector<std::string>& files, report_kind kind, const std::string& output);

/// The `conform` subcommand: parses args (without the program and command names), runs, writes
/// the report; returns 0 when the encoder conforms, 1 when not, 2 on usage or input errors.
int run_conform_command(const std::vector<std::string>& args);

/// The usage text printed by `sinkcheck conform --help`.
extern const std::string_view conform_usage;

/// Where the corpus is when --corpus is not given (SINKCHECK_CORPUS overrides).
std::string default_corpus();

}  // namespace sinkcheck::conform
