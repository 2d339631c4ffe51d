// sinkcheck/testkit/instrument/capacity_trace.hpp — the capacities a growing sink went through.
//
// Listens to a vector, string or memory-writer sink's growth events and keeps each new capacity
// once, in order. Seed 000 claims the capacity sequence does not depend on the window; with this
// trace that is one vector comparison per window size.
#pragma once

#include <cstddef>
#include <vector>

#include "sinkcheck/sink/growth_observer.hpp"

namespace sinkcheck {

class capacity_trace final : public growth_observer {
public:
    void on_growth(const growth_event& e) override {
        if (capacities_.empty() || capacities_.back() != e.capacity) {
            capacities_.push_back(e.capacity);
        }
        ++growths_;
    }

    /// Each capacity reached, in order, without repeats.
    const std::vector<std::size_t>& capacities() const noexcept { return capacities_; }
    /// Slow-path growths, including those that only moved the window.
    std::size_t growths() const noexcept { return growths_; }

private:
    std::vector<std::size_t> capacities_;
    std::size_t growths_ = 0;
};

}  // namespace sinkcheck
