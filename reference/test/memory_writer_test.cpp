// memory_writer: seed 004's seekless writer — appends, grows like vector_sink, hands out its bytes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include <gtest/gtest.h>

#include "exception_safety.hpp"
#include "sink_test_programs.hpp"
#include "sinkcheck/sink/memory_writer.hpp"
#include "sinkcheck/sink/seekable_memory_writer.hpp"
#include "sinkcheck/sink/vector_sink.hpp"
#include "sinkcheck/testkit/instrument/capacity_trace.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"
#include "sinkcheck/testkit/instrument/zero_fill_meter.hpp"

namespace sinkcheck {
namespace {

using test::program_of;
using test::run_writes;
using bytes = std::vector<std::uint8_t>;
using traced_writer = basic_memory_writer<tracing_allocator<std::uint8_t>>;

TEST(MemoryWriter, WritesEveryByteInOrder) {
    const auto p = test::mixed_program(41, 300000);
    memory_writer w;
    run_writes(w, p);
    EXPECT_EQ(w.position(), p.bytes().size());
    EXPECT_EQ(w.size(), p.bytes().size());
    EXPECT_EQ(w.take(), p.bytes());
}

TEST(MemoryWriter, TakeLeavesAnEmptyWriterReadyForMore) {
    memory_writer w;
    run_writes(w, program_of({3, 1}));
    EXPECT_EQ(w.take(), program_of({3, 1}).bytes());
    EXPECT_EQ(w.position(), 0u);
    EXPECT_EQ(w.capacity(), 0u);
    run_writes(w, program_of({2}));
    EXPECT_EQ(w.take(), program_of({2}).bytes());
}

TEST(MemoryWriter, BytesTrimsAndLaterWritesFollowThem) {
    memory_writer w(0, 8);
    run_writes(w, program_of({5}));
    EXPECT_EQ(w.bytes(), program_of({5}).bytes());
    run_writes(w, program_of({1, 1}));
    const bytes expected = {1, 8, 15, 22, 29, 1, 14};  // pattern(5, 0), pattern(1, 0), pattern(1, 1)
    EXPECT_EQ(w.bytes(), expected);
}

TEST(MemoryWriter, GrowsLikeTheVectorSink) {
    const auto p = test::mixed_program(42, 500000);
    capacity_trace writer_trace, sink_trace;
    memory_writer w;
    w.set_observer(&writer_trace);
    run_writes(w, p);
    bytes v;
    {
        vector_sink s(v, default_window, &sink_trace);
        run_writes(s, p);
    }
    EXPECT_EQ(writer_trace.capacities(), sink_trace.capacities());
    EXPECT_EQ(writer_trace.capacities().front(), 64u);
}

TEST(MemoryWriter, ZeroFillsOnlyAWindowAhead) {
    zero_fill_meter meter;
    memory_writer w(0, 1024);
    w.set_observer(&meter);
    run_writes(w, test::mixed_program(43, 200000));
    EXPECT_LE(meter.max_ahead(), 1024u + 6000u);
}

TEST(MemoryWriter, ReserveSetsTheFirstCapacity) {
    auto log = std::make_shared<allocation_log>();
    traced_writer w(1000, default_window, tracing_allocator<std::uint8_t>(log));
    run_writes(w, program_of({400, 600}));
    EXPECT_EQ(log->allocation_sizes(), (std::vector<std::size_t>{1000}));
    run_writes(w, program_of({1}));  // needed 1001 -> max(1001, 2000)
    EXPECT_EQ(log->allocation_sizes(), (std::vector<std::size_t>{1000, 2000}));
}

/// A writer on the tracing allocator; it keeps its bytes, so the fixture keeps the writer.
template <class Writer>
struct writer_fixture {
    Writer w;
    template <class Body>
    void run(Body&& body) {
        body(w);
    }
    bytes held() { return bytes(w.bytes().begin(), w.bytes().end()); }  // bytes() is not const
};

template <class Writer>
void expect_completed_writes_after_each_failure(const char* what) {
    const auto p = program_of({10, 100, 1000, 10000});
    // capacities 64, 128 (max(110, 128)), 1110, 11110: allocation k serves write k
    const auto failures = test::check_every_failure(
        p,
        [](const std::shared_ptr<allocation_log>& log) {
            return writer_fixture<Writer>{Writer(0, default_window, tracing_allocator<std::uint8_t>(log))};
        },
        what);
    ASSERT_EQ(failures.size(), 4u) << what;
    for (const auto& f : failures) {
        EXPECT_EQ(f.completed_writes, static_cast<long>(f.allocation) - 1) << what << ", allocation " << f.allocation;
    }
    test::check_every_failure(
        test::mixed_program(41, 20000),
        [](const std::shared_ptr<allocation_log>& log) {
            return writer_fixture<Writer>{Writer(0, 64, tracing_allocator<std::uint8_t>(log))};
        },
        what);
}

TEST(MemoryWriter, BothWritersLeaveTheCompletedWritesWhenAnAllocationOrAWriteFails) {
    expect_completed_writes_after_each_failure<traced_writer>("memory_writer");
    expect_completed_writes_after_each_failure<basic_seekable_memory_writer<tracing_allocator<std::uint8_t>>>(
        "seekable_memory_writer");
}

TEST(MemoryWriter, MovedWriterKeepsItsBytesAndCursor) {
    memory_writer a(0, 4);
    run_writes(a, program_of({3}));
    memory_writer b(std::move(a));
    run_writes(b, program_of({1, 1}));
    EXPECT_EQ(b.take(), (bytes{1, 8, 15, 1, 14}));
    EXPECT_EQ(a.position(), 0u);  // NOLINT(bugprone-use-after-move): the moved-from state is the point
}

}  // namespace
}  // namespace sinkcheck
