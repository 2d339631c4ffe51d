// chunked_sink: seed 003's chunk sizes, the closing chunk-count figure, and failure behaviour.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include <gtest/gtest.h>

#include "exception_safety.hpp"
#include "sink_test_programs.hpp"
#include "sinkcheck/sink/chunked_sink.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"

namespace sinkcheck {
namespace {

using test::program_of;
using test::run_writes;
using traced_chunked_sink = basic_chunked_sink<tracing_allocator<std::uint8_t>>;

std::vector<std::size_t> capacities(const chunked_sink& s) {
    std::vector<std::size_t> out;
    for (const auto& c : s.chunks()) {
        out.push_back(c.capacity);
    }
    return out;
}

/// n bytes as 9-byte records (an encoder writing doubles) and a short tail.
test::write_program records(std::size_t n) {
    std::vector<std::size_t> lengths(n / 9, 9);
    if (n % 9 != 0) {
        lengths.push_back(n % 9);
    }
    return program_of(lengths);
}

std::size_t closing_figure(std::size_t n) {
    return 6 + (n - 129024 + 65535) / 65536;  // 6 + ceil((n - 129,024) / 65,536)
}

TEST(ChunkedSink, StartsAtTwoKibAndDoublesUpToTheCap) {
    chunked_sink s;
    run_writes(s, program_of(std::vector<std::size_t>(300000, 1)));
    // 2+4+8+16+32+64 KiB = 129,024 bytes, then ceil(170,976 / 65,536) = 3 chunks of 64 KiB
    EXPECT_EQ(capacities(s), (std::vector<std::size_t>{2048, 4096, 8192, 16384, 32768, 65536, 65536, 65536, 65536}));
}

TEST(ChunkedSink, ChunkCountFollowsTheClosingFigure) {
    for (std::size_t n : {129025u, 129024u + 65536u, 129024u + 65537u, 1000000u, 9000000u}) {
        chunked_sink s;
        run_writes(s, records(n));
        EXPECT_EQ(s.position(), n);
        EXPECT_EQ(s.chunk_count(), closing_figure(n)) << n << " bytes";
    }
    // 1,000,000 bytes: 6 + ceil(870,976 / 65,536) = 20 chunks
    EXPECT_EQ(closing_figure(1000000), 20u);
}

TEST(ChunkedSink, SmallOutputsTakeOneChunkPerDoubling) {
    for (const auto& [n, chunks] : std::vector<std::pair<std::size_t, std::size_t>>{
             {1, 1}, {2048, 1}, {2049, 2}, {6144, 2}, {6145, 3}, {129024, 6}}) {
        chunked_sink s;
        run_writes(s, records(n));
        EXPECT_EQ(s.chunk_count(), chunks) << n << " bytes";
    }
}

TEST(ChunkedSink, FlushedChunksHoldExactlyWhatWasWritten) {
    const auto p = test::mixed_program(31, 400000);
    chunked_sink s;
    run_writes(s, p);
    const auto chunks = s.chunks();
    for (std::size_t i = 0; i + 1 < chunks.size(); ++i) {
        EXPECT_EQ(chunks[i].size, chunks[i].capacity) << "chunk " << i;
    }
    EXPECT_EQ(s.flatten(), p.bytes());
}

TEST(ChunkedSink, LargeWriteGetsTheNextPowerOfTwoThatHoldsIt) {
    chunked_sink s;
    run_writes(s, program_of({1, 10000, 300}));
    // 10,000 bytes: 2,047 fill the first chunk, 7,953 need 4,096 doubled once: 8,192.
    // 300 bytes: 239 fill it, 61 go to the next chunk, 8,192 (4,096 doubled after chunk 2).
    EXPECT_EQ(capacities(s), (std::vector<std::size_t>{2048, 8192, 8192}));
    const auto chunks = s.chunks();
    EXPECT_EQ(chunks[1].size, 8192u);
    EXPECT_EQ(chunks[2].size, 61u);
    EXPECT_EQ(s.flatten(), program_of({1, 10000, 300}).bytes());
}

TEST(ChunkedSink, FirstWriteLargerThanTheFirstChunk) {
    chunked_sink s;
    run_writes(s, program_of({5000}));
    EXPECT_EQ(capacities(s), (std::vector<std::size_t>{8192}));
}

TEST(ChunkedSink, ParametersSetTheFirstAndTheLargestChunk) {
    chunked_sink s(16, 64);
    run_writes(s, program_of(std::vector<std::size_t>(200, 1)));
    // 16 + 32 + 64 + 64 = 176, 24 more in a fifth chunk
    EXPECT_EQ(capacities(s), (std::vector<std::size_t>{16, 32, 64, 64, 64}));
}

TEST(ChunkedSink, RejectsInvalidParameters) {
    EXPECT_THROW(chunked_sink(0, 64), std::invalid_argument);
    EXPECT_THROW(chunked_sink(128, 64), std::invalid_argument);
}

TEST(ChunkedSink, EmptySinkAllocatesNothing) {
    auto log = std::make_shared<allocation_log>();
    {
        traced_chunked_sink s(2048, 65536, tracing_allocator<std::uint8_t>(log));
        s.write(nullptr, 0);
        EXPECT_EQ(s.chunk_count(), 0u);
        EXPECT_TRUE(s.flatten().empty());
    }
    EXPECT_EQ(log->allocations(), 0u);
}

TEST(ChunkedSink, OneAllocationPerChunkAndAllFreed) {
    auto log = std::make_shared<allocation_log>();
    {
        traced_chunked_sink s(2048, 65536, tracing_allocator<std::uint8_t>(log));
        run_writes(s, records(1000000));
        EXPECT_EQ(log->allocations(), 20u);
        EXPECT_EQ(log->bytes_allocated(), 129024u + 14u * 65536u);
    }
    EXPECT_TRUE(log->clean()) << log->leak_report();
}

/// A chunked sink on the tracing allocator; it owns its chunks, so the fixture keeps the sink.
struct chunked_fixture {
    traced_chunked_sink s;
    template <class Body>
    void run(Body&& body) {
        body(s);
    }
    std::vector<std::uint8_t> held() const { return s.flatten(); }
};

TEST(ChunkedSink, LeavesTheCompletedWritesWhenAnAllocationOrAWriteFails) {
    const auto make = [](const std::shared_ptr<allocation_log>& log) {
        return chunked_fixture{traced_chunked_sink(16, 256, tracing_allocator<std::uint8_t>(log))};
    };
    // short writes across chunks of 16, 32, .., 256 bytes, then 256 each: an allocation per chunk
    std::vector<std::size_t> lengths;
    for (std::size_t i = 0; i < 300; ++i) {
        lengths.push_back(1 + i * 7 % 23);
    }
    const auto failures = test::check_every_failure(test::program_of(lengths), make, "chunked_sink, short writes");
    EXPECT_GT(failures.size(), 10u);
    // and now and then a write longer than any chunk, which gets a chunk of its own
    test::check_every_failure(test::mixed_program(33, 6000), make, "chunked_sink, mixed writes");
}

TEST(ChunkedSink, MovedSinkOwnsTheChunks) {
    auto log = std::make_shared<allocation_log>();
    {
        traced_chunked_sink a(16, 64, tracing_allocator<std::uint8_t>(log));
        run_writes(a, program_of({10, 20, 30}));
        traced_chunked_sink b(std::move(a));
        run_writes(b, program_of({5}));
        EXPECT_EQ(b.position(), 65u);
        EXPECT_EQ(a.chunk_count(), 0u);  // NOLINT(bugprone-use-after-move): the moved-from state is the point
    }
    EXPECT_TRUE(log->clean()) << log->leak_report();
}

}  // namespace
}  // namespace sinkcheck
