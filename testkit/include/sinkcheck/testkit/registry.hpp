// sinkcheck/testkit/registry.hpp — the sinks by name, for everything that picks one at run time.
//
// The CLI (`sinkcheck sinks`, `--sink`, `check`) and the differential fuzz targets name sinks
// with strings; this catalogue, derived from the one list of sinks (sinks.hpp), turns a name into
// a sink, runs an encoding (or any writes) through it, and reports what came out together with
// how the sink got there: the bytes, the capacities it went through, its allocations (the growing
// sinks run on the tracing allocator) and the most it zero-filled ahead of its cursor. Every sink
// here must produce the same bytes: that is the first thing all of those tools check. A run can
// also inject a failure at the k-th allocation or the k-th write and report what the target held
// afterwards, and whether anything leaked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
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
#include "sinkcheck/testkit/instrument/capacity_trace.hpp"
#include "sinkcheck/testkit/instrument/fault_sink.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"
#include "sinkcheck/testkit/instrument/zero_fill_meter.hpp"
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

/// Runs write(sink), through a fault_sink when a write fault is armed; with any fault armed,
/// keeps what is thrown in r.error.
template <class Sink, class Write>
void guarded_write(Sink& sink, Write& write, const sink_faults& faults, sink_run& r) {
    try {
        if (faults.write != 0) {
            fault_sink<Sink> f(sink);
            f.fail_at_write(faults.write);
            write(f);
        } else {
            write(sink);
        }
    } catch (...) {
        if (!faults.armed()) {
            throw;
        }
        r.error = std::current_exception();
    }
}

/// Allocation log, capacity trace and zero-fill meter of one run.
struct run_instruments {
    std::shared_ptr<allocation_log> log = std::make_shared<allocation_log>();
    capacity_trace trace;
    zero_fill_meter meter;
    growth_tee tee{trace, meter};

    explicit run_instruments(const sink_faults& faults) { log->fail_at(faults.allocation); }

    template <class T>
    tracing_allocator<T> allocator() const {
        return tracing_allocator<T>(log);
    }

    /// Called once the output buffer is freed.
    void finish(sink_run& r) const {
        log->disarm();
        r.capacities = trace.capacities();
        r.allocations = log->allocations();
        r.bytes_allocated = log->bytes_allocated();
        r.max_zero_fill = meter.max_ahead();
        r.leaks = log->leak_report();
    }
};

template <class Bytes>
void keep_bytes(sink_run& r, const Bytes& out) {
    r.bytes.assign(out.begin(), out.end());
    r.size = r.bytes.size();
}

}  // namespace detail

namespace detail {

/// One run of write(sink) through the sink described by traits T.
template <class T, class Write>
sink_run run_one(std::size_t window, Write& write, const sink_faults& faults) {
    using traits = testkit::sink_traits<T>;
    testkit::run_setup setup;
    setup.window = window;
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
    sink_run r;
    run_instruments in(faults);
    std::vector<std::size_t> chunk_sizes;
    {
        typename traits::holder held(setup, in.log);
        {
            auto sink = traits::make(held.t, setup, &in.tee);
            guarded_write(sink, write, faults, r);
            r.size = sink.position();
            traits::capture(sink, held.t);
        }
        if constexpr (traits::stores) {
            keep_bytes(r, traits::contents(held.t));
        }
        if constexpr (traits::reports_chunks) {
            chunk_sizes = held.t.chunk_sizes;
        }
    }
    in.finish(r);  // once the output buffer is freed
    if constexpr (traits::reports_chunks) {
        r.capacities = chunk_sizes;
    }
    return r;
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
/// throws passes through, unless a fault is armed (see sink_faults).
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
