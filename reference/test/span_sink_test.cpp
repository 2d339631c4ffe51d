// span_sink: a fixed caller buffer — exact fit works, overflow throws and writes nothing past it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sink_test_programs.hpp"
#include "sinkcheck/sink/span_sink.hpp"

namespace sinkcheck {
namespace {

using test::program_of;
using test::run_writes;
using bytes = std::vector<std::uint8_t>;

TEST(SpanSink, WritesIntoTheCallersBuffer) {
    const auto p = test::mixed_program(61, 10000);
    bytes buffer(p.bytes().size());
    span_sink s(buffer.data(), buffer.size());
    run_writes(s, p);  // an exact fit does not throw
    EXPECT_EQ(s.position(), buffer.size());
    EXPECT_EQ(buffer, p.bytes());
}

TEST(SpanSink, ThrowsSinkOverflowNamingPositionAndCapacity) {
    bytes buffer(10);
    span_sink s(buffer.data(), buffer.size());
    run_writes(s, program_of({8}));
    try {
        run_writes(s, program_of({3}));
        ADD_FAILURE() << "no overflow";
    } catch (const sink_overflow& e) {
        EXPECT_EQ(e.position(), 8u);
        EXPECT_EQ(e.capacity(), 10u);
        EXPECT_EQ(e.requested(), 3u);
        const std::string what = e.what();
        EXPECT_NE(what.find("at byte 8"), std::string::npos) << what;
        EXPECT_NE(what.find("capacity of 10"), std::string::npos) << what;
    }
    EXPECT_EQ(s.position(), 8u);
}

TEST(SpanSink, NeverWritesPastTheEndAndStoresNothingOfAnOverflowingWrite) {
    bytes buffer(16, 0xEE);  // the span is the first 10 bytes; the rest are sentinels
    span_sink s(buffer.data(), 10);
    run_writes(s, program_of({8}));
    EXPECT_THROW(run_writes(s, program_of({5})), sink_overflow);
    EXPECT_THROW(run_writes(s, program_of({3})), sink_overflow);
    run_writes(s, program_of({1, 1}));
    EXPECT_THROW(s.write(0x00), sink_overflow);
    bytes expected = program_of({8}).bytes();
    expected.push_back(test::pattern(1, 0)[0]);
    expected.push_back(test::pattern(1, 1)[0]);
    expected.resize(16, 0xEE);
    EXPECT_EQ(buffer, expected);
}

TEST(SpanSink, ReportsItsCapacityAndData) {
    bytes buffer(12);
    span_sink s(buffer.data(), 10);
    EXPECT_EQ(s.capacity(), 10u);
    EXPECT_EQ(s.data(), buffer.data());
    run_writes(s, program_of({4}));
    // writing moves the cursor, not the buffer or its size
    EXPECT_EQ(s.capacity(), 10u);
    EXPECT_EQ(s.data(), buffer.data());
    EXPECT_EQ(bytes(s.data(), s.data() + s.position()), program_of({4}).bytes());
}

TEST(SpanSink, ZeroCapacityRejectsTheFirstByte) {
    span_sink s(nullptr, 0);
    s.write(nullptr, 0);
    EXPECT_THROW(s.write(0x01), sink_overflow);
    EXPECT_EQ(s.position(), 0u);
}

TEST(SpanSink, IsASinkError) {
    std::uint8_t one = 0;
    span_sink s(&one, 1);
    s.write(0x01);
    EXPECT_THROW(s.write(0x02), sink_error);
}

}  // namespace
}  // namespace sinkcheck
