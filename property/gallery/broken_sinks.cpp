// The gallery's entries: each broken sink as a sut_entry, with the properties that apply to it.
#include "sinkcheck/testkit/broken_sinks.hpp"
#include "sinkcheck/testkit/registry.hpp"

#include "suts.hpp"

namespace sinkcheck::testkit::gallery {
namespace {

template <container_bug Bug>
struct vector_mutant : over_container<traced_bytes> {
    static const char* const name;
    using growth = vector_doubling;
    static constexpr bool windowed = Bug != container_bug::reports_resized_size;
    static broken_container_sink<traced_bytes> make(target& t, const run_setup& s, growth_observer* o) {
        return broken_container_sink<traced_bytes>(
            t.c, Bug == container_bug::reports_resized_size ? unlimited_window : s.window, Bug, o);
    }
};

/// A vector sink whose traits declare its room but no growth rule, as a user's may: only the
/// check after every write ("a write that fits allocates nothing") stands for its allocations.
template <container_bug Bug>
struct ruleless_vector_mutant : over_container<traced_bytes> {
    static const char* const name;
    static constexpr bool windowed = true;
    static broken_container_sink<traced_bytes> make(target& t, const run_setup& s, growth_observer* o) {
        return broken_container_sink<traced_bytes>(t.c, s.window, Bug, o);
    }
};

template <container_bug Bug>
struct string_mutant : over_container<traced_string> {
    static const char* const name;
    using growth = exact_out_of_short_buffer;
    static constexpr bool windowed = true;
    static broken_container_sink<traced_string> make(target& t, const run_setup& s, growth_observer* o) {
        return broken_container_sink<traced_string>(t.c, s.window, Bug, o);
    }
};

template <chunk_bug Bug>
struct chunked_mutant : owning {
    static const char* const name;
    using growth = chunk_doubling;
    using target = chunked_target;
    using sink_type = broken_chunked_sink<byte_alloc>;
    static sink_type make(target& t, const run_setup& s, growth_observer*) {
        return sink_type(s.first_chunk, s.max_chunk, Bug, byte_alloc(t.log));
    }
    static void capture(sink_type& sink, target& t) {
        t.bytes = sink.flatten();
        t.chunk_sizes = sink.capacities();
    }
};

template <span_bug Bug>
struct span_mutant : span_sink_traits {
    static const char* const name;
    static broken_span_sink make(target& t, const run_setup&, growth_observer*) {
        return broken_span_sink(t.buf.data(), t.buf.size() - 1, Bug);
    }
    static void capture(broken_span_sink& s, target& t) { t.used = s.position(); }
};

template <stream_bug Bug>
struct ostream_mutant : ostream_sink_traits {
    static const char* const name;
    static broken_ostream_sink make(target& t, const run_setup&, growth_observer*) {
        return broken_ostream_sink(t.os, Bug);
    }
};

template <seek_bug Bug>
struct seekable_mutant : owning {
    static const char* const name;
    using growth = vector_doubling;
    static constexpr bool windowed = true;
    using sink_type = broken_seekable_writer<byte_alloc>;
    static sink_type make(target& t, const run_setup&, growth_observer* o) {
        return sink_type(Bug, byte_alloc(t.log), o);
    }
    static void capture(sink_type& sink, target& t) { t.bytes.assign(sink.bytes().begin(), sink.bytes().end()); }
};

template <>
const char* const vector_mutant<container_bug::none>::name = "vector (control)";
template <>
const char* const vector_mutant<container_bug::no_trim_when_unwinding>::name = "vector/no-trim-when-unwinding";
template <>
const char* const vector_mutant<container_bug::trim_to_capacity>::name = "vector/trim-to-capacity";
template <>
const char* const vector_mutant<container_bug::duplicate_at_window_edge>::name = "vector/duplicate-at-window-edge";
template <>
const char* const vector_mutant<container_bug::stops_doubling>::name = "vector/stops-doubling";
template <>
const char* const vector_mutant<container_bug::window_ignored>::name = "vector/window-ignored";
template <>
const char* const vector_mutant<container_bug::reports_resized_size>::name = "legacy_vector/reports-resized-size";
template <>
const char* const vector_mutant<container_bug::trim_ignores_existing>::name = "vector/trim-ignores-existing";
template <>
const char* const vector_mutant<container_bug::moved_from_trims>::name = "vector/moved-from-still-trims";
template <>
const char* const vector_mutant<container_bug::position_lags_growth>::name = "vector/position-lags-growth";
template <>
const char* const ruleless_vector_mutant<container_bug::reallocates_within_capacity>::name =
    "vector/reallocates-within-capacity";
template <>
const char* const ruleless_vector_mutant<container_bug::none>::name = "vector without a growth rule (control)";
template <>
const char* const string_mutant<container_bug::none>::name = "string (control)";
template <>
const char* const string_mutant<container_bug::trim_ignores_existing>::name = "string/trim-ignores-existing";
template <>
const char* const vector_mutant<container_bug::fast_path_strict>::name = "vector/fast-path-strict";
template <>
const char* const ostream_mutant<stream_bug::none>::name = "ostream (control)";
template <>
const char* const ostream_mutant<stream_bug::advances_before_check>::name = "ostream/advances-before-check";
template <>
const char* const span_mutant<span_bug::none>::name = "span (control)";
template <>
const char* const span_mutant<span_bug::limit_one_past_end>::name = "span/limit-one-past-end";
template <>
const char* const string_mutant<container_bug::doubles_out_of_short_buffer>::name =
    "string/doubles-out-of-short-buffer";
template <>
const char* const chunked_mutant<chunk_bug::none>::name = "chunked (control)";
template <>
const char* const chunked_mutant<chunk_bug::cap_ignored>::name = "chunked/cap-ignored";
template <>
const char* const chunked_mutant<chunk_bug::drops_partial_chunk>::name = "chunked/drops-partial-chunk";
template <>
const char* const chunked_mutant<chunk_bug::cap_compared_strictly>::name = "chunked/cap-compared-strictly";
template <>
const char* const seekable_mutant<seek_bug::library_growth>::name = "seekable_memory/library-growth";
template <>
const char* const seekable_mutant<seek_bug::none>::name = "seekable_memory (control)";
template <>
const char* const seekable_mutant<seek_bug::fast_path_forgets_seek>::name = "seekable_memory/fast-path-forgets-seek";
template <>
const char* const vector_mutant<container_bug::window_one_long>::name = "vector/window-one-long";
template <>
const char* const ostream_mutant<stream_bug::error_position_one_based>::name = "ostream/error-position-one-based";
template <>
const char* const vector_mutant<container_bug::move_assign_no_trim>::name = "vector/move-assign-no-trim";
template <>
const char* const vector_mutant<container_bug::growth_reports_needed>::name = "vector/growth-reports-needed";
template <>
const char* const ruleless_vector_mutant<container_bug::grows_on_exact_fill>::name = "vector/grows-on-exact-fill";
template <>
const char* const vector_mutant<container_bug::growth_drops_existing>::name = "vector/growth-drops-existing";
template <>
const char* const vector_mutant<container_bug::position_updated_after_read>::name =
    "vector/position-updated-after-read";
template <>
const char* const vector_mutant<container_bug::growth_ahead_from_previous_call>::name =
    "vector/growth-ahead-from-previous-call";
template <>
const char* const chunked_mutant<chunk_bug::reports_used_as_capacity>::name = "chunked/reports-used-as-capacity";
template <>
const char* const ruleless_vector_mutant<container_bug::shrinks_to_fit>::name = "vector/shrinks-to-fit";
template <>
const char* const chunked_mutant<chunk_bug::frees_used_bytes>::name = "chunked/frees-used-bytes";

const std::vector<std::string> vector_properties = {"WritesIdenticalBytesToTheReference",
                                                    "TrimsToWrittenBytesWhenWritesThrow",
                                                    "CapacityGrowthIgnoresWindow",
                                                    "ZeroFillStaysWithinWindow",
                                                    "AppendsAfterExistingContents",
                                                    "EmptyWritesChangeNothing",
                                                    "KeepsWritingAfterAMove"};
// only the checks after every write can see these: the bytes and the final position are right
const std::vector<std::string> per_write_properties = {"WriteProgramsMatchAByteArray"};
const std::vector<std::string> string_properties = {
    "WritesIdenticalBytesToTheReference", "TrimsToWrittenBytesWhenWritesThrow", "ZeroFillStaysWithinWindow",
    "LeavesShortBufferWithExactAllocation", "AppendsAfterExistingContents"};
const std::vector<std::string> span_properties = {"WritesIdenticalBytesToTheReference", "WriteProgramsMatchAByteArray",
                                                  "FixedCapacityEdges", "EmptyWritesChangeNothing"};
const std::vector<std::string> ostream_properties = {"WritesIdenticalBytesToTheReference",
                                                     "WriteProgramsMatchAByteArray", "EmptyWritesChangeNothing",
                                                     "FailingStreamIsReported"};
const std::vector<std::string> chunked_properties = {"WritesIdenticalBytesToTheReference",
                                                     "TrimsToWrittenBytesWhenWritesThrow", "ChunksDoubleUpToTheCap"};
const std::vector<std::string> seekable_properties = {
    "WritesIdenticalBytesToTheReference", "TrimsToWrittenBytesWhenWritesThrow", "WithoutSeeksEqualsSeeklessWriter",
    "PatchedBsonLengthsEqualPrecomputed", "SeekProgramsMatchAByteArray"};

gallery_entry make(sut_entry sut, std::string seed, std::string regression, const std::vector<std::string>& properties,
                   bool control = false) {
    return {std::move(sut), std::move(seed), std::move(regression), properties, control, ""};
}

/// g, whose mistake the property named must catch (others may too).
gallery_entry caught_by(std::string property, gallery_entry g) {
    g.caught_by = std::move(property);
    return g;
}

}  // namespace

sut_entry vector_growing_on_exact_fill(bool control) {
    return control ? entry<ruleless_vector_mutant<container_bug::none>>()
                   : entry<ruleless_vector_mutant<container_bug::grows_on_exact_fill>>();
}

void fuzz_window_one_long(const fuzz_program& p, bool control) {
    const std::vector<std::uint8_t> blocks = block_bytes(p.prog);
    if (control) {
        fuzz_one_sink<vector_mutant<container_bug::none>>(p, blocks, 1);
    } else {
        fuzz_one_sink<vector_mutant<container_bug::window_one_long>>(p, blocks, 1);
    }
}

std::string registry_verdict(container_bug bug, std::size_t write_fault) {
    const auto thirty_three_byte_writes = [](auto& sink) {
        const std::uint8_t bytes[] = {1, 2, 3};
        for (int i = 0; i < 30; ++i) {
            sink.write(bytes, sizeof bytes);
        }
    };
    sink_faults faults;
    faults.write = write_fault;
    switch (bug) {
        case container_bug::window_one_long:
            return sinkcheck::detail::run_one<vector_mutant<container_bug::window_one_long>>(
                       7, thirty_three_byte_writes, faults)
                .broken;
        case container_bug::no_trim_when_unwinding:
            return sinkcheck::detail::run_one<vector_mutant<container_bug::no_trim_when_unwinding>>(
                       7, thirty_three_byte_writes, faults)
                .broken;
        default:
            return sinkcheck::detail::run_one<vector_mutant<container_bug::none>>(7, thirty_three_byte_writes, faults)
                .broken;
    }
}

const std::vector<gallery_entry>& all_broken_sinks() {
    static const std::vector<gallery_entry> v = {
        make(entry<vector_mutant<container_bug::no_trim_when_unwinding>>(), "000",
             "the destructor skips the trim while an exception unwinds", vector_properties),
        make(entry<vector_mutant<container_bug::trim_to_capacity>>(), "000",
             "the destructor trims to the capacity instead of the position", vector_properties),
        make(entry<vector_mutant<container_bug::duplicate_at_window_edge>>(), "000",
             "a write split at the window edge restarts one byte early", vector_properties),
        make(entry<vector_mutant<container_bug::stops_doubling>>(), "000", "growth drops to 1.5x from 4 KiB on",
             vector_properties),
        caught_by("ZeroFillStaysWithinWindow",
                  make(entry<vector_mutant<container_bug::window_ignored>>(), "000",
                       "the whole new capacity is zero-filled whatever the window", vector_properties)),
        make(entry<vector_mutant<container_bug::reports_resized_size>>(), "000",
             "the legacy sink reports the resized size as its position",
             {"WritesIdenticalBytesToTheReference", "TrimsToWrittenBytesWhenWritesThrow",
              "CapacityGrowthIgnoresWindow"}),
        caught_by("AppendsAfterExistingContents",
                  make(entry<vector_mutant<container_bug::trim_ignores_existing>>(), "000",
                       "the destructor trims to position() and drops the tail of what the vector held before",
                       vector_properties)),
        caught_by("AppendsAfterExistingContents",
                  make(entry<string_mutant<container_bug::trim_ignores_existing>>(), "002",
                       "the destructor trims to position() and drops the tail of what the string held before",
                       string_properties)),
        caught_by("FixedCapacityEdges",
                  make(entry<span_mutant<span_bug::limit_one_past_end>>(), "-",
                       "the limit is one byte past the buffer: an overrun by exactly one byte is stored, not refused",
                       span_properties)),
        caught_by(
            "EmptyWritesChangeNothing",
            make(entry<vector_mutant<container_bug::fast_path_strict>>(), "000",
                 "a write that exactly fills the zero-filled room takes the growth path (n < room for n <= room): an "
                 "empty write there zero-fills another window",
                 vector_properties)),
        caught_by(
            "FailingStreamIsReported",
            make(entry<ostream_mutant<stream_bug::advances_before_check>>(), "-",
                 "position() advances before the stream's state is checked: it counts the bytes the stream refused",
                 ostream_properties)),
        caught_by("LeavesShortBufferWithExactAllocation",
                  make(entry<string_mutant<container_bug::doubles_out_of_short_buffer>>(), "002",
                       "leaving the short buffer still allocates twice its capacity", string_properties)),
        make(entry<chunked_mutant<chunk_bug::cap_ignored>>(), "003", "chunk sizes keep doubling past the cap",
             chunked_properties),
        make(entry<chunked_mutant<chunk_bug::drops_partial_chunk>>(), "003",
             "the final flush drops the chunk that is not full", chunked_properties),
        caught_by(
            "ChunksDoubleUpToTheCap",
            make(entry<chunked_mutant<chunk_bug::cap_compared_strictly>>(), "003",
                 "next < cap / 2 for <=: an odd cap is reached a doubling early (first 1, cap 3: 1 3 3 for 1 2 3)",
                 chunked_properties)),
        make(entry<seekable_mutant<seek_bug::fast_path_forgets_seek>>(), "004",
             "the append fast path is not left when seek() moves the cursor", seekable_properties),
        make(entry<seekable_mutant<seek_bug::library_growth>>(), "004",
             "appending lets std::vector::insert choose the capacity", seekable_properties),
        make(entry<vector_mutant<container_bug::moved_from_trims>>(), "000",
             "the moved-from sink keeps the vector and trims it to where the move happened when it goes",
             vector_properties),
        make(entry<vector_mutant<container_bug::position_lags_growth>>(), "000",
             "position() lags by the write that grew until the next fast-path write",
             {"WriteProgramsMatchAByteArray", "KeepsWritingAfterAMove"}),
        caught_by(
            "WriteProgramsMatchAByteArray",
            make(entry<ruleless_vector_mutant<container_bug::reallocates_within_capacity>>(), "000",
                 "a write that needs no more capacity, only a new window, copies the vector into a new allocation "
                 "(traits declare no growth rule)",
                 per_write_properties)),
        caught_by("ZeroFillStaysWithinWindow", make(entry<vector_mutant<container_bug::window_one_long>>(), "000",
                                                    "a growth zero-fills one byte past the window", vector_properties)),
        caught_by("KeepsWritingAfterAMove",
                  make(entry<vector_mutant<container_bug::move_assign_no_trim>>(), "000",
                       "move assignment leaves the container it gives up untrimmed, its zero-filled window still there",
                       vector_properties)),
        make(entry<vector_mutant<container_bug::growth_reports_needed>>(), "000",
             "a growth event names the bytes needed in all (position + n) as the write's length", vector_properties),
        caught_by(
            "ChunksDoubleUpToTheCap",
            make(entry<chunked_mutant<chunk_bug::reports_used_as_capacity>>(), "003",
                 "the chunk sizes reported are the bytes each chunk holds, not its capacity", chunked_properties)),
        make(entry<chunked_mutant<chunk_bug::frees_used_bytes>>(), "003",
             "the destructor frees each chunk by the bytes it holds, not the size it was allocated with",
             chunked_properties),
        caught_by(
            "AppendsAfterExistingContents",
            make(
                entry<vector_mutant<container_bug::growth_drops_existing>>(), "000",
                "a growth copies only what the sink wrote into the new allocation: the vector's earlier bytes come out "
                "as zeros",
                vector_properties)),
        make(entry<vector_mutant<container_bug::position_updated_after_read>>(), "000",
             "position() brings its cache up to date only after it is read: one call behind, right at the end",
             {"WriteProgramsMatchAByteArray", "KeepsWritingAfterAMove"}),
        caught_by("EmptyWritesChangeNothing",
                  make(entry<vector_mutant<container_bug::growth_ahead_from_previous_call>>(), "000",
                       "a growth event measures the bytes made writable from where the previous write call started",
                       vector_properties)),
        caught_by("FailingStreamIsReported",
                  make(entry<ostream_mutant<stream_bug::error_position_one_based>>(), "-",
                       "the sink error names the failed byte counting from 1, one past the bytes written",
                       ostream_properties)),
        make(entry<ruleless_vector_mutant<container_bug::shrinks_to_fit>>(), "000",
             "the trim shrinks the vector to fit: one allocation while the sink is destroyed", per_write_properties),
        make(entry<vector_mutant<container_bug::none>>(), "000", "none (control)", vector_properties, true),
        make(entry<ruleless_vector_mutant<container_bug::none>>(), "000", "none (control)", per_write_properties, true),
        make(entry<string_mutant<container_bug::none>>(), "002", "none (control)", string_properties, true),
        make(entry<chunked_mutant<chunk_bug::none>>(), "003", "none (control)", chunked_properties, true),
        make(entry<seekable_mutant<seek_bug::none>>(), "004", "none (control)", seekable_properties, true),
        make(entry<span_mutant<span_bug::none>>(), "-", "none (control)", span_properties, true),
        make(entry<ostream_mutant<stream_bug::none>>(), "-", "none (control)", ostream_properties, true),
    };
    return v;
}

}  // namespace sinkcheck::testkit::gallery
