// sinkcheck/sink/legacy_vector_sink.hpp — the vector sink as it was before seed 000.
//
// Contract: the same capacities as vector_sink (max(64, needed <= capacity ? capacity :
// max(needed, 2 * capacity))), but every growth resize()s (zero-fills) the vector to its whole new
// capacity at once; the destructor trims to the bytes written, also while unwinding, and never
// allocates; a throw leaves exactly the bytes of the completed writes.
//
// Kept as its own type so benchmarks and fuzzers can set the seed's "before" against its "after"
// and check that only the zero-filling differs: same bytes, same capacity sequence. It reserves
// before it resizes, so its capacities do not depend on how the library's resize() grows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sinkcheck/sink/detail/container_sink.hpp"

namespace sinkcheck {

template <class Alloc = std::allocator<std::uint8_t>>
class basic_legacy_vector_sink
    : public detail::basic_container_sink<std::vector<std::uint8_t, Alloc>, detail::vector_growth> {
    using base = detail::basic_container_sink<std::vector<std::uint8_t, Alloc>, detail::vector_growth>;

public:
    explicit basic_legacy_vector_sink(std::vector<std::uint8_t, Alloc>& v, growth_observer* observer = nullptr)
        : base(v, unlimited_window, observer) {}
};

using legacy_vector_sink = basic_legacy_vector_sink<>;

}  // namespace sinkcheck
