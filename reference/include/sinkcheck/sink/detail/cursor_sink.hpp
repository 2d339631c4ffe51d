// sinkcheck/sink/detail/cursor_sink.hpp — the inline half shared by every buffered sink.
//
// A sink keeps a cursor and a limit into memory it may write; a write that fits is one compare
// and a memcpy, inline in the encoder's loop. Everything else (growing, flushing a chunk, a
// seek's bookkeeping, overflow) is Derived::write_slow, kept out of line so the fast path stays
// small enough to inline everywhere (the shape of fmt's buffer::push_back and protobuf's
// EpsCopyOutputStream::EnsureSpace; seed 004 measured what one extra branch here costs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sinkcheck::detail {

/// Derived must define `void write_slow(const std::uint8_t* p, std::size_t n)`, called when n
/// bytes do not fit between cursor_ and limit_, and must keep cursor_ <= limit_ at all times.
template <class Derived>
class cursor_sink {
public:
    // always_inline: GCC otherwise keeps write(p, n) out of line once an encoder calls it from
    // enough places, and the constant lengths the encoders pass (2, 3, 5, 9) then reach memcpy as
    // a run-time n: a library call per value (callgrind: 18 % of a CBOR encode).
    [[gnu::always_inline]] void write(std::uint8_t b) {
        if (cursor_ != limit_) {
            *cursor_++ = b;
        } else {
            static_cast<Derived*>(this)->write_slow(&b, 1);
        }
    }

    [[gnu::always_inline]] void write(const std::uint8_t* p, std::size_t n) {
        if (n <= static_cast<std::size_t>(limit_ - cursor_)) {
            if (n != 0) {  // memcpy from or to a null pointer is undefined even for 0 bytes
                std::memcpy(cursor_, p, n);
            }
            cursor_ += n;
        } else {
            static_cast<Derived*>(this)->write_slow(p, n);
        }
    }

protected:
    cursor_sink() = default;
    ~cursor_sink() = default;
    cursor_sink(const cursor_sink&) = default;
    cursor_sink& operator=(const cursor_sink&) = default;

    /// Hands cursor and limit to `to` and leaves this sink with no room (every write goes slow).
    void move_cursor_to(cursor_sink& to) noexcept {
        to.cursor_ = cursor_;
        to.limit_ = limit_;
        cursor_ = nullptr;
        limit_ = nullptr;
    }

    std::uint8_t* cursor_ = nullptr;
    std::uint8_t* limit_ = nullptr;
};

}  // namespace sinkcheck::detail
