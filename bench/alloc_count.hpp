// bench/alloc_count.hpp — every heap allocation the process makes, counted.
//
// alloc_count.cpp replaces the global operator new and delete of the benchmark executables, so
// an allocation made anywhere (our sinks, std::vector, nlohmann's per-key strings) is counted the
// same way. Row 2 reads the counter around one encode; timing rows pay one increment per
// allocation on both sides of a comparison alike.
#pragma once

#include <cstddef>

namespace sinkcheck::bench {

struct allocation_totals {
    std::size_t calls = 0;
    std::size_t bytes = 0;
};

/// Allocations since the program started (operator new and new[], all forms).
allocation_totals allocations() noexcept;

/// The allocations made while f runs.
template <class F>
allocation_totals count_allocations(F&& f) {
    const allocation_totals before = allocations();
    f();
    const allocation_totals after = allocations();
    return {after.calls - before.calls, after.bytes - before.bytes};
}

}  // namespace sinkcheck::bench
