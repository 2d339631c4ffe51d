// sinkcheck/sink/memory_writer.hpp — the seekless memory writer (seed 004).
//
// Contract: owns a std::vector; grows it like vector_sink (max(64, needed <= capacity ? capacity :
// max(needed, 2 * capacity))), zero-filling only `window` bytes (default 64 KiB) ahead of the
// cursor; every write appends; nothing to do in the destructor but free; a throw (bad_alloc)
// leaves exactly the bytes of the writes that completed, which bytes()/take() hand out trimmed.
//
// No seek(): the seed's point is that a writer which never goes back needs no position of its
// own beside the end, and its write is a compare and a copy. seekable_memory_writer.hpp has
// the same fast path and adds seek().
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "sinkcheck/sink/detail/vector_writer.hpp"

namespace sinkcheck {

template <class Alloc = std::allocator<std::uint8_t>>
class basic_memory_writer : public detail::vector_writer<basic_memory_writer<Alloc>, Alloc> {
    using base = detail::vector_writer<basic_memory_writer<Alloc>, Alloc>;
    friend base;
    friend detail::cursor_sink<basic_memory_writer<Alloc>>;

public:
    /// (reserve = 0, window = default_window, alloc = Alloc()); movable, not copyable
    using base::base;

    /// Bytes written so far (the same as position(): a seekless writer's end is its cursor).
    std::size_t size() const noexcept { return this->position(); }

private:
    [[gnu::noinline]] void write_slow(const std::uint8_t* p, std::size_t n) {
        this->grow(this->position(), n);
        std::memcpy(this->cursor_, p, n);
        this->cursor_ += n;
    }

    void reset_state() noexcept {}
};

using memory_writer = basic_memory_writer<>;

}  // namespace sinkcheck
