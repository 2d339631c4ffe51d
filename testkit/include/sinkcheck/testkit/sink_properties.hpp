// sinkcheck/testkit/sink_properties.hpp — the properties of a sink, as functions of a sut_entry.
//
// Each checks one promise of every sink it applies to, drawing its inputs with RapidCheck (so it
// runs inside a property: check_property, SINKCHECK_PROPERTY, SINKCHECK_SINK_PROPERTIES) and
// judging each run with the judges of the promises (promises.hpp, the one list). They are
// compiled once, in the kit's library sinkcheck::testkit_properties (testkit/src/properties.cpp);
// this header is all a check needs to call them. docs/properties.md numbers them and says more.
#pragma once

#include <vector>

#include "sinkcheck/testkit/harness.hpp"
#include "sinkcheck/testkit/promises.hpp"

namespace sinkcheck::testkit {

/// The sink every property compares with: the seekless memory writer (sinks.hpp, baseline_sink).
const sut_entry& baseline_entry();

/// (1) Every sink writes the bytes of suts.front(), the baseline, in every format and window,
/// reaches the same position() and ends in the same way; its target holds the writes that returned.
void all_sinks_write_identical_bytes(const std::vector<sut_entry>& suts);

/// (4) A throw at any write, at any allocation, or the encoder's own refusal leaves the target
/// holding exactly the writes before it; the sink is destroyed while the exception unwinds, its
/// destructor does not allocate, and nothing leaks.
void trims_to_written_bytes_when_writes_throw(const std::vector<sut_entry>& suts);

/// (5) The sinks with seed 000's growth rule allocate the same capacities at every window, and
/// they are the rule replayed over the writes.
void capacity_growth_ignores_window(const std::vector<sut_entry>& suts);

/// (6) A growth never makes more than max(window, the write) bytes writable ahead of the cursor.
void zero_fill_stays_within_window(const std::vector<sut_entry>& suts);

/// (7) The chunked sink's chunks are the doubling rule replayed over the writes, within its bound,
/// and hold vector_like's bytes.
void chunks_double_up_to_the_cap(const sut_entry& chunked, const sut_entry& vector_like);

/// (8) The string sink allocates needed + 1 when it leaves the short buffer, then
/// max(needed, 2 * capacity) + 1.
void string_leaves_short_buffer_exactly(const sut_entry& string_like);

/// (9a) Without a seek, the seekable writer writes the seekless writer's bytes with the same
/// allocations.
void seekable_writer_without_seeks_equals_seekless(const sut_entry& seekable, const sut_entry& seekless);

/// (9b) BSON with lengths patched through seek() equals BSON with lengths computed first.
void patched_bson_lengths_equal_precomputed(const sut_entry& seekable, const sut_entry& baseline);

/// Any sink: a write program (with seeks when the sink can seek, and a throw at one write)
/// leaves the target holding exactly the bytes of the writes that returned, where they went.
void write_programs_match_a_byte_array(const sut_entry& s);

/// Any sink whose target can hold bytes before it is made (traits `appends`): after a write
/// program, with a throw at one write now and then, the target holds its earlier bytes and then
/// exactly the writes that returned — trimmed to earlier + written also while unwinding — and
/// position() counts only what was written through the sink.
void appends_after_existing_contents(const sut_entry& s);

/// Any fixed-capacity sink: a write program that needs exactly the capacity completes; with one
/// byte less, the write that would store the last byte throws, the buffer holds exactly the
/// writes before it and nothing is stored past its end (a canary byte there shows in contents()).
void fixed_capacity_edges(const sut_entry& s);

/// Any sink: empty writes (write(p, 0)) put anywhere in a write program change nothing — the
/// bytes, position(), the outcome, the allocations, the growths reported and the chunks are
/// those of the program without them.
void empty_writes_change_nothing(const sut_entry& s);

/// Any sink over a stream its target can make fail (traits `streams`): when the stream refuses a
/// byte, the write that reached it throws sink_error naming the first byte not written (the
/// bytes of the writes that returned), position() counts only those, and the stream holds them
/// (and possibly part of the failing write, never more than it took). A sink that keeps up to
/// `buffers` bytes before they reach its stream (traits `buffers`, with a `finish` step) may
/// report the failure at a later write or at finish(), but never silently, and never after its
/// writes went more than `buffers` bytes past the refused byte; position() counts the writes that
/// returned, the error names a byte the stream did not take, and the stream holds the beginning
/// of the writes and nothing past the byte it refused.
void failing_stream_is_reported(const sut_entry& s);

/// Any movable sink: moved part way through a write program (move-constructed, or move-assigned
/// over a sink on a second target when it can be), with a throw at one write now and then, the
/// new owner goes on writing where the old one stopped and only it trims: the target holds its
/// earlier bytes and exactly the writes that returned, whether the moved-from sink is destroyed
/// at once, before the new owner or after it (while an exception unwinds too); the second target
/// holds only what it held before; position() counts every byte written through either.
void keeps_writing_after_a_move(const sut_entry& s);

/// Any seekable sink: write_programs_match_a_byte_array, whose programs seek.
void seek_programs_match_a_byte_array(const sut_entry& seekable);

/// Any sink with a growth rule: the allocations its target makes are exactly what the rule says
/// for the writes it was given, for write programs and encodings, at every window.
void follows_its_growth_rule(const sut_entry& s);

/// The property of promise p (sink_promises(), promises.hpp) on sink s: draws its runs and
/// judges them. One case per id; a promise added to the enum without its case here is a
/// compile error (-Wswitch).
void check_promise(promise p, const sut_entry& s);

}  // namespace sinkcheck::testkit
