// sinkcheck/sink/span_sink.hpp — writes into a fixed buffer the caller owns.
//
// Contract: never grows, never zero-fills, never writes past the buffer's end; a write that does
// not fit throws sink_overflow (naming the position and the capacity) before storing any of its
// bytes, so the buffer holds exactly the completed writes; the destructor does nothing.
//
// The sink for callers that size the output first (counting_sink) or must not allocate at all.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sinkcheck/error.hpp"
#include "sinkcheck/sink/detail/cursor_sink.hpp"

namespace sinkcheck {

class span_sink : public detail::cursor_sink<span_sink> {
    friend detail::cursor_sink<span_sink>;

public:
    span_sink(std::uint8_t* data, std::size_t capacity) noexcept : begin_(data), capacity_(capacity) {
        cursor_ = data;
        limit_ = data + capacity;
    }

    std::size_t position() const noexcept { return static_cast<std::size_t>(cursor_ - begin_); }
    std::size_t capacity() const noexcept { return capacity_; }
    const std::uint8_t* data() const noexcept { return begin_; }

private:
    [[noreturn, gnu::noinline, gnu::cold]] void write_slow(const std::uint8_t*, std::size_t n) {
        throw sink_overflow(position(), capacity_, n);
    }

    std::uint8_t* begin_;
    std::size_t capacity_;
};

}  // namespace sinkcheck
