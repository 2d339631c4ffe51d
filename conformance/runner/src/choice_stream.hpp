// choice_stream.hpp — splitmix64, the fixed and portable stream of choices behind generated
// values and write programs (std::uniform_int_distribution is not portable).
#pragma once

#include <cstdint>

namespace sinkcheck::conform::detail {

struct choice_stream {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// A number below n (0 when n is 0).
    std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next() % n; }
};

}  // namespace sinkcheck::conform::detail
