// bench/encoders_bench.cpp — rows 1, 2, 5, 10, 11, 14 and 16: whole encoders, ours against nlohmann 3.11.2
// and against each other through different sinks.
//
//   1  reference encoder + vector_sink vs nlohmann to_<fmt>, fresh vector      goal >= 2.00x
//      (and, reported, the encoder into a reused span: the encoder's share without the growth)
//   2  heap allocations per encode, fresh vector          goal <= ceil(log2(n/64)) + 2, none per key
//      (and, reported, the page faults of one encode starting from a trimmed heap)
//   5  vector_sink (64 KiB window) vs legacy_vector_sink, whole encoder         goal >= 1.00x
//  10  vector_sink vs protocol_sink over nlohmann's virtual vector adapter       reported
//  11  the floor: reference encoder (reused span) time / a bare walk of the same DOM
//                                                                 goal <= 1.30 on objects
//      (and, reported, nlohmann's time / the walk's); on the text documents the walk also checks
//      every key and string for UTF-8 (checked_walk), the floor of an encoder that refuses
//      invalid text
//  14  row 1 on text documents (documents.hpp, text_documents: ASCII, Latin, Cyrillic, CJK, emoji
//      and mixed text, short and long strings), where the UTF-8 check nlohmann does not make
//      weighs most                                                            goal >= 1.00x
//  16  long strings into vector_sink's room, checked as they are copied, vs the same sink with
//      its room hidden (checked, then written), on the text documents' long strings
//                                                                              goal >= 1.00x
//
// BSON writes only objects, so for BSON each document is the value of the key "doc"
// (documents.hpp). Row 12, the peers, is bench/peers_bench.cpp.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <sys/resource.h>

#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/sink/legacy_vector_sink.hpp"
#include "sinkcheck/sink/protocol_sink.hpp"
#include "sinkcheck/sink/span_sink.hpp"
#include "sinkcheck/sink/vector_sink.hpp"
#include "sinkcheck/testkit/oracle.hpp"

#include "alloc_count.hpp"
#include "documents.hpp"
#include "paired.hpp"

namespace sb = sinkcheck::bench;
using nlohmann::json;
using sinkcheck::format;

namespace {

using sinkcheck::oracle_formats;

using sb::document;

const json& input_for(const document& d, format f) { return d.input(sinkcheck::describe(f).root_object); }

template <class Sink>
void encode_into(format f, const json& j, Sink& sink) {
    sinkcheck::encode(f, j, sink);
}

/// Ours into a fresh vector through Sink (built from the vector).
template <class Sink>
std::size_t encode_fresh(format f, const json& j) {
    std::vector<std::uint8_t> v;
    {
        Sink sink(v);
        encode_into(f, j, sink);
    }
    sb::keep(v);
    return v.size();
}

std::size_t oracle_fresh(format f, const json& j) {
    const std::vector<std::uint8_t> v = sinkcheck::oracle_encode(f, j);
    sb::keep(v);
    return v.size();
}

std::string label(format f, const document& d) { return std::string(sinkcheck::format_name(f)) + " " + d.name; }

void check_equal(format f, const document& d) {
    const json& j = input_for(d, f);
    std::vector<std::uint8_t> ours;
    {
        sinkcheck::vector_sink sink(ours);
        encode_into(f, j, sink);
    }
    if (ours != sinkcheck::oracle_encode(f, j)) {
        std::fprintf(stderr, "bench_encoders: %s differs from nlohmann 3.11.2\n", label(f, d).c_str());
        std::exit(1);
    }
}

/// Row 1 (goal 2.00x) and row 14 (text documents, goal 1.00x: never slower than nlohmann).
void against_nlohmann(const sb::run_settings& s, const std::string& row, const std::vector<document>& docs,
                      double goal) {
    for (const document& d : docs) {
        for (format f : oracle_formats()) {
            check_equal(f, d);  // a faster encoder that writes other bytes proves nothing
            const json& j = input_for(d, f);
            const std::size_t n = oracle_fresh(f, j);
            const auto r = sb::compare(
                label(f, d) + ": reference+vector_sink vs nlohmann",
                [&] { encode_fresh<sinkcheck::vector_sink>(f, j); }, [&] { oracle_fresh(f, j); }, s.repetitions,
                s.min_seconds);
            sb::emit_ratio(s, row, r, static_cast<double>(n), goal);
            // The encoder without the vector's growth: a span over a buffer kept from call to
            // call. Not the goal's setting; it separates the encoder's share from the growth's.
            std::vector<std::uint8_t> buffer(n);
            const auto core = sb::compare(
                label(f, d) + ": reference+span_sink (buffer reused) vs nlohmann",
                [&] {
                    sinkcheck::span_sink sink(buffer.data(), buffer.size());
                    encode_into(f, j, sink);
                    sb::keep(buffer);
                },
                [&] { oracle_fresh(f, j); }, s.repetitions, s.min_seconds);
            sb::emit_ratio(s, row, core, static_cast<double>(n));
        }
    }
}

unsigned ceil_log2(double x) { return x <= 1 ? 0 : static_cast<unsigned>(std::ceil(std::log2(x))); }

/// Minor page faults while f runs, starting from a heap trimmed back to the kernel: what one
/// encode into a fresh vector costs a process that has not just done the same.
template <class F>
long cold_heap_faults(F&& f) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    f();
    getrusage(RUSAGE_SELF, &after);
    return after.ru_minflt - before.ru_minflt;
}

void row2(const sb::run_settings& s, const std::vector<document>& docs) {
    for (const document& d : docs) {
        for (format f : sinkcheck::all_formats) {
            const json& j = input_for(d, f);
            std::size_t n = 0;
            const auto ours = sb::count_allocations([&] { n = encode_fresh<sinkcheck::vector_sink>(f, j); });
            const std::size_t bound = ceil_log2(static_cast<double>(n) / 64) + 2;
            sb::emit_value(s, "2", label(f, d) + ": reference+vector_sink allocations, " + std::to_string(n) + " bytes",
                           std::to_string(ours.calls), std::to_string(bound), ours.calls <= bound ? "met" : "missed");
            const long our_faults = cold_heap_faults([&] { encode_fresh<sinkcheck::vector_sink>(f, j); });
            sb::emit_value(s, "2", label(f, d) + ": reference+vector_sink page faults, cold heap",
                           std::to_string(our_faults));
            if (sinkcheck::oracle_has(f)) {
                const std::string theirs_label =
                    label(f, d) + ": nlohmann to_" + std::string(sinkcheck::format_name(f));
                const auto theirs = sb::count_allocations([&] { oracle_fresh(f, j); });
                sb::emit_value(s, "2", theirs_label + " allocations", std::to_string(theirs.calls));
                const long their_faults = cold_heap_faults([&] { oracle_fresh(f, j); });
                sb::emit_value(s, "2", theirs_label + " page faults, cold heap", std::to_string(their_faults));
            }
        }
    }
}

void row5(const sb::run_settings& s, const std::vector<document>& docs) {
    for (const document& d : docs) {
        for (format f : sinkcheck::all_formats) {
            if (d.name != "num1M" && f != format::cbor) {
                continue;  // seed 000 measured num1M in every format; objects once is enough
            }
            const json& j = input_for(d, f);
            const double bytes = static_cast<double>(encode_fresh<sinkcheck::vector_sink>(f, j));
            const auto r = sb::compare(
                label(f, d) + ": vector_sink vs legacy_vector_sink",
                [&] { encode_fresh<sinkcheck::vector_sink>(f, j); },
                [&] { encode_fresh<sinkcheck::legacy_vector_sink>(f, j); }, s.repetitions, s.min_seconds);
            sb::emit_ratio(s, "5", r, bytes, 1.0);
        }
    }
}

/// protocol_sink over nlohmann's own vector adapter: every write is a virtual call, and the
/// adapter grows the vector by push_back/insert.
std::size_t encode_protocol(format f, const json& j) {
    std::vector<std::uint8_t> v;
    sinkcheck::protocol_sink sink(std::make_shared<nlohmann::detail::output_vector_adapter<std::uint8_t>>(v));
    encode_into(f, j, sink);
    sb::keep(v);
    return v.size();
}

void row10(const sb::run_settings& s, const std::vector<document>& docs) {
    for (const document& d : docs) {
        for (format f : sinkcheck::all_formats) {
            const json& j = input_for(d, f);
            const double bytes = static_cast<double>(encode_fresh<sinkcheck::vector_sink>(f, j));
            const auto r = sb::compare(
                label(f, d) + ": vector_sink vs protocol_sink (virtual nlohmann adapter)",
                [&] { encode_fresh<sinkcheck::vector_sink>(f, j); }, [&] { encode_protocol(f, j); }, s.repetitions,
                s.min_seconds);
            sb::emit_ratio(s, "10", r, bytes);
        }
    }
}

/// A floor of row 11: what every encoder of the document must do at least.
struct floor_walk {
    const char* name;
    std::uint64_t (*walk)(const json&);
};

/// Row 11: how close each encoder is to the floor, a walk of the same DOM that only visits every
/// node (documents.hpp, dom_walk) or, on the text documents, that also checks every key and string
/// for UTF-8 (checked_walk: the floor of a checking encoder). A is the walk, so the ratio is
/// encoder time / walk time. The reference writes into a reused span: the encoder's own work, as
/// the walk has no output. Where nlohmann's ratio is below 1, an encoder that does not check is
/// faster than checking alone.
void row11(const sb::run_settings& s, const std::vector<document>& docs, floor_walk floor) {
    for (const document& d : docs) {
        for (format f : oracle_formats()) {
            const json& j = input_for(d, f);
            const std::size_t n = oracle_fresh(f, j);
            std::vector<std::uint8_t> buffer(n);
            const auto walk = [&] { sb::keep(floor.walk(j)); };
            const std::string over = std::string(" / ") + floor.name;
            const auto r = sb::compare(
                label(f, d) + ": reference+span_sink (buffer reused)" + over, walk,
                [&] {
                    sinkcheck::span_sink sink(buffer.data(), buffer.size());
                    encode_into(f, j, sink);
                    sb::keep(buffer);
                },
                s.repetitions, s.min_seconds);
            sb::emit_ratio(s, "11", r, static_cast<double>(n), d.name == "objects" ? 1.3 : 0, sb::goal_kind::at_most);
            const auto theirs = sb::compare(
                label(f, d) + ": nlohmann to_" + std::string(sinkcheck::format_name(f)) + over, walk,
                [&] { oracle_fresh(f, j); }, s.repetitions, s.min_seconds);
            sb::emit_ratio(s, "11", theirs, static_cast<double>(n));
        }
    }
}

/// vector_sink without room_for and commit: the encoders check a string, then write it.
class room_hidden {
public:
    explicit room_hidden(sinkcheck::vector_sink& sink) noexcept : sink_(sink) {}
    void write(std::uint8_t b) { sink_.write(b); }
    void write(const std::uint8_t* p, std::size_t n) { sink_.write(p, n); }
    std::size_t position() const noexcept { return sink_.position(); }

private:
    sinkcheck::vector_sink& sink_;
};

/// Row 16: what writing a long string in the sink's room (detail/utf8.hpp, write_text_in_room)
/// gains over the check and the write it replaces, the same sink on both sides.
void row16(const sb::run_settings& s, const std::vector<document>& docs) {
    for (const document& d : docs) {
        if (d.name.find("long") == std::string::npos) {
            continue;
        }
        for (format f : {format::cbor, format::msgpack, format::ubjson, format::bjdata}) {
            const json& j = input_for(d, f);
            const double bytes = static_cast<double>(encode_fresh<sinkcheck::vector_sink>(f, j));
            const auto r = sb::compare(
                label(f, d) + ": strings in vector_sink's room vs checked, then written",
                [&] { encode_fresh<sinkcheck::vector_sink>(f, j); },
                [&] {
                    std::vector<std::uint8_t> v;
                    {
                        auto sink = sinkcheck::make_vector_sink(v);
                        room_hidden hidden(sink);
                        encode_into(f, j, hidden);
                    }
                    sb::keep(v);
                },
                s.repetitions, s.min_seconds);
            sb::emit_ratio(s, "16", r, bytes, 1.0);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    const sb::run_settings s = sb::parse_settings(argc, argv);
    const std::vector<document> docs = sb::encoder_documents();
    if (s.wants("1")) against_nlohmann(s, "1", docs, 2.0);
    if (s.wants("2")) row2(s, docs);
    if (s.wants("5")) row5(s, docs);
    if (s.wants("10")) row10(s, docs);
    if (s.wants("11")) row11(s, docs, {"DOM walk", sb::dom_walk});
    if (s.wants("11") || s.wants("14") || s.wants("16")) {
        const std::vector<document> text = sb::text_documents();
        if (s.wants("11")) row11(s, text, {"DOM walk + UTF-8 check", sb::checked_walk});
        if (s.wants("14")) against_nlohmann(s, "14", text, 1.0);
        if (s.wants("16")) row16(s, text);
    }
    return 0;
}
