// Properties 1 and 4-9 on the real sinks: same bytes everywhere, trimming when writes throw,
// capacity growth, zero-fill, and each sink's own promise (docs/properties.md). The weight is
// the share of RC_PARAMS max_success a property runs: the cheap ones run more cases.
#include <string>

#include "check.hpp"
#include "properties.hpp"
#include "sinkcheck/sink/registry.hpp"

namespace sinkcheck::prop {
namespace {

// A sink added to the registry (and so to the CLI and the fuzzers) must be added here too.
TEST(Sinks, EveryRegisteredSinkIsUnderTest) {
    for (const sink_info& info : all_sinks()) {
        const sut_entry* found = nullptr;
        for (const sut_entry& s : all_real_sinks()) {
            if (s.name == info.name) {
                found = &s;
            }
        }
        ASSERT_NE(found, nullptr) << "registered sink '" << info.name << "' has no adapter in property/suts.hpp";
        EXPECT_EQ(found->windowed, info.windowed) << info.name;
    }
    EXPECT_EQ(all_real_sinks().size(), all_sinks().size());
}

SINKCHECK_PROPERTY(Sinks, AllSinksWriteIdenticalBytes, 3.0) { all_sinks_write_identical_bytes(all_real_sinks()); }

SINKCHECK_PROPERTY(Sinks, TrimToWrittenBytesWhenWritesThrow, 10.0) {
    trims_to_written_bytes_when_writes_throw(all_real_sinks());
}

SINKCHECK_PROPERTY(Sinks, CapacityGrowthIgnoresWindow, 3.0) { capacity_growth_ignores_window(vector_rule_sinks()); }

SINKCHECK_PROPERTY(Sinks, ZeroFillStaysWithinWindow, 3.0) { zero_fill_stays_within_window(windowed_sinks()); }

SINKCHECK_PROPERTY(ChunkedSink, ChunksDoubleUpToTheCap, 10.0) {
    chunks_double_up_to_the_cap(chunked_sink_entry(), vector_sink_entry());
}

SINKCHECK_PROPERTY(StringSink, LeavesShortBufferWithExactAllocation, 10.0) {
    string_leaves_short_buffer_exactly(string_sink_entry());
}

SINKCHECK_PROPERTY(SeekableWriter, WithoutSeeksEqualsSeeklessWriter, 10.0) {
    seekable_writer_without_seeks_equals_seekless(seekable_memory_writer_entry(), memory_writer_entry());
}

SINKCHECK_PROPERTY(SeekableWriter, PatchedBsonLengthsEqualPrecomputed, 10.0) {
    patched_bson_lengths_equal_precomputed(seekable_memory_writer_entry(), memory_writer_entry());
}

SINKCHECK_PROPERTY(SeekableWriter, SeekProgramsMatchAByteArray, 20.0) {
    seek_programs_match_a_byte_array(seekable_memory_writer_entry());
}

}  // namespace
}  // namespace sinkcheck::prop
