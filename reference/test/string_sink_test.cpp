// string_sink: seed 002's exact first allocation out of the short buffer, then vector-like growth.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "exception_safety.hpp"
#include "sink_test_programs.hpp"
#include "sinkcheck/sink/string_sink.hpp"
#include "sinkcheck/testkit/instrument/capacity_trace.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"
#include "sinkcheck/testkit/instrument/zero_fill_meter.hpp"

namespace sinkcheck {
namespace {

using test::program_of;
using test::run_writes;
using traced_string = std::basic_string<char, std::char_traits<char>, tracing_allocator<char>>;
using traced_string_sink = basic_string_sink<char, std::char_traits<char>, tracing_allocator<char>>;

std::string as_string(const std::vector<std::uint8_t>& b) { return std::string(b.begin(), b.end()); }

/// Allocation sizes when `p` is written into a fresh traced string with `window`.
std::vector<std::size_t> allocations_for(const test::write_program& p, std::size_t window = default_window) {
    auto log = std::make_shared<allocation_log>();
    {
        traced_string s{tracing_allocator<char>(log)};
        {
            traced_string_sink sink(s, window);
            run_writes(sink, p);
        }
        EXPECT_EQ(std::string(s.begin(), s.end()), as_string(p.bytes()));
    }
    EXPECT_TRUE(log->clean()) << log->leak_report();
    return log->allocation_sizes();
}

TEST(StringSink, LeavingTheShortBufferAllocatesExactlyWhatIsNeeded) {
    // 30 bytes and the terminator
    EXPECT_EQ(allocations_for(program_of({30})), (std::vector<std::size_t>{31}));
}

TEST(StringSink, SixteenBytesAllocateSeventeenWhereReserveWouldRoundUp) {
#if defined(__GLIBCXX__)
    std::string plain;
    plain.reserve(16);
    EXPECT_EQ(plain.capacity(), 30u);  // libstdc++ doubles the 15-byte short capacity
#endif
    EXPECT_EQ(allocations_for(program_of({16})), (std::vector<std::size_t>{17}));
}

TEST(StringSink, WritesThatFitTheShortBufferAllocateNothing) {
    const std::size_t short_capacity = std::string().capacity();
    EXPECT_TRUE(allocations_for(program_of(std::vector<std::size_t>(short_capacity, 1))).empty());
}

TEST(StringSink, GrowsGeometricallyAfterLeavingTheShortBuffer) {
    const std::size_t sso = std::string().capacity();
    // one byte at a time: the short buffer, then exactly sso + 1, then doubling
    std::vector<std::size_t> expected_capacities = {sso, sso + 1};
    while (expected_capacities.back() < 300) {
        expected_capacities.push_back(2 * expected_capacities.back());
    }
    std::string s;
    capacity_trace trace;
    {
        string_sink sink(s, default_window, &trace);
        run_writes(sink, program_of(std::vector<std::size_t>(300, 1)));
    }
    EXPECT_EQ(trace.capacities(), expected_capacities);

    std::vector<std::size_t> expected_allocations;
    for (std::size_t i = 1; i < expected_capacities.size(); ++i) {
        expected_allocations.push_back(expected_capacities[i] + 1);
    }
    EXPECT_EQ(allocations_for(program_of(std::vector<std::size_t>(300, 1))), expected_allocations);
}

TEST(StringSink, LongWritesGrowToMaxOfNeededAndDouble) {
    // 40 (exact, out of the short buffer) -> 41: max(41, 80) -> 200: max(200, 160)
    EXPECT_EQ(allocations_for(program_of({40, 1, 159})), (std::vector<std::size_t>{41, 81, 201}));
}

TEST(StringSink, CapacitySequenceIgnoresTheWindow) {
    const auto p = test::mixed_program(21, 300000);
    const auto reference = allocations_for(p, unlimited_window);
    for (std::size_t window : {1u, 5u, 64u, 65536u}) {
        EXPECT_EQ(allocations_for(p, window), reference) << "window " << window;
    }
}

TEST(StringSink, ResizesOnlyAWindowAheadOfTheCursor) {
    std::string s;
    string_sink sink(s, 4);
    sink.write(0x41);
    EXPECT_EQ(s.size(), 4u);
    zero_fill_meter meter;
    sink.set_observer(&meter);
    run_writes(sink, test::mixed_program(22, 100000));
    EXPECT_LE(meter.max_ahead(), 4 + 5999u);
}

TEST(StringSink, AppendsAfterTheStringsExistingContents) {
    std::string s = "head:";
    {
        string_sink sink(s);
        const std::uint8_t tail[] = {'t', 'a', 'i', 'l'};
        sink.write(tail, 4);
        EXPECT_EQ(sink.position(), 4u);
    }
    EXPECT_EQ(s, "head:tail");
}

/// The caller's string on the tracing allocator, a string_sink with `window` over it.
struct string_fixture {
    traced_string s;
    std::size_t window;
    template <class Body>
    void run(Body&& body) {
        traced_string_sink sink(s, window);
        body(sink);
    }
    std::vector<std::uint8_t> held() const { return std::vector<std::uint8_t>(s.begin(), s.end()); }
};

TEST(StringSink, LeavesTheCompletedWritesWhenAnAllocationOrAWriteFails) {
    const auto p = program_of({10, 20, 100, 1000});
    // 10 bytes fit the short buffer; then 31 (exactly 30), 131 (max(130, 60)), 1131 (max(1130, 260))
    ASSERT_EQ(allocations_for(p), (std::vector<std::size_t>{31, 131, 1131}));
    const auto make = [](std::size_t window) {
        return [window](const std::shared_ptr<allocation_log>& log) {
            return string_fixture{traced_string(tracing_allocator<char>(log)), window};
        };
    };
    const auto failures = test::check_every_failure(p, make(default_window), "string_sink");
    ASSERT_EQ(failures.size(), 3u);
    for (const auto& f : failures) {
        EXPECT_EQ(f.completed_writes, static_cast<long>(f.allocation)) << "allocation k serves write k + 1";
    }
    test::check_every_failure(test::mixed_program(23, 3000), make(16), "string_sink, window 16, mixed writes");
}

}  // namespace
}  // namespace sinkcheck
