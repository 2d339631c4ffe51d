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
basic_vector_sink<Alloc> make_vector_sink(std::vector<std::uint8_t, Alloc>& v,
                                          std::size_t window = default_window,
                                          growth_observer* observer = nullptr) {
    return basic_vector_sink<Alloc>(v, window, observer);
}

}  // namespace sinkcheck
