// sinkcheck/testkit/instrument/zero_fill_meter.hpp — how far ahead of its cursor a sink zero-fills.
//
// Listens to a vector, string or memory-writer sink's growth events and keeps the most bytes it
// ever made writable ahead of the cursor at once. Seed 000's promise is a bound on exactly that:
// at most the window plus the write that asked for room.
#pragma once

#include <algorithm>
#include <cstddef>

#include "sinkcheck/sink/growth_observer.hpp"

namespace sinkcheck {

class zero_fill_meter final : public growth_observer {
public:
    void on_growth(const growth_event& e) override {
        max_ahead_ = std::max(max_ahead_, e.ahead);
        max_request_ = std::max(max_request_, e.request);
    }

    /// The most bytes made writable ahead of the cursor by one growth.
    std::size_t max_ahead() const noexcept { return max_ahead_; }
    /// The longest write that needed room.
    std::size_t max_request() const noexcept { return max_request_; }

private:
    std::size_t max_ahead_ = 0;
    std::size_t max_request_ = 0;
};

}  // namespace sinkcheck
