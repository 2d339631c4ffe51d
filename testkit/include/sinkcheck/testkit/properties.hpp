// sinkcheck/testkit/properties.hpp — the sink properties, written once for real and broken sinks alike.
//
// Each function is a RapidCheck property body: it draws its inputs with *gen, drives the sinks
// it is given through harness.hpp and fails with RC_FAIL and a message that names the sink, the
// window, the format, the first differing byte and the JSON pointer being written there. The
// tests in sinks_test.cpp hand them the real sinks; gallery_test.cpp hands them broken ones and
// expects a failure. Properties 2 and 3 (oracle agreement, round trip) concern the encoders, not
// the sinks, and live in encoding_test.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "hex.hpp"
#include "show.hpp"
#include "sink_properties.hpp"
#include "sinkcheck/testkit/sinks.hpp"

namespace sinkcheck::testkit {

using json = nlohmann::json;

/// The seekless memory writer as a sink under test: the baseline every sink is compared with.

// ---------------------------------------------------------------------------------------------
// Inputs.

/// Values for the sink properties. No oracle is involved, so nesting may go deeper than the
/// 64 levels nlohmann's recursive writers are trusted with.
inline value_profile sink_profile() {
    value_profile p;
    p.max_depth = 4;
    p.max_children = 12;
    p.deep_limit = 300;
    p.bulk_limit = 20000;
    p.top_scalar_weight = 2;
    return p;
}

/// Smaller values for the property that reruns a document once per write and per allocation
/// (quadratic in the number of writes: BON8 writes a binary one byte at a time).
inline value_profile fault_profile(bool hostile) {
    value_profile p;
    p.max_depth = 3;
    p.max_children = 6;
    p.deep_limit = 40;
    p.hostile = hostile;
    p.max_edge_length = 300;
    return p;
}

/// UBJSON/BJData container shape (nlohmann's use_size / use_type); other formats ignore it.
enum class shape { plain, use_size, use_size_and_type };

inline encode_options options_for(format f, shape s) {
    encode_options o;
    if (takes_container_shape(f)) {
        o.use_size = s != shape::plain;
        o.use_type = s == shape::use_size_and_type;
    }
    return o;
}

/// The drawn inputs get types of their own, so a counterexample reads "window: 7", not
/// "unsigned long: 7".
struct window_choice {
    std::size_t bytes;
};

struct chunk_bounds {
    std::size_t first;
    std::size_t cap;
};

struct sink_choice {
    std::size_t index;
    std::string name;
};

/// A yes or no a property draws, shown with what it decides ("a write program, not an encoding:
/// yes"), not as "bool: false".
struct decision {
    bool yes;
    const char* what;
};

inline rc::Gen<decision> decision_gen(const char* what) {
    return rc::gen::map(rc::gen::arbitrary<bool>(), [what](bool b) { return decision{b, what}; });
}

/// A number a property draws, shown with what it is ("the stream fails at byte: 12"), not as
/// "unsigned long: 12".
struct drawn_number {
    std::size_t n;
    const char* what;
};

inline rc::Gen<drawn_number> number_gen(const char* what, rc::Gen<std::size_t> g) {
    return rc::gen::map(std::move(g), [what](std::size_t n) { return drawn_number{n, what}; });
}

inline rc::Gen<format> format_gen() {
    return one_of_values(std::vector<format>(all_formats.begin(), all_formats.end()));
}

inline rc::Gen<shape> shape_gen() {
    return one_of_values<shape>({shape::plain, shape::use_size, shape::use_size_and_type});
}

inline rc::Gen<window_choice> window_gen() {
    std::vector<window_choice> v;
    for (std::size_t w : window_sizes()) {
        v.push_back({w});
    }
    return one_of_values(std::move(v));
}

inline rc::Gen<sink_choice> sink_gen(const std::vector<sut_entry>& suts) {
    std::vector<sink_choice> v;
    for (std::size_t i = 0; i < suts.size(); ++i) {
        v.push_back({i, suts[i].name});
    }
    return one_of_values(std::move(v));
}

/// First chunk and cap drawn independently (the smaller one is the first), each from the chunk
/// edges (edges.hpp) three times in four, otherwise anywhere up to 4 KiB.
inline rc::Gen<chunk_bounds> chunk_bounds_gen() {
    const auto size = choice<std::size_t>(
        {{3, one_of_values(edges::as_vector(edges::chunk_sizes))}, {1, rc::gen::inRange<std::size_t>(1, 4097)}});
    return rc::gen::apply(
        [](std::size_t a, std::size_t b) {
            return chunk_bounds{std::min(a, b), std::max(a, b)};
        },
        size, size);
}

inline void showValue(shape s, std::ostream& os) {
    os << (s == shape::plain ? "plain" : s == shape::use_size ? "use_size" : "use_size+use_type");
}
inline void showValue(const window_choice& w, std::ostream& os) { os << window_name(w.bytes); }
inline void showValue(const chunk_bounds& c, std::ostream& os) { os << "first " << c.first << ", cap " << c.cap; }
inline void showValue(const sink_choice& s, std::ostream& os) { os << s.name; }
inline void showValue(const decision& d, std::ostream& os) { os << d.what << ": " << (d.yes ? "yes" : "no"); }
inline void showValue(const drawn_number& d, std::ostream& os) { os << d.what << ": " << d.n; }

/// BSON writes only objects (format_table's root_object): any other value is put under one key (so the sinks see it anyway).
template <class Json>
Json document_for(format f, const Json& j) {
    if (!describe(f).root_object || j.is_object()) {
        return j;
    }
    Json doc = Json::object();
    doc["v"] = j;
    return doc;
}

/// The windows a sink is run with: all of them, or the default for a sink without one.
inline std::vector<std::size_t> windows_for(const sut_entry& s) {
    return s.windowed ? window_sizes() : std::vector<std::size_t>{default_window};
}

// ---------------------------------------------------------------------------------------------
// Reports.

/// The JSON pointer of the value whose encoding covers byte `offset` (via encode_options::marks).
template <class Json>
std::string pointer_at(format f, const Json& doc, encode_options o, std::size_t offset) {
    std::vector<value_mark> marks;
    o.marks = &marks;
    o.bson_patch_lengths = false;
    try {
        (void)encode_any_to_vector(f, doc, o);
    } catch (const std::exception&) {
        // the marks up to the refusal are still there
    }
    std::string where = "?";
    for (const value_mark& m : marks) {
        if (m.offset <= offset) {
            where = m.pointer.empty() ? std::string("(root)") : m.pointer;
        }
    }
    return where;
}

/// Which run a message is about: the sink, its window (none: it has none) and the input.
struct where {
    std::string sink;
    std::size_t window;
    std::string input;
    std::string describe() const {
        return sink + " (" + (window == none ? "" : "window " + window_name(window) + ", ") + input + ")";
    }
};

inline std::size_t window_of(const sut_entry& s, std::size_t w) { return s.windowed ? w : none; }

/// For reports about bytes that no single document produced (write programs, models).
inline constexpr const json* no_document = nullptr;

template <class Json>
std::string bytes_report(const std::string& what, const std::vector<std::uint8_t>& expected,
                         const std::vector<std::uint8_t>& actual, const Json* doc, format f, const encode_options& o) {
    const std::size_t at = first_difference(expected, actual);
    std::ostringstream os;
    os << what << ": first difference at byte " << at;
    if (doc != nullptr) {
        os << " (written for JSON pointer " << pointer_at(f, *doc, o, at) << ")";
    }
    os << "\n  expected " << expected.size() << " bytes: " << hex_window(expected, at) << "\n  actual   "
       << actual.size() << " bytes: " << hex_window(actual, at);
    return os.str();
}

/// What every run must satisfy on its own, run under setup: the judges of
/// WriteProgramsMatchAByteArray and TrimsToWrittenBytesWhenWritesThrow (promises.hpp), with full
/// the output of the same writes without a throw when the caller knows it.
void require_sound(const sut_entry& s, const run_record& r, const run_setup& setup, const where& w,
                   const std::vector<std::uint8_t>* full = nullptr);

/// The verdict of one promise's judge, as a property failure naming w.
void require_kept(const verdict& v, const run_record& r, const where& w);

// ---------------------------------------------------------------------------------------------
// Growth (the rules themselves are in sink_traits.hpp).

/// The most chunks n bytes can take: every chunk but the last is full and at least as large as
/// the doubling sequence says, so this is O(log n) up to the cap and n / cap after it.
inline std::size_t chunk_bound(std::size_t n, std::size_t first, std::size_t cap) {
    std::size_t full = 0;
    std::size_t filled = 0;
    std::size_t size = first;
    while (filled + size <= n) {
        filled += size;
        ++full;
        size = size <= cap / 2 ? 2 * size : cap;
    }
    return full + 1;
}

/// A tag for RC_CLASSIFY, so a run reports how large the outputs it checked were.
inline std::string size_class(std::size_t n) {
    if (n < 64) return "output < 64 B";
    if (n < 4096) return "output 64 B - 4 KiB";
    if (n < 65536) return "output 4 - 64 KiB";
    return "output >= 64 KiB";
}

/// The setup that replays prog under window w: its fault point as a write-call count (the
/// fault wrapper counts write calls, a seek is not one) and a fixed capacity that fits it.
run_setup program_setup(const write_program& prog, std::size_t w);

/// What a caller's container may already hold: lengths at the edges (around a string's short
/// buffer and the vector's 64-byte floor among them) or small, bytes that differ from a write
/// program's.
rc::Gen<std::vector<std::uint8_t>> existing_contents_gen();

}  // namespace sinkcheck::testkit

namespace rc {
template <>
struct ShowType<sinkcheck::testkit::shape> {
    static void showType(std::ostream& os) { os << "UBJSON/BJData shape"; }
};
template <>
struct ShowType<sinkcheck::testkit::window_choice> {
    static void showType(std::ostream& os) { os << "window"; }
};
template <>
struct ShowType<sinkcheck::testkit::chunk_bounds> {
    static void showType(std::ostream& os) { os << "chunks"; }
};
template <>
struct ShowType<sinkcheck::testkit::sink_choice> {
    static void showType(std::ostream& os) { os << "sink"; }
};
template <>
struct ShowType<sinkcheck::testkit::decision> {
    static void showType(std::ostream& os) { os << "decision"; }
};
template <>
struct ShowType<sinkcheck::testkit::drawn_number> {
    static void showType(std::ostream& os) { os << "number"; }
};
}  // namespace rc
