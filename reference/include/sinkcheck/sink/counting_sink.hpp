// sinkcheck/sink/counting_sink.hpp — a sink that only measures.
//
// Contract: stores nothing, allocates nothing, never throws; position() is the number of bytes
// written. Used to size a span_sink exactly, and to time an encoder with the sink taken away.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sinkcheck {

class counting_sink {
public:
    void write(std::uint8_t) noexcept { ++count_; }
    void write(const std::uint8_t*, std::size_t n) noexcept { count_ += n; }
    std::size_t position() const noexcept { return count_; }

private:
    std::size_t count_ = 0;
};

}  // namespace sinkcheck
