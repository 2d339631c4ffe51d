// Write programs for the sink tests: a fixed sequence of writes of chosen lengths, and the bytes
// they must produce. Lets every sink be tested on the same writes without an encoder, and a
// failure at write k be compared with the bytes of writes 1..k-1. Also an allocator whose
// max_size() is small, so a sink can be driven to its container's length limit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

namespace sinkcheck::test {

struct write_program {
    /// each entry is one write call; a 1-byte entry goes through write(std::uint8_t)
    std::vector<std::vector<std::uint8_t>> writes;

    std::vector<std::uint8_t> bytes() const { return prefix(writes.size()); }

    /// The bytes of the first `count` writes.
    std::vector<std::uint8_t> prefix(std::size_t count) const {
        std::vector<std::uint8_t> out;
        for (std::size_t i = 0; i < count; ++i) {
            out.insert(out.end(), writes[i].begin(), writes[i].end());
        }
        return out;
    }

    std::size_t largest_write() const {
        std::size_t m = 0;
        for (const auto& w : writes) {
            m = w.size() > m ? w.size() : m;
        }
        return m;
    }
};

/// Distinct, non-zero bytes, so a zero-filled gap or a lost byte cannot pass for output.
inline std::vector<std::uint8_t> pattern(std::size_t n, std::size_t salt = 0) {
    std::vector<std::uint8_t> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = static_cast<std::uint8_t>(1 + (i * 7 + salt * 13) % 251);
    }
    return out;
}

/// Writes of the given lengths, in order.
inline write_program program_of(const std::vector<std::size_t>& lengths) {
    write_program p;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        p.writes.push_back(pattern(lengths[i], i));
    }
    return p;
}

/// Mostly short writes (an encoder's markers and numbers), now and then a long one (a string
/// or binary value), about `total` bytes in all.
inline write_program mixed_program(std::uint64_t seed, std::size_t total) {
    std::mt19937_64 rng(seed);
    std::vector<std::size_t> lengths;
    std::size_t sum = 0;
    while (sum < total) {
        const std::uint64_t r = rng() % 100;
        std::size_t n = r < 40 ? 1 : r < 90 ? 1 + rng() % 9 : r < 98 ? 10 + rng() % 300 : 1000 + rng() % 5000;
        lengths.push_back(n);
        sum += n;
    }
    return program_of(lengths);
}

template <class Sink>
void run_writes(Sink& sink, const write_program& p, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        const auto& w = p.writes[i];
        if (w.size() == 1) {
            sink.write(w[0]);
        } else {
            sink.write(w.data(), w.size());
        }
    }
}

template <class Sink>
void run_writes(Sink& sink, const write_program& p) {
    run_writes(sink, p, p.writes.size());
}

/// std::allocator with max_size() == Max: a container of it refuses to hold more than Max
/// elements, which a test can reach without allocating much.
template <class T, std::size_t Max>
struct capped_allocator : std::allocator<T> {
    // std::allocator's own rebind (deprecated in C++17) would lose the cap
    template <class U>
    struct rebind {
        using other = capped_allocator<U, Max>;
    };

    capped_allocator() = default;
    template <class U>
    capped_allocator(const capped_allocator<U, Max>&) noexcept {}

    std::size_t max_size() const noexcept { return Max; }
};

}  // namespace sinkcheck::test
