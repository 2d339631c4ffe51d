// sinkcheck/testkit/instrument/fault_sink.hpp — a wrapper that makes any sink fail on cue.
//
// Throws injected_fault (a sink_error) at the k-th write call, or at the first write that would
// take the position past byte k, before passing that write on: the wrapped sink then holds exactly
// the bytes of the writes before it. Driving an encoder through a fault at every write of a
// document checks that every sink is left with a prefix of the output and destructs cleanly.
// seek() is forwarded when the wrapped sink has one, so BSON's length patching works through it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "sinkcheck/error.hpp"

namespace sinkcheck {

/// The failure a fault_sink injects; a distinct type, so a test never mistakes a real sink
/// error for it.
class injected_fault : public sink_error {
public:
    using sink_error::sink_error;
};

template <class Sink>
class fault_sink {
public:
    static constexpr std::size_t never = std::numeric_limits<std::size_t>::max();

    explicit fault_sink(Sink& inner) noexcept : inner_(&inner) {}

    /// The k-th write call from now on (k >= 1) throws; never disarms.
    void fail_at_write(std::size_t k) noexcept { fail_call_ = k == never ? never : calls_ + k; }
    /// A write that would take the position past byte k throws.
    void fail_past_byte(std::size_t k) noexcept { fail_byte_ = k; }

    void write(std::uint8_t b) {
        check(1);
        inner_->write(b);
    }

    void write(const std::uint8_t* p, std::size_t n) {
        check(n);
        inner_->write(p, n);
    }

    std::size_t position() const { return inner_->position(); }
    std::size_t calls() const noexcept { return calls_; }

    template <class S = Sink>
    auto seek(std::size_t pos) -> decltype(std::declval<S&>().seek(pos)) {
        return inner_->seek(pos);
    }

private:
    void check(std::size_t n) {
        ++calls_;
        const std::size_t at = inner_->position();
        if (calls_ == fail_call_) {
            throw injected_fault(
                "injected fault at write call #" + std::to_string(calls_) + " (byte " + std::to_string(at) + ")", at);
        }
        if (fail_byte_ != never && n > fail_byte_ - std::min(at, fail_byte_)) {
            throw injected_fault("injected fault: a write of " + std::to_string(n) + " bytes at byte " +
                                     std::to_string(at) + " would pass byte " + std::to_string(fail_byte_),
                                 at);
        }
    }

    Sink* inner_;
    std::size_t calls_ = 0;
    std::size_t fail_call_ = never;
    std::size_t fail_byte_ = never;
};

}  // namespace sinkcheck
