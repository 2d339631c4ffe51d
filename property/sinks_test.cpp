// Properties 1 and 4-9 on the real sinks: same bytes everywhere, trimming when writes throw,
// capacity growth, zero-fill, and each sink's own promise (docs/properties.md). The weight is
// the share of RC_PARAMS max_success a property runs: the cheap ones run more cases.
#include <string>

#include "sinkcheck/testkit/check.hpp"
#include "sinkcheck/testkit/properties.hpp"
#include "suts.hpp"

namespace sinkcheck::testkit {
namespace {

// Every sink here comes from testkit::builtin_sinks (suts.cpp), as do the registry's: a sink in
// that list is under every property below that fits it.

SINKCHECK_PROPERTY(Sinks, AllSinksWriteIdenticalBytes, 3.0) { all_sinks_write_identical_bytes(all_real_sinks()); }

SINKCHECK_PROPERTY(Sinks, WriteProgramsMatchAByteArray, 2.0) {
    for (const sut_entry& s : all_real_sinks()) {
        write_programs_match_a_byte_array(s);
    }
}

SINKCHECK_PROPERTY(Sinks, AppendAfterExistingContents, 2.0) {
    for (const sut_entry& s : all_real_sinks()) {
        if (s.appends) {
            appends_after_existing_contents(s);
        }
    }
}

SINKCHECK_PROPERTY(Sinks, KeepWritingAfterAMove, 2.0) {
    for (const sut_entry& s : all_real_sinks()) {
        if (s.move_constructible) {
            keeps_writing_after_a_move(s);
        }
    }
}

SINKCHECK_PROPERTY(Sinks, FixedCapacityEdges, 2.0) {
    for (const sut_entry& s : all_real_sinks()) {
        if (s.fixed_capacity) {
            fixed_capacity_edges(s);
        }
    }
}

SINKCHECK_PROPERTY(Sinks, EmptyWritesChangeNothing, 2.0) {
    for (const sut_entry& s : all_real_sinks()) {
        empty_writes_change_nothing(s);
    }
}

SINKCHECK_PROPERTY(Sinks, FailingStreamIsReported, 2.0) {
    for (const sut_entry& s : all_real_sinks()) {
        if (s.streams) {
            failing_stream_is_reported(s);
        }
    }
}

SINKCHECK_PROPERTY(Sinks, EachFollowsItsGrowthRule, 2.0) {
    for (const sut_entry& s : all_real_sinks()) {
        if (!s.growth.empty()) {
            follows_its_growth_rule(s);
        }
    }
}

SINKCHECK_PROPERTY(Sinks, TrimToWrittenBytesWhenWritesThrow, 10.0) {
    trims_to_written_bytes_when_writes_throw(all_real_sinks());
}

SINKCHECK_PROPERTY(Sinks, CapacityGrowthIgnoresWindow, 3.0) { capacity_growth_ignores_window(vector_rule_sinks()); }

SINKCHECK_PROPERTY(Sinks, ZeroFillStaysWithinWindow, 3.0) { zero_fill_stays_within_window(windowed_sinks()); }

SINKCHECK_PROPERTY(ChunkedSink, ChunksDoubleUpToTheCap, 10.0) {
    chunks_double_up_to_the_cap(builtin_entry("chunked"), builtin_entry("vector"));
}

SINKCHECK_PROPERTY(StringSink, LeavesShortBufferWithExactAllocation, 10.0) {
    string_leaves_short_buffer_exactly(builtin_entry("string"));
}

SINKCHECK_PROPERTY(SeekableWriter, WithoutSeeksEqualsSeeklessWriter, 10.0) {
    seekable_writer_without_seeks_equals_seekless(builtin_entry("seekable_memory"), baseline_entry());
}

SINKCHECK_PROPERTY(SeekableWriter, PatchedBsonLengthsEqualPrecomputed, 10.0) {
    patched_bson_lengths_equal_precomputed(builtin_entry("seekable_memory"), baseline_entry());
}

SINKCHECK_PROPERTY(SeekableWriter, SeekProgramsMatchAByteArray, 20.0) {
    seek_programs_match_a_byte_array(builtin_entry("seekable_memory"));
}

}  // namespace
}  // namespace sinkcheck::testkit
