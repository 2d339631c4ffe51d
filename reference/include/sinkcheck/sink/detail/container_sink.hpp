// sinkcheck/sink/detail/container_sink.hpp — growing a caller's vector or string through a cursor.
//
// The machinery behind vector_sink, legacy_vector_sink, string_sink and the memory writers
// (seed 000): the sink reserves capacity by a growth policy, resize()s (zero-fills) only a window
// ahead of its cursor, copies writes into that room itself instead of calling insert() (only the
// part of a write that goes past the room is appended), and trims the container back to the bytes
// written when it is done. Each public header states the contract of its own sink; this file holds
// what they share.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "sinkcheck/sink/detail/cursor_sink.hpp"
#include "sinkcheck/sink/growth_observer.hpp"

namespace sinkcheck {

/// Bytes a windowed sink makes writable ahead of its cursor at a time (seed 000:
/// vector_sink_window, 64 KiB: still in cache when the writer's stores reach it).
inline constexpr std::size_t default_window = 65536;
/// A window that always covers the whole capacity: the pre-seed-000 behaviour.
inline constexpr std::size_t unlimited_window = std::numeric_limits<std::size_t>::max();

namespace detail {

/// The smallest capacity a vector sink grows an empty vector to (seed 000:
/// min_vector_sink_capacity): fewer reallocations for the many tiny documents.
inline constexpr std::size_t min_vector_capacity = 64;

/// Seed 000's rule: keep the capacity while the write fits, else max(needed, 2 * capacity);
/// never below `floor`.
inline std::size_t geometric_capacity(std::size_t capacity, std::size_t needed, std::size_t floor) noexcept {
    std::size_t next = capacity;
    if (needed > capacity) {
        const bool can_double = capacity <= std::numeric_limits<std::size_t>::max() / 2;
        next = can_double ? std::max(needed, 2 * capacity) : needed;
    }
    return std::max(floor, next);
}

/// How far to resize: `window` bytes past the cursor, at least the pending write, at most the
/// capacity. Written so that an unlimited window cannot overflow.
inline std::size_t window_end(std::size_t written, std::size_t needed, std::size_t capacity,
                              std::size_t window) noexcept {
    const std::size_t end = window >= capacity - written ? capacity : written + window;
    return std::max(end, needed);
}

inline std::size_t checked_window(std::size_t window) {
    if (window == 0) {
        throw std::invalid_argument("sink window must be at least 1 byte");
    }
    return window;
}

/// Growth policy of std::vector targets: reserve() allocates exactly what it is asked for.
struct vector_growth {
    template <class Vector>
    static std::size_t reserve(Vector& v, std::size_t /*written*/, std::size_t needed) {
        v.reserve(geometric_capacity(v.capacity(), needed, min_vector_capacity));
        return v.capacity();
    }
};

template <class T>
inline std::uint8_t* byte_pointer(T* p) noexcept {
    static_assert(sizeof(T) == 1, "sinks write into containers of bytes");
    return reinterpret_cast<std::uint8_t*>(p);
}

/// Appends n bytes to a container that has the capacity for them: no allocation, no throw.
template <class T, class Alloc>
void append_within_capacity(std::vector<T, Alloc>& v, const std::uint8_t* p, std::size_t n) {
    const auto* first = reinterpret_cast<const T*>(p);
    v.insert(v.end(), first, first + n);
}

template <class CharT, class Traits, class Alloc>
void append_within_capacity(std::basic_string<CharT, Traits, Alloc>& s, const std::uint8_t* p, std::size_t n) {
    s.append(reinterpret_cast<const CharT*>(p), n);
}

/// Reserves by Growth's rule for n more bytes after the first `written` bytes of c. Returns the
/// capacity. Throws what the container throws (nothing changed then) or std::length_error when
/// the write could not be addressed at all.
template <class Growth, class Container>
std::size_t reserve_room(Container& c, std::size_t written, std::size_t n) {
    if (n > c.max_size() - written) {
        throw std::length_error("sink: a write of " + std::to_string(n) + " bytes after " + std::to_string(written) +
                                " exceeds the container's max_size");
    }
    return Growth::reserve(c, written, written + n);
}

/// Resizes c (within its capacity: zero-fills, never allocates) to the window end.
template <class Container>
void open_window(Container& c, std::size_t written, std::size_t needed, std::size_t capacity, std::size_t window) {
    const std::size_t end = window_end(written, needed, capacity, window);
    if (end > c.size()) {
        c.resize(end);
    }
}

/// Makes room for n bytes after the first `written` bytes of c: reserve_room, then resizes to the
/// window end. Returns the capacity.
template <class Growth, class Container>
std::size_t make_room(Container& c, std::size_t written, std::size_t n, std::size_t window) {
    const std::size_t capacity = reserve_room<Growth>(c, written, n);
    open_window(c, written, written + n, capacity, window);
    return capacity;
}

/// make_room and the copy of the n bytes at p. The part of the write beyond the zero-filled room
/// is appended instead of zero-filled and then overwritten, so a write longer than the room (a
/// long string) stores each of its bytes once; the container ends the same.
template <class Growth, class Container>
std::size_t write_growing(Container& c, std::size_t written, const std::uint8_t* p, std::size_t n, std::size_t window) {
    const std::size_t capacity = reserve_room<Growth>(c, written, n);
    const std::size_t room = c.size() - written;
    if (n <= room) {
        std::memcpy(byte_pointer(c.data()) + written, p, n);
    } else {
        std::memcpy(byte_pointer(c.data()) + written, p, room);
        append_within_capacity(c, p + room, n - room);
    }
    open_window(c, written, written + n, capacity, window);
    return capacity;
}

/// A sink writing into a caller's container (vector or string of bytes) after its contents.
template <class Container, class Growth>
class basic_container_sink : public cursor_sink<basic_container_sink<Container, Growth>> {
    using base = cursor_sink<basic_container_sink<Container, Growth>>;
    friend base;

public:
    using container_type = Container;

    explicit basic_container_sink(Container& c, std::size_t window = default_window,
                                  growth_observer* observer = nullptr)
        : c_(&c), base_(c.size()), window_(checked_window(window)), observer_(observer) {
        rebase(base_);
    }

    /// Trims the container to the bytes written; also while unwinding; never allocates.
    ~basic_container_sink() { trim(); }

    basic_container_sink(const basic_container_sink&) = delete;
    basic_container_sink& operator=(const basic_container_sink&) = delete;

    /// The moved-from sink keeps no container and trims nothing.
    basic_container_sink(basic_container_sink&& other) noexcept
        : c_(other.c_), origin_(other.origin_), base_(other.base_), window_(other.window_), observer_(other.observer_) {
        other.move_cursor_to(*this);
        other.c_ = nullptr;
        other.origin_ = nullptr;
    }

    basic_container_sink& operator=(basic_container_sink&& other) noexcept {
        if (this != &other) {
            trim();
            c_ = other.c_;
            origin_ = other.origin_;
            base_ = other.base_;
            window_ = other.window_;
            observer_ = other.observer_;
            other.move_cursor_to(*this);
            other.c_ = nullptr;
            other.origin_ = nullptr;
        }
        return *this;
    }

    /// Bytes written through this sink (the container's earlier contents are not counted).
    std::size_t position() const noexcept { return static_cast<std::size_t>(this->cursor_ - origin_); }

    std::size_t window() const noexcept { return window_; }

    /// For an encoder that fills n bytes in place (a long string it checks as it copies): where
    /// they go, or null when they do not fit in the zero-filled room (then it calls write()). The
    /// bytes count once commit(n) is called; until then they are part of the room, which the sink
    /// cuts off, so a refused string leaves the output as it was.
    std::uint8_t* room_for(std::size_t n) noexcept {
        return n <= static_cast<std::size_t>(this->limit_ - this->cursor_) ? this->cursor_ : nullptr;
    }
    void commit(std::size_t n) noexcept { this->cursor_ += n; }
    void set_observer(growth_observer* observer) noexcept { observer_ = observer; }

private:
    std::uint8_t* begin() const noexcept { return byte_pointer(c_->data()); }

    void rebase(std::size_t written) noexcept {
        std::uint8_t* b = begin();
        origin_ = b + base_;
        this->cursor_ = b + written;
        this->limit_ = b + c_->size();
    }

    void trim() noexcept {
        if (c_ != nullptr) {
            c_->resize(base_ + position());  // shrinking: no allocation, no throw
        }
    }

    // The growing (and the copy of the write that needed it) is out of line and is not handed
    // `this`: a sink whose address does not escape, a local that a loop writes through, then keeps
    // its cursor and limit in registers instead of reloading them after every store of output
    // bytes, which may alias anything. Five arguments, all in registers, so the loop around the
    // call spills nothing. 9-byte writes into a reused vector, against one memcpy of the same
    // bytes (bench/sinks_bench.cpp, row 6): 0.48x -> 0.69x at 64 MiB, 0.19x -> 0.39x at 1 MiB.
    [[gnu::noinline]] static std::size_t grow(Container* c, std::size_t written, const std::uint8_t* p, std::size_t n,
                                              std::size_t window) {
        return write_growing<Growth>(*c, written, p, n, window);
    }

    [[gnu::always_inline]] void write_slow(const std::uint8_t* p, std::size_t n) {
        const auto written = static_cast<std::size_t>(this->cursor_ - begin());
        const std::size_t capacity = grow(c_, written, p, n, window_);
        rebase(written + n);
        if (observer_ != nullptr) {
            observer_->on_growth({written - base_, n, capacity, c_->size() - written});
        }
    }

    Container* c_;
    std::uint8_t* origin_ = nullptr;
    std::size_t base_;
    std::size_t window_;
    growth_observer* observer_;
};

}  // namespace detail
}  // namespace sinkcheck
