// The five report formats of `sinkcheck conform` (run.hpp): text, json, junit, tap, html.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "sinkcheck/conform/run.hpp"

namespace sinkcheck::conform {
namespace {

std::size_t at(result r) { return static_cast<std::size_t>(r); }

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", s);
    return buf;
}

/// What a reader should see for a vector's verdict, expected failures included.
std::string verdict_text(const run_summary& s, const vector_result& r) {
    const run_level level = s.options.level;
    std::string t = result_name(r.verdict);
    if (s.undeclared(r)) t += " (not declared)";
    // Strict: the level's own bytes were required (exact, or canonical at --level canonical).
    if (r.verdict == result::pass_equivalent && r.strict) t += std::string(" (not ") + level_name(level) + ")";
    if (r.expected_failure) {
        t += r.success                          ? " (listed as expected failure, now passes)"
             : r.verdict == result::unsupported ? " (listed)"
                                                : " (expected failure)";
    }
    return t;
}

bool needs_detail(const vector_result& r) {
    return !r.success || r.verdict == result::pass_equivalent || r.expected_failure;
}

/// Hex of the first bytes of b; total is how long the whole was (b may be a prefix already).
std::string capped_hex(const std::vector<std::uint8_t>& b, std::size_t total, std::size_t max_bytes = 256) {
    if (b.size() <= max_bytes && b.size() == total) return to_hex(b);
    return to_hex(b.data(), std::min(b.size(), max_bytes)) + "... (" + std::to_string(total) + " bytes)";
}

std::string input_excerpt(const test_vector& v) {
    if (v.input_text.size() <= 200) return v.input_text;
    return v.input_text.substr(0, 200) + "...";
}

/// Differences per class, of the results that do not conform (expected failures included) when
/// `failing`, else of those that conform at the level (pass-equivalent where bytes are not required).
std::map<std::string, std::size_t> difference_counts(const run_summary& s, bool failing) {
    std::map<std::string, std::size_t> m = failing ? s.unlisted.differences_failing : s.unlisted.differences_allowed;
    for (const vector_result& r : s.results) {
        if (!r.difference.empty() && r.success != failing) ++m[r.difference];
    }
    return m;
}

std::string difference_list(const std::map<std::string, std::size_t>& m) {
    std::string out;
    for (const auto& d : m) out += (out.empty() ? "" : "; ") + d.first + " " + std::to_string(d.second);
    return out;
}

std::string rate_text(const run_summary& s) {
    char buf[64];
    std::snprintf(buf, sizeof buf,
                  s.generation.active ? "%.0f values/s, building and grading, before shrinking"
                                      : "%.0f vectors/s once the corpus is loaded",
                  s.encode_seconds > 0 ? static_cast<double>(s.total()) / s.encode_seconds : 0.0);
    return buf;
}

/// Every result with its count. A pass-equivalent that the level does not accept says so here,
/// so that "fail 0" never stands beside a verdict of hundreds failing without a word.
std::string counts_line(const run_summary& s) {
    std::string out;
    for (result r : all_results) {
        if (!out.empty()) out += ", ";
        out += std::string(result_name(r)) + " " + std::to_string(s.counts[at(r)]);
        if (r == result::pass_equivalent && s.failing[at(r)] != 0) {
            out += " (" + std::to_string(s.failing[at(r)]) + " not " + level_name(s.options.level) + ": failing)";
        }
    }
    return out;
}

/// "180 unsupported not declared (...)" or "(5 unsupported: 3 listed, 2 within --max-unsupported 2)".
std::string unsupported_text(const run_summary& s) {
    if (s.unsupported_undeclared != 0) {
        std::string out = ", " + std::to_string(s.unsupported_undeclared) +
                          " unsupported not declared (--max-unsupported " + s.options.max_unsupported.text +
                          " allows " + std::to_string(s.unsupported_allowed) +
                          ": raise it, or list them in the expected-failures list)";
        if (s.unsupported_listed != 0) out += ", " + std::to_string(s.unsupported_listed) + " unsupported listed";
        return out;
    }
    std::string out = " (" + std::to_string(s.unsupported) + " unsupported";
    std::string parts;
    if (s.unsupported_listed != 0) parts = std::to_string(s.unsupported_listed) + " listed";
    if (s.unsupported_tolerated != 0) {
        parts += (parts.empty() ? "" : ", ") + std::to_string(s.unsupported_tolerated) + " within --max-unsupported " +
                 s.options.max_unsupported.text;
    }
    return out + (parts.empty() ? "" : ": " + parts) + ")";
}

/// ", 99,950 more counted but not listed (99,800 pass, ...)" for a run that keeps only some
/// results (unlisted_results), else nothing.
std::string unlisted_text(const run_summary& s) {
    if (s.unlisted.values == 0) return std::string();
    std::string by_result;
    for (result r : all_results) {
        if (s.unlisted.counts[at(r)] == 0) continue;
        by_result += (by_result.empty() ? "" : ", ") + std::string(result_name(r)) + " " +
                     std::to_string(s.unlisted.counts[at(r)]);
    }
    return ", " + std::to_string(s.unlisted.values) + " more counted but not listed (" + by_result + ")";
}

/// How many expected failures a declaration explains (counted or listed; only a failing answer
/// is ever explained).
std::size_t declared_count(const run_summary& s) {
    return s.unlisted.declared +
           static_cast<std::size_t>(std::count_if(s.results.begin(), s.results.end(),
                                                  [](const vector_result& r) { return r.declared != nullptr; }));
}

/// The verdict, how much was graded, and the failures by result: the one line every report ends
/// with, and what the exit status says.
std::string verdict_line(const run_summary& s) {
    std::string out = s.conforms() ? "CONFORMS" : s.graded() == 0 ? "NOTHING GRADED" : "DOES NOT CONFORM";
    out += " at level " + std::string(level_name(s.options.level)) + ": " + std::to_string(s.graded()) + " of " +
           std::to_string(s.total()) + " graded" + unsupported_text(s) + "; " + std::to_string(s.failures) + " failing";
    std::string by_result;
    for (result r : all_results) {
        if (s.failing[at(r)] == 0) continue;
        by_result += (by_result.empty() ? "" : ", ") + std::to_string(s.failing[at(r)]) + " " + result_name(r);
        if (r == result::pass_equivalent) by_result += std::string(" (not ") + level_name(s.options.level) + ")";
    }
    if (!by_result.empty()) out += " (" + by_result + ")";
    out += ", " + std::to_string(s.expected_failures) + " expected failures";
    if (const std::size_t d = declared_count(s); d != 0) {
        out += " (" + std::to_string(d) + " as declared: " + declaration_names(s.options.declared) + ")";
    }
    out += ", " + std::to_string(s.unexpected_passes) + " unexpected passes";
    return out;
}

/// What an unsupported result that fails the run is told.
constexpr const char* undeclared_note =
    "not listed as expected, and more unsupported than --max-unsupported allows: fails the run";

/// The graded vectors that conform at the level and are not listed (a listed one that now
/// passes is an unexpected pass).
std::size_t passed(const run_summary& s) {
    return s.unlisted.passed +
           static_cast<std::size_t>(std::count_if(s.results.begin(), s.results.end(), [](const vector_result& r) {
               return r.success && !r.expected_failure;
           }));
}

std::string indent(const std::string& text, const std::string& pad) {
    std::string out;
    std::size_t b = 0;
    while (b < text.size()) {
        std::size_t e = text.find('\n', b);
        if (e == std::string::npos) e = text.size();
        out += pad + text.substr(b, e - b) + "\n";
        b = e + 1;
    }
    return out;
}

/// --generate: one line per class of failure, naming its shrunk representative.
std::vector<std::string> finding_lines(const run_summary& s) {
    std::vector<std::string> lines;
    for (const finding& f : s.generation.findings) {
        const test_vector& v = *s.results[f.representative].vector;
        lines.push_back(f.difference + ": " + std::to_string(f.values) + " values; smallest " + v.id +
                        ", shrunk from " + std::to_string(f.original_bytes) + " to " + std::to_string(f.shrunk_bytes) +
                        " choice bytes in " + std::to_string(f.steps) + " steps" +
                        (f.steps_exhausted ? " (stopped at --shrink-steps)" : "") + ": " + input_excerpt(v));
    }
    return lines;
}

/// The rows a report details: every one that needs it, but under --generate only each class's
/// representative (the others name it in their detail; the JSON report keeps them all).
bool detailed(const run_summary& s, const vector_result& r) {
    if (!needs_detail(r)) return false;
    if (!s.generation.active) return true;
    return std::any_of(s.generation.findings.begin(), s.generation.findings.end(),
                       [&](const finding& f) { return &s.results[f.representative] == &r; });
}

// ---- text -------------------------------------------------------------------------------------

std::string text_report(const run_summary& s) {
    const std::string declared = declaration_names(s.options.declared);
    std::string out = "sinkcheck conform: " + std::string(format_name(s.options.fmt)) + ", level " +
                      level_name(s.options.level) + "\nencoder: " + s.encoder_description +
                      (declared.empty() ? "" : "\ndeclared: " + declared) + "\ncorpus: " + s.corpus +
                      "\nvectors: " + std::to_string(s.total()) + " in " + seconds_text(s.seconds) + " s (" +
                      rate_text(s) + "), " + std::to_string(s.graded()) + " graded" + unlisted_text(s) + "\n\n";
    for (const vector_result& r : s.results) {
        if (!detailed(s, r)) continue;
        const test_vector& v = *r.vector;
        out += verdict_text(s, r) + "  " + v.id + "\n";
        if (!r.detail.empty()) out += "  " + r.detail + "\n";
        if (!r.difference.empty()) out += "  difference: " + r.difference + "\n";
        if (!r.expected_reason.empty()) {
            out += (r.expected_reason == declared_reason(r) ? "  expected: " : "  listed because: ") +
                   r.expected_reason + "\n";
        }
        out += "  input: " + input_excerpt(v) +
               (v.use_size || v.use_type
                    ? std::string("  options:") + (v.use_size ? " use_size" : "") + (v.use_type ? " use_type" : "")
                    : "") +
               "\n";
        out += "  rule: " + v.rule + "  [" + v.source + "]\n";
        out += "  at: " + v.location() + "\n";
        if (!r.diff_text.empty()) out += indent(r.diff_text, "  ");
        if (!r.stderr_text.empty() && !r.success)
            out += "  stderr: " + indent(r.stderr_text.substr(0, 600), "    ").substr(4);
        out += "\n";
    }
    out += "summary: " + counts_line(s) + "\n";
    if (const auto failing = difference_counts(s, true); !failing.empty())
        out += "differences in results that do not conform: " + difference_list(failing) + "\n";
    if (const auto allowed = difference_counts(s, false); !allowed.empty())
        out += "differences allowed at this level: " + difference_list(allowed) + "\n";
    if (s.generation.active) {
        out += "findings: " + std::to_string(s.generation.findings.size()) + " classes (shrinking took " +
               seconds_text(s.generation.shrink_seconds) + " s)\n";
        for (const std::string& line : finding_lines(s)) out += "  " + line + "\n";
    }
    out += verdict_line(s) + "\n";
    return out;
}

// ---- json -------------------------------------------------------------------------------------

std::string json_report(const run_summary& s) {
    using nlohmann::json;
    json doc;
    doc["format"] = std::string(format_name(s.options.fmt));
    doc["level"] = level_name(s.options.level);
    doc["encoder"] = s.encoder_description;
    doc["declared"] = json::array();
    for (const declaration& each : all_declarations) {
        if (s.options.declared.*each.member) doc["declared"].push_back(each.name);
    }
    doc["declared_failures"] = declared_count(s);
    doc["corpus"] = s.corpus;
    doc["seconds"] = s.seconds;
    doc["encode_seconds"] = s.encode_seconds;
    json counts = json::object();
    for (result r : all_results) counts[result_name(r)] = s.counts[at(r)];
    doc["counts"] = counts;
    json failing = json::object();
    for (result r : all_results) failing[result_name(r)] = s.failing[at(r)];
    doc["failing"] = failing;
    json diffs = json::object();
    json diffs_failing = json::object();
    json diffs_allowed = json::object();
    for (const auto& d : difference_counts(s, true)) {
        diffs_failing[d.first] = d.second;
        diffs[d.first] = d.second;
    }
    for (const auto& d : difference_counts(s, false)) {
        diffs_allowed[d.first] = d.second;
        diffs[d.first] = diffs.value(d.first, std::size_t{0}) + d.second;
    }
    doc["differences"] = diffs;
    doc["differences_failing"] = diffs_failing;
    doc["differences_allowed"] = diffs_allowed;
    doc["total"] = s.total();
    doc["nondeterministic"] = s.nondeterministic;
    doc["listed"] = s.results.size();
    doc["graded"] = s.graded();
    doc["failures"] = s.failures;
    doc["expected_failures"] = s.expected_failures;
    doc["unexpected_passes"] = s.unexpected_passes;
    doc["unsupported"] = s.unsupported;
    doc["unsupported_declared"] = s.unsupported_declared();
    doc["unsupported_undeclared"] = s.unsupported_undeclared;
    doc["unsupported_listed"] = s.unsupported_listed;
    doc["unsupported_tolerated"] = s.unsupported_tolerated;
    doc["max_unsupported"] = s.options.max_unsupported.text;
    doc["unsupported_allowed"] = s.unsupported_allowed;
    doc["conforms"] = s.conforms();
    doc["verdict"] = verdict_line(s);
    if (s.generation.active) {
        const generate_options& g = s.options.generate;
        json gen;
        gen["values"] = g.count;
        gen["shard"] = std::to_string(g.shard_index + 1) + "/" + std::to_string(g.shard_count);
        gen["seed"] = g.seed;
        gen["profile"] = g.hostile ? "hostile" : "default";
        gen["redrawn"] = s.generation.redrawn;
        gen["nondeterministic"] = s.nondeterministic;
        gen["shrink_seconds"] = s.generation.shrink_seconds;
        json findings = json::array();
        for (const finding& f : s.generation.findings) {
            findings.push_back({{"difference", f.difference},
                                {"values", f.values},
                                {"id", s.results[f.representative].vector->id},
                                {"input", input_excerpt(*s.results[f.representative].vector)},
                                {"values_shrunk", f.shrunk},
                                {"steps", f.steps},
                                {"steps_exhausted", f.steps_exhausted},
                                {"original_bytes", f.original_bytes},
                                {"shrunk_bytes", f.shrunk_bytes}});
        }
        gen["findings"] = std::move(findings);
        doc["generated"] = std::move(gen);
    }
    json vectors = json::array();
    for (const vector_result& r : s.results) {
        const test_vector& v = *r.vector;
        json e;
        e["id"] = v.id;
        e["result"] = result_name(r.verdict);
        e["success"] = r.success;
        e["strict"] = r.strict;
        e["seconds"] = r.seconds;
        if (r.expected_failure) {
            e["expected_failure"] = true;
            e["expected_reason"] = r.expected_reason;
        }
        if (r.verdict == result::unsupported) e["declared"] = !s.undeclared(r);
        if (needs_detail(r)) {
            e["detail"] = r.detail;
            if (!r.difference.empty()) e["difference"] = r.difference;
            e["input"] = input_excerpt(v);
            e["rule"] = v.rule;
            e["source"] = v.source;
            e["location"] = v.location();
            if (v.negative())
                e["expected_error"] = v.error;
            else
                e["expected_hex"] = capped_hex(v.expect, v.expect.size());
            if (!r.actual.empty()) e["actual_hex"] = capped_hex(r.actual, r.actual_size);
            if (r.first_diff != static_cast<std::size_t>(-1)) e["first_difference"] = r.first_diff;
            if (!r.diff_text.empty()) e["diff"] = r.diff_text;
            if (!r.stderr_text.empty()) e["stderr"] = r.stderr_text.substr(0, 2000);
        }
        vectors.push_back(std::move(e));
    }
    doc["vectors"] = std::move(vectors);
    return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

// ---- junit and html share XML escaping ---------------------------------------------------------

std::string xml(const std::string& text) {
    // Every string goes through printable(): the reports quote vector files and lists a user
    // wrote, which nothing else has checked for UTF-8.
    const std::string s = printable(text);
    std::string out;
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += ch;
        }
    }
    return out;
}

std::string details_block(const vector_result& r) {
    const test_vector& v = *r.vector;
    std::string t = r.detail + "\n";
    if (!r.difference.empty()) t += "difference: " + r.difference + "\n";
    t += "input: " + input_excerpt(v) + "\nrule: " + v.rule + " [" + v.source + "]\nat: " + v.location() + "\n";
    if (v.negative())
        t += "expected: refusal " + v.error + "\n";
    else
        t += "expected: " + capped_hex(v.expect, v.expect.size()) + "\n";
    if (!r.actual.empty()) t += "actual:   " + capped_hex(r.actual, r.actual_size) + "\n";
    t += r.diff_text;
    if (!r.stderr_text.empty()) t += "stderr:\n" + r.stderr_text.substr(0, 2000) + "\n";
    return t;
}

std::string junit_report(const run_summary& s) {
    std::size_t failures = 0, errors = 0, skipped = 0;
    std::string cases;
    for (const vector_result& r : s.results) {
        const test_vector& v = *r.vector;
        const std::size_t slash = v.id.rfind('/');
        std::string body;
        if (s.undeclared(r)) {
            // A CI that reads only the JUnit counts must see what fails the run.
            ++failures;
            body = "<failure type=\"unsupported\" message=\"" + xml(r.detail + "; " + undeclared_note) + "\"/>";
        } else if (r.verdict == result::unsupported) {
            ++skipped;
            body = "<skipped message=\"" + xml(r.detail + (r.expected_failure ? " (listed)" : " (tolerated)")) + "\"/>";
        } else if (r.expected_failure && !r.success) {
            ++skipped;
            body = "<skipped message=\"expected failure: " + xml(r.expected_reason) + "\">" + xml(details_block(r)) +
                   "</skipped>";
        } else if (r.expected_failure && r.success) {
            ++failures;
            body = "<failure message=\"listed as an expected failure but now passes\"/>";
        } else if (!r.success &&
                   (r.verdict == result::crash || r.verdict == result::timeout || r.verdict == result::harness_error)) {
            ++errors;
            body = "<error type=\"" + std::string(result_name(r.verdict)) + "\" message=\"" + xml(r.detail) + "\">" +
                   xml(details_block(r)) + "</error>";
        } else if (!r.success) {
            ++failures;
            body = "<failure type=\"" + std::string(result_name(r.verdict)) + "\" message=\"" + xml(r.detail) + "\">" +
                   xml(details_block(r)) + "</failure>";
        }
        cases += "    <testcase classname=\"" + xml(v.id.substr(0, slash == std::string::npos ? 0 : slash)) +
                 "\" name=\"" + xml(v.id) + "\" time=\"" + seconds_text(r.seconds) + "\">" + body + "</testcase>\n";
    }
    if (s.unlisted.values != 0) {
        // One test case for what was only counted, failing when any of it fails.
        const std::size_t unlisted_failing =
            s.unlisted.values - s.unlisted.passed - s.unlisted.counts[at(result::unsupported)];
        const std::string what = unlisted_text(s).substr(2);
        std::string body;
        if (unlisted_failing != 0) {
            ++failures;
            body = "<failure type=\"fail\" message=\"" + xml(what) + "\"/>";
        }
        cases += "    <testcase classname=\"" + xml(std::string(format_name(s.options.fmt)) + "/generated") +
                 "\" name=\"values not listed\" time=\"0\">" + body + "</testcase>\n";
    }
    const std::string name =
        "sinkcheck-conform." + std::string(format_name(s.options.fmt)) + "." + level_name(s.options.level);
    std::string generated;
    if (s.generation.active) generated = "      <property name=\"values\" value=\"" + xml(s.corpus) + "\"/>\n";
    for (const std::string& line : finding_lines(s))
        generated += "      <property name=\"finding\" value=\"" + xml(line) + "\"/>\n";
    // What the skipped count cannot tell apart (unsupported from expected failures), for a
    // reader such as scripts/conform-action.sh, whose badge shows the graded fraction.
    std::string graded;
    for (const auto& [key, value] : {std::pair<const char*, std::size_t>{"total", s.total()},
                                     {"listed", s.results.size()},
                                     {"graded", s.graded()},
                                     {"passed", passed(s)},
                                     {"unsupported", s.unsupported},
                                     {"unsupported_declared", s.unsupported_declared()},
                                     {"unsupported_undeclared", s.unsupported_undeclared},
                                     {"expected_failures", s.expected_failures}}) {
        graded += "      <property name=\"" + std::string(key) + "\" value=\"" + std::to_string(value) + "\"/>\n";
    }
    graded += "      <property name=\"conforms\" value=\"" + std::string(s.conforms() ? "true" : "false") + "\"/>\n";
    graded += "      <property name=\"verdict\" value=\"" + xml(verdict_line(s)) + "\"/>\n";
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"" + name + "\" tests=\"" +
           std::to_string(s.results.size() + (s.unlisted.values != 0 ? 1 : 0)) + "\" failures=\"" +
           std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" +
           std::to_string(skipped) + "\" time=\"" + seconds_text(s.seconds) + "\">\n    <properties>\n" +
           "      <property name=\"encoder\" value=\"" + xml(s.encoder_description) + "\"/>\n" + graded + generated +
           "    </properties>\n" + cases + "  </testsuite>\n</testsuites>\n";
}

// ---- tap --------------------------------------------------------------------------------------

std::string tap_report(const run_summary& s) {
    std::string out =
        "TAP version 13\n1.." + std::to_string(s.results.size() + (s.unlisted.values != 0 ? 1 : 0)) + "\n";
    std::size_t n = 0;
    for (const vector_result& r : s.results) {
        ++n;
        const test_vector& v = *r.vector;
        std::string line;
        if (s.undeclared(r)) {
            line = "not ok " + std::to_string(n) + " - " + v.id + " (unsupported: " + undeclared_note + ")";
        } else if (r.verdict == result::unsupported) {
            line = "ok " + std::to_string(n) + " - " + v.id + " # SKIP " + r.detail +
                   (r.expected_failure ? " (listed)" : " (tolerated)");
        } else if (r.expected_failure && !r.success) {
            line = "not ok " + std::to_string(n) + " - " + v.id + " # TODO expected failure: " + r.expected_reason;
        } else if (r.expected_failure) {
            line = "not ok " + std::to_string(n) + " - " + v.id + " (listed as an expected failure, now passes)";
        } else {
            line = std::string(r.success ? "ok " : "not ok ") + std::to_string(n) + " - " + v.id + " (" +
                   result_name(r.verdict) + ")";
        }
        out += line + "\n";
        if (!r.success && r.verdict != result::unsupported) {
            out += "  ---\n  result: " + std::string(result_name(r.verdict)) + "\n  message: |\n" +
                   indent(details_block(r), "    ") + "  ...\n";
        }
    }
    if (s.unlisted.values != 0) {
        const std::size_t unlisted_failing =
            s.unlisted.values - s.unlisted.passed - s.unlisted.counts[at(result::unsupported)];
        out += std::string(unlisted_failing == 0 ? "ok " : "not ok ") + std::to_string(n + 1) + " - values not listed" +
               unlisted_text(s) + "\n";
    }
    out += "# " + counts_line(s) + "\n";
    for (const std::string& line : finding_lines(s)) out += "# finding: " + printable(line) + "\n";
    out += "# " + verdict_line(s) + "\n";
    return out;
}

// ---- html -------------------------------------------------------------------------------------

const char* result_color(result r) {
    switch (r) {
        case result::pass: return "#2e7d32";
        case result::pass_equivalent: return "#9e9d24";
        case result::fail: return "#c62828";
        case result::refused_correctly: return "#1565c0";
        case result::crash: return "#6a1b9a";
        case result::timeout: return "#ef6c00";
        case result::unsupported: return "#757575";
        case result::harness_error: return "#000000";
    }
    return "#000";
}

std::string html_report(const run_summary& s) {
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>sinkcheck conform: " +
        std::string(format_name(s.options.fmt)) +
        "</title>\n<style>\n"
        "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\n"
        "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:2px 6px}\n"
        "th{background:#f4f4f4;position:sticky;top:0}td.id{font-family:monospace;white-space:nowrap}\n"
        "td.mark{text-align:center;font-weight:bold;color:#fff}\n"
        "pre{background:#f8f8f8;border:1px solid #e4e4e4;padding:6px;overflow-x:auto;font-size:12px;margin:2px 0}\n"
        "details summary{cursor:pointer}.bad{background:#fff0f0}.xfail{background:#fffbe6}\n"
        "</style></head><body>\n<h1>sinkcheck conform: " +
        std::string(format_name(s.options.fmt)) + ", level " + level_name(s.options.level) +
        "</h1>\n<p>Encoder: <code>" + xml(s.encoder_description) + "</code><br>" + std::to_string(s.graded()) + " of " +
        std::to_string(s.total()) + " vectors graded" + xml(unlisted_text(s)) + " in " + seconds_text(s.seconds) +
        " s. <strong>" + xml(verdict_line(s)) + "</strong></p>\n<table><tr>";
    for (result r : all_results)
        out += "<th style=\"color:" + std::string(result_color(r)) + "\">" + result_name(r) + "</th>";
    out += "</tr><tr>";
    for (result r : all_results) out += "<td style=\"text-align:center\">" + std::to_string(s.counts[at(r)]) + "</td>";
    out += "</tr></table>\n";
    for (const bool failing : {true, false}) {
        const auto diffs = difference_counts(s, failing);
        if (diffs.empty()) continue;
        out += failing ? "<p>Differences in results that do not conform:" : "<p>Differences allowed at this level:";
        for (const auto& d : diffs) out += " " + xml(d.first) + " <b>" + std::to_string(d.second) + "</b>;";
        out += "</p>\n";
    }
    if (s.generation.active) {
        out += "<h2>Findings: " + xml(s.corpus) + "</h2>\n<ul>\n";
        for (const std::string& line : finding_lines(s)) out += "<li><code>" + xml(line) + "</code></li>\n";
        out += "</ul>\n";
    }
    out += "<h2>Vectors &times; results</h2>\n<table><tr><th>vector</th>";
    for (result r : all_results) out += "<th>" + std::string(result_name(r)) + "</th>";
    out += "<th>details</th></tr>\n";
    for (const vector_result& r : s.results) {
        const test_vector& v = *r.vector;
        const char* cls = r.expected_failure                                                      ? " class=\"xfail\""
                          : (!r.success && (r.verdict != result::unsupported || s.undeclared(r))) ? " class=\"bad\""
                                                                                                  : "";
        out += "<tr" + std::string(cls) + "><td class=\"id\">" + xml(v.id) + "</td>";
        for (result c : all_results) {
            if (c == r.verdict)
                out += "<td class=\"mark\" style=\"background:" + std::string(result_color(c)) + "\">&#9679;</td>";
            else
                out += "<td></td>";
        }
        out += "<td>";
        if (detailed(s, r)) {
            out += "<details><summary>" + xml(verdict_text(s, r)) + ": " + xml(r.detail.substr(0, 120)) +
                   "</summary><pre>" + xml(details_block(r)) + "</pre></details>";
        }
        out += "</td></tr>\n";
    }
    out += "</table>\n<p>Classification: docs/conformance.md of sinkcheck.</p>\n</body></html>\n";
    return out;
}

}  // namespace

std::string render_report(const run_summary& s) {
    switch (s.options.report) {
        case report_kind::text: return text_report(s);
        case report_kind::json: return json_report(s);
        case report_kind::junit: return junit_report(s);
        case report_kind::tap: return tap_report(s);
        case report_kind::html: return html_report(s);
    }
    return text_report(s);
}

}  // namespace sinkcheck::conform
