// The broken-sink gallery: proof that the properties have teeth.
//
// Every broken sink (gallery/broken_sinks.hpp) is run through every property that applies to
// its kind of sink, with the property code the real sinks pass (properties.hpp). The test for
// a broken sink fails unless at least one property catches it; it prints, per property, whether
// it caught the mistake, after how many cases, the shrunk counterexample and the RC_PARAMS line
// that replays it. The controls (the same code unbroken) must pass every property instead.
#include <cstddef>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>

#include "sinkcheck/testkit/broken_sinks.hpp"
#include "sinkcheck/testkit/check.hpp"
#include "sinkcheck/testkit/properties.hpp"
#include "suts.hpp"

namespace sinkcheck::testkit::gallery {
namespace {

using property_fn = void (*)(const sut_entry&);

/// The properties by name, each with its weight here: a third or less of what the real sinks
/// get (sinks_test.cpp), since the planted mistakes are caught within the first few cases, and
/// the controls must run every property to the end.
const std::map<std::string, std::pair<property_fn, double>>& property_table() {
    static const std::map<std::string, std::pair<property_fn, double>> table = {
        {"AllSinksWriteIdenticalBytes",
         {[](const sut_entry& s) {
              all_sinks_write_identical_bytes({baseline_entry(), s});
          },
          1.0}},
        {"TrimToWrittenBytesWhenWritesThrow",
         {[](const sut_entry& s) { trims_to_written_bytes_when_writes_throw({s}); }, 3.0}},
        {"CapacityGrowthIgnoresWindow",
         {[](const sut_entry& s) {
              capacity_growth_ignores_window({baseline_entry(), s});
          },
          1.0}},
        {"ZeroFillStaysWithinWindow", {[](const sut_entry& s) { zero_fill_stays_within_window({s}); }, 1.0}},
        {"ChunksDoubleUpToTheCap",
         {[](const sut_entry& s) { chunks_double_up_to_the_cap(s, builtin_entry("vector")); }, 5.0}},
        {"LeavesShortBufferWithExactAllocation",
         {[](const sut_entry& s) { string_leaves_short_buffer_exactly(s); }, 5.0}},
        {"WithoutSeeksEqualsSeeklessWriter",
         {[](const sut_entry& s) { seekable_writer_without_seeks_equals_seekless(s, baseline_entry()); }, 3.0}},
        {"PatchedBsonLengthsEqualPrecomputed",
         {[](const sut_entry& s) { patched_bson_lengths_equal_precomputed(s, baseline_entry()); }, 3.0}},
        {"SeekProgramsMatchAByteArray", {[](const sut_entry& s) { seek_programs_match_a_byte_array(s); }, 5.0}},
        {"WriteProgramsMatchAByteArray", {[](const sut_entry& s) { write_programs_match_a_byte_array(s); }, 3.0}},
        {"AppendsAfterExistingContents", {[](const sut_entry& s) { appends_after_existing_contents(s); }, 3.0}},
        {"FixedCapacityEdges", {[](const sut_entry& s) { fixed_capacity_edges(s); }, 3.0}},
        {"KeepsWritingAfterAMove", {[](const sut_entry& s) { keeps_writing_after_a_move(s); }, 3.0}},
        {"EmptyWritesChangeNothing", {[](const sut_entry& s) { empty_writes_change_nothing(s); }, 3.0}},
        {"FailingStreamIsReported", {[](const sut_entry& s) { failing_stream_is_reported(s); }, 3.0}},
    };
    return table;
}

class Gallery : public ::testing::TestWithParam<std::size_t> {};

std::string indent(const std::string& text) {
    std::string out = "      ";
    for (char c : text) {
        out += c;
        if (c == '\n') {
            out += "      ";
        }
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '\n')) {
        out.pop_back();
    }
    return out;
}

TEST_P(Gallery, EveryBrokenSinkIsCaught) {
    const gallery_entry& g = all_broken_sinks()[GetParam()];
    std::cout << g.sut.name << " (seed " << g.seed << "): " << g.regression << "\n";
    rc::detail::TestListenerAdapter quiet;
    std::size_t caught = 0;
    for (const std::string& name : g.properties) {
        // not a structured binding: C++17 lambdas cannot capture one (clang refuses)
        const property_fn fn = property_table().at(name).first;
        const double weight = property_table().at(name).second;
        const sut_entry& sut = g.sut;
        const std::string id = "Gallery/" + g.sut.name + "/" + name;
        const check_outcome out = check_property(
            id, [&] { fn(sut); }, weight, quiet);
        if (out.failed && !out.gave_up) {
            ++caught;
            std::cout << "  CAUGHT by " << name << " at case " << out.passed + 1 << " (" << std::fixed
                      << std::setprecision(2) << out.seconds << " s)\n"
                      << "    shrunk counterexample:\n"
                      << indent(out.counterexample) << "\n    why:\n"
                      << indent(out.description) << "\n    replay: RC_PARAMS=\"" << out.reproduce
                      << "\" --gtest_filter="
                      << ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name() << "."
                      << ::testing::UnitTest::GetInstance()->current_test_info()->name() << "\n";
        } else if (out.gave_up) {
            std::cout << "  no verdict from " << name << ":\n" << indent(out.report) << "\n";
        } else {
            std::cout << "  passed " << name << " (" << out.passed << " cases, " << std::fixed << std::setprecision(2)
                      << out.seconds << " s)\n";
        }
        if (g.control && out.failed) {
            ADD_FAILURE() << "the unbroken control " << g.sut.name << " fails " << name << ":\n" << out.report;
        }
    }
    if (!g.control) {
        EXPECT_GT(caught, 0U) << g.sut.name << " (" << g.regression << ") was caught by no property";
    }
}

std::string test_name(const ::testing::TestParamInfo<std::size_t>& info) {
    std::string name;
    for (char c : all_broken_sinks()[info.param].sut.name) {
        const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (word) {
            name += c;
        } else if (!name.empty() && name.back() != '_') {
            name += '_';
        }
    }
    while (!name.empty() && name.back() == '_') {
        name.pop_back();
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(BrokenSinks, Gallery, ::testing::Range<std::size_t>(0, all_broken_sinks().size()), test_name);

}  // namespace
}  // namespace sinkcheck::testkit::gallery
