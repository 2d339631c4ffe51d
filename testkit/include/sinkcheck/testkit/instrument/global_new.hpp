// sinkcheck/testkit/instrument/global_new.hpp — a sink's allocations through global operator new, seen
// and failed like the tracing allocator's.
//
// A sink whose target allocates through `new` (std::string, std::ostringstream, absl::Cord,
// protobuf's streams) never reaches a tracing_allocator. A program that links the kit's
// replacement of the global operator new and delete (testkit/src/global_new.cpp; every
// sinkcheck_add_sink_check binary does unless given ALLOCATIONS kit-only) sends every allocation
// made on this thread inside an armed_scope to the run's allocation_log: counted, failed on demand
// (std::bad_alloc; nullptr from the nothrow forms), and its release recorded whenever it comes,
// armed or not (a target destroyed after its sink frees what the sink's writes allocated).
// The kit arms only around its calls into the sink — making it, writing, position(), seek(),
// destroying it — so the encoder's allocations, the harness's bookkeeping and the log's own are
// never counted or failed as the sink's. Per thread: one run at a time on a thread.
#pragma once

namespace sinkcheck {

class allocation_log;

namespace detail {

struct new_hook_state {
    /// the run's log for allocations through new; null outside a run
    allocation_log* log = nullptr;
    /// inside a call into the sink: allocations through new are the sink's
    bool armed = false;
    /// inside the kit's own bookkeeping (the log's containers): never counted, never failed
    unsigned kit_depth = 0;
};

inline thread_local new_hook_state new_hook;

/// Set by global_new.cpp when it is linked into the program.
inline bool new_hook_linked = false;

}  // namespace detail

/// Whether allocations through global operator new reach the kit in this program.
inline bool global_new_hooked() noexcept { return detail::new_hook_linked; }

/// For its lifetime, allocations through new made inside an armed_scope on this thread go to log,
/// and releases of what that log handed out are recorded in it.
class new_tracking {
public:
    explicit new_tracking(allocation_log& log) noexcept : was_(detail::new_hook.log) { detail::new_hook.log = &log; }
    ~new_tracking() { detail::new_hook.log = was_; }
    new_tracking(const new_tracking&) = delete;
    new_tracking& operator=(const new_tracking&) = delete;

private:
    allocation_log* was_;
};

/// Arms (or, with false, disarms) the hook for its lifetime: what is allocated through new in
/// between is the sink's.
class armed_scope {
public:
    explicit armed_scope(bool on = true) noexcept : was_(detail::new_hook.armed) { detail::new_hook.armed = on; }
    ~armed_scope() { detail::new_hook.armed = was_; }
    armed_scope(const armed_scope&) = delete;
    armed_scope& operator=(const armed_scope&) = delete;

private:
    bool was_;
};

/// The kit's own work, even inside an armed scope: allocations through new go straight to the heap.
class kit_section {
public:
    kit_section() noexcept { ++detail::new_hook.kit_depth; }
    ~kit_section() { --detail::new_hook.kit_depth; }
    kit_section(const kit_section&) = delete;
    kit_section& operator=(const kit_section&) = delete;
};

}  // namespace sinkcheck
