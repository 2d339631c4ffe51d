// sinkcheck/sink/seekable_memory_writer.hpp — the memory writer that can go back and patch (seed 004).
//
// Contract: grows, zero-fills and trims exactly like memory_writer; seek(pos) moves the cursor,
// later writes overwrite in place and extend the output when they pass its end; a write after a
// seek past the end fills the gap with zeros first (a seek alone changes nothing the output holds);
// a throw (bad_alloc) leaves exactly the bytes of the completed writes.
//
// Seed 004 measured a seekable writer 3-29 % slower than a seekless one because every write asked
// "have we seeked?". Here the question is folded into the limit: while appending, the limit is
// the end of the window, exactly as in memory_writer, so append-only use runs memory_writer's
// fast path. After a seek back, the limit is the output's end, so overwrites stay on the fast path
// and only the write that reaches the end takes the slow one (which restores the window limit).
// A seek past the end sets the limit to the cursor: the next write goes slow and fills the gap.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sinkcheck/sink/detail/vector_writer.hpp"

namespace sinkcheck {

template <class Alloc = std::allocator<std::uint8_t>>
class basic_seekable_memory_writer : public detail::vector_writer<basic_seekable_memory_writer<Alloc>, Alloc> {
    using base = detail::vector_writer<basic_seekable_memory_writer<Alloc>, Alloc>;
    friend base;
    friend detail::cursor_sink<basic_seekable_memory_writer<Alloc>>;

public:
    /// (reserve = 0, window = default_window, alloc = Alloc()); movable, not copyable
    using base::base;
    /// The base takes the buffer and cursor; this part's own state is taken after it.
    basic_seekable_memory_writer(basic_seekable_memory_writer&& other) noexcept
        : base(static_cast<base&&>(other)),
          end_(std::exchange(other.end_, 0)),
          gap_(std::exchange(other.gap_, false)) {}

    /// Bytes of output: the furthest any write has reached.
    std::size_t size() const noexcept { return gap_ ? end_ : std::max(end_, this->position()); }

    /// Moves the cursor to byte `pos` of the output (which may be past its end). May allocate
    /// when pos is past the capacity, so that the cursor always points into the buffer.
    void seek(std::size_t pos) {
        const std::size_t end = size();
        if (pos > end && pos > this->buf_.capacity()) {
            this->reserve_for(end, pos);
        }
        std::uint8_t* data = this->buf_.data();
        end_ = end;
        gap_ = pos > end;
        this->cursor_ = data + pos;
        if (pos < end) {
            this->limit_ = data + end;
        } else if (pos == end) {
            this->limit_ = data + this->buf_.size();
        } else {
            this->limit_ = this->cursor_;
        }
    }

private:
    [[gnu::noinline]] void write_slow(const std::uint8_t* p, std::size_t n) {
        const std::size_t pos = this->position();
        const std::size_t end = size();
        if (n > this->buf_.max_size() - pos) {
            throw std::length_error("seekable_memory_writer: a write of " + std::to_string(n) + " bytes at " +
                                    std::to_string(pos) + " exceeds max_size");
        }
        const std::size_t needed = pos + n;
        if (needed > this->buf_.size()) {
            this->grow(pos, n);  // the only step that can throw: nothing has changed yet
        }
        std::uint8_t* data = this->buf_.data();
        if (pos > end) {
            std::memset(data + end, 0, pos - end);
        }
        std::memcpy(data + pos, p, n);
        gap_ = false;
        end_ = std::max(end, needed);
        this->cursor_ = data + needed;
        this->limit_ = data + (needed == end_ ? this->buf_.size() : end_);
    }

    void reset_state() noexcept {
        end_ = 0;
        gap_ = false;
    }

    std::size_t end_ = 0;  // the output's end as of the last seek or slow write
    bool gap_ = false;     // sought past the end, nothing written there yet
};

using seekable_memory_writer = basic_seekable_memory_writer<>;

}  // namespace sinkcheck
