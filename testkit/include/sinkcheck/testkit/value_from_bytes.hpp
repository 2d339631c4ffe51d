// sinkcheck/testkit/value_from_bytes.hpp — a JSON value built directly from fuzz input bytes.
//
// A JSON parser only ever produces some values: non-negative integers always as
// number_unsigned, no binary, no discarded values, keys and strings that are valid UTF-8,
// nothing deeper than the text is long. Building the value op by op from the input reaches the
// rest: both integer kinds at every width edge, NaN payloads, binary with any subtype, raw
// (possibly invalid) bytes in keys and strings, strings and containers exactly at length-class
// edges (up to 65,536), BJData ND-array objects, and nesting far beyond what nlohmann's own
// recursive functions survive. Built without recursion; bounded in nodes and bytes so one
// input stays cheap.
//
// Besides the edges, sizes are drawn magnitude first, as Hypothesis and RapidCheck's sized
// generators do: a bit length (0..64, either sign), then a value of exactly that length; a
// length class (0, 1, 2-3, 4-7, ... bytes or elements), then a length in it; an exponent class
// and a mantissa width for doubles. A uniform draw from the 64-bit range almost never gives
// -412,345; a draw of its bit length first gives one of its neighbours once in 130 integers.
// Zero choice bytes give the smallest member of a class, so shrinking a choice toward zero
// shrinks the value toward zero, the empty string or the shortest length of its class.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/options.hpp"
#include "sinkcheck/testkit/edges.hpp"

namespace sinkcheck::fuzz {

struct build_limits {
    std::size_t max_nodes = 512;
    /// bytes of strings, keys and binary together (edge-length fillers included)
    std::size_t max_bytes = 1 << 18;
    std::size_t max_depth = 20000;
    /// false: only what a JSON-like encoder can be asked for (sinkcheck conform --generate's
    /// default profile): strings and keys valid UTF-8 (invalid bytes become '?'), no discarded
    /// value, none of the rare huge counts, lengths and nestings. The input is read the same way
    /// either way.
    bool hostile = true;
    /// BJData ND-array objects (and the key "_ArrayType_"). The RapidCheck properties leave them
    /// to their own ND-array generator, whose near misses their round-trip model knows.
    bool ndarrays = true;
};

inline constexpr std::uint64_t subtype_edges[] = {
    0, 1, 23, 24, 127, 128, 255, 256, 65535, 65536, 4294967295ULL, 4294967296ULL, 18446744073709551615ULL};

inline constexpr const char* ndarray_types[] = {"uint8",  "int8",  "uint16", "int16",  "uint32", "int32",
                                                "uint64", "int64", "single", "double", "char",   "bool"};

/// Encoder options chosen by the input (one byte).
inline encode_options options_from_bits(std::uint8_t bits) {
    encode_options o;
    o.use_size = (bits & 1) != 0;
    o.use_type = o.use_size && (bits & 2) != 0;
    o.bson_patch_lengths = (bits & 4) != 0;
    return o;
}

/// Source: clang's FuzzedDataProvider (the fuzz targets) or the kit's byte_choices
/// (conform --generate, the properties); both read a byte string the same way
/// (byte_choices.hpp).
template <class Json, class Source>
class value_builder {
public:
    value_builder(Source& in, const build_limits& limits) : in_(in), limits_(limits) {}

    /// The whole value described by the remaining input.
    Json build() {
        Json root;
        bool have_root = false;
        while (in_.remaining_bytes() > 0 && nodes_ < limits_.max_nodes) {
            const std::uint8_t op = in_.template ConsumeIntegral<std::uint8_t>();
            if (op % 32 == 31) {  // close the innermost container
                if (open_.size() <= 1) {
                    break;
                }
                open_.pop_back();
                continue;
            }
            Json* placed = place(have_root ? nullptr : &root, scalar_or_container(op));
            have_root = true;
            if (placed == nullptr) {
                break;
            }
            if (placed->is_array() || placed->is_object()) {
                if (op % 32 == 29) {
                    nest(*placed);
                } else if (placed->empty()) {
                    open_.push_back(placed);
                }
            }
            if (open_.empty()) {
                break;  // a scalar root is the whole value
            }
        }
        return root;
    }

private:
    /// Puts v at the root or into the innermost open container; returns where it landed.
    Json* place(Json* root, Json v) {
        ++nodes_;
        if (root != nullptr) {
            *root = std::move(v);
            return root;
        }
        if (open_.empty()) {
            return nullptr;
        }
        Json& parent = *open_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        std::string k = key();
        Json& slot = parent[k];
        slot = std::move(v);
        return &slot;
    }

    Json scalar_or_container(std::uint8_t op) {
        switch (op % 32) {
            case 0: return Json(nullptr);
            case 1: return Json(false);
            case 2: return Json(true);
            case 3: return edge_unsigned();
            case 4: return Json(edge_signed());
            case 5: return Json(sized_unsigned(64));
            case 6:
                // a non-negative value held as number_integer: must encode like number_unsigned
                return Json(static_cast<std::int64_t>(sized_unsigned(63)));
            case 7: return Json(sized_negative());
            case 8: return Json(bits_to_double(in_.template ConsumeIntegral<std::uint64_t>()));
            case 9: return Json(bits_to_double(pick(testkit::edges::double_bits)));
            case 10: {  // binary32-exact, the compaction edge
                const auto f = static_cast<float>(bits_to_double(in_.template ConsumeIntegral<std::uint64_t>()));
                return Json(static_cast<double>(f));
            }
            case 11: return Json(sized_string());
            case 12: return Json(utf8_string());
            case 13: return Json(raw_string());
            case 14: return Json(filler_string());
            case 15:
            case 16: return binary();
            case 17: return sized_array();
            case 18:
            case 19:
            case 29: return Json::array();
            case 20: return sized_object();
            case 21:
            case 22: return Json::object();
            case 23: return uniform_array();
            case 24: return limits_.ndarrays ? ndarray() : uniform_array();
            case 25: return Json(static_cast<std::uint64_t>(in_.template ConsumeIntegralInRange<int>(0, 300)));
            case 26: return Json(static_cast<std::int64_t>(in_.template ConsumeIntegralInRange<int>(-300, -1)));
            case 27: return Json(static_cast<double>(in_.template ConsumeIntegralInRange<int>(-1000, 1000)) / 4.0);
            case 28:
                // rare on purpose: a discarded value anywhere makes the whole value an error
                if (in_.template ConsumeIntegral<std::uint8_t>() == 0xD5 && limits_.hostile) {
                    return Json(Json::value_t::discarded);
                }
                return Json(nullptr);
            case 30: return Json(sized_double());
            default: return Json(nullptr);
        }
    }

    /// Opens depth arrays inside `at`, one in another; later values go into the innermost.
    /// A chain of n arrays below `at`, left open so later ops fill the innermost and close them one
    /// by one; half the time n sits around the walker's inline stack size or a multiple of it
    /// (edges::nesting_depths), and one time in four every level also holds a sibling array
    /// before the inner one, so the walker's stack goes up and down at every depth (a tree, not
    /// only a chain: the walker slip "32 nested arrays whose innermost holds [1],[2]" needs both).
    void nest(Json& at) {
        static constexpr std::size_t depths[] = {2, 8, 199, 200, 201};
        static constexpr std::size_t deep[] = {500, 5000, 20000};
        const bool deep_one = rare();
        const std::uint8_t how = in_.template ConsumeIntegral<std::uint8_t>();
        const bool tree = (how & 3U) == 3;  // zero (where shrinking goes) is the plain chain
        std::size_t n = deep_one ? pick(deep) : (how & 4U) != 0 ? pick(testkit::edges::nesting_depths) : pick(depths);
        // nests add up; past 1,000 levels only once a rare deep one was picked
        deep_allowed_ = deep_allowed_ || deep_one;
        const std::size_t limit = deep_allowed_ ? limits_.max_depth : std::min<std::size_t>(limits_.max_depth, 1000);
        Json* cur = &at;
        if (!cur->is_array()) {
            *cur = Json::array();
        }
        open_.push_back(cur);
        while (n-- > 1 && open_.size() < limit) {
            if (tree) {
                cur->push_back(Json::array({Json(open_.size())}));
                ++nodes_;
            }
            cur->push_back(Json::array());
            cur = &cur->back();
            open_.push_back(cur);
            ++nodes_;
        }
    }

    /// True for one byte value in 256: gates what makes a run expensive (64 KiB fillers,
    /// 65,536-element arrays, nesting in the thousands), so the fuzzer reaches it without
    /// spending most runs on it.
    bool rare() { return in_.template ConsumeIntegral<std::uint8_t>() == 0xB1 && limits_.hostile; }

    // ---- magnitude first ----------------------------------------------------------------

    /// A value of bit length 0..max_bits (0 is the value 0): the length first, then the bits
    /// below the leading one. Zero choices give 0; lowered choices give a shorter value or the
    /// smallest of its length.
    std::uint64_t sized_unsigned(unsigned max_bits) {
        const unsigned k = in_.template ConsumeIntegralInRange<unsigned>(0, max_bits);
        if (k == 0) {
            return 0;
        }
        const std::uint64_t top = std::uint64_t{1} << (k - 1);
        return top | in_.template ConsumeIntegralInRange<std::uint64_t>(0, top - 1);
    }

    /// A negative value whose magnitude has bit length 1..64 (only -2^63 of length 64 fits).
    std::int64_t sized_negative() {
        const unsigned k = in_.template ConsumeIntegralInRange<unsigned>(1, 64);
        if (k == 64) {
            return (std::numeric_limits<std::int64_t>::min)();
        }
        const std::uint64_t top = std::uint64_t{1} << (k - 1);
        const std::uint64_t magnitude = top | in_.template ConsumeIntegralInRange<std::uint64_t>(0, top - 1);
        return -static_cast<std::int64_t>(magnitude);
    }

    /// An integer in [lo, hi] (lo <= 0 <= hi) drawn so that zero choices give 0, then 1, -1,
    /// 2, -2 ...: exponents shrink toward 2^0.
    int toward_zero(int lo, int hi) {
        const int reach = (std::max)(-lo, hi);
        const int u = in_.template ConsumeIntegralInRange<int>(0, 2 * reach);
        const int v = (u % 2 == 0) ? u / 2 : -(u + 1) / 2;
        return (std::min)((std::max)(v, lo), hi);
    }

    /// A double by exponent class, then by mantissa width (the number of leading mantissa bits
    /// that may be set): around one, binary16's range, binary32's, binary64's, binary64
    /// denormals, infinities and NaNs. A narrow mantissa is where a value is exact in binary16
    /// or binary32 and a float-width choice is made; a wide one where it is not.
    double sized_double() {
        const bool negative = in_.ConsumeBool();
        const int cls = in_.template ConsumeIntegralInRange<int>(0, 5);
        const unsigned width = in_.template ConsumeIntegralInRange<unsigned>(0, 52);
        const std::uint64_t mantissa =
            width == 0 ? 0
                       : in_.template ConsumeIntegralInRange<std::uint64_t>(0, (std::uint64_t{1} << width) - 1)
                             << (52 - width);
        std::uint64_t biased = 0;
        switch (cls) {
            case 0: biased = static_cast<std::uint64_t>(1023 + toward_zero(-8, 8)); break;
            case 1: biased = static_cast<std::uint64_t>(1023 + toward_zero(-24, 15)); break;    // binary16
            case 2: biased = static_cast<std::uint64_t>(1023 + toward_zero(-149, 127)); break;  // binary32
            case 3: biased = static_cast<std::uint64_t>(1023 + toward_zero(-1022, 1023)); break;
            case 4: biased = 0; break;       // binary64 denormals (and zero)
            default: biased = 0x7FF; break;  // infinity, or a NaN with the mantissa as payload
        }
        const std::uint64_t bits = (negative ? std::uint64_t{1} << 63 : 0) | (biased << 52) | mantissa;
        return bits_to_double(bits);
    }

    /// A length by class: 0, 1, 2-3, 4-7, ..., 2^(c-1) .. 2^c - 1. Classes above max_class
    /// (and above 12, 4 KiB, at all) only when rare().
    std::size_t sized_length(unsigned max_class) {
        unsigned c = in_.template ConsumeIntegralInRange<unsigned>(0, max_class);
        if (c > 12 && !rare()) {
            c = 12;
        }
        if (c == 0) {
            return 0;
        }
        const std::size_t lo = std::size_t{1} << (c - 1);
        return lo + in_.template ConsumeIntegralInRange<std::size_t>(0, lo - 1);
    }

    /// A code point of one script class: 0 ASCII, 1 Latin-1 and Latin Extended, 2 Greek and
    /// Cyrillic, 3 any two-byte, 4 CJK ideographs, 5 any three-byte (no surrogates), 6 any
    /// four-byte; each "any" class one time in four at an edge of its UTF-8 width.
    std::uint32_t script_code_point(int script) {
        static constexpr std::uint32_t two[] = {0x80, 0x7FF};
        static constexpr std::uint32_t three[] = {0x800, 0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF};
        static constexpr std::uint32_t four[] = {0x10000, 0x1F600, 0x10FFFF};
        const bool edge = in_.template ConsumeIntegralInRange<int>(0, 3) == 3;
        switch (script) {
            case 0: return (0x61 + in_.template ConsumeIntegralInRange<std::uint32_t>(0, 0x7F)) % 0x80;  // zero: 'a'
            case 1: return in_.template ConsumeIntegralInRange<std::uint32_t>(0xC0, 0x24F);
            case 2: return in_.template ConsumeIntegralInRange<std::uint32_t>(0x391, 0x4FF);
            case 3: return edge ? pick(two) : in_.template ConsumeIntegralInRange<std::uint32_t>(0x80, 0x7FF);
            case 4: return in_.template ConsumeIntegralInRange<std::uint32_t>(0x4E00, 0x9FFF);
            case 5: {
                if (edge) {
                    return pick(three);
                }
                const auto c = in_.template ConsumeIntegralInRange<std::uint32_t>(0x800, 0xFFFF - 0x800);
                return c >= 0xD800 ? c + 0x800 : c;  // past the surrogates
            }
            default: return edge ? pick(four) : in_.template ConsumeIntegralInRange<std::uint32_t>(0x10000, 0x10FFFF);
        }
    }

    static std::size_t utf8_width(std::uint32_t c) { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }

    /// Valid UTF-8 of a length drawn by class: a palette of one to four code points of one
    /// script (or, for script 7, of any), repeated to the length, padded with 'a' where the
    /// next one would not fit. Long text costs a few choices, so every length class is cheap.
    std::string sized_string(unsigned max_class = 17) {
        std::size_t n = sized_length(max_class);
        const int script = in_.template ConsumeIntegralInRange<int>(0, 7);
        std::uint32_t palette[4];
        const std::size_t colours = in_.template ConsumeIntegralInRange<std::size_t>(1, 4);
        for (std::size_t i = 0; i < colours; ++i) {
            palette[i] = script_code_point(script == 7 ? in_.template ConsumeIntegralInRange<int>(0, 6) : script);
        }
        if (!take_bytes(n)) {
            n = 0;
        }
        std::string s;
        s.reserve(n);
        for (std::size_t i = 0; s.size() < n; ++i) {
            const std::uint32_t c = palette[i % colours];
            if (s.size() + utf8_width(c) > n) {
                s.append(n - s.size(), 'a');
                break;
            }
            sinkcheck::detail::append_utf8(s, c);
        }
        return s;
    }

    /// An element count by class; above 255 only when rare(), and within the node budget.
    std::size_t sized_count() {
        std::size_t n = sized_length(16);
        if (n > 255 && !rare()) {
            n %= 256;
        }
        const std::size_t cap = limits_.max_nodes * (n > 256 ? 128 : 8);
        if (nodes_ + n > cap) {
            n = nodes_ < cap ? cap - nodes_ : 0;
        }
        return n;
    }

    /// An array of a count drawn by class, its elements scalars drawn one by one (zero choices
    /// give null), so a count and what is in it shrink apart.
    Json sized_array() {
        const std::size_t n = sized_count();
        Json a = Json::array();
        for (std::size_t i = 0; i < n; ++i) {
            a.push_back(scalar_or_container(in_.template ConsumeIntegralInRange<std::uint8_t>(0, 16)));
        }
        nodes_ += n;
        return a;
    }

    /// An object of a member count drawn by class; a key drawn twice gets its index appended.
    Json sized_object() {
        const std::size_t n = sized_count();
        Json o = Json::object();
        for (std::size_t i = 0; i < n; ++i) {
            std::string k = key();
            if (o.contains(k)) {
                k += std::to_string(i);
            }
            o[k] = scalar_or_container(in_.template ConsumeIntegralInRange<std::uint8_t>(0, 16));
        }
        nodes_ += n;
        return o;
    }

    /// A length-class edge; the ones above 4096 only when rare().
    std::size_t length_edge() {
        const std::size_t n = pick(testkit::edges::lengths);
        return n > 4096 && !rare() ? n % 4096 : n;
    }

    /// An element count at a length-class edge; the ones above 256 only when rare(). A string
    /// of 4,095 bytes costs one copy per encoding, an array of 4,095 values thousands of calls
    /// (and, under ASan, an allocation each when decoded): such inputs ran 100-300 times longer
    /// than a typical one and took most of a campaign's time.
    std::size_t count_edge() {
        const std::size_t n = pick(testkit::edges::lengths);
        return n > 256 && !rare() ? n % 256 : n;
    }

    template <class T, std::size_t N>
    T pick(const T (&table)[N]) {
        return table[in_.template ConsumeIntegralInRange<std::size_t>(0, N - 1)];
    }

    static double bits_to_double(std::uint64_t bits) {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }

    Json edge_unsigned() {
        std::uint64_t v = pick(testkit::edges::unsigned_integers);
        v += static_cast<std::uint64_t>(in_.template ConsumeIntegralInRange<int>(-1, 1));
        // non-negative values come as either number kind; both must encode alike
        if (v <= static_cast<std::uint64_t>((std::numeric_limits<std::int64_t>::max)()) && in_.ConsumeBool()) {
            return Json(static_cast<std::int64_t>(v));
        }
        return Json(v);
    }

    std::int64_t edge_signed() {
        const std::int64_t v = pick(testkit::edges::negative_integers);
        const int delta = in_.template ConsumeIntegralInRange<int>(-1, 1);
        if (delta < 0 && v == std::numeric_limits<std::int64_t>::min()) {
            return v;
        }
        return v + delta;
    }

    bool take_bytes(std::size_t n) {
        if (bytes_ + n > limits_.max_bytes) {
            return false;
        }
        bytes_ += n;
        return true;
    }

    /// Input bytes as they are: often invalid UTF-8 (type_error.316 in every format).
    std::string raw_bytes() {
        std::string s = in_.ConsumeRandomLengthString(64);
        return take_bytes(s.size()) ? s : std::string();
    }

    /// raw_bytes() as a string or key; outside the hostile profile with '?' for each byte of
    /// an invalid sequence.
    std::string raw_string() {
        std::string s = raw_bytes();
        std::size_t i = 0;
        while (!limits_.hostile && i < s.size()) {
            const std::size_t bad = sinkcheck::detail::utf8_invalid_at(s.data() + i, s.size() - i);
            if (bad == sinkcheck::detail::utf8_valid) {
                break;
            }
            i += bad;
            s[i++] = '?';
        }
        return s;
    }

    /// Valid UTF-8 made from code points the input picks (all four sequence lengths).
    std::string utf8_string() {
        const std::size_t n = in_.template ConsumeIntegralInRange<std::size_t>(0, 24);
        std::string s;
        for (std::size_t i = 0; i < n && in_.remaining_bytes() > 0; ++i) {
            sinkcheck::detail::append_utf8(s, code_point());
        }
        return take_bytes(s.size()) ? s : std::string();
    }

    std::uint32_t code_point() {
        switch (in_.template ConsumeIntegralInRange<int>(0, 4)) {
            case 0: return in_.template ConsumeIntegralInRange<std::uint32_t>(0, 0x7F);
            case 1: return in_.template ConsumeIntegralInRange<std::uint32_t>(0x80, 0x7FF);
            case 2: {
                const auto c = in_.template ConsumeIntegralInRange<std::uint32_t>(0x800, 0xFFFF);
                return c >= 0xD800 && c <= 0xDFFF ? 0xFFFD : c;  // no surrogates
            }
            case 3: return in_.template ConsumeIntegralInRange<std::uint32_t>(0x10000, 0x10FFFF);
            default: return static_cast<std::uint32_t>('a' + in_.template ConsumeIntegralInRange<int>(0, 25));
        }
    }

    /// A string exactly at a length-class edge (one byte either side too).
    std::string filler_string() {
        std::size_t n = length_edge();
        if (n > 0 && in_.ConsumeBool()) {
            n += static_cast<std::size_t>(in_.template ConsumeIntegralInRange<int>(0, 2)) - 1;
        }
        if (!take_bytes(n)) {
            return std::string();
        }
        const char c = static_cast<char>('a' + in_.template ConsumeIntegralInRange<int>(0, 25));
        return std::string(n, c);
    }

    /// Object keys: mostly short valid text, sometimes raw bytes, empty, or with a NUL
    /// (BSON out_of_range.409).
    std::string key() {
        switch (in_.template ConsumeIntegralInRange<int>(0, 7)) {
            case 0: return std::string();
            case 1: return raw_string();
            case 2: return std::string("a\0b", 3);
            case 3: return limits_.ndarrays ? "_ArrayType_" : "a";
            default: return utf8_string();
        }
    }

    Json binary() {
        typename Json::binary_t::container_type bytes;
        const int how = in_.template ConsumeIntegralInRange<int>(0, 2);
        if (how == 0) {
            const std::string s = raw_bytes();
            bytes.assign(s.begin(), s.end());
        } else if (how == 2) {
            // a length by class, a pattern of one to four bytes repeated to it
            std::size_t n = sized_length(17);
            std::uint8_t pattern[4];
            const std::size_t period = in_.template ConsumeIntegralInRange<std::size_t>(1, 4);
            for (std::size_t i = 0; i < period; ++i) {
                pattern[i] = in_.template ConsumeIntegral<std::uint8_t>();
            }
            if (!take_bytes(n)) {
                n = 0;
            }
            for (std::size_t i = 0; i < n; ++i) {
                bytes.push_back(pattern[i % period]);
            }
        } else {
            std::size_t n = length_edge();
            if (!take_bytes(n)) {
                n = 0;
            }
            bytes.assign(n, in_.template ConsumeIntegral<std::uint8_t>());
        }
        switch (in_.template ConsumeIntegralInRange<int>(0, 2)) {
            case 0: return Json::binary(std::move(bytes));
            case 1: return Json::binary(std::move(bytes), pick(subtype_edges));
            default: return Json::binary(std::move(bytes), in_.template ConsumeIntegral<std::uint8_t>());
        }
    }

    /// n copies of one scalar: the UBJSON/BJData '$' (use_type) paths and the count edges.
    Json uniform_array() {
        std::size_t n = count_edge();
        // a few thousand values in all, unless this array is one of the rare long ones
        const std::size_t cap = limits_.max_nodes * (n > 256 ? 128 : 8);
        if (nodes_ + n > cap) {
            n = nodes_ < cap ? cap - nodes_ : 0;
        }
        // scalars only: numbers, short strings, binary
        const std::uint8_t element_op = static_cast<std::uint8_t>(in_.template ConsumeIntegralInRange<int>(0, 16));
        Json element = scalar_or_container(element_op);
        const std::size_t element_bytes = element.is_string()
                                              ? element.template get_ref<const typename Json::string_t&>().size()
                                          : element.is_binary() ? element.get_binary().size()
                                                                : 0;
        // more than 4 KiB of text or binary in one array only when rare(): UBJSON and BJData
        // write binary as an array of numbers, which decodes to one value per byte
        const std::size_t total = n * element_bytes;
        if (element_bytes > 0 && ((total > 4096 && !rare()) || total > limits_.max_bytes || !take_bytes(total))) {
            n = 1;
        }
        Json a = Json::array();
        auto& items = a.template get_ref<typename Json::array_t&>();
        items.assign(n, element);
        nodes_ += n;
        return a;
    }

    /// A BJData ND-array annotation: mostly consistent, sometimes with the wrong element count,
    /// an unknown type name or data of another kind (BJData writes those as ordinary objects
    /// or hits 3.11.2 quirks).
    Json ndarray() {
        const char* type = pick(ndarray_types);
        Json size = Json::array();
        std::size_t count = 1;
        const std::size_t dims = in_.template ConsumeIntegralInRange<std::size_t>(0, 3);
        for (std::size_t d = 0; d < dims; ++d) {
            const std::size_t n = in_.template ConsumeIntegralInRange<std::size_t>(0, 5);
            size.push_back(n);
            count *= n;
        }
        if (dims == 0) {
            count = 0;
        }
        if (in_.template ConsumeIntegralInRange<int>(0, 7) == 0) {
            count += 1;
        }
        // small numbers mostly; then the width edges of every element type and a step past
        // them, and integers of any bit length, which a type holds or must refuse
        const int kind = in_.template ConsumeIntegralInRange<int>(0, 7);
        Json data = Json::array();
        for (std::size_t i = 0; i < count; ++i) {
            switch (kind) {
                case 0:
                    data.push_back(static_cast<double>(in_.template ConsumeIntegralInRange<int>(-128, 255)) / 2.0);
                    break;
                case 1:
                    data.push_back(static_cast<std::int64_t>(in_.template ConsumeIntegralInRange<int>(-128, 255)));
                    break;
                case 2: data.push_back("x"); break;
                case 4: data.push_back(edge_unsigned()); break;
                case 5: data.push_back(edge_signed()); break;
                case 6: data.push_back(sized_unsigned(64)); break;
                case 7: data.push_back(sized_negative()); break;
                default:
                    data.push_back(static_cast<std::uint64_t>(in_.template ConsumeIntegralInRange<int>(0, 255)));
                    break;
            }
        }
        nodes_ += count + dims;
        Json o = Json::object();
        o["_ArrayType_"] = type;
        o["_ArraySize_"] = std::move(size);
        o["_ArrayData_"] = std::move(data);
        return o;
    }

    Source& in_;
    build_limits limits_;
    std::vector<Json*> open_;
    std::size_t nodes_ = 0;
    std::size_t bytes_ = 0;
    bool deep_allowed_ = false;
};

/// The value the rest of the input describes (see value_builder).
template <class Json, class Source>
Json value_from_bytes(Source& in, const build_limits& limits = {}) {
    value_builder<Json, Source> b(in, limits);
    return b.build();
}

}  // namespace sinkcheck::fuzz
