// fuzz_sink.cpp — every sink runs a write program and must match a model of it.
//
// The input is a program: single-byte writes, writes of chosen sizes (0 and the chunk, window and
// capacity edges included), seeks, and a fault point (the k-th allocation fails, or the k-th write
// call, or the write that passes byte k). It runs against every sink; afterwards the output must
// equal the model's bytes for the writes that completed (trimmed after a fault, also when the sink
// is destroyed while unwinding), the capacities must follow the growth rule (seed 000, 002), the
// chunks their doubling (seed 003), zero-filling must stay within the window, and nothing may leak.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/error.hpp"
#include "sinkcheck/instrument/capacity_trace.hpp"
#include "sinkcheck/instrument/fault_sink.hpp"
#include "sinkcheck/instrument/tracing_allocator.hpp"
#include "sinkcheck/instrument/zero_fill_meter.hpp"
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
#include "support/report.hpp"

namespace {

using namespace sinkcheck;
using fuzz::mismatch;
using byte_alloc = tracing_allocator<std::uint8_t>;
using char_alloc = tracing_allocator<char>;
using traced_vector = std::vector<std::uint8_t, byte_alloc>;
using traced_string = std::basic_string<char, std::char_traits<char>, char_alloc>;

/// The sinks, in crash-site order.
enum sink_id : std::size_t {
    vector_id,
    legacy_id,
    string_id,
    chunked_id,
    memory_id,
    seekable_id,
    span_id,
    ostream_id,
    protocol_id,
    counting_id
};
const char* const sink_names[] = {"vector_sink",   "legacy_vector_sink",     "string_sink", "chunked_sink",
                                  "memory_writer", "seekable_memory_writer", "span_sink",   "ostream_sink",
                                  "protocol_sink", "counting_sink"};

// ---- the program ---------------------------------------------------------------------------

struct op {
    enum kind_t { one_byte, bytes, seek } kind;
    std::size_t n;  // bytes to write, or the seek target
    std::uint8_t salt;
};

enum class fault_kind { none, allocation, write_call, past_byte };

struct program {
    std::vector<op> ops;
    std::size_t window = default_window;
    std::size_t first_chunk = 2048;
    std::size_t max_chunk = 65536;
    std::size_t span_capacity = 0;
    fault_kind fault = fault_kind::none;
    std::size_t fault_at = 0;
};

// enough to cross the default 64 KiB window once; more only slows every run down
constexpr std::size_t max_program_bytes = 72 * 1024;

program read_program(FuzzedDataProvider& in) {
    static constexpr std::size_t windows[] = {1, 2, 3, 7, 16, 63, 64, 65, 100, 4096, 65536, unlimited_window};
    static constexpr std::size_t sizes[] = {0,  1,   2,   7,   15,   16,   17,   31,   32,   63,  64,
                                            65, 127, 128, 129, 2047, 2048, 2049, 4095, 4096, 4097};
    // writes around the default 64 KiB window: rare, since each costs every sink 64 KiB
    static constexpr std::size_t big_sizes[] = {65535, 65536, 65537};
    program p;
    p.window = windows[in.ConsumeIntegralInRange<std::size_t>(0, std::size(windows) - 1)];
    p.first_chunk = std::size_t{1} << in.ConsumeIntegralInRange<int>(0, 11);
    p.max_chunk = p.first_chunk << in.ConsumeIntegralInRange<int>(0, 6);
    p.fault = static_cast<fault_kind>(in.ConsumeIntegralInRange<int>(0, 3));
    p.fault_at = in.ConsumeIntegralInRange<std::size_t>(1, 64);
    if (p.fault == fault_kind::past_byte) {
        p.fault_at = in.ConsumeIntegralInRange<std::size_t>(0, 70000);
    }
    p.span_capacity = in.ConsumeIntegralInRange<std::size_t>(0, 80000);
    std::size_t total = 0;
    while (in.remaining_bytes() > 0 && p.ops.size() < 256) {
        op o{op::one_byte, 1, in.ConsumeIntegral<std::uint8_t>()};
        switch (in.ConsumeIntegralInRange<int>(0, 7)) {
            case 0: break;
            case 1:
                o.kind = op::seek;
                o.n = in.ConsumeIntegralInRange<std::size_t>(0, total + 80);
                break;
            case 2:
                o.kind = op::bytes;
                o.n = sizes[in.ConsumeIntegralInRange<std::size_t>(0, std::size(sizes) - 1)];
                break;
            case 3:
                o.kind = op::bytes;
                o.n = in.ConsumeIntegral<std::uint8_t>() == 0xB1
                          ? big_sizes[in.ConsumeIntegralInRange<std::size_t>(0, std::size(big_sizes) - 1)]
                          : in.ConsumeIntegralInRange<std::size_t>(0, 300);
                break;
            default:
                o.kind = op::bytes;
                o.n = in.ConsumeIntegralInRange<std::size_t>(0, 300);
                break;
        }
        if (o.kind != op::seek && (total += o.n) > max_program_bytes) {
            break;
        }
        p.ops.push_back(o);
    }
    return p;
}

/// The payload of a write: distinct per op and offset, so a misplaced byte shows.
const std::uint8_t* payload(const op& o) {
    static std::vector<std::uint8_t> buffer(256 + 65537);
    static bool filled = false;
    if (!filled) {
        for (std::size_t i = 0; i < buffer.size(); ++i) {
            buffer[i] = static_cast<std::uint8_t>(i * 7 + i / 251);
        }
        filled = true;
    }
    return buffer.data() + o.salt;
}

// ---- the model -----------------------------------------------------------------------------

/// What the output must be after the writes that completed.
struct content_model {
    explicit content_model(bool is_seekable) : seekable(is_seekable) {}

    bool seekable;
    std::vector<std::uint8_t> bytes;
    std::size_t cursor = 0;
    struct write_span {
        std::size_t from, to, op;
    };
    std::vector<write_span> writes;  // for reports: which op wrote a byte last

    /// Index of the op that last wrote byte `at`, or the number of ops when none did.
    std::size_t op_at(std::size_t at) const {
        for (auto it = writes.rbegin(); it != writes.rend(); ++it) {
            if (at >= it->from && at < it->to) {
                return it->op;
            }
        }
        return writes.size();
    }

    void apply(const op& o, std::size_t index) {
        if (o.kind == op::seek) {
            cursor = o.n;
            return;
        }
        const std::size_t n = o.kind == op::one_byte ? 1 : o.n;
        if (n == 0) {
            return;
        }
        if (cursor + n > bytes.size()) {
            bytes.resize(cursor + n, 0);  // a write after a seek past the end: zeros in the gap
        }
        const std::uint8_t* p = o.kind == op::one_byte ? &o.salt : payload(o);
        std::copy(p, p + n, bytes.begin() + static_cast<std::ptrdiff_t>(cursor));
        cursor += n;
        writes.push_back({cursor - n, cursor, index});
    }
    std::size_t position() const noexcept { return seekable ? cursor : bytes.size(); }
};

/// The capacities a growing sink must go through: seed 000's rule for vectors (at least 64,
/// then max(needed, 2 * capacity)), seed 002's for strings (exactly what is needed when leaving
/// the short buffer, then the same doubling without the floor).
struct capacity_model {
    enum rule_t { vector_rule, string_rule } rule;
    std::size_t capacity;
    std::size_t short_capacity;
    std::vector<std::size_t> trace;        // as capacity_trace records it
    std::vector<std::size_t> allocations;  // sizes, as the allocation log records them
    bool started = false;

    void need(std::size_t needed) {
        if (needed > capacity) {
            if (rule == string_rule && capacity == short_capacity) {
                capacity = needed;
            } else {
                capacity =
                    std::max(needed, capacity <= std::numeric_limits<std::size_t>::max() / 2 ? 2 * capacity : needed);
                if (rule == vector_rule) {
                    capacity = std::max<std::size_t>(64, capacity);
                }
            }
            allocations.push_back(rule == string_rule ? capacity + 1 : capacity);
        }
        if (!started || trace.back() != capacity) {
            trace.push_back(capacity);
            started = true;
        }
    }
};

// ---- reporting -----------------------------------------------------------------------------

[[noreturn]] void finding(mismatch kind, sink_id sink, const program& p, const std::string& text) {
    fuzz::print_finding_header(kind, "write program", sink_names[sink], "the model");
    fuzz::print_note(sink_names[sink], text);
    std::string shape = std::to_string(p.ops.size()) + " ops, window " +
                        (p.window == unlimited_window ? std::string("unlimited") : std::to_string(p.window)) +
                        ", chunks " + std::to_string(p.first_chunk) + ".." + std::to_string(p.max_chunk) + ", fault " +
                        std::to_string(static_cast<int>(p.fault)) + "@" + std::to_string(p.fault_at);
    fuzz::print_note("program", shape);
    fuzz::crash<fuzz::target::sink>(kind, sink);
}

void expect_bytes(sink_id sink, const program& p, const content_model& m, const std::vector<std::uint8_t>& actual) {
    if (actual == m.bytes) {
        return;
    }
    fuzz::print_finding_header(mismatch::model, "write program", sink_names[sink], "the model");
    fuzz::print_byte_difference(sink_names[sink], actual, "model", m.bytes);
    const std::size_t at = fuzz::first_difference(actual, m.bytes);
    fuzz::print_note("written there by op", std::to_string(m.op_at(at)));
    finding(mismatch::model, sink, p, "output differs from the model");
}

template <class Seq>
std::string list(const Seq& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size() && i < 24; ++i) {
        out += (i ? " " : "") + std::to_string(s[i]);
    }
    return s.size() > 24 ? out + " ..." : out;
}

// ---- running -------------------------------------------------------------------------------

struct run_result {
    std::size_t completed = 0;  // ops that returned
    bool faulted = false;
};

template <class Sink>
void do_op(Sink& s, const op& o) {
    if (o.kind == op::one_byte) {
        s.write(o.salt);
    } else if (o.kind == op::bytes) {
        s.write(payload(o), o.n);
    } else if constexpr (std::is_same_v<Sink, seekable_memory_writer> ||
                         std::is_same_v<Sink, basic_seekable_memory_writer<byte_alloc>> ||
                         std::is_same_v<Sink, fault_sink<basic_seekable_memory_writer<byte_alloc>>>) {
        s.seek(o.n);
    }
}

/// Runs the program on s, keeping the models in step with the writes that return. The only
/// exceptions allowed are the armed fault's and a span's overflow.
template <class Sink, class OnOp>
run_result run(Sink& s, const program& p, sink_id id, content_model& m, OnOp on_op) {
    run_result r;
    try {
        for (const op& o : p.ops) {
            if (o.kind == op::seek && !m.seekable) {
                ++r.completed;
                continue;
            }
            do_op(s, o);
            on_op(o, m);  // sees the model as it was before the op
            m.apply(o, r.completed);
            ++r.completed;
            if (s.position() != m.position()) {
                finding(mismatch::model, id, p,
                        "position() " + std::to_string(s.position()) + " after op " + std::to_string(r.completed - 1) +
                            ", model " + std::to_string(m.position()));
            }
        }
    } catch (const std::bad_alloc&) {
        if (p.fault != fault_kind::allocation) {
            finding(mismatch::unexpected_error, id, p, "std::bad_alloc without an armed allocation fault");
        }
        r.faulted = true;
    } catch (const injected_fault&) {
        r.faulted = true;
    } catch (const sink_overflow& e) {
        if (id != span_id) {
            finding(mismatch::unexpected_error, id, p, e.what());
        }
        r.faulted = true;
    } catch (const std::exception& e) {
        finding(mismatch::unexpected_error, id, p, e.what());
    }
    return r;
}

/// Runs through a fault_sink when the program injects write faults, else directly.
template <class Sink, class OnOp>
run_result run_maybe_faulted(Sink& s, const program& p, sink_id id, content_model& m, OnOp on_op) {
    if (p.fault == fault_kind::write_call || p.fault == fault_kind::past_byte) {
        fault_sink<Sink> f(s);
        if (p.fault == fault_kind::write_call) {
            f.fail_at_write(p.fault_at);
        } else {
            f.fail_past_byte(p.fault_at);
        }
        return run(f, p, id, m, on_op);
    }
    return run(s, p, id, m, on_op);
}

std::shared_ptr<allocation_log> armed_log(const program& p) {
    auto log = std::make_shared<allocation_log>();
    if (p.fault == fault_kind::allocation) {
        log->fail_at(p.fault_at);
    }
    return log;
}

void expect_clean(sink_id id, const program& p, const allocation_log& log) {
    if (!log.clean()) {
        finding(mismatch::leak, id, p, log.leak_report());
    }
}

/// Seed 000: the capacities follow the rule whatever the window, and one growth never makes
/// more than max(window, request) bytes writable ahead of the cursor.
void expect_growth(sink_id id, const program& p, const capacity_model& cm, const capacity_trace& trace,
                   const zero_fill_meter& meter, const allocation_log& log, bool windowed) {
    if (trace.capacities() != cm.trace) {
        finding(mismatch::capacity_trace, id, p,
                "capacities " + list(trace.capacities()) + "; rule gives " + list(cm.trace));
    }
    if (log.allocation_sizes() != cm.allocations) {
        finding(mismatch::capacity_trace, id, p,
                "allocations " + list(log.allocation_sizes()) + "; rule gives " + list(cm.allocations));
    }
    if (windowed && meter.max_ahead() > std::max(p.window, meter.max_request())) {
        finding(mismatch::zero_fill, id, p,
                "zero-filled " + std::to_string(meter.max_ahead()) + " bytes ahead with window " +
                    std::to_string(p.window) + " and longest request " + std::to_string(meter.max_request()));
    }
}

/// Feeds the capacity model the room each completed write asked for.
auto growth_feed(capacity_model& cm) {
    return [&cm](const op& o, const content_model& m) {
        const std::size_t n = o.kind == op::one_byte ? 1 : o.kind == op::bytes ? o.n : 0;
        if (o.kind == op::seek) {
            // seekable_memory_writer reserves when seeking past its end and its capacity
            if (o.n > m.bytes.size() && o.n > cm.capacity) {
                cm.need(o.n);
            }
        } else if (n > 0) {
            cm.need(m.cursor + n);
        }
    };
}

template <class Container>
std::vector<std::uint8_t> as_bytes(const Container& c) {
    return std::vector<std::uint8_t>(c.begin(), c.end());
}

void check_vector(const program& p, bool legacy) {
    const sink_id id = legacy ? legacy_id : vector_id;
    auto log = armed_log(p);
    capacity_model cm{capacity_model::vector_rule, 0, 0, {}, {}};
    capacity_trace trace;
    zero_fill_meter meter;
    growth_tee tee(trace, meter);
    content_model m(false);
    {
        traced_vector v{byte_alloc(log)};
        {
            if (legacy) {
                basic_legacy_vector_sink<byte_alloc> s(v, &tee);
                run_maybe_faulted(s, p, id, m, growth_feed(cm));
            } else {
                basic_vector_sink<byte_alloc> s(v, p.window, &tee);
                run_maybe_faulted(s, p, id, m, growth_feed(cm));
            }
        }
        expect_bytes(id, p, m, as_bytes(v));
        expect_growth(id, p, cm, trace, meter, *log, !legacy);
    }
    expect_clean(id, p, *log);
}

void check_string(const program& p) {
    auto log = armed_log(p);
    capacity_trace trace;
    zero_fill_meter meter;
    growth_tee tee(trace, meter);
    content_model m(false);
    {
        traced_string s{char_alloc(log)};
        const std::size_t short_capacity = s.capacity();
        capacity_model cm{capacity_model::string_rule, short_capacity, short_capacity, {}, {}};
        {
            basic_string_sink<char, std::char_traits<char>, char_alloc> sink(s, p.window, &tee);
            run_maybe_faulted(sink, p, string_id, m, growth_feed(cm));
        }
        expect_bytes(string_id, p, m, as_bytes(s));
        expect_growth(string_id, p, cm, trace, meter, *log, true);
    }
    expect_clean(string_id, p, *log);
}

template <class Writer>
void check_memory_writer(const program& p, sink_id id) {
    auto log = armed_log(p);
    capacity_model cm{capacity_model::vector_rule, 0, 0, {}, {}};
    capacity_trace trace;
    zero_fill_meter meter;
    growth_tee tee(trace, meter);
    content_model m(id == seekable_id);
    {
        Writer w(0, p.window, byte_alloc(log));
        w.set_observer(&tee);
        run_maybe_faulted(w, p, id, m, growth_feed(cm));
        expect_bytes(id, p, m, as_bytes(w.bytes()));
        expect_growth(id, p, cm, trace, meter, *log, true);
    }
    expect_clean(id, p, *log);
}

/// Seed 003: chunk sizes double from the first up to the cap; a write that does not fit fills
/// the current chunk and goes on in one of the next size, doubled further until the rest fits.
/// A failing write allocates nothing, so the chunks follow from the writes that completed.
std::vector<std::size_t> expected_chunks(const program& p, std::size_t completed) {
    std::vector<std::size_t> chunks;
    std::size_t next = p.first_chunk;
    std::size_t room = 0;
    for (std::size_t i = 0; i < completed; ++i) {
        const op& o = p.ops[i];
        const std::size_t n = o.kind == op::one_byte ? 1 : o.kind == op::bytes ? o.n : 0;
        if (n <= room) {
            room -= n;
            continue;
        }
        std::size_t size = next;
        while (size < n - room) {
            size *= 2;
        }
        chunks.push_back(size);
        room = size - (n - room);
        next = next <= p.max_chunk / 2 ? 2 * next : p.max_chunk;
    }
    return chunks;
}

void check_chunked(const program& p) {
    auto log = armed_log(p);
    content_model m(false);
    {
        basic_chunked_sink<byte_alloc> s(p.first_chunk, p.max_chunk, byte_alloc(log));
        const run_result r = run_maybe_faulted(s, p, chunked_id, m, [](const op&, const content_model&) {});
        std::vector<std::size_t> capacities;
        const auto chunks = s.chunks();
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            capacities.push_back(chunks[i].capacity);
            if (i + 1 < chunks.size() && chunks[i].size != chunks[i].capacity) {
                finding(mismatch::model, chunked_id, p,
                        "chunk " + std::to_string(i) + " is not full: " + std::to_string(chunks[i].size) + " of " +
                            std::to_string(chunks[i].capacity));
            }
        }
        const std::vector<std::size_t> expected = expected_chunks(p, r.completed);
        if (capacities != expected) {
            finding(mismatch::capacity_trace, chunked_id, p,
                    "chunks " + list(capacities) + "; doubling gives " + list(expected));
        }
        if (log->allocation_sizes() != expected) {
            finding(mismatch::capacity_trace, chunked_id, p,
                    "allocations " + list(log->allocation_sizes()) + "; chunks " + list(expected));
        }
        expect_bytes(chunked_id, p, m, s.flatten());
    }
    expect_clean(chunked_id, p, *log);
}

void check_span(const program& p) {
    std::vector<std::uint8_t> buffer(p.span_capacity + 1, 0xA5);
    content_model m(false);
    span_sink s(buffer.data(), p.span_capacity);
    run_maybe_faulted(s, p, span_id, m, [](const op&, const content_model&) {});
    expect_bytes(span_id, p, m,
                 std::vector<std::uint8_t>(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(s.position())));
    if (buffer[p.span_capacity] != 0xA5) {
        finding(mismatch::model, span_id, p, "wrote past the end of its buffer");
    }
}

void check_unbuffered(const program& p) {
    {
        std::ostringstream os;
        content_model m(false);
        ostream_sink s(os);
        run_maybe_faulted(s, p, ostream_id, m, [](const op&, const content_model&) {});
        expect_bytes(ostream_id, p, m, as_bytes(os.str()));
    }
    {
        std::vector<std::uint8_t> v;
        content_model m(false);
        protocol_sink s{nlohmann::detail::output_adapter<std::uint8_t>(v)};
        run_maybe_faulted(s, p, protocol_id, m, [](const op&, const content_model&) {});
        expect_bytes(protocol_id, p, m, v);
    }
    {
        content_model m(false);
        counting_sink s;
        run_maybe_faulted(s, p, counting_id, m, [](const op&, const content_model&) {});
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    const program p = read_program(in);
    check_vector(p, false);
    check_vector(p, true);
    check_string(p);
    check_memory_writer<basic_memory_writer<byte_alloc>>(p, memory_id);
    check_memory_writer<basic_seekable_memory_writer<byte_alloc>>(p, seekable_id);
    check_chunked(p);
    check_span(p);
    check_unbuffered(p);
    return 0;
}
