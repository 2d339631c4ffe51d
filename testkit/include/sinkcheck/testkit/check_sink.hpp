// sinkcheck/testkit/check_sink.hpp — every property that applies to a sink, in one line.
//
//   SINKCHECK_SINK_PROPERTIES(MyBuffer, my_traits);
//
// defines one GoogleTest test per property of the kit (docs/testkit.md lists them), each run as a
// RapidCheck property with shrinking and a replay line on failure. A property that does not apply
// to the sink (a window it does not have, a growth rule it does not declare, a seek it cannot
// do) is reported as skipped, with the reason, so the run says what was not checked. A property
// that ran says what its runs never met ("not checked: 0 allocations seen: allocation faults not
// injected"), and is skipped when it met nothing at all; when the program ends, one summary line
// per sink gathers both. Link sinkcheck::testkit and GTest::gtest_main (sinkcheck_add_sink_check()
// in CMake does both, and links the hook of operator new, sinkcheck/testkit/instrument/global_new.hpp).
#pragma once

#include <cstddef>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sinkcheck/testkit/check.hpp"
#include "sinkcheck/testkit/harness.hpp"
#include "sinkcheck/testkit/sink_properties.hpp"

namespace sinkcheck::testkit {

/// The sink under test for traits T, built once.
template <class T>
const sut_entry& entry_for() {
    static const sut_entry e = entry<T>();
    return e;
}

/// Weights of the properties for a user's sink (fractions of RC_PARAMS max_success).
struct sink_property_weights {
    static constexpr double bytes = 1.0;
    static constexpr double faults = 3.0;
    static constexpr double growth = 2.0;
    static constexpr double programs = 5.0;
};

/// What a property's inputs can reach, so that it is not said to have missed what it never tries.
struct property_reach {
    /// it injects a throw at every write and every allocation (TrimsToWrittenBytesWhenWritesThrow)
    bool faults = false;
    /// its inputs seek when the sink can (write programs; BSON's length patching)
    bool seeks = false;
};

/// What one property could not exercise on sink s, given what its runs met, one line each.
inline std::vector<std::string> not_checked(const sut_entry& s, const run_tally& t, property_reach reach) {
    std::vector<std::string> out;
    const bool hooked = global_new_hooked();
    if (t.allocations + t.new_allocations == 0) {
        out.push_back(
            std::string("0 allocations seen: ") +
            (reach.faults ? "allocation faults not injected" : "no allocation to leak or to make in the destructor") +
            (hooked ? "" : " (operator new is not hooked in this program: ALLOCATIONS kit-only)"));
    } else if (!hooked) {
        out.push_back(
            "allocations through operator new not seen (ALLOCATIONS kit-only): only the tracing allocator's " +
            std::string(reach.faults ? "failed" : "counted"));
    }
    if (reach.faults && t.write_faults == 0) {
        out.push_back("no write fault injected");
    }
    if (reach.seeks && s.seekable && t.seeks == 0) {
        out.push_back("no seek");
    }
    return out;
}

/// One summary line per sink, printed when the test program ends: how its properties went, the
/// reasons of those skipped and what those that ran did not check. A GoogleTest listener,
/// installed by the first SINKCHECK_SINK_PROPERTIES of the program (GoogleTest owns it).
class sink_summary : public ::testing::EmptyTestEventListener {
public:
    static sink_summary& get() {
        static sink_summary* const instance = [] {
            auto* made = new sink_summary;
            ::testing::UnitTest::GetInstance()->listeners().Append(made);
            return made;
        }();
        return *instance;
    }

    static bool add(const std::string& suite, const std::string& sink) {
        get().sinks_[suite].name = sink;
        return true;
    }

    /// A line the running property of suite says it did not check.
    void note(const std::string& suite, const std::string& property, const std::string& line) {
        sinks_[suite].lines[line].insert(property);
    }

    void OnTestEnd(const ::testing::TestInfo& info) override {
        const auto it = sinks_.find(info.test_suite_name());
        if (it == sinks_.end()) {
            return;
        }
        sink& k = it->second;
        const ::testing::TestResult& result = *info.result();
        if (result.Skipped()) {
            ++k.skipped;
            for (int i = 0; i < result.total_part_count(); ++i) {
                const ::testing::TestPartResult& part = result.GetTestPartResult(i);
                if (part.skipped()) {
                    k.lines[part.message()].insert(info.name());
                }
            }
        } else if (result.Failed()) {
            ++k.failed;
        } else {
            ++k.passed;
        }
    }

    void OnTestProgramEnd(const ::testing::UnitTest&) override {
        for (const auto& [suite, k] : sinks_) {
            if (k.passed + k.skipped + k.failed == 0) {
                continue;
            }
            std::cout << "sinkcheck summary: " << k.name << " (" << suite << "): " << k.passed << " passed, "
                      << k.skipped << " skipped, " << k.failed << " failed";
            const char* separator = "; not checked: ";
            for (const auto& [line, properties] : k.lines) {
                std::cout << separator << line << " [";
                const char* comma = "";
                for (const std::string& p : properties) {
                    std::cout << comma << p;
                    comma = ", ";
                }
                std::cout << "]";
                separator = "; ";
            }
            std::cout << "\n";
        }
    }

private:
    struct sink {
        std::string name;
        std::size_t passed = 0;
        std::size_t skipped = 0;
        std::size_t failed = 0;
        std::map<std::string, std::set<std::string>> lines;
    };
    std::map<std::string, sink> sinks_;
};

/// The body of one of SINKCHECK_SINK_PROPERTIES' tests: the property (expect_property), then what
/// its runs of sink s did not check, printed and kept for the summary; skipped when they checked
/// nothing at all; failed when s promises to allocate (`allocates`) and the fault property saw no
/// allocation.
template <class Fn>
void expect_sink_property(const std::string& id, const sut_entry& s, property_reach reach, Fn&& fn, double weight) {
    tallies().clear();
    expect_property(id, std::forward<Fn>(fn), weight);
    if (::testing::Test::HasFailure()) {
        return;  // the failure says what went wrong; what was not reached no longer matters
    }
    const run_tally t = tallies()[s.name];
    const ::testing::TestInfo& info = *::testing::UnitTest::GetInstance()->current_test_info();
    std::cout << id << ": " << t.runs << " runs of " << s.name << " saw " << t.allocations
              << " allocations of the target and " << t.new_allocations << " through operator new";
    if (reach.faults) {
        std::cout << "; threw at " << t.write_faults << " writes, " << t.alloc_faults
                  << " allocations of the target and " << t.new_faults << " through operator new";
    }
    std::cout << "\n";
    std::string joined;
    for (const std::string& line : not_checked(s, t, reach)) {
        std::cout << id << ": not checked: " << line << "\n";
        sink_summary::get().note(info.test_suite_name(), info.name(), line);
        joined += (joined.empty() ? "" : "; ") + line;
    }
    if (!joined.empty()) {
        ::testing::Test::RecordProperty("not_checked", joined);
    }
    if (s.allocates && reach.faults && t.allocations + t.new_allocations == 0) {
        ADD_FAILURE() << id << ": " << s.name << " declares that it allocates (allocates = true), but " << t.runs
                      << " runs saw 0 allocations"
                      << (global_new_hooked() ? " (through the tracing allocator or operator new)"
                                              : " (operator new is not hooked in this program: ALLOCATIONS kit-only)");
        return;
    }
    if (t.runs == 0) {
        GTEST_SKIP() << "no run of " << s.name << " was made";
    }
    if (reach.faults && t.write_faults + t.alloc_faults + t.new_faults == 0) {
        GTEST_SKIP() << "no fault was injected into " << s.name << " in " << t.runs << " runs";
    }
}

}  // namespace sinkcheck::testkit

#define SINKCHECK_TESTKIT_SKIP_UNLESS(condition, reason) \
    if (!(condition)) {                                  \
        GTEST_SKIP() << reason;                          \
    }

/// Registers every property of the kit for the sink described by Traits under Suite.
#define SINKCHECK_SINK_PROPERTIES(Suite, Traits)                                                                       \
    [[maybe_unused]] static const bool sinkcheck_summary_##Suite = ::sinkcheck::testkit::sink_summary::add(            \
        #Suite, std::string(::sinkcheck::testkit::sink_traits<Traits>::name()));                                       \
    TEST(Suite, WritesIdenticalBytesToTheReference) {                                                                  \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/WritesIdenticalBytesToTheReference", ::sinkcheck::testkit::entry_for<Traits>(),                   \
            ::sinkcheck::testkit::property_reach{false, true},                                                         \
            [] {                                                                                                       \
                ::sinkcheck::testkit::all_sinks_write_identical_bytes(                                                 \
                    {::sinkcheck::testkit::baseline_entry(), ::sinkcheck::testkit::entry_for<Traits>()});              \
            },                                                                                                         \
            ::sinkcheck::testkit::sink_property_weights::bytes);                                                       \
    }                                                                                                                  \
    TEST(Suite, WriteProgramsMatchAByteArray) {                                                                        \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/WriteProgramsMatchAByteArray", ::sinkcheck::testkit::entry_for<Traits>(),                         \
            ::sinkcheck::testkit::property_reach{false, true},                                                         \
            [] {                                                                                                       \
                ::sinkcheck::testkit::write_programs_match_a_byte_array(::sinkcheck::testkit::entry_for<Traits>());    \
            },                                                                                                         \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, TrimsToWrittenBytesWhenWritesThrow) {                                                                  \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/TrimsToWrittenBytesWhenWritesThrow", ::sinkcheck::testkit::entry_for<Traits>(),                   \
            ::sinkcheck::testkit::property_reach{true, true},                                                          \
            [] {                                                                                                       \
                ::sinkcheck::testkit::trims_to_written_bytes_when_writes_throw(                                        \
                    {::sinkcheck::testkit::entry_for<Traits>()});                                                      \
            },                                                                                                         \
            ::sinkcheck::testkit::sink_property_weights::faults);                                                      \
    }                                                                                                                  \
    TEST(Suite, EmptyWritesChangeNothing) {                                                                            \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/EmptyWritesChangeNothing", ::sinkcheck::testkit::entry_for<Traits>(),                             \
            ::sinkcheck::testkit::property_reach{},                                                                    \
            [] { ::sinkcheck::testkit::empty_writes_change_nothing(::sinkcheck::testkit::entry_for<Traits>()); },      \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, FailingStreamIsReported) {                                                                             \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::streams,                              \
                                      "the sink writes into no stream its target can make fail (streams)")             \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/FailingStreamIsReported", ::sinkcheck::testkit::entry_for<Traits>(),                              \
            ::sinkcheck::testkit::property_reach{},                                                                    \
            [] { ::sinkcheck::testkit::failing_stream_is_reported(::sinkcheck::testkit::entry_for<Traits>()); },       \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, AppendsAfterExistingContents) {                                                                        \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::appends,                              \
                                      "the target cannot hold bytes before the sink is made (appends)")                \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/AppendsAfterExistingContents", ::sinkcheck::testkit::entry_for<Traits>(),                         \
            ::sinkcheck::testkit::property_reach{},                                                                    \
            [] { ::sinkcheck::testkit::appends_after_existing_contents(::sinkcheck::testkit::entry_for<Traits>()); },  \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, KeepsWritingAfterAMove) {                                                                              \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::move_constructible,                   \
                                      "the sink cannot be moved (not move-constructible)")                             \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/KeepsWritingAfterAMove", ::sinkcheck::testkit::entry_for<Traits>(),                               \
            ::sinkcheck::testkit::property_reach{},                                                                    \
            [] { ::sinkcheck::testkit::keeps_writing_after_a_move(::sinkcheck::testkit::entry_for<Traits>()); },       \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, FixedCapacityEdges) {                                                                                  \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::fixed_capacity,                       \
                                      "the sink has no fixed capacity")                                                \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/FixedCapacityEdges", ::sinkcheck::testkit::entry_for<Traits>(),                                   \
            ::sinkcheck::testkit::property_reach{},                                                                    \
            [] { ::sinkcheck::testkit::fixed_capacity_edges(::sinkcheck::testkit::entry_for<Traits>()); },             \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, FollowsItsGrowthRule) {                                                                                \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::has_growth_rule,                      \
                                      "the traits declare no growth rule (using growth = ...)")                        \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/FollowsItsGrowthRule", ::sinkcheck::testkit::entry_for<Traits>(),                                 \
            ::sinkcheck::testkit::property_reach{},                                                                    \
            [] { ::sinkcheck::testkit::follows_its_growth_rule(::sinkcheck::testkit::entry_for<Traits>()); },          \
            ::sinkcheck::testkit::sink_property_weights::growth);                                                      \
    }                                                                                                                  \
    TEST(Suite, CapacityGrowthIgnoresWindow) {                                                                         \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::windowed, "the sink has no window")   \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/CapacityGrowthIgnoresWindow", ::sinkcheck::testkit::entry_for<Traits>(),                          \
            ::sinkcheck::testkit::property_reach{},                                                                    \
            [] { ::sinkcheck::testkit::capacity_growth_ignores_window({::sinkcheck::testkit::entry_for<Traits>()}); }, \
            ::sinkcheck::testkit::sink_property_weights::growth);                                                      \
    }                                                                                                                  \
    TEST(Suite, ZeroFillStaysWithinWindow) {                                                                           \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::windowed, "the sink has no window")   \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/ZeroFillStaysWithinWindow", ::sinkcheck::testkit::entry_for<Traits>(),                            \
            ::sinkcheck::testkit::property_reach{},                                                                    \
            [] { ::sinkcheck::testkit::zero_fill_stays_within_window({::sinkcheck::testkit::entry_for<Traits>()}); },  \
            ::sinkcheck::testkit::sink_property_weights::growth);                                                      \
    }                                                                                                                  \
    TEST(Suite, WithoutSeeksEqualsSeeklessWriter) {                                                                    \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::seekable, "the sink cannot seek")     \
        ::sinkcheck::testkit::expect_sink_property(                                                                    \
            #Suite "/WithoutSeeksEqualsSeeklessWriter", ::sinkcheck::testkit::entry_for<Traits>(),                     \
            ::sinkcheck::testkit::property_reach{},                                                                    \
            [] {                                                                                                       \
                ::sinkcheck::testkit::seekable_writer_without_seeks_equals_seekless(                                   \
                    ::sinkcheck::testkit::entry_for<Traits>(), ::sinkcheck::testkit::baseline_entry());                \
            },                                                                                                         \
            ::sinkcheck::testkit::sink_property_weights::bytes);                                                       \
    }                                                                                                                  \
    static_assert(true, "a semicolon after SINKCHECK_SINK_PROPERTIES(...)")
