// bench/perf_gate.cpp — the perf-gate test: the reference encoders must stay well ahead of
// nlohmann 3.11.2 in instructions executed, a figure callgrind reproduces exactly.
//
// Run without arguments (as CTest does), it runs itself under `valgrind --tool=callgrind` with
// `--workload`, which encodes two fixed documents (numbers and records; text in six scripts) with
// each side in turn and dumps callgrind's counters after each; it then divides, per document and
// format, the reference encoder's instruction count by nlohmann's, and fails when a ratio exceeds
// the threshold committed in perf_gate_thresholds.txt.
// Wall-clock time on a shared machine varies by tens of percent; instruction counts do not vary
// at all, so a threshold a few percent above the committed ratio catches real regressions only.
// Exit codes: 0 pass, 1 a ratio over its threshold, 2 setup error, 77 valgrind missing (skip).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

// nlohmann's side is compiled here, with the gate's -O2, not taken from the kit's library of
// encoders, which the build compiles with its own flags (-O3 in the bench presets: 16 % fewer of
// nlohmann's instructions than the -O2 the thresholds were set with, so every format failed).
#undef SINKCHECK_EXTERN_JSON_ENCODERS
#include "sinkcheck/options.hpp"
#include "sinkcheck/testkit/oracle.hpp"

#include "documents.hpp"
#include "perf_gate.hpp"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SINKCHECK_HAVE_CALLGRIND 1
#else
#define SINKCHECK_HAVE_CALLGRIND 0
#endif

namespace {

using nlohmann::json;
using sinkcheck::format;

/// The fixed document: numbers (the seed-000 array) and records (object-heavy), in one object so
/// that BSON can take it too.
json gate_document() {
    json doc = json::object();
    doc["numbers"] = sinkcheck::bench::numbers_document(50000);
    doc["records"] = sinkcheck::bench::objects_document(1500);
    return doc;
}

/// The text document: in each script of documents.hpp, 300 records of 5-60 characters and 4 of
/// 2,000-6,000 (about 450 KB of text), where the UTF-8 check the reference makes and nlohmann
/// does not weighs most. Gated apart ("cbor:text"), so each document's ratio has its threshold.
json text_gate_document() {
    namespace sb = sinkcheck::bench;
    json doc = json::object();
    for (sb::script s : sb::all_scripts) {
        doc[std::string(sb::script_name(s)) + " short"] = sb::text_document(s, 300, 5, 60);
        doc[std::string(sb::script_name(s)) + " long"] = sb::text_document(s, 4, 2000, 6000);
    }
    return doc;
}

/// The gated documents and the suffix of their rows' names ("cbor", "cbor:text").
struct gated_document {
    const char* suffix;
    json (*make)();
};

constexpr gated_document gated_documents[] = {{"", gate_document}, {":text", text_gate_document}};

// Never inlined, so that a profile of the workload names both sides.
[[gnu::noinline]] std::size_t reference_side(format f, const json& doc) {
    namespace sb = sinkcheck::bench;
    switch (f) {
        case format::cbor: return sb::gate_reference_cbor(doc);
        case format::msgpack: return sb::gate_reference_msgpack(doc);
        case format::ubjson: return sb::gate_reference_ubjson(doc);
        case format::bjdata: return sb::gate_reference_bjdata(doc);
        case format::bson: return sb::gate_reference_bson(doc);
        case format::bon8: break;
    }
    return 0;
}

[[gnu::noinline]] std::size_t oracle_side(format f, const json& doc) { return sinkcheck::oracle_encode(f, doc).size(); }

/// only: the one format to run ("" for all), for profiling a single side by hand.
int workload(const std::string& only) {
#if SINKCHECK_HAVE_CALLGRIND
    for (const gated_document& gated : gated_documents) {
        const json doc = gated.make();
        for (format f : sinkcheck::oracle_formats()) {
            const std::string name = std::string(sinkcheck::format_name(f)) + gated.suffix;
            if (!only.empty() && only != name) {
                continue;
            }
            // each side once before counting: lazy binding and first-use initialisation excluded
            if (reference_side(f, doc) != oracle_side(f, doc)) {
                std::fprintf(stderr, "perf_gate: %s output sizes differ\n", name.c_str());
                return 2;
            }
            // named: the client request macros read the string after the full expression has ended
            const std::string ours = name + " reference";
            const std::string theirs = name + " nlohmann";
            CALLGRIND_ZERO_STATS;
            CALLGRIND_TOGGLE_COLLECT;
            reference_side(f, doc);
            CALLGRIND_TOGGLE_COLLECT;
            CALLGRIND_DUMP_STATS_AT(ours.c_str());
            CALLGRIND_TOGGLE_COLLECT;
            oracle_side(f, doc);
            CALLGRIND_TOGGLE_COLLECT;
            CALLGRIND_DUMP_STATS_AT(theirs.c_str());
        }
    }
    return 0;
#else
    std::fprintf(stderr, "perf_gate: built without <valgrind/callgrind.h>\n");
    return 2;
#endif
}

/// `--profile FORMAT[:text] reference|nlohmann`: one side alone, no client requests, for
/// `valgrind --tool=callgrind --toggle-collect='*reference_side*'` and callgrind_annotate.
int profile(const std::string& name, const std::string& side) {
    const std::size_t colon = name.find(':');
    const auto f = sinkcheck::parse_format(name.substr(0, colon));
    if (!f) {
        return 2;
    }
    const json doc = colon == std::string::npos ? gate_document() : text_gate_document();
    return static_cast<int>((side == "reference" ? reference_side(*f, doc) : oracle_side(*f, doc)) & 1);
}

/// A dump's trigger name ("cbor reference") and instruction count, from callgrind's output files.
std::map<std::string, std::uint64_t> read_dumps(const std::string& base) {
    std::map<std::string, std::uint64_t> counts;
    for (int i = 1;; ++i) {
        std::ifstream in(base + "." + std::to_string(i));
        if (!in) {
            break;
        }
        std::string line, name;
        std::uint64_t total = 0;
        bool have_total = false;
        while (std::getline(in, line)) {
            const std::string trigger = "desc: Trigger: Client Request: ";
            if (line.compare(0, trigger.size(), trigger) == 0) {
                name = line.substr(trigger.size());
            } else if (line.compare(0, 8, "summary:") == 0) {
                total = std::stoull(line.substr(8));
                have_total = true;
            }
        }
        if (!name.empty() && have_total) {
            counts[name] = total;
        }
    }
    return counts;
}

/// perf_gate_thresholds.txt: `<compiler id> <format>[:text] <max ratio>` per line, '#' comments.
std::map<std::string, double> read_thresholds(const std::string& path, const std::string& compiler) {
    std::map<std::string, double> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream fields(line);
        std::string id, fmt;
        double ratio = 0;
        if (fields >> id >> fmt >> ratio && id == compiler) {
            out[fmt] = ratio;
        }
    }
    return out;
}

int gate(const std::string& self, std::string valgrind, const std::string& thresholds_path, const std::string& compiler,
         const std::string& work_dir) {
    // CMake found no valgrind when it configured: perhaps one has been installed since
    if (valgrind.empty() || valgrind.find("NOTFOUND") != std::string::npos) {
        valgrind = "valgrind";
    }
    if (std::system(("'" + valgrind + "' --version > /dev/null 2>&1").c_str()) != 0) {
        std::printf("perf_gate: SKIPPED: valgrind is not installed (scripts/setup.sh installs it)\n");
        return 77;
    }
    const auto thresholds = read_thresholds(thresholds_path, compiler);
    if (thresholds.empty()) {
        std::printf("perf_gate: no thresholds for compiler '%s' in %s\n", compiler.c_str(), thresholds_path.c_str());
        return 2;
    }
    const std::string base = work_dir + "/perf_gate.callgrind";
    std::system(("rm -f '" + base + "'*").c_str());
    const std::string command = "'" + valgrind + "' --tool=callgrind --collect-atstart=no --callgrind-out-file='" +
                                base + "' '" + self + "' --workload > '" + work_dir + "/perf_gate.log' 2>&1";
    if (std::system(command.c_str()) != 0) {
        std::printf("perf_gate: the workload failed under callgrind; see %s/perf_gate.log\n", work_dir.c_str());
        return 2;
    }
    const auto counts = read_dumps(base);
    int status = 0;
    std::printf("%-12s %14s %14s %8s %10s\n", "format", "reference Ir", "nlohmann Ir", "ratio", "threshold");
    for (const gated_document& gated : gated_documents) {
        for (format f : sinkcheck::oracle_formats()) {
            const std::string name = std::string(sinkcheck::format_name(f)) + gated.suffix;
            const auto ours = counts.find(name + " reference");
            const auto theirs = counts.find(name + " nlohmann");
            const auto limit = thresholds.find(name);
            if (ours == counts.end() || theirs == counts.end() || theirs->second == 0 || limit == thresholds.end()) {
                std::printf("%-12s missing counts or threshold\n", name.c_str());
                status = 2;
                continue;
            }
            const double ratio = static_cast<double>(ours->second) / static_cast<double>(theirs->second);
            const bool pass = ratio <= limit->second;
            std::printf("%-12s %14llu %14llu %8.4f %10.4f %s\n", name.c_str(),
                        static_cast<unsigned long long>(ours->second), static_cast<unsigned long long>(theirs->second),
                        ratio, limit->second, pass ? "ok" : "REGRESSED");
            if (!pass && status == 0) {
                status = 1;
            }
        }
    }
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--profile" && argc > 3) {
        return profile(argv[2], argv[3]);
    }
    if (mode == "--workload") {
        return workload(argc > 2 ? argv[2] : "");
    }
    if (mode == "--gate" && argc > 5) {
        return gate(argv[0], argv[2], argv[3], argv[4], argv[5]);
    }
    std::fprintf(stderr,
                 "usage: %s --gate VALGRIND THRESHOLDS COMPILER_ID WORK_DIR\n"
                 "       %s --workload [FORMAT[:text]]\n"
                 "       %s --profile FORMAT[:text] reference|nlohmann\n",
                 argv[0], argv[0], argv[0]);
    return 2;
}
