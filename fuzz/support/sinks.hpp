// sinks.hpp — the differential targets' view of the sink catalogue (sink/registry.hpp).
//
// Every sink in all_sinks() runs each value, the windowed ones at several window sizes, so a
// sink added to the catalogue is fuzzed without touching the targets. Besides the bytes (which
// differential.hpp compares with the reference), each run is held to what seed 000 promises:
// the growing sinks go through one capacity sequence whatever their window, the same for all the
// sinks that declare the same growth rule (testkit/sinks.hpp); and each run keeps the promises one
// run can show broken (testkit/promises.hpp, judged by the registry): the writes that returned,
// the invariants, its growth rule, zero-fill at most max(window, the write) ahead of the cursor,
// nothing leaked.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/sink/memory_writer.hpp"
#include "sinkcheck/sink/seekable_memory_writer.hpp"
#include "sinkcheck/testkit/fuzz_report.hpp"
#include "sinkcheck/testkit/registry.hpp"

#include "support/broken_sink.hpp"

namespace sinkcheck::fuzz {

/// The reference output of write(sink): a memory_writer, or a seekable one when BSON lengths
/// are patched.
template <class Write>
std::vector<std::uint8_t> reference_bytes(Write&& write, bool seekable) {
    if (seekable) {
        seekable_memory_writer w;
        write(w);
        return w.take();
    }
    memory_writer w;
    write(w);
    return w.take();
}

/// One sink at one window size, as differential.hpp sees it.
struct sink_result {
    std::size_t site;   // crash site: catalogue index + 1 (0 is the reference/oracle pair)
    std::string label;  // "vector/w=64"
    std::vector<std::uint8_t> bytes;
    bool failed = false;
    std::string error;  // "type_error.316", or the exception type for a non-encoder error
    std::string what;
    bool unexpected = false;  // an exception that is not an encode_error
    bool size_only = false;   // a counting sink: bytes holds nothing, size is what it counted
    std::size_t size = 0;
    mismatch problem_kind = mismatch::model;
    std::string problem;  // a broken sink promise other than the bytes, "" when none
};

/// The window the windowed sinks use for one value, picked by the input. One per value keeps a
/// run cheap; across runs every size comes up, and the capacity check below compares the
/// windowed sinks with the unwindowed legacy one on every value.
inline std::size_t window_for(std::size_t pick) {
    static constexpr std::size_t table[] = {1,
                                            1,
                                            2,
                                            3,
                                            7,
                                            16,
                                            63,
                                            64,
                                            65,
                                            100,
                                            4096,
                                            default_window,
                                            1,
                                            64,
                                            65535,
                                            65537,
                                            unlimited_window,
                                            default_window};
    return table[pick % (sizeof table / sizeof table[0])];
}

/// The deliberately broken sink's run, shaped like a catalogue sink's (broken_sink.hpp).
template <class Write>
sink_result run_broken_sink(Write& write, std::size_t site) {
    sink_result r;
    r.site = site;
    r.label = "edge_dropping (deliberately broken)";
    try {
        edge_dropping_sink s;
        write(s);
        r.bytes = s.take();
        r.size = r.bytes.size();
    } catch (const encode_error& e) {
        r.failed = true;
        r.error = std::string(e.category()) + "." + std::to_string(e.id());
        r.what = e.what();
    }
    return r;
}

/// Encodes j in format f with options o through every sink (the windowed ones at the window the
/// input picks) and hands each result to `visit`. The sink runs go through run_sink, whose
/// encoders are compiled once in the kit's library (sinkcheck/testkit/any_sink.hpp, with the
/// fuzzer's coverage instrumentation in a libFuzzer build), and each run is judged there by the
/// promises of its sink (testkit/promises.hpp); `write` is the same encoding as a generic lambda,
/// for the deliberately broken sink. Patched BSON lengths need seek(): only the seekable sinks run
/// then.
template <class Write, class Visit>
void for_each_sink_run(format f, const nlohmann::json& j, const encode_options& o, Write&& write,
                       std::size_t window_pick, Visit&& visit) {
    const bool patch = o.bson_patch_lengths;
    const auto& sinks = all_sinks();
    // the sinks that declare seed 000's growth rule must all go through the same capacities
    std::vector<std::size_t> rule_capacities;
    std::string rule_owner;
    for (std::size_t i = 0; i < sinks.size(); ++i) {
        const sink_info& info = sinks[i];
        if (patch && !info.seekable) {
            continue;
        }
        const bool growth_rule = info.growth == testkit::vector_doubling::description;
        const std::size_t window = info.windowed ? window_for(window_pick) : default_window;
        {
            sink_result r;
            r.site = i + 1;
            r.label = std::string(info.name) + (info.windowed ? "/w=" + testkit::window_name(window) : "");
            sink_run run;
            try {
                run = run_sink(info.name, window, f, j, o);
            } catch (const encode_error& e) {
                r.failed = true;
                r.error = std::string(e.category()) + "." + std::to_string(e.id());
                r.what = e.what();
            } catch (const std::exception& e) {
                r.failed = true;
                r.unexpected = true;
                r.error = "std::exception";
                r.what = e.what();
            }
            if (!r.failed) {
                r.bytes = std::move(run.bytes);
                r.size = run.size;
                r.size_only = !info.stores;  // a counting sink: stores nothing, only counts
                if (!run.broken.empty()) {
                    // a promise of the sink one run shows broken (testkit/promises.hpp): the
                    // writes that returned, the invariants, leaks, its growth rule, the zero fill
                    r.problem_kind = run.broken_kind;
                    r.problem = run.broken;
                } else if ((info.windowed || growth_rule) && !run.capacities.empty() && run.max_zero_fill == 0) {
                    // every growth makes room for at least the write that needed it
                    r.problem_kind = mismatch::zero_fill;
                    r.problem = "the capacity trace went through " + std::to_string(run.capacities.size()) +
                                " capacities, yet the zero-fill meter saw no growth";
                } else if (growth_rule) {
                    if (rule_owner.empty()) {
                        rule_capacities = run.capacities;
                        rule_owner = r.label;
                    } else if (run.capacities != rule_capacities) {
                        r.problem_kind = mismatch::capacity_trace;
                        r.problem = "capacity sequence differs from " + rule_owner + "'s (" +
                                    std::to_string(run.capacities.size()) + " vs " +
                                    std::to_string(rule_capacities.size()) + " growths)";
                    }
                }
            }
            visit(r);
        }
    }
    if (!patch && broken_sink_enabled()) {  // it cannot seek
        visit(run_broken_sink(write, sinks.size() + 1));
    }
}

}  // namespace sinkcheck::fuzz
