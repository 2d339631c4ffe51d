// sinkcheck/testkit/harness.hpp — one way to drive any sink, so every property runs on every sink.
//
// A property never names a sink type. It asks a sut_entry ("sink under test") to encode a value,
// or to replay a write program, under a run_setup (window, chunk bounds, an allocation or a write
// that throws) and gets a run_record back: what the target holds once the sink is gone, every
// write the sink was asked to do, every allocation its target made, every growth it reported,
// and whether anything leaked. The real sinks (sinks.hpp), a user's and the broken ones of the
// gallery (broken_sinks.hpp) are all turned into sut_entry by the same template, entry<T>(), so
// a property that catches a broken sink is literally the code that passes the real one.
//
// The sink is destroyed while the exception is still in flight (the rethrow below), because
// "trims during unwinding" is a claim about exactly that moment.
//
// Two logs see the allocations: the target's tracing allocator, and the hook of global operator
// new (sinkcheck/testkit/instrument/global_new.hpp), armed only while the harness is inside a call into
// the sink, so that what the encoder and the harness allocate is never taken for the sink's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/sink/growth_observer.hpp"
#include "sinkcheck/sink/vector_sink.hpp"
#include "sinkcheck/testkit/instrument/fault_sink.hpp"
#include "sinkcheck/testkit/instrument/global_new.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"

#include "sinkcheck/testkit/any_sink.hpp"
#include "sinkcheck/testkit/sink_traits.hpp"
#include "sinkcheck/testkit/write_program.hpp"

namespace sinkcheck::testkit {

enum class outcome { completed, refused, write_fault, alloc_fault, sink_error, other };

inline const char* outcome_name(outcome o) {
    switch (o) {
        case outcome::completed: return "completed";
        case outcome::refused: return "encoder refused the value";
        case outcome::write_fault: return "injected write fault";
        case outcome::alloc_fault: return "injected allocation fault";
        case outcome::sink_error: return "sink error";
        case outcome::other: return "unexpected exception";
    }
    return "?";
}

/// One growth as the sink reported it (growth_observer), kept whole. The sink calls it, but what
/// it allocates is the kit's (global_new.hpp).
class growth_log final : public growth_observer {
public:
    void on_growth(const growth_event& e) override {
        const kit_section own;
        events.push_back(e);
    }
    std::vector<growth_event> events;
};

struct run_record {
    outcome how = outcome::completed;
    /// encode_error id when refused; what() of any exception
    int error_id = 0;
    std::string error;
    /// sink_error::position() when a sink error ended the run (the bytes written before it)
    std::size_t error_position = none;
    /// what ended the run, to be thrown again by a caller that lets exceptions pass (registry.hpp)
    std::exception_ptr thrown;

    /// What the target holds once the sink is gone (empty for a sink that stores nothing).
    std::vector<std::uint8_t> bytes;
    /// position() after the last write, or when the exception left the encoder
    std::size_t position = 0;
    /// The model: the bytes of the write calls that returned, placed where each went (a seek
    /// moves the model's cursor; a write past the end fills the gap with zeros).
    std::vector<std::uint8_t> model;
    /// Length of every write call that reached the sink, in order (a faulted one included).
    std::vector<std::size_t> writes;
    /// Sizes of the target's successful allocations, in order.
    std::vector<std::size_t> allocations;
    /// Sizes of the sink's successful allocations through global operator new, in order (none
    /// where the kit's replacement is not linked).
    std::vector<std::size_t> new_allocations;
    /// Seeks made through the sink.
    std::size_t seeks = 0;
    /// Growths the sink reported.
    std::vector<growth_event> growths;
    /// Most bytes ever found writable ahead of the cursor right after a write (container sinks
    /// only, measured on the container itself; none where it cannot be seen).
    std::size_t max_ahead_after_write = none;
    /// Allocations made while the sink was being destroyed (a trim must not allocate), by the
    /// target and through new.
    std::size_t allocations_in_destructor = 0;
    /// "" when every byte the target, or the sink through new, allocated was freed exactly once.
    std::string leaks;
    /// Chunk capacities as the chunked sink reports them (chunked sinks only).
    std::vector<std::size_t> chunks;
    /// chunks is the target's report (drive() of a chunked sink), to be compared with allocations
    bool chunks_reported = false;
    /// The first invariant broken right after a write, "" when none was: position() equal to the
    /// bytes accepted, a write that fits in the room allocating nothing (traits `room`), the
    /// sink's own consistency check (traits `check_consistency`).
    std::string invariant;
};

/// What a recorder looks at after every write, besides the write itself; each may be empty.
struct probes {
    /// bytes writable ahead of the cursor, measured on the target
    std::function<std::size_t()> ahead;
    /// bytes the sink can take without allocating
    std::function<std::size_t()> room;
    /// what is inconsistent in the sink's state ("" when nothing is)
    std::function<std::string()> consistency;
    /// the target's allocations (for "a write that fits allocates nothing")
    const allocation_log* log = nullptr;
    /// the sink's growth events (each names the write that caused it)
    const growth_log* growth = nullptr;
};

/// Sits between the encoder (or a write program) and the sink: counts and records every write,
/// keeps the model of what the target should hold (a plain byte array and a cursor), checks the
/// invariants after every write that returned (not only at the end, where a slip that heals
/// itself by then would hide), and forwards seek() when the sink has one.
template <class Sink>
class recorder {
public:
    recorder(Sink& sink, run_record& r, probes p) : sink_(&sink), r_(&r), probes_(std::move(p)) {}

    void write(std::uint8_t b) {
        const before was = look();
        r_->writes.push_back(1);
        sink_->write(b);
        place(&b, 1);
        check(was, 1);
    }

    void write(const std::uint8_t* p, std::size_t n) {
        const before was = look();
        r_->writes.push_back(n);
        sink_->write(p, n);
        place(p, n);
        check(was, n);
    }

    std::size_t position() const { return sink_->position(); }

    template <class S = Sink>
    auto seek(std::size_t pos) -> decltype(std::declval<S&>().seek(pos)) {
        sink_->seek(pos);
        ++r_->seeks;
        cursor_ = pos;
        if (probes_.growth != nullptr) {
            events_seen_ = probes_.growth->events.size();  // a seek's own reservation names no write
        }
    }

private:
    void place(const std::uint8_t* p, std::size_t n) {
        auto& m = r_->model;
        // A write of no bytes changes nothing, not even after a seek past the end (as with
        // POSIX write(); seed 004's Rust SeekableMemWriter would zero-fill the gap here).
        if (n != 0) {
            if (m.size() < cursor_ + n) {
                m.resize(cursor_ + n);  // zeros fill a gap left by a seek past the end
            }
            std::copy(p, p + n, m.begin() + static_cast<std::ptrdiff_t>(cursor_));
            cursor_ += n;
        }
        if (probes_.ahead) {
            const std::size_t a = probes_.ahead();
            if (r_->max_ahead_after_write == none || a > r_->max_ahead_after_write) {
                r_->max_ahead_after_write = a;
            }
        }
    }

    struct before {
        std::size_t room = none;
        std::size_t allocations = 0;
        std::size_t cursor = 0;
    };

    before look() const {
        before b;
        b.cursor = cursor_;
        if (probes_.room && probes_.log != nullptr) {
            b.room = probes_.room();
            b.allocations = probes_.log->allocations();
        }
        return b;
    }

    void check(const before& was, std::size_t n) {
        if (!r_->invariant.empty()) {
            return;  // the first one broken is the one reported
        }
        // named only when something broke: this runs after every write
        const auto call = [&] {
            return "after write call #" + std::to_string(r_->writes.size()) + " (" + std::to_string(n) +
                   (n == 1 ? " byte)" : " bytes)");
        };
        const std::size_t pos = sink_->position();
        if (pos != cursor_) {
            r_->invariant = call() + ": position() " + std::to_string(pos) +
                            ", but the writes put the cursor at byte " + std::to_string(cursor_);
        } else if (was.room != none && n <= was.room && probes_.log->allocations() != was.allocations) {
            r_->invariant = call() + ": the write fitted in the " + std::to_string(was.room) +
                            " bytes of room the sink had, yet it allocated " +
                            std::to_string(probes_.log->allocations() - was.allocations) + " time(s)";
        } else if (const std::string wrong = growth_mismatch(was, n); !wrong.empty()) {
            r_->invariant = call() + ": " + wrong;
        } else if (probes_.consistency) {
            const std::string inconsistent = probes_.consistency();
            if (!inconsistent.empty()) {
                r_->invariant = call() + ": " + inconsistent;
            }
        }
    }

    /// Every growth event this write caused must name it: the position it started at (bytes
    /// written through the sink, the target's earlier contents not counted) and its length.
    std::string growth_mismatch(const before& was, std::size_t n) {
        if (probes_.growth == nullptr) {
            return "";
        }
        const auto& events = probes_.growth->events;
        for (; events_seen_ < events.size(); ++events_seen_) {
            const growth_event& e = events[events_seen_];
            if (e.position != was.cursor || e.request != n) {
                return "a growth event names a write of " + std::to_string(e.request) + " bytes at byte " +
                       std::to_string(e.position) + ", but the write was " + std::to_string(n) + " bytes at byte " +
                       std::to_string(was.cursor);
            }
        }
        return "";
    }

    Sink* sink_;
    run_record* r_;
    probes probes_;
    std::size_t cursor_ = 0;
    std::size_t events_seen_ = 0;
};

/// The exception that ended a run, recorded in r (rethrow it inside a try).
inline void record_exception(run_record& r, const run_setup& setup) {
    r.thrown = std::current_exception();
    try {
        throw;
    } catch (const encode_error& e) {
        r.how = outcome::refused;
        r.error_id = e.id();
        r.error = e.what();
    } catch (const injected_fault& e) {
        r.how = outcome::write_fault;
        r.error = e.what();
    } catch (const sinkcheck::sink_error& e) {
        r.how = outcome::sink_error;
        r.error = e.what();
        r.error_position = e.position();
    } catch (const std::bad_alloc& e) {
        r.how = setup.alloc_fault != 0 || setup.new_fault != 0 ? outcome::alloc_fault : outcome::other;
        r.error = e.what();
    } catch (const std::exception& e) {
        r.how = outcome::other;
        r.error = e.what();
    }
}

/// What the runs of one sink exercised during a property, added up by every run (the property's
/// runner clears them): what its "not checked" lines are made of.
struct run_tally {
    std::size_t runs = 0;
    std::size_t allocations = 0;
    std::size_t new_allocations = 0;
    std::size_t write_faults = 0;
    std::size_t alloc_faults = 0;
    std::size_t new_faults = 0;
    std::size_t seeks = 0;
};

/// The tallies by sink name (the baseline a property compares with has its own).
inline std::map<std::string, run_tally, std::less<>>& tallies() {
    static std::map<std::string, run_tally, std::less<>> t;
    return t;
}

inline void count_run(std::string_view sink, const run_record& r, const run_setup& setup) {
    auto& all = tallies();
    auto at = all.find(sink);  // no key made on every run, only on a sink's first
    if (at == all.end()) {
        at = all.emplace(std::string(sink), run_tally{}).first;
    }
    run_tally& t = at->second;
    ++t.runs;
    t.allocations += r.allocations.size();
    t.new_allocations += r.new_allocations.size();
    t.write_faults += setup.write_fault != 0 ? 1 : 0;
    t.alloc_faults += setup.alloc_fault != 0 ? 1 : 0;
    t.new_faults += setup.new_fault != 0 ? 1 : 0;
    t.seeks += r.seeks;
}

/// The leaks of both logs, in one report.
inline std::string leaks_of(const allocation_log& target, const allocation_log& through_new) {
    std::string out = target.leak_report();
    const std::string from_new = through_new.leak_report();
    if (!from_new.empty()) {
        out += "through operator new: " + from_new;
    }
    return out;
}

/// The sink, made, called and destroyed with the hook of global operator new armed: what it
/// allocates through new then is the sink's; what the harness does between its calls is not.
template <class Sink>
class armed_sink {
public:
    template <class Make>
    explicit armed_sink(Make&& make) : sink_(make()) {
        arming_.restore();
    }
    ~armed_sink() { sinkcheck::detail::new_hook.armed = true; }  // then sink_ is destroyed, then arming_ restores
    armed_sink(const armed_sink&) = delete;
    armed_sink& operator=(const armed_sink&) = delete;

    // Not inlined: the sink's own code then stays in these functions, out of the recorder and the
    // fault injector, which the fuzz targets compile without coverage feedback (the kit's checks
    // are not code to steer inputs into: fuzz/coverage-ignorelist.txt).
    [[gnu::noinline]] void write(std::uint8_t b) {
        const armed_scope on;
        sink_.write(b);
    }
    [[gnu::noinline]] void write(const std::uint8_t* p, std::size_t n) {
        const armed_scope on;
        sink_.write(p, n);
    }
    [[gnu::noinline]] std::size_t position() {
        const armed_scope on;
        return sink_.position();
    }
    template <class S = Sink>
    [[gnu::noinline]] auto seek(std::size_t pos) -> decltype(std::declval<S&>().seek(pos)) {
        const armed_scope on;
        return sink_.seek(pos);
    }

    /// The sink itself, for the traits' probes and capture (the kit's calls, not armed).
    Sink& get() noexcept { return sink_; }

private:
    /// Armed from before the sink is made until restore(), and again from the destructor's body
    /// until the sink is gone (members are destroyed after the body, this one last).
    class arming {
    public:
        arming() noexcept : was_(sinkcheck::detail::new_hook.armed) { sinkcheck::detail::new_hook.armed = true; }
        void restore() noexcept { sinkcheck::detail::new_hook.armed = was_; }
        ~arming() { restore(); }
        arming(const arming&) = delete;
        arming& operator=(const arming&) = delete;

    private:
        bool was_;
    };

    arming arming_;
    Sink sink_;
};

/// How much a run will write, where the caller knows it (a write program): the record makes room
/// for its model and write lengths up front instead of growing them while the sink runs. A hint
/// only; a run may write more.
struct run_size_hint {
    std::size_t bytes = 0;
    std::size_t writes = 0;
};

inline run_size_hint size_hint(const write_program& prog) {
    run_size_hint h;
    for (const write_op& op : prog.ops) {
        h.bytes += op.what == write_op::kind::block ? op.length : op.what == write_op::kind::byte ? 1 : 0;
        h.writes += op.what == write_op::kind::seek ? 0 : 1;
    }
    return h;
}

/// Runs body(sink) on a fresh sink described by traits T (sink_traits.hpp), through a fault
/// injector and a recorder, and reports everything the properties look at.
template <class T, class Body>
run_record drive(const run_setup& setup, Body&& body, run_size_hint hint = {}) {
    run_record r;
    r.model.reserve(hint.bytes);
    r.writes.reserve(hint.writes);
    auto log = std::make_shared<allocation_log>();
    allocation_log new_log;
    growth_log growth;
    {
        using traits = sink_traits<T>;
        const new_tracking tracking(new_log);  // until the target is gone: it frees what writes allocated
        typename traits::holder held(setup, log);
        auto& t = held.t;
        if (setup.alloc_fault != 0) {
            log->fail_at(setup.alloc_fault);
        }
        if (setup.new_fault != 0) {
            new_log.fail_at(setup.new_fault);
        }
        std::size_t allocations_before_destructor = none;  // none: make() threw, there is no destructor
        const auto before_destructor = [&] { return log->allocations() + new_log.allocations(); };
        try {
            armed_sink<typename traits::sink_type> armed([&] { return traits::make(t, setup, &growth); });
            auto& sink = armed.get();
            try {
                fault_sink<armed_sink<typename traits::sink_type>> faulty(armed);
                if (setup.write_fault != 0) {
                    faulty.fail_at_write(setup.write_fault);
                }
                recorder<decltype(faulty)> rec(faulty, r,
                                               probes{traits::ahead(sink, t), traits::room(sink, t),
                                                      traits::consistency(sink, t), log.get(), &growth});
                body(rec);
                const armed_scope on;
                traits::finish(sink, t);  // a buffered sink hands over what it keeps
            } catch (...) {
                r.position = armed.position();
                traits::capture(sink, t);
                allocations_before_destructor = before_destructor();
                throw;  // the sink is destroyed while this exception unwinds
            }
            r.position = armed.position();
            traits::capture(sink, t);
            allocations_before_destructor = before_destructor();
        } catch (...) {
            record_exception(r, setup);
        }
        r.allocations_in_destructor =
            allocations_before_destructor == none ? 0 : before_destructor() - allocations_before_destructor;
        log->disarm();
        new_log.disarm();
        r.bytes = traits::contents(t);
        if constexpr (traits::reports_chunks) {
            r.chunks = t.chunk_sizes;
            r.chunks_reported = true;
        }
    }
    r.allocations = log->allocation_sizes();
    r.new_allocations = new_log.allocation_sizes();
    r.leaks = leaks_of(*log, new_log);
    r.growths = std::move(growth.events);
    count_run(sink_traits<T>::name(), r, setup);
    return r;
}

/// Distinct capacities in the order a sink reported them.
inline std::vector<std::size_t> reported_capacities(const run_record& r) {
    std::vector<std::size_t> out;
    for (const growth_event& e : r.growths) {
        if (out.empty() || out.back() != e.capacity) {
            out.push_back(e.capacity);
        }
    }
    return out;
}

/// How a write program is split by a move of the sink: the first `split` ops go through the sink
/// made over the target, the rest through the one it was moved into.
struct move_plan {
    enum class death { at_once, moved_from_first, owner_first };
    std::size_t split = 0;
    /// move-assign into a sink made over a second target (which must then hold only what it held
    /// before), instead of move-constructing a new one
    bool assign = false;
    /// when the moved-from sink is destroyed: right after the move, or at the end, before or
    /// after the new owner (also while an exception unwinds)
    death order = death::at_once;
    /// bytes the sink assigned over writes into the second target before the assignment (which
    /// must then trim it to them)
    std::size_t spare_bytes = 0;
};

struct moved_record {
    run_record run;
    /// what the second target holds at the end (move assignment only)
    std::vector<std::uint8_t> spare;
    /// the assignment happened (a throw in the writes before it stops the program earlier)
    bool assigned = false;
    /// what the moved-from sink breaks, right after the move, of what its traits promise for that
    /// state (`check_moved_from`); "" when nothing or when they promise nothing
    std::string moved_from_problem;
};

/// The bytes a sink assigned over writes before the assignment: 0, 1, 2, ... modulo 251.
inline std::vector<std::uint8_t> spare_pattern(std::size_t n) {
    std::vector<std::uint8_t> bytes(n);
    for (std::size_t i = 0; i < n; ++i) {
        bytes[i] = static_cast<std::uint8_t>(i % 251);
    }
    return bytes;
}

/// Forwards writes to whichever sink owns the stream now, with the hook of operator new armed.
template <class Sink>
struct relay {
    Sink* current;
    void write(std::uint8_t b) {
        const armed_scope on;
        current->write(b);
    }
    void write(const std::uint8_t* p, std::size_t n) {
        const armed_scope on;
        current->write(p, n);
    }
    std::size_t position() const {
        const armed_scope on;
        return current->position();
    }
};

/// Arms the hook of operator new when it is destroyed: declared after the sinks, it makes their
/// destructors run armed (an armed_scope declared before them disarms again after).
struct armed_from_here_on {
    armed_from_here_on() = default;
    armed_from_here_on(const armed_from_here_on&) = delete;
    armed_from_here_on& operator=(const armed_from_here_on&) = delete;
    ~armed_from_here_on() { sinkcheck::detail::new_hook.armed = true; }
};

/// Runs prog on a sink described by traits T, moved into a new owner after plan.split ops (only
/// for a move-constructible sink, and with plan.assign a move-assignable one).
template <class T>
moved_record drive_moved(const run_setup& setup, const write_program& prog, const move_plan& plan) {
    using traits = sink_traits<T>;
    using sink_type = typename traits::sink_type;
    moved_record m;
    run_record& r = m.run;
    auto log = std::make_shared<allocation_log>();
    allocation_log new_log;
    write_program first;
    write_program rest;
    const auto cut = prog.ops.begin() + static_cast<std::ptrdiff_t>(std::min(plan.split, prog.ops.size()));
    first.ops.assign(prog.ops.begin(), cut);
    rest.ops.assign(cut, prog.ops.end());
    {
        const new_tracking tracking(new_log);
        typename traits::holder held(setup, log);
        typename traits::holder spare(setup, log);
        if (setup.new_fault != 0) {
            new_log.fail_at(setup.new_fault);
        }
        try {
            const armed_scope disarmed_after_the_sinks(false);
            // slots[1] is destroyed before slots[0], on the way out and while unwinding alike
            std::optional<sink_type> slots[2];
            const armed_from_here_on sinks_destroyed_armed;
            const bool owner_first = plan.order == move_plan::death::owner_first;
            std::optional<sink_type>& from = slots[owner_first ? 0 : 1];
            std::optional<sink_type>& owner = slots[owner_first ? 1 : 0];
            {
                const armed_scope on;
                from.emplace(traits::make(held.t, setup, nullptr));
            }
            relay<sink_type> to{&*from};
            try {
                fault_sink<relay<sink_type>> faulty(to);
                if (setup.write_fault != 0) {
                    faulty.fail_at_write(setup.write_fault);
                }
                recorder<fault_sink<relay<sink_type>>> rec(faulty, r, probes{});
                std::size_t size = 0;
                play(first, rec, size);
                if constexpr (traits::move_assignable) {
                    if (plan.assign) {
                        const std::vector<std::uint8_t> pattern = spare_pattern(plan.spare_bytes);
                        const armed_scope on;
                        owner.emplace(traits::make(spare.t, setup, nullptr));
                        if (!pattern.empty()) {
                            owner->write(pattern.data(), pattern.size());
                        }
                        *owner = std::move(*from);
                        m.assigned = true;
                    }
                }
                if (!owner) {
                    const armed_scope on;
                    owner.emplace(std::move(*from));
                }
                m.moved_from_problem = traits::moved_from_problem(*from);
                to.current = &*owner;
                if (plan.order == move_plan::death::at_once) {
                    const armed_scope on;
                    from.reset();
                }
                play(rest, rec, size);
                const armed_scope on;
                traits::finish(*owner, held.t);
            } catch (...) {
                r.position = to.current->position();
                traits::capture(*to.current, held.t);
                throw;  // both sinks are destroyed while this exception unwinds
            }
            r.position = owner->position();
            traits::capture(*owner, held.t);
        } catch (...) {
            record_exception(r, setup);
        }
        log->disarm();
        new_log.disarm();
        r.bytes = traits::contents(held.t);
        m.spare = traits::contents(spare.t);
    }
    r.allocations = log->allocation_sizes();
    r.new_allocations = new_log.allocation_sizes();
    r.leaks = leaks_of(*log, new_log);
    count_run(traits::name(), r, setup);
    return m;
}

/// A sink under test, with the value type erased so lists of them can be iterated.
struct sut_entry {
    std::string name;
    bool windowed = false;
    bool stores = true;
    bool seekable = false;
    bool fixed_capacity = false;
    /// the target can hold bytes before the sink is made (run_setup::existing)
    bool appends = false;
    /// the target's stream fails at run_setup::stream_limit bytes
    bool streams = false;
    /// the target reports its chunks (run_setup's first_chunk and max_chunk mean something)
    bool chunked = false;
    bool move_constructible = false;
    bool move_assignable = false;
    /// the sink promises to allocate (traits `allocates`): a fault property that saw no allocation fails
    bool allocates = false;
    /// written bytes the sink may keep before they reach its stream (traits `buffers`)
    std::size_t buffers = 0;
    /// the sink has a step after its last write (traits `finish`)
    bool finishes = false;
    /// the growth rule's description; "" when the sink declares none
    std::string growth;
    /// the allocation sizes its growth rule expects for these write lengths
    std::function<std::vector<std::size_t>(const std::vector<std::size_t>&, const run_setup&)> expected_allocations;
    std::function<run_record(format, const nlohmann::json&, const encode_options&, const run_setup&)> encode;
    std::function<run_record(const write_program&, const run_setup&)> program;
    /// the program with the sink moved part way (empty for a sink that cannot be moved)
    std::function<moved_record(const write_program&, const run_setup&, const move_plan&)> moved_program;
};

/// What the kit knows of the sink described by traits T, without the means to run it (encode,
/// program and moved_program empty): enough to judge a run (promises.hpp), and compiled without
/// the encoders.
template <class T>
sut_entry described() {
    using traits = sink_traits<T>;
    sut_entry e;
    e.name = std::string(traits::name());
    e.windowed = traits::windowed;
    e.stores = traits::stores;
    e.seekable = traits::seekable;
    e.fixed_capacity = traits::fixed_capacity;
    e.appends = traits::appends;
    e.streams = traits::streams;
    e.chunked = traits::reports_chunks;
    e.allocates = traits::allocates;
    e.buffers = traits::buffers;
    e.finishes = traits::finishes;
    e.move_constructible = traits::move_constructible;
    e.move_assignable = traits::move_constructible && traits::move_assignable;
    e.growth = std::string(traits::growth_description());
    e.expected_allocations = &traits::expected_allocations;
    return e;
}

/// The entry for the sink described by traits T.
template <class T>
sut_entry entry() {
    using traits = sink_traits<T>;
    sut_entry e = described<T>();
    e.encode = [](format f, const nlohmann::json& j, const encode_options& o, const run_setup& s) {
        return drive<T>(s, [&](auto& sink) { encode_any(f, j, sink, o); });
    };
    e.program = [](const write_program& prog, const run_setup& s) {
        return drive<T>(
            s,
            [&](auto& sink) {
                std::size_t size = 0;
                play(prog, sink, size);
            },
            size_hint(prog));
    };
    if constexpr (traits::move_constructible) {
        e.moved_program = [](const write_program& prog, const run_setup& s, const move_plan& plan) {
            return drive_moved<T>(s, prog, plan);
        };
    }
    return e;
}

}  // namespace sinkcheck::testkit
