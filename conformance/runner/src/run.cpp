// Selecting vectors, running them, classifying the outcomes (run.hpp).
#include "sinkcheck/conform/run.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace sinkcheck::conform {
namespace {

std::size_t index_of(result r) { return static_cast<std::size_t>(r); }

/// What a verdict keeps of the encoder's output and stderr after classification.
constexpr std::size_t kept_output = 4096;
constexpr std::size_t kept_stderr = 8192;

bool selected(const test_vector& v, run_level level) {
    if (v.negative()) return true;  // refusals apply at every level
    switch (level) {
        case run_level::exact: return (v.levels & (level_exact | level_equivalent)) != 0;
        case run_level::canonical: return (v.levels & (level_canonical | level_equivalent)) != 0;
        case run_level::equivalent: return (v.levels & (level_exact | level_equivalent)) != 0;
    }
    return false;
}

bool strict_at(const test_vector& v, run_level level) {
    if (level == run_level::exact) return (v.levels & level_exact) != 0;
    if (level == run_level::canonical) return (v.levels & level_canonical) != 0;
    return false;
}

/// "type_error.316" from a refusal message, or "" when it names no category.
std::string category_in(const std::string& message) {
    static const std::regex re("(type_error|out_of_range|parse_error|other_error|invalid_iterator)\\.([0-9]+)");
    std::smatch m;
    if (std::regex_search(message, m, re)) return m.str(1) + "." + m.str(2);
    return "";
}

std::string hex_window(const std::vector<std::uint8_t>& b, std::size_t at, std::size_t radius) {
    const std::size_t from = at > radius ? at - radius : 0;
    const std::size_t to = std::min(b.size(), at + radius);
    std::string out;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%06zx: ", from);
    out += buf;
    if (from > 0) out += "... ";
    for (std::size_t i = from; i < to; ++i) {
        if (i == at) out += '[';
        out += to_hex(b.data() + i, 1);
        if (i == at) out += ']';
        if (i + 1 < to) out += ' ';
    }
    if (at >= b.size()) out += " [end]";
    if (to < b.size()) out += " ... (" + std::to_string(b.size()) + " bytes)";
    return out;
}

/// The annotated decode around offset `at`: the items whose bytes come near it, the one that
/// holds `at` marked.
std::string annotated_window(format f, const std::vector<std::uint8_t>& b, std::size_t at, const decoded& d) {
    std::string out;
    const std::size_t lo = at > 48 ? at - 48 : 0;
    const std::size_t hi = at + 48;
    std::size_t shown = 0;
    bool skipped = false;
    for (const annotation& a : d.lines) {
        const std::size_t end = a.offset + std::max<std::size_t>(a.length, 1);
        if (end <= lo || a.offset > hi) {
            skipped = true;
            continue;
        }
        if (shown == 0 && skipped) out += "    ...\n";
        if (++shown > 16) {
            out += "    ...\n";
            break;
        }
        char buf[32];
        std::snprintf(buf, sizeof buf, "%06zx  ", a.offset);
        std::string bytes = to_hex(b.data() + a.offset, std::min<std::size_t>(a.length, 8));
        if (a.length > 8) bytes += "..";
        bytes.resize(std::max<std::size_t>(bytes.size(), 18), ' ');
        const bool here = at >= a.offset && at < end;
        out += (here ? ">>" : "  ") + std::string(buf) + bytes + " " + std::string(2 * a.depth, ' ') + a.text + "\n";
    }
    if (!d.ok) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%06zx  ", d.error_offset);
        out += "!!" + std::string(buf) + "not " + std::string(format_name(f)) + ": " + d.error + "\n";
    }
    return out;
}

/// A name for how two encodings of one value differ, from their first differing items.
std::string difference_class(const test_vector& v, const decoded& expect, const decoded& actual) {
    auto has = [](const std::string& s, const char* w) { return s.find(w) != std::string::npos; };
    // An integer literal beyond 64 bits: nlohmann's model holds a double, others the integer.
    const std::string& text = v.input_text;
    const bool literal_integer = v.input.value.is_number_float() && !text.empty() &&
                                 text.find_first_not_of("0123456789", text[0] == '-' ? 1 : 0) == std::string::npos;
    std::size_t i = 0;
    while (i < expect.lines.size() && i < actual.lines.size() && expect.lines[i].text == actual.lines[i].text &&
           expect.lines[i].length == actual.lines[i].length) {
        ++i;
    }
    if (i >= expect.lines.size() || i >= actual.lines.size()) return "length or structure";
    const std::string& e = expect.lines[i].text;
    const std::string& a = actual.lines[i].text;
    if (e == a) {
        // Same item, a head of another width.
        if (has(e, "tag")) return "tag head width";
        return "head width";
    }
    auto is_float = [&](const std::string& t) {
        return has(t, "float") || has(t, "double ") || has(t, "binary32") || has(t, "binary64") || t == "+0.0" ||
               t == "-1.0" || t == "+1.0";
    };
    auto is_int = [&](const std::string& t) {
        return has(t, "unsigned ") || has(t, "negative ") || has(t, "fixint") || has(t, "uint ") || has(t, "int ") ||
               has(t, "int32") || has(t, "int64") || has(t, "integer");
    };
    if (has(e, "key") && has(a, "key")) return "key order";
    if (is_float(e) && is_float(a)) return "float width";
    if (literal_integer) return "integer beyond 64 bits";
    if (is_float(e) && is_int(a)) return "integer packing of whole doubles";
    if (is_int(e) && is_int(a)) return "integer width";
    if (has(e, "tag") || has(a, "tag")) return "tag encoding";
    if (has(e, "(*)") || has(a, "(*)")) return "indefinite length";
    return "other";
}

}  // namespace

const char* result_name(result r) noexcept {
    switch (r) {
        case result::pass: return "pass";
        case result::pass_equivalent: return "pass-equivalent";
        case result::fail: return "fail";
        case result::refused_correctly: return "refused-correctly";
        case result::crash: return "crash";
        case result::timeout: return "timeout";
        case result::unsupported: return "unsupported";
        case result::harness_error: return "harness-error";
    }
    return "?";
}

vector_result classify(const test_vector& v, run_level level, const encode_outcome& o) {
    vector_result r;
    r.vector = &v;
    r.strict = strict_at(v, level);
    r.seconds = o.seconds;
    r.stderr_text = o.stderr_text;
    r.actual = o.bytes;
    r.actual_size = o.bytes.size();
    using k = encode_outcome::kind;
    switch (o.what) {
        case k::crashed:
            r.verdict = result::crash;
            r.detail = o.message;
            return r;
        case k::timed_out:
            r.verdict = result::timeout;
            r.detail = o.message;
            return r;
        case k::unsupported:
            r.verdict = result::unsupported;
            r.detail = "declared unsupported" + (o.message.empty() ? std::string() : ": " + o.message);
            return r;
        case k::harness_error:
            r.verdict = result::harness_error;
            r.detail = o.message;
            return r;
        case k::output_limit:
            r.verdict = result::fail;
            r.detail = "output flood: " + o.message;
            return r;
        case k::protocol_error:
            r.verdict = result::fail;
            r.detail = "protocol violation: " + o.message;
            return r;
        case k::refused:
            if (!v.negative()) {
                r.verdict = result::fail;
                r.detail = "refused a valid value: " + o.message;
                r.difference = "refuses a valid value";
                return r;
            }
            if (const std::string c = category_in(o.message); !c.empty() && c != v.error) {
                r.verdict = result::fail;
                r.detail = "refused with " + c + ", expected " + v.error + ": " + o.message;
                r.difference = "refuses for another reason";
                return r;
            }
            r.verdict = result::refused_correctly;
            r.success = true;
            r.detail = o.message;
            return r;
        case k::output: break;
    }
    if (v.negative()) {
        r.verdict = result::fail;
        r.detail = "wrote " + std::to_string(o.bytes.size()) + " bytes for a value it must refuse (" + v.error + ")";
        r.difference = "writes a value it must refuse";
        if (o.bytes.size() <= 64) r.detail += ": " + to_hex(o.bytes);
        return r;
    }
    if (o.bytes == v.expect) {
        r.verdict = result::pass;
        r.success = true;
        return r;
    }
    // Where do the bytes part, and what do both sides decode to?
    std::size_t at = 0;
    while (at < o.bytes.size() && at < v.expect.size() && o.bytes[at] == v.expect[at]) ++at;
    r.first_diff = at;
    decode_limits lim;
    lim.build_value = false;
    lim.max_lines = 200000;
    const decoded de = decode_annotated(v.fmt, v.expect, lim);
    const decoded da = decode_annotated(v.fmt, o.bytes, lim);
    r.diff_text = "expected: " + hex_window(v.expect, at, 16) + "\n" + annotated_window(v.fmt, v.expect, at, de) +
                  "actual:   " + hex_window(o.bytes, at, 16) + "\n" + annotated_window(v.fmt, o.bytes, at, da);
    for (std::size_t i = 0; i < v.alternatives.size(); ++i) {
        if (o.bytes == v.alternatives[i]) {
            r.verdict = result::pass_equivalent;
            r.success = !r.strict;
            r.detail = "matches listed alternative " + std::to_string(i + 1) +
                       " (differs from the expected bytes at byte " + std::to_string(at) + ")";
            r.difference = difference_class(v, de, da);
            return r;
        }
    }
    const decoded_value ve = decode_value(v.fmt, v.expect);
    const decoded_value va = decode_value(v.fmt, o.bytes);
    if (ve.ok && va.ok && same_value(ve.value, va.value)) {
        r.verdict = result::pass_equivalent;
        r.success = !r.strict;
        r.detail = "different bytes (from byte " + std::to_string(at) + "), same value (decoded by " + va.how + ")";
        r.difference = difference_class(v, de, da);
        return r;
    }
    r.verdict = result::fail;
    if (!va.ok) {
        r.detail = "differs at byte " + std::to_string(at) + "; the output does not decode: " + va.how;
        r.difference = "malformed output";
    } else {
        r.detail = "differs at byte " + std::to_string(at) +
                   " and decodes to a different value: " + render_value(va.value, 120);
        // Only the classes that change a value describe a difference of value.
        r.difference = difference_class(v, de, da);
        if (r.difference != "integer packing of whole doubles" && r.difference != "integer beyond 64 bits") {
            r.difference = "different value";
        }
    }
    return r;
}

std::string default_corpus() {
    if (const char* env = std::getenv("SINKCHECK_CORPUS")) return env;
#ifdef SINKCHECK_CORPUS_DIR
    return SINKCHECK_CORPUS_DIR;
#else
    return "corpus/conformance";
#endif
}

namespace {

struct expected_entry {
    std::string reason;
    std::size_t line;
};

std::map<std::string, expected_entry> load_expected_failures(const std::string& path,
                                                             const std::set<std::string>& ids) {
    std::ifstream in(path);
    if (!in) throw conform_error(path + ": cannot open the expected-failures file");
    std::map<std::string, expected_entry> out;
    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        std::string reason;
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos) {
            reason = line.substr(hash + 1);
            line.resize(hash);
        }
        auto trim = [](std::string& s) {
            s.erase(0, s.find_first_not_of(" \t\r"));
            s.erase(s.find_last_not_of(" \t\r") + 1);
        };
        trim(line);
        trim(reason);
        if (line.empty()) continue;
        if (line.find_first_of(" \t") != std::string::npos) {
            throw conform_error(path + ":" + std::to_string(n) +
                                ": one vector id per line, then an optional '# reason'");
        }
        if (ids.count(line) == 0) {
            throw conform_error(path + ":" + std::to_string(n) + ": no vector of this format has the id '" + line +
                                "'");
        }
        if (!out.emplace(line, expected_entry{reason, n}).second) {
            throw conform_error(path + ":" + std::to_string(n) + ": '" + line + "' is listed twice");
        }
    }
    return out;
}

}  // namespace

run_summary run_conformance(const conform_options& options, encoder_factory& factory) {
    run_summary s;
    s.options = options;
    s.encoder_description = factory.describe();
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<test_vector> all;
    try {
        all = load_corpus(options.corpus.empty() ? default_corpus() : options.corpus, options.fmt);
    } catch (const corpus_error& e) {
        throw conform_error(e.what());
    }
    bool any_canonical = false;
    std::set<std::string> ids;  // every id of the format, for the expected-failures list
    for (test_vector& v : all) {
        if (v.fmt != options.fmt) continue;
        ids.insert(v.id);
        if ((v.levels & level_canonical) != 0) any_canonical = true;
        if (!selected(v, options.level)) continue;
        if (!options.filters.empty() &&
            std::none_of(options.filters.begin(), options.filters.end(),
                         [&](const std::string& g) { return ::fnmatch(g.c_str(), v.id.c_str(), 0) == 0; })) {
            continue;
        }
        s.vectors.push_back(std::move(v));
    }
    if (s.vectors.empty()) {
        throw conform_error("no " + std::string(format_name(options.fmt)) + " vector matches the level and filters");
    }
    if (options.level == run_level::canonical && !any_canonical) {
        throw conform_error(std::string(format_name(options.fmt)) +
                            " defines no canonical encoding; use --level exact or --level equivalent");
    }
    std::map<std::string, expected_entry> expected;
    if (!options.expected_failures.empty()) expected = load_expected_failures(options.expected_failures, ids);

    s.results.resize(s.vectors.size());
    std::atomic<std::size_t> next{0};
    const unsigned jobs = std::max(
        1u, std::min<unsigned>(options.jobs, static_cast<unsigned>(std::max<std::size_t>(1, s.vectors.size()))));
    auto work = [&]() {
        std::unique_ptr<encoder_session> session = factory.open();
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= s.vectors.size()) return;
            const test_vector& v = s.vectors[i];
            encode_outcome o;
            try {
                o = session->encode(v);
            } catch (const std::exception& e) {
                o.what = encode_outcome::kind::harness_error;
                o.message = std::string("the runner failed: ") + e.what();
            }
            s.results[i] = classify(v, options.level, o);
            // Keep what the reports show, not every flood: memory stays bounded by the number
            // of vectors, not by what the encoder wrote.
            vector_result& r = s.results[i];
            if (r.actual.size() > kept_output) r.actual.resize(kept_output);
            if (r.stderr_text.size() > kept_stderr) r.stderr_text.resize(kept_stderr);
        }
    };
    const auto t1 = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
    s.encode_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();

    for (vector_result& r : s.results) {
        ++s.counts[index_of(r.verdict)];
        if (auto it = expected.find(r.vector->id); it != expected.end()) {
            r.expected_failure = true;
            r.expected_reason = it->second.reason;
        }
        if (r.verdict == result::unsupported) {
            ++s.unsupported;
        } else if (r.expected_failure) {
            if (r.success)
                ++s.unexpected_passes;
            else
                ++s.expected_failures;
        } else if (!r.success) {
            ++s.failures;
        }
    }
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return s;
}

// ---- the command ----------------------------------------------------------------------------

const std::string_view conform_usage =
    "usage: sinkcheck conform --format F --encoder 'CMD ARGS' [options]\n"
    "\n"
    "Runs an encoder against the conformance corpus of format F and grades every vector:\n"
    "pass, pass-equivalent, fail, refused-correctly, crash, timeout, unsupported, harness-error.\n"
    "\n"
    "  --format F               cbor msgpack ubjson bjdata bson bon8\n"
    "  --encoder 'CMD ARGS'     the encoder process (split like a shell would, no expansions),\n"
    "                           or linked:NAME for a C++ encoder linked into this program\n"
    "  --mode per-vector|batch  one process per vector (default) or one process, framed\n"
    "  --level exact|canonical|equivalent\n"
    "                           exact (default): the reference profile's bytes; canonical: the\n"
    "                           format's canonical bytes (CBOR, BON8); equivalent: any bytes that\n"
    "                           decode to the same value\n"
    "  --filter GLOB            only vector ids matching GLOB (repeatable)\n"
    "  --jobs N                 run N vectors at a time (default 1)\n"
    "  --timeout S              seconds per vector before the process group is killed (default 10)\n"
    "  --max-output BYTES       stdout beyond this is a flood: killed, fail (default 67108864)\n"
    "  --expected-failures FILE one vector id per line, '# reason' after it\n"
    "  --report text|json|junit|tap|html   (default text)\n"
    "  --output FILE            write the report there instead of stdout\n"
    "  --corpus PATH            a .vectors file or a directory of them (default: the built-in corpus)\n"
    "  --list-linked            list the linked encoders and exit\n"
    "\n"
    "Protocol and classification: docs/conformance.md. Exit status: 0 the encoder conforms\n"
    "(expected failures aside), 1 it does not (or an expected failure now passes), 2 usage or\n"
    "input error (a malformed vector file is reported as FILE:LINE: message).\n";

namespace {

double parse_number(const std::string& option, const std::string& text) {
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (text.empty() || end == nullptr || *end != '\0' || !(d > 0)) {
        throw conform_error(option + " needs a positive number, not '" + text + "'");
    }
    return d;
}

conform_options parse_arguments(const std::vector<std::string>& args, bool& list_linked) {
    conform_options o;
    bool have_format = false;
    bool have_encoder = false;
    static const std::set<std::string> with_value = {
        "--format",     "--encoder",           "--mode",   "--level",  "--filter", "--jobs", "--timeout",
        "--max-output", "--expected-failures", "--report", "--output", "--corpus"};
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string name = args[i];
        std::string value;
        if (name == "--list-linked") {
            list_linked = true;
            continue;
        }
        const std::size_t eq = name.find('=');
        if (name.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = name.substr(eq + 1);
            name.resize(eq);
        } else if (with_value.count(name) != 0) {
            if (i + 1 >= args.size()) throw conform_error(name + " needs a value");
            value = args[++i];
        }
        if (with_value.count(name) == 0) throw conform_error("unknown argument '" + args[i] + "'");
        if (name == "--format") {
            const auto f = parse_format(value);
            if (!f) throw conform_error("unknown format '" + value + "' (cbor msgpack ubjson bjdata bson bon8)");
            o.fmt = *f;
            have_format = true;
        } else if (name == "--encoder") {
            o.encoder = value;
            have_encoder = true;
        } else if (name == "--mode") {
            if (value == "per-vector")
                o.mode = process_mode::per_vector;
            else if (value == "batch")
                o.mode = process_mode::batch;
            else
                throw conform_error("--mode is per-vector or batch");
        } else if (name == "--level") {
            if (!parse_level(value, o.level)) throw conform_error("--level is exact, canonical or equivalent");
        } else if (name == "--filter") {
            o.filters.push_back(value);
        } else if (name == "--jobs") {
            o.jobs = static_cast<unsigned>(parse_number(name, value));
            if (o.jobs < 1 || o.jobs > 256) throw conform_error("--jobs is 1 to 256");
        } else if (name == "--timeout") {
            o.limits.timeout_seconds = parse_number(name, value);
        } else if (name == "--max-output") {
            o.limits.max_output = static_cast<std::size_t>(parse_number(name, value));
        } else if (name == "--expected-failures") {
            o.expected_failures = value;
        } else if (name == "--report") {
            static const std::map<std::string, report_kind> kinds = {{"text", report_kind::text},
                                                                     {"json", report_kind::json},
                                                                     {"junit", report_kind::junit},
                                                                     {"tap", report_kind::tap},
                                                                     {"html", report_kind::html}};
            const auto it = kinds.find(value);
            if (it == kinds.end()) throw conform_error("--report is text, json, junit, tap or html");
            o.report = it->second;
        } else if (name == "--output") {
            o.output = value;
        } else if (name == "--corpus") {
            o.corpus = value;
        }
    }
    if (!list_linked && (!have_format || !have_encoder)) throw conform_error("--format and --encoder are required");
    return o;
}

}  // namespace

int run_conform_command(const std::vector<std::string>& args) {
    for (const std::string& a : args) {
        if (a == "--help" || a == "-h") {
            std::fputs(std::string(conform_usage).c_str(), stdout);
            return 0;
        }
    }
    try {
        bool list_linked = false;
        const conform_options o = parse_arguments(args, list_linked);
        if (list_linked) {
            for (const linked_encoder_info& info : linked_encoders()) {
                std::printf("linked:%-14s %s\n", info.name.c_str(), info.description.c_str());
            }
            return 0;
        }
        std::unique_ptr<encoder_factory> factory;
        if (o.encoder.rfind("linked:", 0) == 0) {
            const std::string name = o.encoder.substr(7);
            for (const linked_encoder_info& info : linked_encoders()) {
                if (info.name == name) factory = make_linked_factory(info);
            }
            if (!factory) throw conform_error("no linked encoder '" + name + "' (see --list-linked)");
        } else {
            try {
                factory = make_process_factory(o.encoder, o.mode, o.limits);
            } catch (const std::invalid_argument& e) {
                throw conform_error(std::string("--encoder: ") + e.what());
            }
        }
        const run_summary s = run_conformance(o, *factory);
        const std::string report = render_report(s);
        if (o.output.empty()) {
            std::fwrite(report.data(), 1, report.size(), stdout);
            std::fflush(stdout);
        } else {
            std::ofstream out(o.output, std::ios::binary);
            out << report;
            out.close();
            if (!out) {
                std::fprintf(stderr, "sinkcheck conform: cannot write %s\n", o.output.c_str());
                return 2;
            }
            std::fprintf(
                stderr, "%s: %zu vectors, %zu failing, %zu expected failures, %zu unexpected passes, %zu unsupported\n",
                o.output.c_str(), s.results.size(), s.failures, s.expected_failures, s.unexpected_passes,
                s.unsupported);
        }
        return s.conforms() ? 0 : 1;
    } catch (const conform_error& e) {
        std::fprintf(stderr, "sinkcheck conform: %s\n", e.what());
        return 2;
    }
}

}  // namespace sinkcheck::conform
