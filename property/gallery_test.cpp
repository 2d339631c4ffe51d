// The broken-sink gallery: proof that the properties have teeth.
//
// Every broken sink (gallery/broken_sinks.hpp) is run through every property that applies to
// its kind of sink, with the property code the real sinks pass (properties.hpp). The test for
// a broken sink fails unless at least one property catches it; it prints, per property, whether
// it caught the mistake, after how many cases, the shrunk counterexample and the RC_PARAMS line
// that replays it. The controls (the same code unbroken) must pass every property instead.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "sinkcheck/testkit/broken_sinks.hpp"
#include "sinkcheck/testkit/check.hpp"
#include "sinkcheck/testkit/properties.hpp"
#include "suts.hpp"

namespace sinkcheck::testkit::gallery {
namespace {

using property_fn = std::function<void(const sut_entry&)>;

/// The properties by name: every promise of sink_promises() (promises.hpp), with the weight
/// a user's sink gets, so the gallery shows what SINKCHECK_SINK_PROPERTIES catches; then the
/// promises only sinkcheck's own sinks make (sinks_test.cpp), at a third of their weight there,
/// since the planted mistakes are caught within the first few cases and the controls must run
/// every property to the end.
const std::map<std::string, std::pair<property_fn, double>>& property_table() {
    static const std::map<std::string, std::pair<property_fn, double>> table = [] {
        std::map<std::string, std::pair<property_fn, double>> t;
        for (const sink_promise& p : sink_promises()) {
            t[p.name] = {[id = p.id](const sut_entry& s) { check_promise(id, s); }, p.weight};
        }
        t["ChunksDoubleUpToTheCap"] = {
            [](const sut_entry& s) { chunks_double_up_to_the_cap(s, builtin_entry("vector")); }, 5.0};
        t["LeavesShortBufferWithExactAllocation"] = {[](const sut_entry& s) { string_leaves_short_buffer_exactly(s); },
                                                     5.0};
        t["PatchedBsonLengthsEqualPrecomputed"] = {
            [](const sut_entry& s) { patched_bson_lengths_equal_precomputed(s, baseline_entry()); }, 3.0};
        t["SeekProgramsMatchAByteArray"] = {[](const sut_entry& s) { seek_programs_match_a_byte_array(s); }, 5.0};
        return t;
    }();
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
    bool caught_by_its_property = false;
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
            caught_by_its_property = caught_by_its_property || name == g.caught_by;
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
    if (!g.caught_by.empty()) {
        EXPECT_TRUE(caught_by_its_property) << g.sut.name << " (" << g.regression << ") was not caught by "
                                            << g.caught_by << ", the property whose check it breaks";
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

/// A sink that keeps every promise and tells the test which write its run was set to fail at:
/// the probe that shows what TrimsToWrittenBytesWhenWritesThrow asks of a sink.
struct fault_probe {
    struct run {
        std::size_t write_fault;
        std::size_t writes_seen = 0;
    };
    static std::vector<run>& runs() {
        static std::vector<run> v;
        return v;
    }
    class sink {
    public:
        explicit sink(std::vector<std::uint8_t>& bytes) : bytes_(&bytes) {}
        void write(std::uint8_t b) { write(&b, 1); }
        void write(const std::uint8_t* p, std::size_t n) {
            ++runs().back().writes_seen;
            bytes_->insert(bytes_->end(), p, p + n);
        }
        std::size_t position() const noexcept { return bytes_->size(); }

    private:
        std::vector<std::uint8_t>* bytes_;
    };

    static constexpr const char* name = "fault probe";
    struct target {
        std::vector<std::uint8_t> bytes;
    };
    static sink make(target& t, const run_setup& s, growth_observer*) {
        runs().push_back({s.write_fault});
        return sink(t.bytes);
    }
    static std::vector<std::uint8_t> contents(target& t) { return t.bytes; }
};

// After a run without a fault that made n writes, the property reruns the document with a throw
// at write 1, 2, ... n: every write call, the last one included (a fault before the sink sees the
// write, so the faulted run at write k reaches the sink k - 1 times).
TEST(GalleryFaults, TheFaultPropertyThrowsAtEveryWriteCallTheLastIncluded) {
    const sut_entry probe = entry<fault_probe>();
    fault_probe::runs().clear();
    rc::detail::TestListenerAdapter quiet;
    const check_outcome out = check_property(
        "GalleryFaults/fault-probe", [&] { trims_to_written_bytes_when_writes_throw({probe}); }, 0.3, quiet);
    ASSERT_FALSE(out.failed) << out.report;
    const std::vector<fault_probe::run>& runs = fault_probe::runs();
    ASSERT_FALSE(runs.empty());
    std::size_t i = 0;
    while (i < runs.size()) {
        ASSERT_EQ(runs[i].write_fault, 0U) << "run " << i << ": a faulted run without the full run before it";
        const std::size_t writes = runs[i].writes_seen;
        ++i;
        for (std::size_t k = 1; k <= writes; ++k, ++i) {
            ASSERT_LT(i, runs.size()) << "the property stopped before the throw at write " << k << " of " << writes;
            ASSERT_EQ(runs[i].write_fault, k) << "run " << i << ", after a full run of " << writes << " writes";
            EXPECT_EQ(runs[i].writes_seen, k - 1) << "run " << i << " reached the sink past its fault";
        }
    }
}

// "A write that fits in the room allocates nothing" (the check after every write) includes the
// write that fills the room exactly: the 64th of 64 one-byte writes fills the vector's first
// 64-byte allocation, and the broken vector grows there.
TEST(GalleryRoom, AWriteThatExactlyFillsTheRoomMayNotAllocate) {
    write_program prog;
    for (std::size_t i = 0; i < 64; ++i) {
        write_op op;
        op.what = write_op::kind::byte;
        op.salt = static_cast<std::uint8_t>(i);
        prog.ops.push_back(op);
    }
    run_setup setup;
    setup.window = 1;
    EXPECT_EQ(vector_growing_on_exact_fill(true).program(prog, setup).invariant, "");
    const std::string broken = vector_growing_on_exact_fill(false).program(prog, setup).invariant;
    EXPECT_NE(broken.find("after write call #64 (1 byte): the write fitted in the 1 bytes of room"), std::string::npos)
        << "the check after every write reports: \"" << broken << "\"";
}

/// Thirty writes of three bytes through a window of 7: the first growth, at byte 0, is where a
/// window one byte long shows.
fuzz_program three_byte_writes() {
    fuzz_program p;
    p.setup.window = 7;
    for (std::size_t i = 0; i < 30; ++i) {
        write_op op;
        op.what = write_op::kind::block;
        op.length = 3;
        op.salt = static_cast<std::uint8_t>(i);
        p.prog.ops.push_back(op);
        p.bytes += op.length;
    }
    p.setup.span_capacity = p.bytes;
    return p;
}

// The sink fuzzer's checks have teeth too: the control runs the program through them and returns,
// the vector whose window is a byte too long stops the process at its zero-fill check.
TEST(GallerySinkFuzzer, TheControlPasses) { fuzz_window_one_long(three_byte_writes(), true); }

TEST(GallerySinkFuzzerDeathTest, CatchesAGrowthOneBytePastTheWindow) {
    EXPECT_DEATH(fuzz_window_one_long(three_byte_writes(), false),
                 "a growth at byte 0 for a write of 3 made 8 bytes writable ahead of the cursor with window 7");
}

// The registry judges every run it makes by the promises of its sink (what `sinkcheck check`, the
// differential fuzz targets and fuzz_fault rely on): the control keeps them all, the vector whose
// window is a byte too long and the one that skips its trim while unwinding do not.
TEST(GalleryRegistry, JudgesEveryRunByTheSinksPromises) {
    EXPECT_EQ(registry_verdict(container_bug::none, 0), "");
    EXPECT_EQ(registry_verdict(container_bug::none, 5), "");
    EXPECT_EQ(registry_verdict(container_bug::window_one_long, 0),
              "ZeroFillStaysWithinWindow: a growth at byte 0 for a write of 3 made 8 bytes writable ahead of the "
              "cursor with window 7");
    EXPECT_EQ(registry_verdict(container_bug::no_trim_when_unwinding, 0), "");
    const std::string untrimmed = registry_verdict(container_bug::no_trim_when_unwinding, 5);
    EXPECT_EQ(untrimmed.rfind("WriteProgramsMatchAByteArray: after injected write fault", 0), 0u) << untrimmed;
}

}  // namespace
}  // namespace sinkcheck::testkit::gallery
