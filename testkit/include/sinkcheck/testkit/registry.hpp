// sinkcheck/testkit/registry.hpp — the sinks by name, for everything that picks one at run time.
//
// The CLI (`sinkcheck sinks`, `--sink`, `check`) and the differential fuzz targets name sinks
// with strings; this catalogue, derived from the one list of sinks (sinks.hpp), turns a name into
// a sink, runs an encoding (or any writes) through it, and reports what came out together with
// how the sink got there: the bytes, the capacities it went through, its allocations (the growing
// sinks run on the tracing allocator) and the most it zero-filled ahead of its cursor, and the
// first of the sink's promises (promises.hpp) the run broke. Every sink here must produce the same
// bytes: that is the first thing all of those tools check. A run can also inject a failure at the
// k-th allocation or the k-th write and report what the target held afterwards, and whether
// anything leaked. Runs go through the kit's one driver (harness.hpp, drive).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/options.hpp"
#include "sinkcheck/sink/counting_sink.hpp"
#include "sinkcheck/sink/growth_observer.hpp"
#include "sinkcheck/testkit/any_sink.hpp"
#include "sinkcheck/testkit/harness.hpp"
#include "sinkcheck/testkit/promises.hpp"
#include "sinkcheck/testkit/sinks.hpp"

namespace sinkcheck {

struct sink_info {
    std::string_view name;
    std::string_view description;
    /// whether the window argument of run_sink changes how the sink grows
    bool windowed;
    /// whether the sink can seek (BSON's patched lengths need it)
    bool seekable;
    /// false: the sink only counts (run_sink reports the size, no bytes)
    bool stores;
    /// the growth rule it promises ("" when none): sinks with the same rule grow alike
    std::string_view growth;
};

namespace detail {

template <class... T>
std::vector<sink_info> infos_of(testkit::sink_list<T...>) {
    return {sink_info{testkit::sink_traits<T>::name(), testkit::sink_traits<T>::description(),
                      testkit::sink_traits<T>::windowed, testkit::sink_traits<T>::seekable,
                      testkit::sink_traits<T>::stores, testkit::sink_traits<T>::growth_description()}...};
}

}  // namespace detail

/// Every sink, in the order of testkit::builtin_sinks.
inline const std::vector<sink_info>& all_sinks() {
    static const std::vector<sink_info> sinks = detail::infos_of(testkit::builtin_sinks{});
    return sinks;
}

/// The catalogue entry for `name`, or nullptr.
inline const sink_info* find_sink(std::string_view name) noexcept {
    for (const sink_info& s : all_sinks()) {
        if (s.name == name) {
            return &s;
        }
    }
    return nullptr;
}

/// Failures to inject into one run (0: none). A run with a fault armed, or with capture set,
/// catches whatever the writes throw and reports it in sink_run::error instead of letting it pass.
struct sink_faults {
    /// the k-th allocation of the output buffer throws std::bad_alloc (only the sinks that run on
    /// the tracing allocator allocate through it; the others run undisturbed)
    std::size_t allocation = 0;
    /// the k-th write call into the sink throws injected_fault (instrument/fault_sink.hpp)
    std::size_t write = 0;
    /// no fault, but an encoder's refusal is reported with the bytes written before it
    bool capture = false;
    /// the output of the same writes without a fault, when the caller has it: a run that threw
    /// must have written a prefix of it (TrimsToWrittenBytesWhenWritesThrow)
    const std::vector<std::uint8_t>* full_output = nullptr;

    bool armed() const noexcept { return allocation != 0 || write != 0 || capture; }
};

/// What one run through a sink produced.
struct sink_run {
    /// the output (empty for "counting"); after an error, what the target held once the sink
    /// was done — the contract says: a prefix of the full output, ending at a write boundary
    std::vector<std::uint8_t> bytes;
    /// bytes written
    std::size_t size = 0;
    /// vector/string/memory sinks: each capacity reached, in order; chunked: each chunk's size
    std::vector<std::size_t> capacities;
    /// allocations of the output buffer (vector, legacy_vector, string, chunked, memory,
    /// seekable_memory run on the tracing allocator; the others report 0)
    std::size_t allocations = 0;
    std::size_t bytes_allocated = 0;
    /// the most bytes made writable ahead of the cursor by one growth (windowed sinks)
    std::size_t max_zero_fill = 0;
    /// what the writes threw, when a fault was armed (null when they completed)
    std::exception_ptr error;
    /// "" unless output buffers were still allocated after the sink and its target were gone
    std::string leaks;
    /// the first promise of the sink (testkit/promises.hpp) the run broke, with what broke ("" when
    /// it kept them all), and the kind of finding it is for a fuzz target
    std::string broken;
    fuzz::mismatch broken_kind = fuzz::mismatch::model;
};

namespace detail {

[[noreturn]] inline void unknown_sink(std::string_view name) {
    std::string valid;
    for (const sink_info& s : all_sinks()) {
        valid += valid.empty() ? "" : ", ";
        valid += s.name;
    }
    throw std::invalid_argument("unknown sink '" + std::string(name) + "'; valid sinks: " + valid);
}

/// One run of write(sink) through the sink described by traits T: the kit's one driver
/// (testkit::drive, the same the properties and the sink fuzzer use), the run judged by the
/// promises the sink makes (promises.hpp), and the record reduced to what a sink_run reports.
template <class T, class Write>
sink_run run_one(std::size_t window, Write& write, const sink_faults& faults) {
    using traits = testkit::sink_traits<T>;
    testkit::run_setup setup;
    setup.window = window;
    setup.alloc_fault = faults.allocation;
    setup.write_fault = faults.write;
    if constexpr (traits::fixed_capacity) {
        counting_sink measure;
        try {
            write(measure);
        } catch (...) {
            if (!faults.armed()) {
                throw;
            }
            // a refusal: the bytes before it still fit, and the real pass will throw it again
        }
        setup.span_capacity = measure.position();
    }
    // the runs of one value through every sink write alike: the record makes room for what the
    // last run wrote, instead of growing its model and write lengths as the sink runs
    static thread_local testkit::run_size_hint last;
    testkit::run_record r = testkit::drive<T>(setup, write, last);
    last = {r.model.size(), r.writes.size()};
    sink_run out;
    if (const testkit::broken_promise broken =
            testkit::judge_run(testkit::description_of<T>(), {r, setup, faults.full_output})) {
        out.broken = broken.describe();
        out.broken_kind = broken.found.kind;
    }
    if (r.thrown && !faults.armed()) {
        // the exception goes to the caller, who judges it; what the sink did on the way out
        // (what it kept, leaked, allocated) must not be lost to it
        if (!out.broken.empty() && out.broken_kind != fuzz::mismatch::unexpected_error) {
            throw std::runtime_error("sink " + std::string(traits::name()) +
                                     " broke a promise as the writes threw: " + out.broken);
        }
        std::rethrow_exception(r.thrown);
    }
    if constexpr (traits::stores) {
        out.bytes = std::move(r.bytes);
    }
    out.size = r.position;
    out.capacities = traits::reports_chunks ? std::move(r.chunks) : testkit::reported_capacities(r);
    out.allocations = r.allocations.size();
    out.bytes_allocated = std::accumulate(r.allocations.begin(), r.allocations.end(), std::size_t(0));
    for (const growth_event& e : r.growths) {
        out.max_zero_fill = std::max(out.max_zero_fill, e.ahead);
    }
    out.error = r.thrown;
    out.leaks = std::move(r.leaks);
    return out;
}

template <class... T, class Write>
sink_run run_named(testkit::sink_list<T...>, std::string_view name, std::size_t window, Write& write,
                   const sink_faults& faults) {
    sink_run r;
    const bool found =
        ((testkit::sink_traits<T>::name() == name ? (r = run_one<T>(window, write, faults), true) : false) || ...);
    if (!found) {
        unknown_sink(name);
    }
    return r;
}

}  // namespace detail

/// Runs write(sink) through the sink called `name` and reports the result. `write` is called
/// with each sink type in turn (a generic lambda), once — twice for a fixed-capacity sink, whose
/// buffer is sized by a counting pass first. window 0 means default_window; sinks that are not
/// windowed ignore it. Unknown name: std::invalid_argument listing the valid names. What write()
/// throws passes through, unless a fault is armed (see sink_faults), or std::runtime_error naming
/// the promise when the run also broke one.
template <class Write>
sink_run run_sink_with(std::string_view name, std::size_t window, Write&& write, const sink_faults& faults = {}) {
    return detail::run_named(testkit::builtin_sinks{}, name, window == 0 ? default_window : window, write, faults);
}

/// Encodes j in format f through the sink called `name` (see run_sink_with). For nlohmann::json
/// the encoders are the ones compiled once in the kit's library (any_sink.hpp): what is
/// instantiated here per sink is the run around them, not six encoders.
template <class Json>
sink_run run_sink(std::string_view name, std::size_t window, format f, const Json& j, const encode_options& o = {},
                  const sink_faults& faults = {}) {
    return run_sink_with(
        name, window, [&](auto& sink) { testkit::encode_any(f, j, sink, o); }, faults);
}

}  // namespace sinkcheck
