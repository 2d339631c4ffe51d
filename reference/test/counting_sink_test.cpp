// counting_sink: counts bytes, stores none.
#include <cstddef>
#include <cstdint>

#include <gtest/gtest.h>

#include "sink_test_programs.hpp"
#include "sinkcheck/sink/counting_sink.hpp"

namespace sinkcheck {
namespace {

TEST(CountingSink, CountsEveryByteOfEveryWrite) {
    const auto p = test::mixed_program(71, 100000);
    counting_sink s;
    test::run_writes(s, p);
    EXPECT_EQ(s.position(), p.bytes().size());
}

TEST(CountingSink, ZeroLengthWritesCountNothing) {
    counting_sink s;
    s.write(nullptr, 0);
    EXPECT_EQ(s.position(), 0u);
    s.write(0xFF);
    EXPECT_EQ(s.position(), 1u);
}

}  // namespace
}  // namespace sinkcheck
