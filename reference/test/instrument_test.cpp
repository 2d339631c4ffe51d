// The test instrumentation itself: tracing allocator, capacity trace, zero-fill meter, fault sink.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "sink_test_programs.hpp"
#include "sinkcheck/sink/counting_sink.hpp"
#include "sinkcheck/sink/seekable_memory_writer.hpp"
#include "sinkcheck/sink/vector_sink.hpp"
#include "sinkcheck/testkit/instrument/capacity_trace.hpp"
#include "sinkcheck/testkit/instrument/fault_sink.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"
#include "sinkcheck/testkit/instrument/zero_fill_meter.hpp"

namespace sinkcheck {
namespace {

using test::program_of;
using test::run_writes;

TEST(TracingAllocator, RecordsEveryAllocationAndDeallocationWithItsSize) {
    auto log = std::make_shared<allocation_log>();
    {
        std::vector<int, tracing_allocator<int>> v{tracing_allocator<int>(log)};
        v.reserve(10);
        v.reserve(100);
    }
    EXPECT_EQ(log->allocation_sizes(), (std::vector<std::size_t>{40, 400}));
    ASSERT_EQ(log->events().size(), 4u);
    // the new block is taken before the old one is freed
    EXPECT_EQ(log->events()[1].what, allocation_log::kind::allocate);
    EXPECT_EQ(log->events()[2].what, allocation_log::kind::deallocate);
    EXPECT_EQ(log->events()[2].bytes, 40u);
    EXPECT_EQ(log->bytes_allocated(), 440u);
    EXPECT_EQ(log->peak_bytes(), 440u);
    EXPECT_TRUE(log->clean());
}

TEST(TracingAllocator, ThrowsBadAllocAtTheKthAllocationOnly) {
    auto log = std::make_shared<allocation_log>();
    tracing_allocator<std::uint8_t> a(log);
    std::uint8_t* first = a.allocate(8);
    log->fail_at(2);
    std::uint8_t* second = a.allocate(8);
    EXPECT_THROW(a.allocate(8), std::bad_alloc);
    std::uint8_t* third = a.allocate(8);
    EXPECT_EQ(log->allocations(), 3u);
    EXPECT_EQ(log->events()[2].what, allocation_log::kind::failed);
    a.deallocate(first, 8);
    a.deallocate(second, 8);
    a.deallocate(third, 8);
    EXPECT_TRUE(log->clean());
}

TEST(TracingAllocator, ReportsLeaksWithTheirSizeAndAllocationNumber) {
    auto log = std::make_shared<allocation_log>();
    tracing_allocator<std::uint8_t> a(log);
    std::uint8_t* kept = a.allocate(3);
    std::uint8_t* leaked = a.allocate(16);
    a.deallocate(kept, 3);
    EXPECT_FALSE(log->clean());
    EXPECT_EQ(log->live_allocations(), 1u);
    EXPECT_EQ(log->live_bytes(), 16u);
    EXPECT_EQ(log->leak_report(), "leaked 16 bytes (allocation #2)\n");
    a.deallocate(leaked, 16);
    EXPECT_TRUE(log->clean());
    EXPECT_EQ(log->leak_report(), "");
}

TEST(TracingAllocator, CountsADeallocationWithTheWrongSize) {
    auto log = std::make_shared<allocation_log>();
    tracing_allocator<std::uint8_t> a(log);
    std::uint8_t* p = a.allocate(32);
    a.deallocate(p, 31);
    EXPECT_EQ(log->mismatches(), 1u);
    EXPECT_FALSE(log->clean());
}

TEST(TracingAllocator, ReportsMismatchedDeallocationsInTheLeakReport) {
    auto log = std::make_shared<allocation_log>();
    tracing_allocator<std::uint8_t> a(log);
    std::uint8_t* p = a.allocate(32);
    std::uint8_t* q = a.allocate(8);
    a.deallocate(p, 31);
    a.deallocate(q, 9);
    // both blocks are freed, so nothing leaks; only the two wrong sizes are reported
    EXPECT_EQ(log->live_allocations(), 0u);
    EXPECT_EQ(log->leak_report(), "2 mismatched deallocations\n");
}

TEST(TracingAllocator, RefusesACountWhoseByteSizeOverflowsWithBadArrayNewLength) {
    auto log = std::make_shared<allocation_log>();
    tracing_allocator<std::uint64_t> a(log);
    const std::size_t too_many = static_cast<std::size_t>(-1) / sizeof(std::uint64_t) + 1;
    EXPECT_THROW(a.allocate(too_many), std::bad_array_new_length);
    // refused before the log is asked: no attempt, no failure recorded
    EXPECT_TRUE(log->events().empty());
    EXPECT_EQ(log->allocations(), 0u);
    // the largest count whose size fits goes on to the log (which is told to fail it)
    log->fail_at(1);
    EXPECT_THROW(a.allocate(too_many - 1), std::bad_alloc);
    ASSERT_EQ(log->events().size(), 1u);
    EXPECT_EQ(log->events()[0].what, allocation_log::kind::failed);
    EXPECT_EQ(log->events()[0].bytes, (too_many - 1) * sizeof(std::uint64_t));
}

TEST(TracingAllocator, CopiesAndRebindsShareOneLogAndCompareEqual) {
    auto log = std::make_shared<allocation_log>();
    tracing_allocator<std::uint8_t> a(log);
    tracing_allocator<long> b(a);
    EXPECT_TRUE(a == b);
    EXPECT_FALSE(a == tracing_allocator<std::uint8_t>());
    long* p = b.allocate(2);
    EXPECT_EQ(log->allocation_sizes(), (std::vector<std::size_t>{2 * sizeof(long)}));
    b.deallocate(p, 2);
    EXPECT_TRUE(log->clean());
}

TEST(TracingAllocator, FailAlwaysProvesThatNothingAllocates) {
    auto log = std::make_shared<allocation_log>();
    std::vector<std::uint8_t, tracing_allocator<std::uint8_t>> v{tracing_allocator<std::uint8_t>(log)};
    v.reserve(10);
    log->fail_always();
    EXPECT_NO_THROW(v.resize(10));
    EXPECT_THROW(v.reserve(11), std::bad_alloc);
    log->disarm();
    EXPECT_NO_THROW(v.reserve(11));
}

TEST(CapacityTrace, KeepsEachCapacityOnceInOrder) {
    capacity_trace t;
    t.on_growth({0, 1, 64, 64});
    t.on_growth({10, 60, 64, 54});  // a window move: same capacity
    t.on_growth({70, 1, 140, 70});
    EXPECT_EQ(t.capacities(), (std::vector<std::size_t>{64, 140}));
    EXPECT_EQ(t.growths(), 3u);
}

TEST(ZeroFillMeter, KeepsTheMostBytesMadeWritableAhead) {
    zero_fill_meter m;
    m.on_growth({0, 1, 64, 16});
    m.on_growth({16, 40, 128, 40});
    m.on_growth({56, 1, 128, 16});
    EXPECT_EQ(m.max_ahead(), 40u);
    EXPECT_EQ(m.max_request(), 40u);
}

TEST(GrowthTee, ForwardsEveryEventToBothObservers) {
    capacity_trace t;
    zero_fill_meter m;
    growth_tee tee(t, m);
    std::vector<std::uint8_t> v;
    {
        vector_sink s(v, 8, &tee);
        run_writes(s, program_of({100, 1}));
    }
    EXPECT_EQ(t.capacities(), (std::vector<std::size_t>{100, 200}));
    EXPECT_EQ(m.max_ahead(), 100u);
}

TEST(FaultSink, ThrowsAtTheKthWriteCallBeforePassingItOn) {
    counting_sink inner;
    fault_sink<counting_sink> f(inner);
    f.fail_at_write(3);
    run_writes(f, program_of({4, 1}));
    try {
        f.write(0x01);
        ADD_FAILURE() << "no fault";
    } catch (const injected_fault& e) {
        EXPECT_EQ(e.position(), 5u);
    }
    EXPECT_EQ(inner.position(), 5u);
    f.write(0x01);  // only the third call fails
    EXPECT_EQ(f.calls(), 4u);
}

TEST(FaultSink, ThrowsBeforeAWriteWouldPassByteK) {
    counting_sink inner;
    fault_sink<counting_sink> f(inner);
    f.fail_past_byte(10);
    run_writes(f, program_of({6, 4}));  // exactly 10 bytes: allowed
    EXPECT_THROW(f.write(0x01), injected_fault);
    EXPECT_EQ(inner.position(), 10u);
    f.write(nullptr, 0);
}

TEST(FaultSink, ForwardsSeekOnlyWhenTheWrappedSinkHasOne) {
    seekable_memory_writer w;
    fault_sink<seekable_memory_writer> f(w);
    run_writes(f, program_of({4}));
    f.seek(1);
    f.write(0xAA);
    EXPECT_EQ(w.bytes(), (std::vector<std::uint8_t>{1, 0xAA, 15, 22}));

    auto has_seek = [](auto& sink) -> decltype(sink.seek(std::size_t{}), true) { return true; };
    EXPECT_TRUE(has_seek(f));
    EXPECT_FALSE((std::is_invocable_v<decltype(has_seek), fault_sink<counting_sink>&>));
}

}  // namespace
}  // namespace sinkcheck
