// sinkcheck/testkit/byte_choices.hpp — a byte string read as a sequence of choices.
//
// The value builder (value_from_bytes.hpp) is one builder for every runner: libFuzzer hands it
// its input through clang's FuzzedDataProvider, while `conform --generate` (seeded bytes) and
// the RapidCheck properties (bytes RapidCheck draws and shrinks) hand it a byte_choices, which
// needs no header outside the kit. Both read the same way: numbers from the back of the bytes,
// strings from the front, so mutating a string does not shift every later number. A number in
// [lo, hi] takes as many bytes as the range needs, first byte most significant; when the bytes
// run out every number is lo, so all-zero or missing bytes give the smallest choice everywhere
// and shrinking the bytes toward zero shrinks the value. The member names are those of
// FuzzedDataProvider, so the builder is written once for both.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace sinkcheck::testkit {

class byte_choices {
public:
    byte_choices(const std::uint8_t* data, std::size_t size) noexcept : data_(data), front_(0), back_(size) {}

    /// A number in [lo, hi] (lo <= hi) from the back of the bytes.
    template <class T>
    T ConsumeIntegralInRange(T lo, T hi) {  // NOLINT(readability-identifier-naming): FuzzedDataProvider's name
        static_assert(std::is_integral_v<T> && sizeof(T) <= sizeof(std::uint64_t));
        const std::uint64_t range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
        std::uint64_t r = 0;
        for (std::size_t used = 0; used < sizeof(T) && (range >> (8 * used)) != 0 && back_ > front_; ++used) {
            r = (r << 8) | data_[--back_];
        }
        if (range != (std::numeric_limits<std::uint64_t>::max)()) {
            r %= range + 1;
        }
        return static_cast<T>(static_cast<std::uint64_t>(lo) + r);
    }

    template <class T>
    T ConsumeIntegral() {  // NOLINT(readability-identifier-naming)
        return ConsumeIntegralInRange<T>((std::numeric_limits<T>::min)(), (std::numeric_limits<T>::max)());
    }

    bool ConsumeBool() { return (ConsumeIntegral<std::uint8_t>() & 1U) != 0; }  // NOLINT(readability-identifier-naming)

    /// Up to max_length bytes from the front: the length is a number from the back.
    std::string ConsumeRandomLengthString(std::size_t max_length) {  // NOLINT(readability-identifier-naming)
        const std::size_t n = std::min(ConsumeIntegralInRange<std::size_t>(0, max_length), back_ - front_);
        if (n == 0) {
            return std::string();
        }
        std::string s(reinterpret_cast<const char*>(data_ + front_), n);
        front_ += n;
        return s;
    }

    std::size_t remaining_bytes() const noexcept { return back_ - front_; }

private:
    const std::uint8_t* data_;
    std::size_t front_;
    std::size_t back_;
};

}  // namespace sinkcheck::testkit
