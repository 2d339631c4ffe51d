// sinkcheck/testkit/sink_fuzzer.hpp — a libFuzzer target that runs write programs on sinks.
//
// The input is read as a program (one-byte writes, blocks at the window, chunk and capacity
// edges, seeks for the sinks that can, a throw at one allocation or one write call) and a setup
// (window, first chunk and cap drawn independently, fixed capacity). Every sink of the list runs
// it through the kit's harness (harness.hpp), and each run is judged by every promise the sink
// makes that one run can show broken — the judges of sink_promises() (promises.hpp), the same
// code the properties judge their runs with: the target holds exactly the bytes of the writes
// that returned, where they went; position() counts them and the invariants harness.hpp checks
// after each write hold; the only exceptions are the armed fault and a fixed-capacity sink's
// overflow; nothing leaks and the destructor does not allocate; a declared growth rule is
// followed (a prefix of it after a fault); every growth of a windowed sink makes at most
// max(window, write) bytes writable; chunk sizes reported equal the chunks allocated. A broken
// promise prints the program, the sink and the promise, and stops at a crash site of its own per
// (kind, sink).
//
//   SINKCHECK_SINK_FUZZER(my_traits);   // or several: SINKCHECK_SINK_FUZZER(a_traits, b_traits);
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sinkcheck/testkit/fuzz_report.hpp"
#include "sinkcheck/testkit/harness.hpp"
#include "sinkcheck/testkit/promises.hpp"
#include "sinkcheck/testkit/show.hpp"
#include "sinkcheck/testkit/sink_traits.hpp"
#include "sinkcheck/testkit/write_program.hpp"

namespace sinkcheck::testkit {

/// Reads bounded integers from the front of a fuzz input; past its end every read gives lo.
class byte_source {
public:
    byte_source(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}

    std::size_t remaining() const noexcept { return static_cast<std::size_t>(end_ - p_); }

    /// A value in [lo, hi], from as few bytes as the range needs.
    std::size_t in(std::size_t lo, std::size_t hi) noexcept {
        const std::size_t span = hi - lo;
        std::size_t v = 0;
        for (std::size_t used = 0; used < span && p_ != end_; used = (used << 8) | 0xFF) {
            v = (v << 8) | *p_++;
        }
        return span == static_cast<std::size_t>(-1) ? lo + v : lo + v % (span + 1);
    }

    template <class T, std::size_t N>
    T pick(const T (&table)[N]) noexcept {
        return table[in(0, N - 1)];
    }

private:
    const std::uint8_t* p_;
    const std::uint8_t* end_;
};

/// A program and the setup it runs under, as read from a fuzz input.
struct fuzz_program {
    write_program prog;
    run_setup setup;
    std::size_t bytes = 0;  // written by the program in all

    std::string describe() const {
        return std::to_string(prog.ops.size()) + " ops (" + std::to_string(bytes) + " bytes), window " +
               window_name(setup.window) + ", chunks " + std::to_string(setup.first_chunk) + ".." +
               std::to_string(setup.max_chunk) + ", capacity " + std::to_string(setup.span_capacity) +
               ", fault at allocation " + std::to_string(setup.alloc_fault) + " / write " +
               std::to_string(setup.write_fault);
    }
};

/// What a fuzz input can choose from (read_fuzz_program reads indexes into these).
struct fuzz_tables {
    static constexpr std::size_t windows[] = {1, 2, 3, 7, 16, 63, 64, 65, 100, 4096, 65536, unlimited_window};
    // small and odd sizes weighted up: an odd cap whose half rounds down shows a < / <= slip
    static constexpr std::size_t chunk_sizes[] = {1,  2,  3,  4,  5,  7,  8,   9,    15,   16,
                                                  17, 31, 32, 33, 63, 64, 100, 2048, 4096, 65536};
    static constexpr std::size_t block_sizes[] = {0,  1,  2,  3,   5,   7,   13,   15,   16,   17,   31,   32,   33,
                                                  63, 64, 65, 127, 128, 129, 1024, 2047, 2048, 2049, 4095, 4096, 4097};
    // writes around the default 64 KiB window: rare, since each costs every sink 64 KiB
    static constexpr std::size_t big_sizes[] = {65535, 65536, 65537};
    // enough to cross the default 64 KiB window once; more only slows every run down
    static constexpr std::size_t max_bytes = 72 * 1024;
    static constexpr std::size_t max_ops = 256;
    static constexpr std::size_t max_spare = 80;
    static constexpr std::size_t max_fault = 64;
    static constexpr std::size_t short_block = 300;
    static constexpr std::size_t max_seek = 0xFFFF;
    static constexpr std::size_t big_marker = 0xB1;
};

inline fuzz_program read_fuzz_program(const std::uint8_t* data, std::size_t size) {
    using t = fuzz_tables;
    const auto& windows = t::windows;
    const auto& chunk_sizes = t::chunk_sizes;
    const auto& block_sizes = t::block_sizes;
    const auto& big_sizes = t::big_sizes;
    constexpr std::size_t max_bytes = t::max_bytes;
    byte_source in(data, size);
    fuzz_program p;
    p.setup.window = in.pick(windows);
    p.setup.first_chunk = in.pick(chunk_sizes);
    p.setup.max_chunk = std::max(p.setup.first_chunk, in.pick(chunk_sizes));
    switch (in.in(0, 2)) {
        case 1: p.setup.alloc_fault = in.in(1, t::max_fault); break;
        case 2: p.setup.write_fault = in.in(1, t::max_fault); break;
        default: break;
    }
    const std::size_t spare = in.in(0, 3) == 0 ? 0 : in.in(0, t::max_spare);  // capacity past the program's bytes
    const bool short_capacity = in.in(0, 7) == 0;
    while (in.remaining() > 0 && p.prog.ops.size() < t::max_ops) {
        write_op op;
        op.salt = static_cast<std::uint8_t>(in.in(0, 255));
        switch (in.in(0, 7)) {
            case 0: op.what = write_op::kind::byte; break;
            case 1:
                op.what = write_op::kind::seek;
                op.target = in.in(0, t::max_seek);
                break;
            case 2:
                op.what = write_op::kind::block;
                op.length = in.in(0, 0xFF) == t::big_marker ? in.pick(big_sizes) : in.in(0, t::short_block);
                break;
            case 3:
                op.what = write_op::kind::block;
                op.length = p.setup.window <= 65536 ? p.setup.window - 1 + in.in(0, 2) : in.in(0, t::short_block);
                break;
            default:
                op.what = write_op::kind::block;
                op.length = in.pick(block_sizes);
                break;
        }
        const std::size_t n = op.what == write_op::kind::block ? op.length : op.what == write_op::kind::byte ? 1 : 0;
        if (p.bytes + n > max_bytes) {
            break;
        }
        p.bytes += n;
        p.prog.ops.push_back(op);
    }
    p.setup.span_capacity = short_capacity ? p.bytes / 2 : p.bytes + spare;
    return p;
}

namespace detail {

/// Appends v - lo in the bytes byte_source::in(lo, hi) reads it from (most significant first).
inline void put_in_range(std::vector<std::uint8_t>& out, std::size_t v, std::size_t lo, std::size_t hi) {
    const std::size_t span = hi - lo;
    std::size_t bytes = 0;
    for (std::size_t used = 0; used < span; used = (used << 8) | 0xFF) {
        ++bytes;
    }
    const std::size_t offset = v - lo;
    for (std::size_t i = bytes; i-- > 0;) {
        out.push_back(static_cast<std::uint8_t>(i < sizeof(std::size_t) ? offset >> (8 * i) : 0));
    }
}

template <std::size_t N>
void put_pick(std::vector<std::uint8_t>& out, const std::size_t (&table)[N], std::size_t v, const char* what) {
    const auto* at = std::find(std::begin(table), std::end(table), v);
    if (at == std::end(table)) {
        throw std::invalid_argument(std::string("fuzz seed: ") + what + " " + std::to_string(v) +
                                    " is not one a fuzz input can choose");
    }
    put_in_range(out, static_cast<std::size_t>(at - std::begin(table)), 0, N - 1);
}

}  // namespace detail

/// The fuzz input that read_fuzz_program reads back as prog under setup: a counterexample of a
/// property (its write program and setup), or a program written by hand, becomes a seed of the
/// sink fuzzer's corpus (docs/testkit.md, "Fuzzing a sink"). The window, chunk bounds, fault and
/// capacity must be ones an input can choose (a throw at allocation or write call 1..64, not
/// both; a capacity of the program's bytes plus 0..80, or half of them), blocks of 0..300 bytes or
/// of the fuzzer's tables, at most 256 ops and 72 KiB; anything else throws
/// std::invalid_argument naming it. A seek's target is kept modulo what it is taken modulo.
inline std::vector<std::uint8_t> fuzz_input_of(const write_program& prog, const run_setup& setup) {
    using t = fuzz_tables;
    using detail::put_in_range;
    using detail::put_pick;
    std::vector<std::uint8_t> out;
    put_pick(out, t::windows, setup.window, "window");
    put_pick(out, t::chunk_sizes, setup.first_chunk, "first chunk");
    if (setup.max_chunk < setup.first_chunk) {
        throw std::invalid_argument("fuzz seed: a chunk cap below the first chunk");
    }
    put_pick(out, t::chunk_sizes, setup.max_chunk, "chunk cap");
    const auto fault_in_range = [](std::size_t k) { return k >= 1 && k <= t::max_fault; };
    if (setup.new_fault != 0 || setup.stream_limit != none || !setup.existing.empty() ||
        (setup.alloc_fault != 0 && setup.write_fault != 0) ||
        (setup.alloc_fault != 0 && !fault_in_range(setup.alloc_fault)) ||
        (setup.write_fault != 0 && !fault_in_range(setup.write_fault))) {
        throw std::invalid_argument("fuzz seed: a fuzz input throws at one allocation or one write call of 1.." +
                                    std::to_string(t::max_fault) +
                                    ", and has no fault through new, failing stream or earlier contents");
    }
    put_in_range(out, setup.alloc_fault != 0 ? 1 : setup.write_fault != 0 ? 2 : 0, 0, 2);
    if (setup.alloc_fault != 0) {
        put_in_range(out, setup.alloc_fault, 1, t::max_fault);
    } else if (setup.write_fault != 0) {
        put_in_range(out, setup.write_fault, 1, t::max_fault);
    }
    std::size_t bytes = 0;
    for (const write_op& op : prog.ops) {
        bytes += op.what == write_op::kind::block ? op.length : op.what == write_op::kind::byte ? 1 : 0;
    }
    if (prog.ops.size() > t::max_ops || bytes > t::max_bytes) {
        throw std::invalid_argument("fuzz seed: " + std::to_string(prog.ops.size()) + " ops writing " +
                                    std::to_string(bytes) + " bytes; an input holds at most " +
                                    std::to_string(t::max_ops) + " ops and " + std::to_string(t::max_bytes) + " bytes");
    }
    const bool short_capacity = setup.span_capacity == bytes / 2 && bytes / 2 != bytes;
    if (short_capacity) {
        put_in_range(out, 0, 0, 3);  // no spare
        put_in_range(out, 0, 0, 7);  // short
    } else if (setup.span_capacity >= bytes && setup.span_capacity - bytes <= t::max_spare) {
        const std::size_t spare = setup.span_capacity - bytes;
        put_in_range(out, spare == 0 ? 0 : 1, 0, 3);
        if (spare != 0) {
            put_in_range(out, spare, 0, t::max_spare);
        }
        put_in_range(out, 1, 0, 7);
    } else {
        throw std::invalid_argument("fuzz seed: capacity " + std::to_string(setup.span_capacity) + " for " +
                                    std::to_string(bytes) + " bytes of writes; an input chooses the bytes plus 0.." +
                                    std::to_string(t::max_spare) + ", or half of them");
    }
    // where a seekable sink's cursor goes, and the furthest it went (play() takes a seek's target
    // modulo that + 17): a target reduced so is the same seek; a seekless sink ignores it anyway
    std::size_t cursor = 0;
    std::size_t furthest = 0;
    for (const write_op& op : prog.ops) {
        put_in_range(out, op.salt, 0, 255);
        switch (op.what) {
            case write_op::kind::byte:
                put_in_range(out, 0, 0, 7);
                ++cursor;
                break;
            case write_op::kind::seek: {
                const std::size_t target = op.target % (furthest + 17);
                if (target > t::max_seek) {
                    throw std::invalid_argument("fuzz seed: a seek to byte " + std::to_string(target) +
                                                "; an input seeks to at most " + std::to_string(t::max_seek));
                }
                put_in_range(out, 1, 0, 7);
                put_in_range(out, target, 0, t::max_seek);
                cursor = target;
                break;
            }
            case write_op::kind::block:
                if (std::find(std::begin(t::big_sizes), std::end(t::big_sizes), op.length) != std::end(t::big_sizes)) {
                    put_in_range(out, 2, 0, 7);
                    put_in_range(out, t::big_marker, 0, 0xFF);
                    put_pick(out, t::big_sizes, op.length, "block length");
                } else if (op.length <= t::short_block) {
                    put_in_range(out, 2, 0, 7);
                    put_in_range(out, 0, 0, 0xFF);
                    put_in_range(out, op.length, 0, t::short_block);
                } else {
                    put_in_range(out, 4, 0, 7);
                    put_pick(out, t::block_sizes, op.length, "block length");
                }
                cursor += op.length;
                break;
        }
        furthest = std::max(furthest, cursor);
    }
    return out;
}

namespace detail {

[[noreturn]] inline void sink_finding(fuzz::mismatch kind, std::size_t site, const std::string& sink,
                                      const fuzz_program& p, const std::string& text) {
    fuzz::print_finding_header(kind, "write program", sink, "the model");
    fuzz::print_note(sink, text);
    fuzz::print_note("program", p.describe());
    std::ostringstream ops;
    showValue(p.prog, ops);
    fuzz::print_note("ops", ops.str());
    fuzz::crash<fuzz::target::sink>(kind, site);
}

}  // namespace detail

/// Runs p (its blocks' bytes made once: block_bytes) on the sink described by T and judges the
/// run with every promise the sink makes that one run can show broken (promises.hpp); stops at
/// its crash site (site) at the first one broken.
template <class T>
void fuzz_one_sink(const fuzz_program& p, const std::vector<std::uint8_t>& blocks, std::size_t site) {
    const run_record r = drive<T>(
        p.setup,
        [&](auto& sink) {
            std::size_t size = 0;
            play(p.prog, blocks, sink, size);
        },
        size_hint(p.prog));
    const sut_entry& s = description_of<T>();
    if (const broken_promise broken = judge_run(s, {r, p.setup})) {
        if (broken.found.bytes) {
            fuzz::print_finding_header(broken.found.kind, "write program", s.name, "the model");
            fuzz::print_byte_difference(s.name, r.bytes, "model", r.model);
        }
        detail::sink_finding(broken.found.kind, site, s.name, p, broken.describe());
    }
}

/// Runs one fuzz input on every sink of the list; site of a sink = its index + 1.
template <class... T>
void fuzz_sinks(sink_list<T...>, const std::uint8_t* data, std::size_t size) {
    const fuzz_program p = read_fuzz_program(data, size);
    const std::vector<std::uint8_t> blocks = block_bytes(p.prog);
    std::size_t site = 0;
    (fuzz_one_sink<T>(p, blocks, ++site), ...);
}

}  // namespace sinkcheck::testkit

/// Defines LLVMFuzzerTestOneInput for the sinks described by the traits given.
#define SINKCHECK_SINK_FUZZER(...)                                                                    \
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {               \
        ::sinkcheck::testkit::fuzz_sinks(::sinkcheck::testkit::sink_list<__VA_ARGS__>{}, data, size); \
        return 0;                                                                                     \
    }                                                                                                 \
    static_assert(true, "a semicolon after SINKCHECK_SINK_FUZZER(...)")
