// sinkcheck/sink/detail/vector_writer.hpp — what the two memory writers share (seed 004).
//
// Both own a std::vector, grow it by vector_sink's rule through a zero-fill window, and hand
// it out trimmed to the bytes written. They differ only in their slow path: the seekable one
// also has to notice a write that reaches the end after a seek back, or fill a gap after a seek
// past the end. Keeping the rest here is what makes "append-only, the seekable writer costs the
// same as the seekless one" a property of one code path rather than of two look-alikes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sinkcheck/sink/detail/container_sink.hpp"
#include "sinkcheck/sink/detail/cursor_sink.hpp"
#include "sinkcheck/sink/growth_observer.hpp"

namespace sinkcheck::detail {

/// Derived provides write_slow(), size() (the bytes that take()/bytes() hand out) and
/// reset_state(); it inherits the constructor.
template <class Derived, class Alloc>
class vector_writer : public cursor_sink<Derived> {
public:
    using vector_type = std::vector<std::uint8_t, Alloc>;

    std::size_t position() const noexcept { return static_cast<std::size_t>(this->cursor_ - buf_.data()); }

    /// The bytes written; trims the buffer to them, so the next write makes room again.
    const vector_type& bytes() {
        trim();
        return buf_;
    }

    /// Moves the bytes written out and leaves the writer empty, ready for a new output.
    vector_type take() noexcept {
        trim();
        vector_type out(std::move(buf_));
        buf_.clear();
        this->cursor_ = nullptr;
        this->limit_ = nullptr;
        static_cast<Derived*>(this)->reset_state();
        return out;
    }

    std::size_t capacity() const noexcept { return buf_.capacity(); }
    std::size_t window() const noexcept { return window_; }
    void set_observer(growth_observer* observer) noexcept { observer_ = observer; }

    /// reserve: the first capacity; window: bytes zero-filled ahead of the cursor at a time.
    explicit vector_writer(std::size_t reserve = 0, std::size_t window = default_window, const Alloc& alloc = Alloc())
        : buf_(alloc), window_(checked_window(window)) {
        buf_.reserve(reserve);
        this->cursor_ = buf_.data();
        this->limit_ = this->cursor_;
    }

protected:
    ~vector_writer() = default;

    vector_writer(const vector_writer&) = delete;
    vector_writer& operator=(const vector_writer&) = delete;

    /// A moved vector keeps its heap buffer, so cursor and limit stay valid in the new owner.
    vector_writer(vector_writer&& other) noexcept
        : buf_(std::move(other.buf_)), window_(other.window_), observer_(other.observer_) {
        other.move_cursor_to(*this);
        other.buf_.clear();
    }

    /// Makes room for n bytes at `at` (growth rule, window); cursor at `at`, limit at the
    /// window end. Throws what the vector throws, with nothing changed.
    void grow(std::size_t at, std::size_t n) {
        const std::size_t capacity = make_room<vector_growth>(buf_, at, n, window_);
        std::uint8_t* data = buf_.data();
        this->cursor_ = data + at;
        this->limit_ = data + buf_.size();
        notify(at, n, capacity);
    }

    /// Reserves capacity for `needed` bytes by the growth rule without resizing.
    void reserve_for(std::size_t at, std::size_t needed) {
        const std::size_t before = buf_.capacity();
        const std::size_t capacity = vector_growth::reserve(buf_, at, needed);
        if (capacity != before) {
            notify(at, 0, capacity);
        }
    }

    void notify(std::size_t at, std::size_t n, std::size_t capacity) {
        if (observer_ != nullptr) {
            const std::size_t size = buf_.size();
            observer_->on_growth({at, n, capacity, size > at ? size - at : 0});
        }
    }

    void trim() noexcept {
        const std::size_t size = static_cast<const Derived*>(this)->size();
        if (buf_.size() > size) {
            buf_.resize(size);  // shrinking: no allocation, no throw
        }
        // The limit may not pass the new end, nor fall behind the cursor (which a seek past the
        // end leaves beyond it, with no room, until the next write fills the gap).
        std::uint8_t* end = buf_.data() + buf_.size();
        this->limit_ = std::max(this->cursor_, std::min(this->limit_, end));
    }

    vector_type buf_;
    std::size_t window_;
    growth_observer* observer_ = nullptr;
};

}  // namespace sinkcheck::detail
