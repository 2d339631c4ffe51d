// bench/sinks_bench.cpp — rows 3, 4, 6, 7, 8 and 9: the sinks alone, each seed's claim against
// its "before".
//
//   3  vector_sink (64 KiB window) vs legacy_vector_sink, 1-16 MB, fresh and reused     >= 1.15x
//   4  the same, a reused vector larger than the last-level cache (32 MiB here)        >= 1.00x
//   6  9-byte records through a sink vs one memcpy of the same bytes                   >= 0.65x
//   7  seekable vs seekless memory writer, append only                      >= 0.97x (3 % slower)
//   8  chunked sink vs one growing vector and vs fixed 2 KiB chunks: speed, allocations
//   9  string sink, exact growth out of the short buffer vs 2x minimum: bytes allocated
//
// The write program is the one an encoder of num1M produces: 9-byte records, a marker and a
// big-endian 64-bit number (a CBOR or MessagePack uint64 head).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sinkcheck/detail/bytes.hpp"
#include "sinkcheck/sink/chunked_sink.hpp"
#include "sinkcheck/sink/legacy_vector_sink.hpp"
#include "sinkcheck/sink/memory_writer.hpp"
#include "sinkcheck/sink/seekable_memory_writer.hpp"
#include "sinkcheck/sink/span_sink.hpp"
#include "sinkcheck/sink/string_sink.hpp"
#include "sinkcheck/sink/vector_sink.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"

#include "alloc_count.hpp"
#include "paired.hpp"

namespace sb = sinkcheck::bench;

namespace {

constexpr std::size_t record = 9;
constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * KiB;

/// Writes `bytes / 9` records of the num1M shape into sink.
template <class Sink>
void write_records(Sink& sink, std::size_t bytes) {
    const std::size_t n = bytes / record;
    for (std::size_t i = 0; i < n; ++i) {
        sinkcheck::detail::put_marker_be(sink, 0x1b, (i * 0x9E3779B97F4A7C15ULL) >> 1);
    }
}

template <class Sink>
std::size_t records_fresh(std::size_t bytes) {
    std::vector<std::uint8_t> v;
    {
        Sink sink(v);
        write_records(sink, bytes);
    }
    sb::keep(v);
    return v.size();
}

/// The vector keeps its capacity from call to call; only its contents are cleared.
template <class Sink>
std::size_t records_reused(std::vector<std::uint8_t>& v, std::size_t bytes) {
    v.clear();
    {
        Sink sink(v);
        write_records(sink, bytes);
    }
    sb::keep(v);
    return v.size();
}

std::string mib(std::size_t bytes) { return std::to_string(bytes / MiB) + " MiB"; }

/// Decimal megabytes, as the seed counts them: an output of 8.7 MB sits in a 16 MiB capacity.
std::string mb(std::size_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%g MB", static_cast<double>(bytes) / 1e6);
    return text;
}

void rows_3_4(const sb::run_settings& s) {
    using windowed = sinkcheck::vector_sink;
    using legacy = sinkcheck::legacy_vector_sink;
    // Sizes in decimal megabytes: the capacity (64 * 2^k bytes) then exceeds the output by
    // 5-50 %, as for a real document; an output of exactly 2^k bytes would leave the legacy sink
    // nothing extra to zero-fill.
    // One vector per side, each keeping its capacity from call to call.
    const auto compare_reused = [&s](const std::string& row, const std::string& what, std::size_t bytes, double goal) {
        std::vector<std::uint8_t> va, vb;
        const auto r = sb::compare(
            "records " + mb(bytes) + ", " + what + ": vector_sink vs legacy_vector_sink",
            [&] { records_reused<windowed>(va, bytes); }, [&] { records_reused<legacy>(vb, bytes); }, s.repetitions,
            s.min_seconds);
        sb::emit_ratio(s, row, r, static_cast<double>(bytes), goal);
    };
    if (s.wants("3")) {
        for (std::size_t bytes : {1000000u, 3000000u, 6000000u, 8700000u, 12000000u, 16000000u}) {
            const auto fresh = sb::compare(
                "records " + mb(bytes) + ", fresh vector: vector_sink vs legacy_vector_sink",
                [&] { records_fresh<windowed>(bytes); }, [&] { records_fresh<legacy>(bytes); }, s.repetitions,
                s.min_seconds);
            sb::emit_ratio(s, "3", fresh, static_cast<double>(bytes), 1.15);
            compare_reused("3", "reused vector", bytes, 1.15);
        }
    }
    if (s.wants("4")) {
        for (std::size_t bytes : {40000000u, 100000000u}) {
            compare_reused("4", "reused vector > LLC", bytes, 1.0);
        }
    }
}

/// Copies the prepared records 9 bytes at a time through sink, inlined where the sink lives (as
/// in an encoder's inlined loop): the sink's cursor can stay in a register.
template <class Sink>
[[gnu::always_inline]] inline void copy_records(Sink& sink, const std::uint8_t* src, std::size_t bytes) {
    for (std::size_t i = 0; i + record <= bytes; i += record) {
        sink.write(src + i, record);
    }
}

/// The same loop behind a call that takes the sink by reference: the cursor is reloaded after
/// every store, since a byte store may alias the sink.
template <class Sink>
[[gnu::noinline]] void copy_records_by_reference(Sink& sink, const std::uint8_t* src, std::size_t bytes) {
    copy_records(sink, src, bytes);
}

void row6(const sb::run_settings& s) {
    for (std::size_t bytes : {1 * MiB, 8 * MiB, 64 * MiB}) {
        const std::size_t n = bytes / record * record;
        std::vector<std::uint8_t> src(n), dst(n), reused;
        for (std::size_t i = 0; i < n; ++i) {
            src[i] = static_cast<std::uint8_t>((i * 0x9E3779B97F4A7C15ULL) >> 56);
        }
        const auto memcpy_all = [&] {
            std::memcpy(dst.data(), src.data(), n);
            sb::keep(dst);
        };
        const auto vector_sink = [&] {
            reused.clear();
            {
                sinkcheck::vector_sink sink(reused);
                copy_records(sink, src.data(), n);
            }
            sb::keep(reused);
        };
        const auto vector_sink_by_reference = [&] {
            reused.clear();
            {
                sinkcheck::vector_sink sink(reused);
                copy_records_by_reference(sink, src.data(), n);
            }
            sb::keep(reused);
        };
        const auto span_sink = [&] {
            sinkcheck::span_sink sink(dst.data(), n);
            copy_records(sink, src.data(), n);
            sb::keep(dst);
        };
        const double goal = 0.65;
        const auto a = sb::compare("9-byte records " + mib(bytes) + ": vector_sink (reused) vs one memcpy", vector_sink,
                                   memcpy_all, s.repetitions, s.min_seconds);
        sb::emit_ratio(s, "6", a, static_cast<double>(n), goal);
        const auto b = sb::compare("9-byte records " + mib(bytes) + ": vector_sink by reference vs one memcpy",
                                   vector_sink_by_reference, memcpy_all, s.repetitions, s.min_seconds);
        sb::emit_ratio(s, "6", b, static_cast<double>(n));
        const auto c = sb::compare("9-byte records " + mib(bytes) + ": span_sink vs one memcpy", span_sink, memcpy_all,
                                   s.repetitions, s.min_seconds);
        sb::emit_ratio(s, "6", c, static_cast<double>(n));
    }
}

template <class Writer>
std::size_t writer_records(std::size_t bytes) {
    Writer w;
    write_records(w, bytes);
    const std::vector<std::uint8_t> out = w.take();
    sb::keep(out);
    return out.size();
}

void row7(const sb::run_settings& s) {
    for (std::size_t bytes : {64 * KiB, 1 * MiB, 16 * MiB}) {
        const auto r = sb::compare(
            "records " + std::to_string(bytes / KiB) + " KiB: seekable_memory_writer vs memory_writer",
            [&] { writer_records<sinkcheck::seekable_memory_writer>(bytes); },
            [&] { writer_records<sinkcheck::memory_writer>(bytes); }, s.repetitions, s.min_seconds);
        sb::emit_ratio(s, "7", r, static_cast<double>(bytes), 0.97);
    }
}

/// Seed 003's closing figure for n bytes written in pieces of at most 2 KiB (chunked_sink.hpp).
std::size_t expected_chunks(std::size_t n) {
    constexpr std::size_t first_six = 129024;  // 2 + 4 + ... + 64 KiB
    constexpr std::size_t cap = 65536;
    return 6 + (n - first_six + cap - 1) / cap;
}

template <class Alloc>
std::size_t chunked_records(std::size_t bytes, std::size_t first, std::size_t max, const Alloc& alloc) {
    sinkcheck::basic_chunked_sink<Alloc> sink(first, max, alloc);
    write_records(sink, bytes);
    sb::keep(sink);
    return sink.chunk_count();
}

void row8(const sb::run_settings& s) {
    using traced = sinkcheck::tracing_allocator<std::uint8_t>;
    for (std::size_t bytes : {256 * KiB, 1 * MiB, 16 * MiB}) {
        const std::size_t n = bytes / record * record;
        const std::string size = std::to_string(bytes / KiB) + " KiB";
        const std::allocator<std::uint8_t> plain;
        const auto vs_vector = sb::compare(
            "records " + size + ": chunked_sink (2-64 KiB) vs vector_sink (fresh)",
            [&] { chunked_records(n, 2048, 65536, plain); }, [&] { records_fresh<sinkcheck::vector_sink>(n); },
            s.repetitions, s.min_seconds);
        sb::emit_ratio(s, "8", vs_vector, static_cast<double>(n));
        const auto vs_fixed = sb::compare(
            "records " + size + ": chunked_sink (2-64 KiB) vs fixed 2 KiB chunks",
            [&] { chunked_records(n, 2048, 65536, plain); }, [&] { chunked_records(n, 2048, 2048, plain); },
            s.repetitions, s.min_seconds);
        sb::emit_ratio(s, "8", vs_fixed, static_cast<double>(n));

        // Chunk allocations exactly, through the tracing allocator; all heap allocations (the chunk
        // list included) through the global counter.
        auto log = std::make_shared<sinkcheck::allocation_log>();
        std::size_t chunks = 0;
        const auto total = sb::count_allocations([&] { chunks = chunked_records(n, 2048, 65536, traced(log)); });
        const std::size_t want = expected_chunks(n);
        sb::emit_value(s, "8", "chunk allocations, chunked_sink 2-64 KiB, " + std::to_string(n) + " bytes",
                       std::to_string(log->allocations()), "= " + std::to_string(want),
                       log->allocations() == want && chunks == want ? "met" : "missed");
        sb::emit_value(s, "8", "heap allocations in all (chunk list too), chunked_sink, " + size,
                       std::to_string(total.calls));
        const auto fixed = sb::count_allocations([&] { chunked_records(n, 2048, 2048, plain); });
        sb::emit_value(s, "8", "heap allocations, fixed 2 KiB chunks, " + size, std::to_string(fixed.calls));
        const auto vector = sb::count_allocations([&] { records_fresh<sinkcheck::vector_sink>(n); });
        sb::emit_value(s, "8", "heap allocations, vector_sink (fresh), " + size, std::to_string(vector.calls));
    }
}

/// The string growth seed 002 replaced: reserve() as the library has it, which leaves the short
/// buffer for at least twice its capacity (libstdc++: 2 x 15 = 30 characters, 31 bytes).
struct doubling_string_growth {
    template <class String>
    static std::size_t reserve(String& s, std::size_t /*written*/, std::size_t needed) {
        if (needed > s.capacity()) {
            s.reserve(sinkcheck::detail::geometric_capacity(s.capacity(), needed, 0));
        }
        return s.capacity();
    }
};

using traced_string = std::basic_string<char, std::char_traits<char>, sinkcheck::tracing_allocator<char>>;

template <class Growth>
std::vector<std::size_t> string_allocations(std::size_t bytes, std::size_t pieces) {
    auto log = std::make_shared<sinkcheck::allocation_log>();
    traced_string out{sinkcheck::tracing_allocator<char>(log)};
    {
        sinkcheck::detail::basic_container_sink<traced_string, Growth> sink(out);
        std::vector<std::uint8_t> data(bytes, 0x61);
        // `pieces` writes of (about) equal length, as an encoder hands over a short document
        std::size_t done = 0;
        for (std::size_t k = 1; k <= pieces; ++k) {
            const std::size_t until = bytes * k / pieces;
            sink.write(data.data() + done, until - done);
            done = until;
        }
    }
    return log->allocation_sizes();
}

std::string join(const std::vector<std::size_t>& sizes) {
    std::string out;
    for (std::size_t v : sizes) {
        out += (out.empty() ? "" : "+") + std::to_string(v);
    }
    return out.empty() ? "0" : out;
}

void row9(const sb::run_settings& s) {
    for (std::size_t bytes : {16u, 20u, 24u, 30u, 32u, 40u, 48u, 64u}) {
        for (std::size_t pieces : {1u, 4u}) {
            const auto exact = string_allocations<sinkcheck::detail::string_growth>(bytes, pieces);
            const auto doubling = string_allocations<doubling_string_growth>(bytes, pieces);
            const std::string what = std::to_string(bytes) + "-byte output in " + std::to_string(pieces) +
                                     (pieces == 1 ? " write" : " writes");
            // One write leaves the short buffer once: exactly bytes + 1 (the terminator).
            const bool one_exact = pieces != 1 || (exact.size() == 1 && exact[0] == bytes + 1);
            sb::emit_value(s, "9", what + ": string_sink bytes allocated", join(exact),
                           pieces == 1 ? "= " + std::to_string(bytes + 1) : "-",
                           pieces == 1 ? (one_exact ? "met" : "missed") : "reported");
            sb::emit_value(s, "9", what + ": 2x-minimum growth bytes allocated", join(doubling));
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    const sb::run_settings s = sb::parse_settings(argc, argv);
    rows_3_4(s);
    if (s.wants("6")) row6(s);
    if (s.wants("7")) row7(s);
    if (s.wants("8")) row8(s);
    if (s.wants("9")) row9(s);
    return 0;
}
