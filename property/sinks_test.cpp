// Every promise of the kit (sink_promises(), sink_properties.hpp) on every real sink that makes
// it, under the promise's name, and each sink's own promises (docs/properties.md). The weight is
// the share of RC_PARAMS max_success a property runs: the cheap ones run more cases.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sinkcheck/testkit/check.hpp"
#include "sinkcheck/testkit/properties.hpp"
#include "sinkcheck/testkit/sink_fuzzer.hpp"
#include "suts.hpp"

namespace sinkcheck::testkit {
namespace {

// Every sink here comes from testkit::builtin_sinks (suts.cpp), as do the registry's: a sink in
// that list is under every promise below that it makes.

/// One promise of sink_promises() (promises.hpp) on every real sink that makes it, as the
/// test Sinks.<promise>: each case of the property runs them all.
class own_sinks_test : public ::testing::Test {
public:
    explicit own_sinks_test(const sink_promise& promise) : promise_(promise) {}

    void TestBody() override {
        expect_property(
            std::string("Sinks/") + promise_.name,
            [this] {
                for (const sut_entry& s : all_real_sinks()) {
                    if (promise_.made_by(s)) check_promise(promise_.id, s);
                }
            },
            promise_.weight);
    }

private:
    const sink_promise& promise_;
};

[[maybe_unused]] const bool own_sinks_registered = [] {
    for (const sink_promise& p : sink_promises()) {
        ::testing::RegisterTest("Sinks", p.name, nullptr, nullptr, __FILE__, __LINE__,
                                [&p]() -> ::testing::Test* { return new own_sinks_test(p); });
    }
    return true;
}();

SINKCHECK_PROPERTY(ChunkedSink, ChunksDoubleUpToTheCap, 10.0) {
    chunks_double_up_to_the_cap(builtin_entry("chunked"), builtin_entry("vector"));
}

SINKCHECK_PROPERTY(StringSink, LeavesShortBufferWithExactAllocation, 10.0) {
    string_leaves_short_buffer_exactly(builtin_entry("string"));
}

SINKCHECK_PROPERTY(SeekableWriter, PatchedBsonLengthsEqualPrecomputed, 10.0) {
    patched_bson_lengths_equal_precomputed(builtin_entry("seekable_memory"), baseline_entry());
}

SINKCHECK_PROPERTY(SeekableWriter, SeekProgramsMatchAByteArray, 20.0) {
    seek_programs_match_a_byte_array(builtin_entry("seekable_memory"));
}

/// A setup a fuzz input can choose (sink_fuzzer.hpp's tables), for a program of `bytes` bytes.
template <std::size_t N>
std::size_t draw_from(const std::size_t (&table)[N]) {
    return table[*rc::gen::inRange<std::size_t>(0, N)];
}

run_setup draw_fuzz_setup(std::size_t bytes) {
    using t = fuzz_tables;
    run_setup s;
    s.window = draw_from(t::windows);
    const std::size_t a = draw_from(t::chunk_sizes);
    const std::size_t b = draw_from(t::chunk_sizes);
    s.first_chunk = std::min(a, b);
    s.max_chunk = std::max(a, b);
    // the ends of each range a quarter of the time: a reader that stops one short shows
    const auto up_to = [](std::size_t lo, std::size_t hi) {
        return *rc::gen::weightedOneOf<std::size_t>(
            {{1, rc::gen::just(hi)}, {3, rc::gen::inRange<std::size_t>(lo, hi + 1)}});
    };
    const std::size_t fault = up_to(1, t::max_fault);
    switch (*rc::gen::inRange(0, 3)) {
        case 1: s.alloc_fault = fault; break;
        case 2: s.write_fault = fault; break;
        default: break;
    }
    s.span_capacity = *rc::gen::arbitrary<bool>() ? bytes / 2 : bytes + up_to(0, t::max_spare);
    return s;
}

// A write program and its setup written as a fuzz input read back as themselves: the same ops
// (a seek's target as the sinks take it: the seekable writer holds the same bytes), the same
// window, chunk bounds, fault and capacity. What an input cannot hold throws; those cases are
// discarded, and RapidCheck gives up (a failure) when too few are left.
SINKCHECK_PROPERTY(FuzzSeed, AProgramReadsBackAsItself, 10.0) {
    const write_program prog = *write_program_gen(true, false);
    std::size_t bytes = 0;
    for (const write_op& op : prog.ops) {
        bytes += op.what == write_op::kind::block ? op.length : op.what == write_op::kind::byte ? 1 : 0;
    }
    const run_setup setup = draw_fuzz_setup(bytes);
    std::vector<std::uint8_t> input;
    try {
        input = fuzz_input_of(prog, setup);
    } catch (const std::invalid_argument&) {
        RC_DISCARD("not a program a fuzz input can hold");
    }
    const fuzz_program back = read_fuzz_program(input.data(), input.size());
    RC_ASSERT(back.prog.ops.size() == prog.ops.size());
    for (std::size_t i = 0; i < prog.ops.size(); ++i) {
        const write_op& was = prog.ops[i];
        const write_op& now = back.prog.ops[i];
        RC_ASSERT(now.what == was.what);
        RC_ASSERT(now.salt == was.salt);
        RC_ASSERT(now.length == was.length);
    }
    RC_ASSERT(back.bytes == bytes);
    RC_ASSERT(back.setup.window == setup.window);
    RC_ASSERT(back.setup.first_chunk == setup.first_chunk);
    RC_ASSERT(back.setup.max_chunk == setup.max_chunk);
    RC_ASSERT(back.setup.alloc_fault == setup.alloc_fault);
    RC_ASSERT(back.setup.write_fault == setup.write_fault);
    RC_ASSERT(back.setup.span_capacity == setup.span_capacity);
    run_setup plain;
    plain.span_capacity = bytes;
    const sut_entry& seekable = builtin_entry("seekable_memory");
    const run_record a = seekable.program(prog, plain);
    const run_record b = seekable.program(back.prog, plain);
    RC_ASSERT(a.bytes == b.bytes);
    RC_ASSERT(a.position == b.position);
}

// block_bytes makes a block's first 256 bytes and copies them on: every byte must still be the
// op's byte_at, across the period, at its edges and in blocks after seeks and single bytes.
TEST(WriteProgram, BlockBytesAreEachBlocksBytesInOrder) {
    write_program prog;
    std::uint8_t salt = 7;
    for (const std::size_t length : {0UL, 1UL, 255UL, 256UL, 257UL, 511UL, 512UL, 513UL, 1000UL, 65537UL}) {
        write_op block;
        block.what = write_op::kind::block;
        block.length = length;
        block.salt = salt;
        salt = static_cast<std::uint8_t>(salt * 29 + 1);
        prog.ops.push_back(block);
        write_op between;
        between.what = length % 2 == 0 ? write_op::kind::byte : write_op::kind::seek;
        prog.ops.push_back(between);
    }
    const std::vector<std::uint8_t> bytes = block_bytes(prog);
    std::size_t at = 0;
    for (const write_op& op : prog.ops) {
        if (op.what != write_op::kind::block) {
            continue;
        }
        for (std::size_t i = 0; i < op.length; ++i, ++at) {
            ASSERT_LT(at, bytes.size());
            ASSERT_EQ(bytes[at], op.byte_at(i)) << "byte " << i << " of a block of " << op.length;
        }
    }
    EXPECT_EQ(at, bytes.size());
}

TEST(FuzzSeed, WhatAnInputCannotHoldIsRefusedByName) {
    write_program prog;
    write_op big;
    big.what = write_op::kind::block;
    big.length = 1000;  // above 300 and in no table
    prog.ops.push_back(big);
    run_setup setup;
    setup.span_capacity = 1000;
    try {
        (void)fuzz_input_of(prog, setup);
        ADD_FAILURE() << "a block of 1000 bytes was written into a fuzz input";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("block length 1000"), std::string::npos) << e.what();
    }
    setup.window = 5;
    prog.ops.clear();
    EXPECT_THROW((void)fuzz_input_of(prog, setup), std::invalid_argument);
}

}  // namespace
}  // namespace sinkcheck::testkit
