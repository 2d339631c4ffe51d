// sinkcheck/sink/memory_writer.hpp — the seekless memory writer (seed 004).
//
// Contract: owns a std::vector<std::uint8_t>; every write appends to it (growth is the vector's
// own, amortised doubling); nothing is zero-filled ahead of the end; no destructor work; a throw
// (std::bad_alloc from the vector) leaves exactly the bytes of the writes that completed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sinkcheck {

class memory_writer {
public:
    memory_writer() = default;
    explicit memory_writer(std::size_t reserve) { buf_.reserve(reserve); }

    void write(std::uint8_t b) { buf_.push_back(b); }
    void write(const std::uint8_t* p, std::size_t n) { buf_.insert(buf_.end(), p, p + n); }
    std::size_t position() const noexcept { return buf_.size(); }

    const std::vector<std::uint8_t>& bytes() const noexcept { return buf_; }
    std::vector<std::uint8_t> take() noexcept { return std::move(buf_); }

private:
    std::vector<std::uint8_t> buf_;
};

}  // namespace sinkcheck
