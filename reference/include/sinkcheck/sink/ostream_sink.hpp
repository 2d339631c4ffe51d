// sinkcheck/sink/ostream_sink.hpp — writes into a std::ostream.
//
// Contract: no buffer of its own (the stream's streambuf does the buffering and growing); each
// write is checked, and a stream that fails — a full device, a streambuf refusing bytes, or an
// exception the stream was told to throw — surfaces as sink_error naming the byte position at
// which the failing write began; the destructor does nothing (it neither flushes nor closes).
// After a throw the stream holds the completed writes and possibly part of the failing one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ios>
#include <ostream>
#include <string>

#include "sinkcheck/error.hpp"

namespace sinkcheck {

class ostream_sink {
public:
    explicit ostream_sink(std::ostream& os) noexcept : os_(&os) {}

    void write(std::uint8_t b) {
        const char c = static_cast<char>(b);
        put(&c, 1);
    }

    void write(const std::uint8_t* p, std::size_t n) { put(reinterpret_cast<const char*>(p), n); }

    std::size_t position() const noexcept { return position_; }

private:
    void put(const char* p, std::size_t n) {
        try {
            os_->write(p, static_cast<std::streamsize>(n));
        } catch (const std::ios_base::failure&) {
            fail(n);
        }
        if (!*os_) {
            fail(n);
        }
        position_ += n;
    }

    [[noreturn, gnu::noinline, gnu::cold]] void fail(std::size_t n) const {
        throw sink_error("ostream_sink: the stream failed writing " + std::to_string(n) + " bytes at byte " +
                             std::to_string(position_),
                         position_);
    }

    std::ostream* os_;
    std::size_t position_ = 0;
};

}  // namespace sinkcheck
