// vector_sink: the seed 000 contract — bytes, capacity rule, zero-fill window, trimming.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "exception_safety.hpp"
#include "sink_test_programs.hpp"
#include "sinkcheck/sink/legacy_vector_sink.hpp"
#include "sinkcheck/sink/vector_sink.hpp"
#include "sinkcheck/testkit/instrument/capacity_trace.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"
#include "sinkcheck/testkit/instrument/zero_fill_meter.hpp"
#include "sinkcheck/testkit/sink_traits.hpp"

namespace sinkcheck {
namespace {

using test::program_of;
using test::run_writes;
using bytes = std::vector<std::uint8_t>;
using traced_vector = std::vector<std::uint8_t, tracing_allocator<std::uint8_t>>;

const std::size_t kWindows[] = {1, 2, 7, 64, 4096, default_window, unlimited_window};

std::vector<std::size_t> capacities_for(const test::write_program& p, std::size_t window) {
    bytes v;
    capacity_trace trace;
    {
        vector_sink s(v, window, &trace);
        run_writes(s, p);
    }
    return trace.capacities();
}

TEST(VectorSink, WritesEveryByteInOrder) {
    const auto p = test::mixed_program(1, 200000);
    for (std::size_t window : kWindows) {
        bytes v;
        {
            vector_sink s(v, window);
            run_writes(s, p);
            EXPECT_EQ(s.position(), p.bytes().size());
        }
        EXPECT_EQ(v, p.bytes()) << "window " << window;
    }
}

TEST(VectorSink, AppendsAfterTheVectorsExistingContents) {
    bytes v = {0xAA, 0xBB};
    {
        vector_sink s(v);
        EXPECT_EQ(s.position(), 0u);
        const std::uint8_t three[] = {1, 2, 3};
        s.write(three, 3);
        s.write(4);
        EXPECT_EQ(s.position(), 4u);
    }
    EXPECT_EQ(v, (bytes{0xAA, 0xBB, 1, 2, 3, 4}));
}

TEST(VectorSink, GrowsAnEmptyVectorToSixtyFourBytesFirst) {
    bytes v;
    vector_sink s(v);
    s.write(0x01);
    EXPECT_EQ(v.capacity(), 64u);
}

// Capacities by hand from max(64, needed <= cap ? cap : max(needed, 2 * cap)).
TEST(VectorSink, CapacityFollowsTheGrowthRuleForOneByteWrites) {
    // needed 1 -> 64; needed 65 -> max(65, 128); needed 129 -> max(129, 256)
    EXPECT_EQ(capacities_for(program_of(std::vector<std::size_t>(200, 1)), default_window),
              (std::vector<std::size_t>{64, 128, 256}));
}

TEST(VectorSink, CapacityFollowsTheGrowthRuleForLongWrites) {
    // 100 -> max(64, 100) = 100; 101 -> max(101, 200) = 200; 401 -> max(401, 400) = 401;
    // 5401 -> max(5401, 802) = 5401
    const auto p = program_of({100, 1, 300, 5000});
    EXPECT_EQ(capacities_for(p, default_window), (std::vector<std::size_t>{100, 200, 401, 5401}));
    EXPECT_EQ(capacities_for(p, 16), (std::vector<std::size_t>{100, 200, 401, 5401}));
}

TEST(VectorSink, CapacitySequenceIgnoresTheWindow) {
    const auto p = test::mixed_program(2, 600000);
    bytes legacy;
    capacity_trace legacy_trace;
    {
        legacy_vector_sink s(legacy, &legacy_trace);
        run_writes(s, p);
    }
    for (std::size_t window : kWindows) {
        EXPECT_EQ(capacities_for(p, window), legacy_trace.capacities()) << "window " << window;
    }
}

TEST(VectorSink, AllocatesExactlyTheCapacitiesItReports) {
    const auto p = test::mixed_program(3, 300000);
    auto log = std::make_shared<allocation_log>();
    capacity_trace trace;
    {
        traced_vector v{tracing_allocator<std::uint8_t>(log)};
        basic_vector_sink<tracing_allocator<std::uint8_t>> s(v, 4096, &trace);
        run_writes(s, p);
    }
    EXPECT_EQ(log->allocation_sizes(), trace.capacities());
    EXPECT_TRUE(log->clean()) << log->leak_report();
}

TEST(VectorSink, ResizesOnlyAWindowAheadOfTheCursor) {
    bytes v;
    vector_sink s(v, 16);
    s.write(0x01);
    EXPECT_EQ(v.capacity(), 64u);
    EXPECT_EQ(v.size(), 16u);  // min(64, max(1, 0 + 16))
    const auto fifteen = test::pattern(15);
    s.write(fifteen.data(), fifteen.size());
    EXPECT_EQ(v.size(), 16u);  // that write fitted the window: no growth
    s.write(0x02);
    EXPECT_EQ(v.size(), 32u);  // needed 17 <= 64: the window moves, max(17, 16 + 16)
    EXPECT_EQ(v.capacity(), 64u);
}

TEST(VectorSink, ZeroFillStaysWithinWindowPlusLargestWrite) {
    const auto p = test::mixed_program(4, 400000);
    for (std::size_t window : testkit::window_sizes()) {
        if (window == unlimited_window) {
            continue;  // UnlimitedWindowResizesToTheWholeCapacity
        }
        bytes v;
        zero_fill_meter meter;
        {
            vector_sink s(v, window, &meter);
            run_writes(s, p);
        }
        EXPECT_LE(meter.max_ahead(), window + p.largest_write()) << "window " << window;
        EXPECT_GT(meter.max_ahead(), 0u);
    }
}

TEST(VectorSink, UnlimitedWindowResizesToTheWholeCapacity) {
    bytes v;
    vector_sink s(v, unlimited_window);
    s.write(0x01);
    EXPECT_EQ(v.size(), 64u);
}

TEST(VectorSink, TrimsToWrittenBytesOnDestruction) {
    bytes v;
    {
        vector_sink s(v, 1000);
        const auto ten = test::pattern(10);
        s.write(ten.data(), ten.size());
        EXPECT_GT(v.size(), 10u);
    }
    EXPECT_EQ(v, test::pattern(10));
}

/// The caller's vector on the tracing allocator, a vector_sink with `window` over it.
struct vector_fixture {
    traced_vector v;
    std::size_t window;
    template <class Body>
    void run(Body&& body) {
        basic_vector_sink<tracing_allocator<std::uint8_t>> s(v, window);
        body(s);
    }
    bytes held() const { return bytes(v.begin(), v.end()); }
};

TEST(VectorSink, LeavesTheCompletedWritesWhenAnAllocationOrAWriteFails) {
    const auto p = test::mixed_program(5, 20000);
    for (std::size_t window : {1u, 64u, 65536u}) {
        const auto failures = test::check_every_failure(
            p,
            [window](const std::shared_ptr<allocation_log>& log) {
                return vector_fixture{traced_vector(tracing_allocator<std::uint8_t>(log)), window};
            },
            ("vector_sink, window " + std::to_string(window)).c_str());
        EXPECT_GT(failures.size(), 3u) << "window " << window;
    }
}

TEST(VectorSink, DestructorNeverAllocates) {
    auto log = std::make_shared<allocation_log>();
    traced_vector v{tracing_allocator<std::uint8_t>(log)};
    {
        basic_vector_sink<tracing_allocator<std::uint8_t>> s(v, 100);
        const auto data = test::pattern(1000);
        s.write(data.data(), data.size());
        log->fail_always();
    }
    log->disarm();
    EXPECT_EQ(v.size(), 1000u);
    EXPECT_EQ(log->allocations(), 1u);
}

TEST(VectorSink, MovedSinkKeepsWritingAndOnlyItTrims) {
    bytes v;
    {
        vector_sink a(v, 8);
        a.write(0x01);
        vector_sink b(std::move(a));
        b.write(0x02);
        EXPECT_EQ(b.position(), 2u);
        {
            vector_sink c(std::move(b));  // b is now empty; its destructor must not touch v
            c.write(0x03);
        }
        EXPECT_EQ(v, (bytes{1, 2, 3}));
    }
    EXPECT_EQ(v, (bytes{1, 2, 3}));
}

TEST(VectorSink, MakeVectorSinkDeducesTheAllocator) {
    auto log = std::make_shared<allocation_log>();
    traced_vector v{tracing_allocator<std::uint8_t>(log)};
    {
        auto s = make_vector_sink(v, 32);
        s.write(0x07);
    }
    EXPECT_EQ(v.size(), 1u);
    EXPECT_EQ(log->allocations(), 1u);
}

// The vector's max_size() bounds the sink: a write that would take the vector past it is
// refused with std::length_error before anything changes, and the writes before it stay.
TEST(VectorSink, RefusesAWriteBeyondTheVectorsMaxSizeWithLengthError) {
    using capped = test::capped_allocator<std::uint8_t, 128>;
    const auto p = program_of({60, 68});
    std::vector<std::uint8_t, capped> v;
    {
        basic_vector_sink<capped> s(v);
        run_writes(s, p);  // capacity 64, then doubled to exactly max_size
        ASSERT_EQ(v.max_size(), 128u);
        EXPECT_EQ(v.capacity(), 128u);
        try {
            s.write(0x01);
            ADD_FAILURE() << "wrote past max_size";
        } catch (const std::length_error& e) {
            // the sink's own refusal, not one from the vector's reserve()
            EXPECT_STREQ(e.what(), "sink: a write of 1 bytes after 128 exceeds the container's max_size");
        }
        EXPECT_EQ(s.position(), 128u);
    }
    EXPECT_EQ(bytes(v.begin(), v.end()), p.bytes());
}

TEST(VectorSink, RejectsAZeroWindow) {
    bytes v;
    EXPECT_THROW(vector_sink(v, 0), std::invalid_argument);
}

TEST(VectorSink, AllocationsAreLogarithmicInTheOutputSize) {
    // 1,000,000 nine-byte records: capacities 64 * 2^k up to 9,000,000 bytes.
    const std::size_t n = 9000000;
    auto log = std::make_shared<allocation_log>();
    {
        traced_vector v{tracing_allocator<std::uint8_t>(log)};
        basic_vector_sink<tracing_allocator<std::uint8_t>> s(v);
        const std::uint8_t record[9] = {0xfb, 1, 2, 3, 4, 5, 6, 7, 8};
        for (std::size_t i = 0; i < n / 9; ++i) {
            s.write(record, 9);
        }
    }
    // ceil(log2(9e6 / 64)) = 18 doublings after the first 64 bytes: 19 allocations
    EXPECT_EQ(log->allocations(), 19u);
    EXPECT_TRUE(log->clean());
}

}  // namespace
}  // namespace sinkcheck
