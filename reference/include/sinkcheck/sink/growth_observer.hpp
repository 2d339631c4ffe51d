// sinkcheck/sink/growth_observer.hpp — the hook a growing sink calls each time it makes room.
//
// The vector, string and memory-writer sinks report every growth (the slow path only, so the
// fast path pays nothing for it): the capacity they reserved and how far ahead of the cursor
// they made the buffer writable. instrument/capacity_trace.hpp and instrument/zero_fill_meter.hpp
// listen here; the seed 000 claims ("capacity as before", "zero only a window ahead") are checked
// against these events.
#pragma once

#include <cstddef>

namespace sinkcheck {

/// One growth of a sink's buffer, seen just after it succeeded.
struct growth_event {
    /// bytes written through the sink before the write that needed room
    std::size_t position;
    /// length of that write
    std::size_t request;
    /// the container's capacity after growing
    std::size_t capacity;
    /// bytes writable from the cursor on after growing (zero-filled unless already written)
    std::size_t ahead;
};

class growth_observer {
public:
    virtual void on_growth(const growth_event& e) = 0;
    virtual ~growth_observer() = default;

protected:
    growth_observer() = default;
    growth_observer(const growth_observer&) = default;
    growth_observer& operator=(const growth_observer&) = default;
};

/// Forwards every event to two observers (a capacity trace and a zero-fill meter at once).
class growth_tee final : public growth_observer {
public:
    growth_tee(growth_observer& first, growth_observer& second) : first_(&first), second_(&second) {}
    void on_growth(const growth_event& e) override {
        first_->on_growth(e);
        second_->on_growth(e);
    }

private:
    growth_observer* first_;
    growth_observer* second_;
};

}  // namespace sinkcheck
