// legacy_vector_sink: seed 000's "before" — same bytes and capacities, whole-capacity zero-fill.
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include <gtest/gtest.h>

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

TEST(LegacyVectorSink, TrimsToWrittenBytesWhenAllocationThrows) {
    const auto p = test::program_of({10, 100, 1000, 10000});
    // capacities 64, 128, 1110 (max(1110, 256)), 11110 (max(11110, 2220)): four allocations
    for (std::size_t k = 1; k <= 4; ++k) {
        auto log = std::make_shared<allocation_log>();
        {
            std::vector<std::uint8_t, tracing_allocator<std::uint8_t>> v{tracing_allocator<std::uint8_t>(log)};
            log->fail_at(k);
            EXPECT_THROW(
                {
                    basic_legacy_vector_sink<tracing_allocator<std::uint8_t>> s(v);
                    run_writes(s, p);
                },
                std::bad_alloc);
            const auto expected = p.prefix(k - 1);
            EXPECT_TRUE(std::equal(v.begin(), v.end(), expected.begin(), expected.end())) << "allocation " << k;
        }
        EXPECT_TRUE(log->clean()) << log->leak_report();
        EXPECT_EQ(log->allocations(), k - 1);
    }
}

}  // namespace
}  // namespace sinkcheck
