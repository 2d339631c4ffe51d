// seekable_memory_writer: seed 004's seekable writer — append-only like the seekless one, plus
// overwrite, extension past the end, zero-filled gaps, and BSON length patching.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sink_test_programs.hpp"
#include "sinkcheck/format/bson.hpp"
#include "sinkcheck/sink/memory_writer.hpp"
#include "sinkcheck/sink/seekable_memory_writer.hpp"
#include "sinkcheck/testkit/instrument/capacity_trace.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"

namespace sinkcheck {
namespace {

using test::program_of;
using test::run_writes;
using bytes = std::vector<std::uint8_t>;
using json = nlohmann::json;

void put(seekable_memory_writer& w, const char* text) {
    for (; *text != '\0'; ++text) {
        w.write(static_cast<std::uint8_t>(*text));
    }
}

bytes text(const std::string& s) { return bytes(s.begin(), s.end()); }

TEST(SeekableMemoryWriter, AppendOnlyMatchesTheSeeklessWriter) {
    const auto p = test::mixed_program(51, 300000);
    capacity_trace seekable_trace, seekless_trace;
    seekable_memory_writer a;
    memory_writer b;
    a.set_observer(&seekable_trace);
    b.set_observer(&seekless_trace);
    run_writes(a, p);
    run_writes(b, p);
    EXPECT_EQ(a.size(), p.bytes().size());
    EXPECT_EQ(a.take(), b.take());
    EXPECT_EQ(seekable_trace.capacities(), seekless_trace.capacities());
}

TEST(SeekableMemoryWriter, SeekBackOverwritesInPlace) {
    seekable_memory_writer w;
    put(w, "abcdef");
    w.seek(2);
    put(w, "XY");
    EXPECT_EQ(w.position(), 4u);
    EXPECT_EQ(w.size(), 6u);
    EXPECT_EQ(w.bytes(), text("abXYef"));
}

TEST(SeekableMemoryWriter, AWriteAcrossTheEndExtendsTheOutput) {
    seekable_memory_writer w;
    put(w, "abcdef");
    w.seek(4);
    const std::uint8_t xyz[] = {'X', 'Y', 'Z'};
    w.write(xyz, 3);
    EXPECT_EQ(w.size(), 7u);
    put(w, "!");
    EXPECT_EQ(w.bytes(), text("abcdXYZ!"));
}

TEST(SeekableMemoryWriter, WritingAfterASeekPastTheEndZeroFillsTheGap) {
    seekable_memory_writer w;
    put(w, "ab");
    w.seek(5);
    EXPECT_EQ(w.position(), 5u);
    put(w, "c");
    EXPECT_EQ(w.bytes(), (bytes{'a', 'b', 0, 0, 0, 'c'}));
}

TEST(SeekableMemoryWriter, ASeekPastTheEndAloneChangesNothing) {
    seekable_memory_writer w;
    put(w, "ab");
    w.seek(10);
    EXPECT_EQ(w.size(), 2u);
    EXPECT_EQ(w.bytes(), text("ab"));
    w.seek(2);
    put(w, "c");
    EXPECT_EQ(w.bytes(), text("abc"));
}

TEST(SeekableMemoryWriter, SeekPastTheCapacityThenWrite) {
    seekable_memory_writer w;
    w.seek(100000);
    put(w, "z");
    const bytes& out = w.bytes();
    ASSERT_EQ(out.size(), 100001u);
    EXPECT_TRUE(std::all_of(out.begin(), out.end() - 1, [](std::uint8_t b) { return b == 0; }));
    EXPECT_EQ(out.back(), 'z');
}

TEST(SeekableMemoryWriter, SeekingBackToTheEndReturnsToAppending) {
    seekable_memory_writer w(0, 4);
    put(w, "0000body");
    const std::size_t end = w.position();
    w.seek(0);
    put(w, "LEN:");
    w.seek(end);
    put(w, "tail-longer-than-the-window");
    EXPECT_EQ(w.bytes(), text("LEN:bodytail-longer-than-the-window"));
}

// A BSON document written with a placeholder length and patched, by hand: {"a":1,"b":"xy"}
// is 4 + 7 (int32 element) + 10 (string element) + 1 = 22 bytes.
TEST(SeekableMemoryWriter, PatchedLengthEqualsThePrecomputedEncoding) {
    seekable_memory_writer w;
    const std::uint8_t placeholder[4] = {0, 0, 0, 0};
    w.write(placeholder, 4);
    const std::uint8_t body[] = {0x10, 'a', 0, 1, 0, 0, 0, 0x02, 'b', 0, 3, 0, 0, 0, 'x', 'y', 0, 0};
    w.write(body, sizeof body);
    const std::size_t end = w.position();
    w.seek(0);
    const std::uint8_t length[4] = {static_cast<std::uint8_t>(end), 0, 0, 0};
    w.write(length, 4);
    w.seek(end);
    const bytes expected = {0x16, 0, 0, 0, 0x10, 'a', 0, 1, 0, 0, 0, 0x02, 'b', 0, 3, 0, 0, 0, 'x', 'y', 0, 0};
    EXPECT_EQ(w.bytes(), expected);
    EXPECT_EQ(w.bytes(), json::to_bson(json{{"a", 1}, {"b", "xy"}}));
}

TEST(SeekableMemoryWriter, BsonEncoderPatchesLengthsThroughSeek) {
    encode_options patch;
    patch.bson_patch_lengths = true;
    const json docs[] = {
        json::object(),
        json{{"a", 1}, {"b", "xy"}},
        json::parse(R"({"n":{"m":{"k":[1,2,{"z":null}]}},"s":"text","f":1.5,"t":true})"),
        json{{"big", std::string(70000, 'q')}, {"arr", json::array({1, 2, 3})}},
    };
    for (const json& j : docs) {
        for (std::size_t window : {1u, 16u, 65536u}) {
            seekable_memory_writer w(0, window);
            encode_bson(j, w, patch);
            EXPECT_EQ(w.take(), json::to_bson(j)) << j.dump().substr(0, 80) << " window " << window;
        }
    }
}

/// The seekable writer's semantics, spelled out on a plain vector.
struct model {
    bytes out;
    std::size_t pos = 0;
    void write(const bytes& b) {
        if (out.size() < pos + b.size()) {
            out.resize(pos + b.size(), 0);  // the gap, if any, reads as zeros
        }
        std::copy(b.begin(), b.end(), out.begin() + static_cast<std::ptrdiff_t>(pos));
        pos += b.size();
    }
};

TEST(SeekableMemoryWriter, RandomSeeksAndWritesMatchAPlainModel) {
    std::mt19937_64 rng(20261202);
    for (int round = 0; round < 200; ++round) {
        seekable_memory_writer w(0, 1 + rng() % 100);
        model m;
        for (int op = 0; op < 60; ++op) {
            const auto r = rng() % 10;
            if (r < 3) {
                const std::size_t to = rng() % (m.out.size() + 40);
                w.seek(to);
                m.pos = to;
            } else if (r == 3) {
                EXPECT_EQ(w.bytes(), m.out);
            } else {
                const bytes b = test::pattern(r == 9 ? rng() % 500 : 1 + rng() % 9, rng() % 7);
                if (b.size() == 1) {
                    w.write(b[0]);
                } else {
                    w.write(b.data(), b.size());
                }
                m.write(b);
            }
            ASSERT_EQ(w.position(), m.pos);
            ASSERT_EQ(w.size(), m.out.size());
        }
        EXPECT_EQ(w.take(), m.out) << "round " << round;
    }
}

// The vector's max_size() bounds the output: a write reaching past it is refused with
// std::length_error and changes nothing, whether it appends at the end or overwrites across it
// after a seek back; a write that ends exactly at max_size still goes through.
TEST(SeekableMemoryWriter, RefusesAWriteBeyondTheVectorsMaxSizeWithLengthError) {
    using capped = test::capped_allocator<std::uint8_t, 128>;
    const auto p = program_of({60, 68});
    basic_seekable_memory_writer<capped> w;
    run_writes(w, p);
    EXPECT_EQ(w.capacity(), 128u);
    try {
        w.write(0x01);
        ADD_FAILURE() << "appended past max_size";
    } catch (const std::length_error& e) {
        EXPECT_STREQ(e.what(), "seekable_memory_writer: a write of 1 bytes at 128 exceeds max_size");
    }
    EXPECT_EQ(w.position(), 128u);

    const auto patch = test::pattern(29, 9);
    w.seek(100);
    try {
        w.write(patch.data(), 29);
        ADD_FAILURE() << "overwrote past max_size";
    } catch (const std::length_error& e) {
        EXPECT_STREQ(e.what(), "seekable_memory_writer: a write of 29 bytes at 100 exceeds max_size");
    }
    EXPECT_EQ(w.position(), 100u);
    EXPECT_EQ(w.size(), 128u);

    w.write(patch.data(), 28);
    bytes expected = p.bytes();
    std::copy(patch.begin(), patch.begin() + 28, expected.begin() + 100);
    const auto& out = w.bytes();
    EXPECT_EQ(bytes(out.begin(), out.end()), expected);
}

TEST(SeekableMemoryWriter, AFailedSeekPastTheCapacityChangesNothing) {
    auto log = std::make_shared<allocation_log>();
    basic_seekable_memory_writer<tracing_allocator<std::uint8_t>> w(0, default_window,
                                                                    tracing_allocator<std::uint8_t>(log));
    w.write(0x01);
    log->fail_at(1);
    EXPECT_THROW(w.seek(1000), std::bad_alloc);
    EXPECT_EQ(w.position(), 1u);
    w.write(0x02);
    EXPECT_EQ(w.bytes(), (std::vector<std::uint8_t, tracing_allocator<std::uint8_t>>(
                             {1, 2}, tracing_allocator<std::uint8_t>(log))));
}

}  // namespace
}  // namespace sinkcheck
