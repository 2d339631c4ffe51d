// sinkcheck/testkit/promises.hpp — the promises a sink makes, each stated once.
//
// sink_promises() is the one list: a promise's name (the test's name wherever it is checked),
// its weight and reach as a property, which sinks make it and why the others are skipped, and,
// where one run can show it broken, its judge. Everything that checks a sink reads this list:
//   - the properties (sink_properties.hpp) draw their runs and judge each with these judges
//     (check_promise(id, sink) is the property of a promise, one per id);
//   - the sink fuzzer (sink_fuzzer.hpp) judges each sink's run of a fuzz-chosen write program;
//   - the sink registry (registry.hpp) judges every run it makes — so `sinkcheck check`, the
//     differential fuzz targets and fuzz_fault judge theirs — with judge_run().
// A promise whose check needs more than one run (the same bytes as the reference, the same
// capacities at every window, a move part way) has no judge: only its property checks it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sinkcheck/testkit/fuzz_report.hpp"
#include "sinkcheck/testkit/harness.hpp"

namespace sinkcheck::testkit {

/// The sink under test for traits T, built once.
template <class T>
const sut_entry& entry_for() {
    static const sut_entry e = entry<T>();
    return e;
}

/// What the kit knows of the sink described by traits T (described<T>()), built once: what a
/// judge needs, where the sink is run by other means than the entry (the sink fuzzer, the
/// registry).
template <class T>
const sut_entry& description_of() {
    static const sut_entry e = described<T>();
    return e;
}

/// One run as a promise judges it.
struct judged_run {
    const run_record& r;
    const run_setup& setup;
    /// the bytes the same writes make when nothing throws, where known (nullptr: not known): a
    /// run that threw must have written a prefix of them
    const std::vector<std::uint8_t>* full = nullptr;
};

/// What a judge found: nothing (text empty), or the kind of finding and what broke.
struct verdict {
    fuzz::mismatch kind = fuzz::mismatch::model;
    std::string text;
    /// the target's bytes are not the model's: a report shows both
    bool bytes = false;

    explicit operator bool() const noexcept { return !text.empty(); }
};

/// "completed", "injected write fault (...)": how a run ended, for a report.
inline std::string outcome_of(const run_record& r) {
    return std::string(outcome_name(r.how)) + (r.error.empty() ? "" : " (" + r.error + ")");
}

/// Bytes offered to the sink by the run's write calls, the failing one included.
inline std::size_t bytes_offered(const run_record& r) {
    return std::accumulate(r.writes.begin(), r.writes.end(), std::size_t(0));
}

/// What the run's reports are, as they should be: the target holds exactly the bytes of the
/// writes that returned, where they went (WriteProgramsMatchAByteArray); position() counts them
/// when nothing seeked; the invariants checked after each write held (harness.hpp's recorder);
/// the chunks a chunked sink reports are the ones its target allocated.
inline verdict judge_bytes(const sut_entry& s, const judged_run& run) {
    const run_record& r = run.r;
    if (s.stores && r.bytes != r.model) {
        return {fuzz::mismatch::model,
                "after " + outcome_of(r) + ": the target does not hold exactly the bytes of the writes that returned",
                true};
    }
    if (r.seeks == 0 && r.position != r.model.size()) {
        return {fuzz::mismatch::model,
                "after " + outcome_of(r) + ": position() is " + std::to_string(r.position) + " after writes of " +
                    std::to_string(r.model.size()) + " bytes (" + std::to_string(r.writes.size()) + " write calls" +
                    (r.writes.empty() ? std::string() : ", the last of " + std::to_string(r.writes.back()) + " bytes") +
                    ")"};
    }
    if (!r.invariant.empty()) {
        return {fuzz::mismatch::model, r.invariant};
    }
    if (s.chunked && r.chunks_reported && r.chunks != r.allocations) {
        return {fuzz::mismatch::capacity_trace,
                "reports chunks " + list_of(r.chunks) + ", allocated " + list_of(r.allocations)};
    }
    return {};
}

/// A throw, when one was armed, is the armed one, and leaves what judge_bytes asks, a prefix of
/// the full output; nothing else is thrown but an encoder's refusal and a fixed-capacity sink's
/// sink_error when the writes go past its capacity; nothing leaks, and destroying the sink
/// allocates nothing (TrimsToWrittenBytesWhenWritesThrow).
inline verdict judge_throws(const sut_entry& s, const judged_run& run) {
    const run_record& r = run.r;
    const run_setup& setup = run.setup;
    const bool allowed =
        r.how == outcome::completed || r.how == outcome::refused ||
        (r.how == outcome::write_fault && setup.write_fault != 0) ||
        (r.how == outcome::alloc_fault && (setup.alloc_fault != 0 || setup.new_fault != 0)) ||
        (r.how == outcome::sink_error && s.fixed_capacity && (r.seeks != 0 || bytes_offered(r) > setup.span_capacity));
    if (!allowed) {
        return {fuzz::mismatch::unexpected_error, outcome_of(r)};
    }
    if (!r.leaks.empty()) {
        return {fuzz::mismatch::leak, "after " + outcome_of(r) + " leaked:\n" + r.leaks};
    }
    if (r.allocations_in_destructor != 0) {
        return {fuzz::mismatch::leak, "destroying the sink allocated " + std::to_string(r.allocations_in_destructor) +
                                          " times (a trim must not allocate)"};
    }
    if (run.full != nullptr && r.how != outcome::completed) {
        const std::vector<std::uint8_t>& full = *run.full;
        if (r.model.size() > full.size() || !std::equal(r.model.begin(), r.model.end(), full.begin())) {
            return {fuzz::mismatch::prefix, "after " + outcome_of(r) +
                                                ": the bytes written before the throw are not a prefix of the output "
                                                "of the same writes without it"};
        }
    }
    return {};
}

/// Writes past a fixed-capacity sink's capacity throw (judge_throws: sink_error only then), and
/// the sink keeps no byte past it (FixedCapacityEdges).
inline verdict judge_capacity(const sut_entry& /*s*/, const judged_run& run) {
    const run_record& r = run.r;
    if (r.seeks != 0) {
        return {};  // where the bytes went past the capacity is the seeks' business
    }
    const std::size_t capacity = run.setup.span_capacity;
    const std::size_t offered = bytes_offered(r);
    const std::string what =
        "writes of " + std::to_string(offered) + " bytes into a capacity of " + std::to_string(capacity);
    if (r.how == outcome::completed && offered > capacity) {
        return {fuzz::mismatch::model, what + " completed without throwing"};
    }
    if (r.model.size() > capacity) {
        return {fuzz::mismatch::model, what + ": " + std::to_string(r.model.size()) + " bytes kept"};
    }
    return {};
}

/// The target allocates what the sink's growth rule says for the writes it was given (the
/// rule's first allocations when a throw ended the run; FollowsItsGrowthRule).
inline verdict judge_growth_rule(const sut_entry& s, const judged_run& run) {
    const run_record& r = run.r;
    if (r.seeks != 0) {
        return {};  // a rule is stated for writes in order
    }
    const std::vector<std::size_t> rule = s.expected_allocations(r.writes, run.setup);
    const bool follows = r.how == outcome::completed
                             ? r.allocations == rule
                             : r.allocations.size() <= rule.size() &&
                                   std::equal(r.allocations.begin(), r.allocations.end(), rule.begin());
    if (!follows) {
        return {fuzz::mismatch::capacity_trace, "allocations " + list_of(r.allocations) + ", but its rule (" +
                                                    s.growth + ") gives " + list_of(rule) + " for writes " +
                                                    list_of(r.writes)};
    }
    return {};
}

/// No growth makes more than max(window, the write that asked for room) bytes writable ahead of
/// the cursor, and no write leaves more than the window zero-filled ahead of it
/// (ZeroFillStaysWithinWindow).
inline verdict judge_zero_fill(const sut_entry& /*s*/, const judged_run& run) {
    const run_record& r = run.r;
    const std::size_t w = run.setup.window;
    if (w == unlimited_window) {
        return {};
    }
    const std::size_t largest = r.writes.empty() ? 0 : *std::max_element(r.writes.begin(), r.writes.end());
    for (const growth_event& e : r.growths) {  // each growth, not only the largest
        if (e.ahead > std::max(w, e.request) || e.ahead > w + largest) {
            return {fuzz::mismatch::zero_fill, "a growth at byte " + std::to_string(e.position) + " for a write of " +
                                                   std::to_string(e.request) + " made " + std::to_string(e.ahead) +
                                                   " bytes writable ahead of the cursor with window " + window_name(w)};
        }
    }
    if (r.max_ahead_after_write != none && r.max_ahead_after_write > w) {
        return {fuzz::mismatch::zero_fill, std::to_string(r.max_ahead_after_write) +
                                               " zero-filled bytes found ahead of the cursor after a write, window " +
                                               window_name(w)};
    }
    return {};
}

/// What a property's inputs can reach, so that it is not said to have missed what it never tries.
struct property_reach {
    /// it injects a throw at every write and every allocation (TrimsToWrittenBytesWhenWritesThrow)
    bool faults = false;
    /// its inputs seek when the sink can (write programs; BSON's length patching)
    bool seeks = false;
};

/// Weights of the promises (fractions of RC_PARAMS max_success): the cheap ones run more cases.
struct sink_property_weights {
    static constexpr double bytes = 1.0;
    static constexpr double faults = 3.0;
    static constexpr double growth = 2.0;
    static constexpr double programs = 5.0;
};

/// The promises, in the order of sink_promises(); check_promise (sink_properties.hpp) is the
/// property of each.
enum class promise : unsigned {
    identical_bytes,
    write_programs,
    trims_when_writes_throw,
    empty_writes,
    failing_stream,
    appends,
    keeps_writing_after_a_move,
    fixed_capacity,
    growth_rule,
    capacity_ignores_window,
    zero_fill_within_window,
    without_seeks_equals_seekless,
};

/// One promise every sink that makes it is held to (see the top of this file).
struct sink_promise {
    promise id;
    const char* name;
    double weight;
    property_reach reach;
    /// nullptr: every sink makes it
    bool (*applies)(const sut_entry& s);
    /// said when a sink is skipped because applies() is false
    const char* not_applicable;
    /// nullptr: no single run shows it broken
    verdict (*judge)(const sut_entry& s, const judged_run& run);

    bool made_by(const sut_entry& s) const { return applies == nullptr || applies(s); }
};

/// Every promise, in the order of enum promise, which is the order the tests are registered:
/// the one list docs/testkit.md and docs/properties.md describe.
inline const std::vector<sink_promise>& sink_promises() {
    using w = sink_property_weights;
    static const std::vector<sink_promise> all = [] {
        // clang-format off
        std::vector<sink_promise> rows = {
            {promise::identical_bytes, "WritesIdenticalBytesToTheReference", w::bytes, {false, true},
             nullptr, "", nullptr},
            {promise::write_programs, "WriteProgramsMatchAByteArray", w::programs, {false, true},
             nullptr, "", judge_bytes},
            {promise::trims_when_writes_throw, "TrimsToWrittenBytesWhenWritesThrow", w::faults, {true, true},
             nullptr, "", judge_throws},
            {promise::empty_writes, "EmptyWritesChangeNothing", w::programs, {},
             nullptr, "", nullptr},
            {promise::failing_stream, "FailingStreamIsReported", w::programs, {},
             [](const sut_entry& s) { return s.streams; },
             "the sink writes into no stream its target can make fail (streams)", nullptr},
            {promise::appends, "AppendsAfterExistingContents", w::programs, {},
             [](const sut_entry& s) { return s.appends; },
             "the target cannot hold bytes before the sink is made (appends)", nullptr},
            {promise::keeps_writing_after_a_move, "KeepsWritingAfterAMove", w::programs, {},
             [](const sut_entry& s) { return s.move_constructible; },
             "the sink cannot be moved (not move-constructible)", nullptr},
            {promise::fixed_capacity, "FixedCapacityEdges", w::programs, {},
             [](const sut_entry& s) { return s.fixed_capacity; },
             "the sink has no fixed capacity", judge_capacity},
            {promise::growth_rule, "FollowsItsGrowthRule", w::growth, {},
             [](const sut_entry& s) { return !s.growth.empty(); },
             "the traits declare no growth rule (using growth = ...)", judge_growth_rule},
            // seed 000's promise: a sink that declares another rule (a string's short buffer, which it
            // reports as a capacity it never allocated) is held to that rule by FollowsItsGrowthRule
            {promise::capacity_ignores_window, "CapacityGrowthIgnoresWindow", w::growth, {},
             [](const sut_entry& s) {
                 return s.windowed && (s.growth.empty() || s.growth == vector_doubling::description);
             },
             "the sink has no window, or declares a growth rule other than seed 000's (FollowsItsGrowthRule checks it)",
             nullptr},
            {promise::zero_fill_within_window, "ZeroFillStaysWithinWindow", w::growth, {},
             [](const sut_entry& s) { return s.windowed; },
             "the sink has no window", judge_zero_fill},
            {promise::without_seeks_equals_seekless, "WithoutSeeksEqualsSeeklessWriter", w::bytes, {},
             [](const sut_entry& s) { return s.seekable; },
             "the sink cannot seek", nullptr},
        };
        // clang-format on
        for (std::size_t i = 0; i < rows.size(); ++i) {
            if (static_cast<std::size_t>(rows[i].id) != i) {
                throw std::logic_error("sink_promises(): the rows must follow enum promise, one each");
            }
        }
        return rows;
    }();
    return all;
}

/// A promise broken by one run: which, and what broke.
struct broken_promise {
    const sink_promise* promise = nullptr;
    verdict found;

    explicit operator bool() const noexcept { return promise != nullptr; }
    std::string describe() const { return promise == nullptr ? "" : std::string(promise->name) + ": " + found.text; }
};

/// The first promise s makes that the run breaks, in the list's order; none when it keeps them all.
inline broken_promise judge_run(const sut_entry& s, const judged_run& run) {
    for (const sink_promise& p : sink_promises()) {
        if (p.judge != nullptr && p.made_by(s)) {
            if (verdict v = p.judge(s, run)) {
                return {&p, std::move(v)};
            }
        }
    }
    return {};
}

}  // namespace sinkcheck::testkit
