// sinkcheck/testkit/write_program.hpp — a sequence of writes and seeks, replayable on any sink.
//
// The sink properties and the sink fuzz targets drive sinks with write programs as well as with
// encodings: a program reaches write lengths and orders no encoder makes (a long run of one-byte
// writes, a block of exactly the window, a seek past the end). Each op's bytes are derived from
// its salt and offset, so a byte lost, doubled or put in the wrong place shows.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "sinkcheck/testkit/sink_traits.hpp"

namespace sinkcheck::testkit {

struct write_op {
    enum class kind : std::uint8_t { byte, block, seek };
    kind what = kind::byte;
    /// block: number of bytes
    std::size_t length = 0;
    /// content: byte i of the op is salt + 131 * i, so a lost or doubled byte shows
    std::uint8_t salt = 0;
    /// seek: the target is this modulo (bytes written so far + 1)
    std::size_t target = 0;

    /// Byte i of the op's bytes; 131 is odd, so they repeat every 256 bytes and no sooner.
    std::uint8_t byte_at(std::size_t i) const noexcept { return static_cast<std::uint8_t>(salt + 131U * i); }
};

struct write_program {
    std::vector<write_op> ops;
    /// index of the op whose write throws; ops.size() or more: none does
    std::size_t fault_at = static_cast<std::size_t>(-1);
};

/// The bytes of a program's blocks, one after the other: made once for a program played on many
/// sinks (the sink fuzzer plays each input on every sink).
inline std::vector<std::uint8_t> block_bytes(const write_program& prog) {
    std::size_t total = 0;
    for (const write_op& op : prog.ops) {
        total += op.what == write_op::kind::block ? op.length : 0;
    }
    std::vector<std::uint8_t> out(total);
    std::uint8_t* at = out.data();
    for (const write_op& op : prog.ops) {
        if (op.what != write_op::kind::block) {
            continue;
        }
        // the first period byte by byte, then copies of what is made, doubling
        const std::size_t period = std::min<std::size_t>(op.length, 256);
        for (std::size_t i = 0; i < period; ++i) {
            at[i] = op.byte_at(i);
        }
        for (std::size_t made = period; made < op.length;) {
            const std::size_t n = std::min(made, op.length - made);
            std::memcpy(at + made, at, n);
            made += n;
        }
        at += op.length;
    }
    return out;
}

/// Replays a write program (generators.hpp) against any sink-like object; blocks are
/// block_bytes(prog).
template <class Sink>
void play(const write_program& prog, const std::vector<std::uint8_t>& blocks, Sink& sink, std::size_t& size_so_far) {
    const std::uint8_t* next = blocks.data();
    for (const write_op& op : prog.ops) {
        switch (op.what) {
            case write_op::kind::byte: sink.write(op.byte_at(0)); break;
            case write_op::kind::block:
                sink.write(next, op.length);
                next += op.length;
                break;
            case write_op::kind::seek:
                if constexpr (detail::can_seek<Sink>::value) {
                    // up to 16 bytes past the end: a gap the next write fills with zeros
                    sink.seek(op.target % (size_so_far + 17));
                }
                break;
        }
        if (sink.position() > size_so_far) {
            size_so_far = sink.position();
        }
    }
}

/// Replays a write program (generators.hpp) against any sink-like object.
template <class Sink>
void play(const write_program& prog, Sink& sink, std::size_t& size_so_far) {
    play(prog, block_bytes(prog), sink, size_so_far);
}

}  // namespace sinkcheck::testkit
