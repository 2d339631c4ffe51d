// sinkcheck/testkit/check_sink.hpp — every property that applies to a sink, in one line.
//
//   SINKCHECK_SINK_PROPERTIES(MyBuffer, my_traits);
//
// defines one GoogleTest test per property of the kit (docs/testkit.md lists them), each run as a
// RapidCheck property with shrinking and a replay line on failure. A property that does not apply
// to the sink (a window it does not have, a growth rule it does not declare, a seek it cannot
// do) is reported as skipped, with the reason, so the run says what was not checked. Link
// sinkcheck::testkit and GTest::gtest_main (sinkcheck_add_sink_check() in CMake does both).
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "sinkcheck/testkit/check.hpp"
#include "sinkcheck/testkit/harness.hpp"
#include "sinkcheck/testkit/properties.hpp"

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

}  // namespace sinkcheck::testkit

#define SINKCHECK_TESTKIT_SKIP_UNLESS(condition, reason) \
    if (!(condition)) {                                  \
        GTEST_SKIP() << reason;                          \
    }

/// Registers every property of the kit for the sink described by Traits under Suite.
#define SINKCHECK_SINK_PROPERTIES(Suite, Traits)                                                                       \
    TEST(Suite, WritesIdenticalBytesToTheReference) {                                                                  \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/WritesIdenticalBytesToTheReference",                                                              \
            [] {                                                                                                       \
                ::sinkcheck::testkit::all_sinks_write_identical_bytes(                                                 \
                    {::sinkcheck::testkit::baseline_entry(), ::sinkcheck::testkit::entry_for<Traits>()});              \
            },                                                                                                         \
            ::sinkcheck::testkit::sink_property_weights::bytes);                                                       \
    }                                                                                                                  \
    TEST(Suite, WriteProgramsMatchAByteArray) {                                                                        \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/WriteProgramsMatchAByteArray",                                                                    \
            [] {                                                                                                       \
                ::sinkcheck::testkit::write_programs_match_a_byte_array(::sinkcheck::testkit::entry_for<Traits>());    \
            },                                                                                                         \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, TrimsToWrittenBytesWhenWritesThrow) {                                                                  \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/TrimsToWrittenBytesWhenWritesThrow",                                                              \
            [] {                                                                                                       \
                ::sinkcheck::testkit::trims_to_written_bytes_when_writes_throw(                                        \
                    {::sinkcheck::testkit::entry_for<Traits>()});                                                      \
            },                                                                                                         \
            ::sinkcheck::testkit::sink_property_weights::faults);                                                      \
    }                                                                                                                  \
    TEST(Suite, EmptyWritesChangeNothing) {                                                                            \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/EmptyWritesChangeNothing",                                                                        \
            [] { ::sinkcheck::testkit::empty_writes_change_nothing(::sinkcheck::testkit::entry_for<Traits>()); },      \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, FailingStreamIsReported) {                                                                             \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::streams,                              \
                                      "the sink writes into no stream its target can make fail (streams)")             \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/FailingStreamIsReported",                                                                         \
            [] { ::sinkcheck::testkit::failing_stream_is_reported(::sinkcheck::testkit::entry_for<Traits>()); },       \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, AppendsAfterExistingContents) {                                                                        \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::appends,                              \
                                      "the target cannot hold bytes before the sink is made (appends)")                \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/AppendsAfterExistingContents",                                                                    \
            [] { ::sinkcheck::testkit::appends_after_existing_contents(::sinkcheck::testkit::entry_for<Traits>()); },  \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, KeepsWritingAfterAMove) {                                                                              \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::move_constructible,                   \
                                      "the sink cannot be moved (not move-constructible)")                             \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/KeepsWritingAfterAMove",                                                                          \
            [] { ::sinkcheck::testkit::keeps_writing_after_a_move(::sinkcheck::testkit::entry_for<Traits>()); },       \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, FixedCapacityEdges) {                                                                                  \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::fixed_capacity,                       \
                                      "the sink has no fixed capacity")                                                \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/FixedCapacityEdges",                                                                              \
            [] { ::sinkcheck::testkit::fixed_capacity_edges(::sinkcheck::testkit::entry_for<Traits>()); },             \
            ::sinkcheck::testkit::sink_property_weights::programs);                                                    \
    }                                                                                                                  \
    TEST(Suite, FollowsItsGrowthRule) {                                                                                \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::has_growth_rule,                      \
                                      "the traits declare no growth rule (using growth = ...)")                        \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/FollowsItsGrowthRule",                                                                            \
            [] { ::sinkcheck::testkit::follows_its_growth_rule(::sinkcheck::testkit::entry_for<Traits>()); },          \
            ::sinkcheck::testkit::sink_property_weights::growth);                                                      \
    }                                                                                                                  \
    TEST(Suite, CapacityGrowthIgnoresWindow) {                                                                         \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::windowed, "the sink has no window")   \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/CapacityGrowthIgnoresWindow",                                                                     \
            [] { ::sinkcheck::testkit::capacity_growth_ignores_window({::sinkcheck::testkit::entry_for<Traits>()}); }, \
            ::sinkcheck::testkit::sink_property_weights::growth);                                                      \
    }                                                                                                                  \
    TEST(Suite, ZeroFillStaysWithinWindow) {                                                                           \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::windowed, "the sink has no window")   \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/ZeroFillStaysWithinWindow",                                                                       \
            [] { ::sinkcheck::testkit::zero_fill_stays_within_window({::sinkcheck::testkit::entry_for<Traits>()}); },  \
            ::sinkcheck::testkit::sink_property_weights::growth);                                                      \
    }                                                                                                                  \
    TEST(Suite, WithoutSeeksEqualsSeeklessWriter) {                                                                    \
        SINKCHECK_TESTKIT_SKIP_UNLESS(::sinkcheck::testkit::sink_traits<Traits>::seekable, "the sink cannot seek")     \
        ::sinkcheck::testkit::expect_property(                                                                         \
            #Suite "/WithoutSeeksEqualsSeeklessWriter",                                                                \
            [] {                                                                                                       \
                ::sinkcheck::testkit::seekable_writer_without_seeks_equals_seekless(                                   \
                    ::sinkcheck::testkit::entry_for<Traits>(), ::sinkcheck::testkit::baseline_entry());                \
            },                                                                                                         \
            ::sinkcheck::testkit::sink_property_weights::bytes);                                                       \
    }                                                                                                                  \
    static_assert(true, "a semicolon after SINKCHECK_SINK_PROPERTIES(...)")
