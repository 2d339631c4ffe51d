// sinkcheck/sink/registry.hpp — the sinks by name, for everything that picks one at run time.
//
// The CLI (`sinkcheck sinks`, `--sink`, `check`), the fuzzers and the properties name sinks
// with strings; this catalogue turns a name into a sink, runs an encoding (or any writes) through
// it, and reports what came out together with how the sink got there: the bytes, the capacities
// it went through, its allocations (the growing sinks run on the tracing allocator) and the most
// it zero-filled ahead of its cursor. Every sink here must produce the same bytes: that is the
// first thing all of those tools check. A run can also inject a failure at the k-th allocation or
// the k-th write and report what the target held afterwards, and whether anything leaked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/instrument/capacity_trace.hpp"
#include "sinkcheck/instrument/fault_sink.hpp"
#include "sinkcheck/instrument/tracing_allocator.hpp"
#include "sinkcheck/instrument/zero_fill_meter.hpp"
#include "sinkcheck/options.hpp"
#include "sinkcheck/sink/chunked_sink.hpp"
#include "sinkcheck/sink/counting_sink.hpp"
#include "sinkcheck/sink/growth_observer.hpp"
#include "sinkcheck/sink/legacy_vector_sink.hpp"
#include "sinkcheck/sink/memory_writer.hpp"
#include "sinkcheck/sink/ostream_sink.hpp"
#include "sinkcheck/sink/protocol_sink.hpp"
#include "sinkcheck/sink/seekable_memory_writer.hpp"
#include "sinkcheck/sink/span_sink.hpp"
#include "sinkcheck/sink/string_sink.hpp"
#include "sinkcheck/sink/vector_sink.hpp"

namespace sinkcheck {

struct sink_info {
    std::string_view name;
    std::string_view description;
    /// whether the window argument of run_sink changes how the sink grows
    bool windowed;
};

inline const std::vector<sink_info>& all_sinks() {
    static const std::vector<sink_info> sinks = {
        {"vector", "caller's std::vector, geometric growth, zero-fills a window ahead (seed 000)", true},
        {"legacy_vector", "caller's std::vector, zero-fills the whole new capacity (before seed 000)", false},
        {"string", "caller's std::string, exact first allocation out of the short buffer (seed 002)", true},
        {"chunked", "list of chunks, 2 KiB doubling to 64 KiB (seed 003)", false},
        {"memory", "seekless memory writer (seed 004)", true},
        {"seekable_memory", "seekable memory writer with overwrite and seek (seed 004)", true},
        {"ostream", "std::ostream (an ostringstream here)", false},
        {"protocol", "virtual calls into an nlohmann output adapter (a vector adapter here)", false},
        {"span", "fixed caller buffer, sized exactly by a counting pass; throws on overflow", false},
        {"counting", "counts bytes, stores none (run_sink reports only the size)", false},
    };
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

/// Runs write(sink) through the sink called `name` and reports the result. `write` is called
/// with each sink type in turn (a generic lambda), once — twice for "span", whose buffer is
/// sized by a counting pass first. window 0 means default_window; sinks that are not windowed
/// ignore it. Unknown name: std::invalid_argument listing the valid names. What write() throws
/// passes through, unless a fault is armed (see sink_faults).
template <class Write>
sink_run run_sink_with(std::string_view name, std::size_t window, Write&& write, const sink_faults& faults = {}) {
    if (window == 0) {
        window = default_window;
    }
    using byte_alloc = tracing_allocator<std::uint8_t>;
    sink_run r;
    if (name == "vector" || name == "legacy_vector") {
        detail::run_instruments in(faults);
        {
            std::vector<std::uint8_t, byte_alloc> v(in.allocator<std::uint8_t>());
            if (name == "vector") {
                basic_vector_sink<byte_alloc> sink(v, window, &in.tee);
                detail::guarded_write(sink, write, faults, r);
            } else {
                basic_legacy_vector_sink<byte_alloc> sink(v, &in.tee);
                detail::guarded_write(sink, write, faults, r);
            }
            detail::keep_bytes(r, v);
        }
        in.finish(r);
    } else if (name == "string") {
        detail::run_instruments in(faults);
        {
            std::basic_string<char, std::char_traits<char>, tracing_allocator<char>> s(in.allocator<char>());
            {
                basic_string_sink<char, std::char_traits<char>, tracing_allocator<char>> sink(s, window, &in.tee);
                detail::guarded_write(sink, write, faults, r);
            }
            detail::keep_bytes(r, s);
        }
        in.finish(r);
    } else if (name == "chunked") {
        detail::run_instruments in(faults);
        std::vector<std::size_t> chunk_sizes;
        {
            basic_chunked_sink<byte_alloc> sink(chunked_sink::default_first_chunk, chunked_sink::default_max_chunk,
                                                in.allocator<std::uint8_t>());
            detail::guarded_write(sink, write, faults, r);
            detail::keep_bytes(r, sink.flatten());
            for (const auto& c : sink.chunks()) {
                chunk_sizes.push_back(c.capacity);
            }
        }
        in.finish(r);
        r.capacities = chunk_sizes;
    } else if (name == "memory" || name == "seekable_memory") {
        detail::run_instruments in(faults);
        if (name == "memory") {
            basic_memory_writer<byte_alloc> sink(0, window, in.allocator<std::uint8_t>());
            sink.set_observer(&in.tee);
            detail::guarded_write(sink, write, faults, r);
            detail::keep_bytes(r, sink.bytes());
        } else {
            basic_seekable_memory_writer<byte_alloc> sink(0, window, in.allocator<std::uint8_t>());
            sink.set_observer(&in.tee);
            detail::guarded_write(sink, write, faults, r);
            detail::keep_bytes(r, sink.bytes());
        }
        in.finish(r);
    } else if (name == "ostream") {
        std::ostringstream os;
        ostream_sink sink(os);
        detail::guarded_write(sink, write, faults, r);
        detail::keep_bytes(r, os.str());
    } else if (name == "protocol") {
        std::vector<std::uint8_t> v;
        protocol_sink sink(std::make_shared<nlohmann::detail::output_vector_adapter<std::uint8_t>>(v));
        detail::guarded_write(sink, write, faults, r);
        detail::keep_bytes(r, v);
    } else if (name == "span") {
        counting_sink measure;
        try {
            write(measure);
        } catch (...) {
            if (!faults.armed()) {
                throw;
            }
            // a refusal: the bytes before it still fit, and the real pass will throw it again
        }
        std::vector<std::uint8_t> buffer(measure.position());
        span_sink sink(buffer.data(), buffer.size());
        detail::guarded_write(sink, write, faults, r);
        buffer.resize(sink.position());
        detail::keep_bytes(r, buffer);
    } else if (name == "counting") {
        counting_sink sink;
        detail::guarded_write(sink, write, faults, r);
        r.size = sink.position();
    } else {
        detail::unknown_sink(name);
    }
    return r;
}

/// Encodes j in format f through the sink called `name` (see run_sink_with).
template <class Json>
sink_run run_sink(std::string_view name, std::size_t window, format f, const Json& j, const encode_options& o = {},
                  const sink_faults& faults = {}) {
    return run_sink_with(
        name, window, [&](auto& sink) { encode(f, j, sink, o); }, faults);
}

#ifdef SINKCHECK_PREBUILT_RUN_SINK
// Every sink x every format is the costliest instantiation there is; a build that compiles it
// once (sinkcheck's own tests and CLI link reference/test/run_sink_instances.cpp) declares it
// here so that no other translation unit compiles it again. ordered_json is left to be compiled
// where it is used: nothing in sinkcheck runs every sink with it.
extern template sink_run run_sink<nlohmann::json>(std::string_view, std::size_t, format, const nlohmann::json&,
                                                  const encode_options&, const sink_faults&);
#endif

}  // namespace sinkcheck
