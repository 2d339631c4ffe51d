// sinkcheck/sink/vector_sink.hpp — a caller's std::vector grown through a zero-fill window (seed 000).
//
// Contract: grows the capacity to max(64, needed <= capacity ? capacity : max(needed, 2 * capacity))
// by reserve(); resize()s (zero-fills) only `window` bytes ahead of the cursor (1 .. unlimited,
// default 64 KiB); the destructor trims the vector to the bytes written — also while unwinding —
// and never allocates; a throw (bad_alloc from the allocator, or from anything the encoder does)
// leaves the vector holding exactly the bytes of the writes that completed.
//
// The vector's existing contents are kept: the sink appends after them, and position() counts only
// the bytes written through the sink. Until the sink is destroyed (or moved from), the vector's
// size includes the zero-filled window and must not be read or changed by anyone else.
//
// What the window buys (bench/, rows 3-5): it zero-fills and faults in only what is written, plus
// one window, where the legacy sink zero-fills the whole capacity; the gain is the capacity beyond
// the output (up to 1.27x for 8.7 MB in a 16 MiB vector, none when the output fills it). A reused
// vector larger than the last-level cache is the case it loses (0.86-1.00x): there each window's
// zero-fill waits for memory with nothing to overlap it, while one large memset streams.
// Zero-filling all reused capacity at once would win that case back only by knowing the cache's
// size, and would make a small document in a large reused vector zero-fill all of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sinkcheck/sink/detail/container_sink.hpp"

namespace sinkcheck {

/// Movable, not copyable; works with any allocator.
template <class Alloc = std::allocator<std::uint8_t>>
using basic_vector_sink = detail::basic_container_sink<std::vector<std::uint8_t, Alloc>, detail::vector_growth>;

using vector_sink = basic_vector_sink<>;

template <class Alloc>
basic_vector_sink<Alloc> make_vector_sink(std::vector<std::uint8_t, Alloc>& v, std::size_t window = default_window,
                                          growth_observer* observer = nullptr) {
    return basic_vector_sink<Alloc>(v, window, observer);
}

}  // namespace sinkcheck
