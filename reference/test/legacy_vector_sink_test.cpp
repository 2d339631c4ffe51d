// legacy_vector_sink: seed 000's "before" — same bytes and capacities, whole-capacity zero-fill.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include <gtest/gtest.h>

#include "exception_safety.hpp"
#include "sink_test_programs.hpp"
#include "sinkcheck/sink/legacy_vector_sink.hpp"
#include "sinkcheck/sink/vector_sink.hpp"
#include "sinkcheck/testkit/instrument/capacity_trace.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"
#include "sinkcheck/testkit/instrument/zero_fill_meter.hpp"

namespace sinkcheck {
namespace {

using test::run_writes;
using bytes = std::vector<std::uint8_t>;

TEST(LegacyVectorSink, WritesTheSameBytesAsTheWindowedSink) {
    const auto p = test::mixed_program(11, 300000);
    bytes legacy, windowed;
    {
        legacy_vector_sink a(legacy);
        vector_sink b(windowed);
        run_writes(a, p);
        run_writes(b, p);
    }
    EXPECT_EQ(legacy, p.bytes());
    EXPECT_EQ(windowed, p.bytes());
}

TEST(LegacyVectorSink, ZeroFillsTheWholeNewCapacity) {
    bytes v;
    legacy_vector_sink s(v);
    s.write(0x01);
    EXPECT_EQ(v.size(), 64u);
    const auto more = test::pattern(64);
    s.write(more.data(), more.size());  // needed 65 -> capacity 128, all of it resized
    EXPECT_EQ(v.capacity(), 128u);
    EXPECT_EQ(v.size(), 128u);
}

TEST(LegacyVectorSink, ZeroFillMeterSeesTheWholeCapacityAhead) {
    bytes v;
    zero_fill_meter meter;
    {
        legacy_vector_sink s(v, &meter);
        run_writes(s, test::program_of(std::vector<std::size_t>(300000, 1)));
    }
    // the last growth, at 262,144 bytes written, made 524,288 - 262,144 bytes writable at once
    EXPECT_EQ(meter.max_ahead(), 262144u);
}

TEST(LegacyVectorSink, CapacitySequenceEqualsTheWindowedSinks) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        const auto p = test::mixed_program(seed, 100000 * seed);
        capacity_trace legacy_trace, windowed_trace;
        bytes a, b;
        {
            legacy_vector_sink legacy(a, &legacy_trace);
            vector_sink windowed(b, 1, &windowed_trace);
            run_writes(legacy, p);
            run_writes(windowed, p);
        }
        EXPECT_EQ(legacy_trace.capacities(), windowed_trace.capacities()) << "seed " << seed;
    }
}

/// The caller's vector on the tracing allocator, a legacy_vector_sink over it.
struct legacy_fixture {
    std::vector<std::uint8_t, tracing_allocator<std::uint8_t>> v;
    template <class Body>
    void run(Body&& body) {
        basic_legacy_vector_sink<tracing_allocator<std::uint8_t>> s(v);
        body(s);
    }
    std::vector<std::uint8_t> held() const { return std::vector<std::uint8_t>(v.begin(), v.end()); }
};

TEST(LegacyVectorSink, LeavesTheCompletedWritesWhenAnAllocationOrAWriteFails) {
    const auto p = test::program_of({10, 100, 1000, 10000});
    // capacities 64, 128, 1110 (max(1110, 256)), 11110 (max(11110, 2220)): allocation k serves write k
    const auto failures = test::check_every_failure(
        p,
        [](const std::shared_ptr<allocation_log>& log) {
            return legacy_fixture{
                std::vector<std::uint8_t, tracing_allocator<std::uint8_t>>(tracing_allocator<std::uint8_t>(log))};
        },
        "legacy_vector_sink");
    ASSERT_EQ(failures.size(), 4u);
    for (const auto& f : failures) {
        EXPECT_EQ(f.completed_writes, static_cast<long>(f.allocation) - 1) << "allocation " << f.allocation;
    }
}

}  // namespace
}  // namespace sinkcheck
