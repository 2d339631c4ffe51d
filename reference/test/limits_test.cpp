// limits_test.cpp — every encoder at the edges of size: values nested 100,000 deep, strings of
// 2^31 and 2^32 bytes (and MessagePack binaries of 2^32), containers that claim 2^32 + 1
// elements. A length or count field must carry the whole number, or the encoder must refuse the
// value with its documented error (error.hpp, KNOWN_DIVERGENCES.md); it may neither crash nor
// cut a length to fewer bits.
//
// Nothing large is allocated. A 4 GiB string or binary is a view of one 2 MiB memfd of 'a'
// mapped 2,048 times side by side (region below); a container claims a size and cycles over its
// few real elements (claiming below). The sink keeps the first 32 and the last 16 bytes of the
// output and its length (window_sink below), which is enough to check a header and a total
// exactly.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "sinkcheck/sink/seekable_memory_writer.hpp"
#include "test_support.hpp"

namespace {

namespace sct = sinkcheck::test;
using sct::hex;
using sct::unhex;
using sinkcheck::encode_options;
using sinkcheck::format;

constexpr std::size_t two_to_31 = std::size_t{1} << 31;
constexpr std::size_t two_to_32 = std::size_t{1} << 32;

encode_options sized() {
    encode_options o;
    o.use_size = true;
    return o;
}

encode_options typed() {
    encode_options o = sized();
    o.use_type = true;
    return o;
}

encode_options patch_lengths() {
    encode_options o;
    o.bson_patch_lengths = true;
    return o;
}

/// One encoder with one set of options.
struct encoder {
    const char* name;
    format f;
    encode_options options;
};

const std::vector<encoder>& every_encoder() {
    static const std::vector<encoder> all = {
        {"cbor", format::cbor, {}},
        {"msgpack", format::msgpack, {}},
        {"ubjson", format::ubjson, {}},
        {"ubjson use_size", format::ubjson, sized()},
        {"ubjson use_type", format::ubjson, typed()},
        {"bjdata", format::bjdata, {}},
        {"bjdata use_size", format::bjdata, sized()},
        {"bjdata use_type", format::bjdata, typed()},
        {"bson", format::bson, {}},
        {"bson patch", format::bson, patch_lengths()},
        {"bon8", format::bon8, {}},
    };
    return all;
}

std::string repeat_hex(std::string_view unit_hex, std::size_t times) {
    return sct::repeat(hex(unhex(unit_hex)), times);
}

// ---------------------------------------------------------------------------------------------
// A sink that keeps the first 32 and the last 16 bytes of the output and counts the rest.

/// What window_sink throws once the output reaches its stop: not an encoder error, so the
/// walker lets it through unchanged.
struct sink_stopped {};

class window_sink {
public:
    static constexpr std::size_t head_size = 32;
    static constexpr std::size_t tail_size = 16;

    /// stop: throw sink_stopped after the write that brings the output to this many bytes
    /// (0: never).
    explicit window_sink(std::size_t stop = 0) noexcept : stop_(stop) {}

    void write(std::uint8_t b) { write(&b, 1); }

    /// Touches at most head_size + tail_size bytes of p, whatever n is.
    void write(const std::uint8_t* p, std::size_t n) {
        if (n == 0) {
            return;  // writes nothing, so fills no gap after a seek past the end either
        }
        const std::size_t at = pos_;
        const std::size_t stop = at + n;
        for (std::size_t q = at; q < stop && q < head_size; ++q) {
            head_[q] = p[q - at];
        }
        if (stop > end_) {
            std::array<std::uint8_t, tail_size> next{};
            const std::size_t lo = tail_start(stop);
            const std::size_t old_lo = tail_start(end_);
            for (std::size_t q = lo; q < stop; ++q) {
                if (q >= at) {
                    next[q - lo] = p[q - at];
                } else if (q < end_) {
                    next[q - lo] = tail_[q - old_lo];
                }  // else a gap left by a seek past the end: zero, as in seekable_memory_writer
            }
            tail_ = next;
            end_ = stop;
        } else {
            const std::size_t lo = tail_start(end_);
            for (std::size_t q = std::max(at, lo); q < stop; ++q) {
                tail_[q - lo] = p[q - at];
            }
        }
        pos_ = stop;
        if (stop_ != 0 && end_ >= stop_) {
            throw sink_stopped{};
        }
    }

    std::size_t position() const noexcept { return pos_; }
    /// For BSON's patch mode; a later write overwrites, or extends past the end.
    void seek(std::size_t pos) noexcept { pos_ = pos; }

    /// Bytes of output: the furthest any write has reached.
    std::size_t size() const noexcept { return end_; }
    std::string head() const {
        return hex({head_.begin(), head_.begin() + static_cast<long>(std::min(end_, head_size))});
    }
    std::string tail() const {
        const std::size_t kept = std::min(end_, tail_size);
        return hex({tail_.begin(), tail_.begin() + static_cast<long>(kept)});
    }

private:
    static std::size_t tail_start(std::size_t end) noexcept { return end > tail_size ? end - tail_size : 0; }

    std::array<std::uint8_t, head_size> head_{};
    std::array<std::uint8_t, tail_size> tail_{};  // bytes [tail_start(end_), end_)
    std::size_t pos_ = 0;
    std::size_t end_ = 0;
    std::size_t stop_;
};

// The large tests trust window_sink's head, tail and size: it must agree with a sink that
// stores everything, on appends, seeks back, seeks past the end and long writes.
TEST(Limits, WindowSinkKeepsTheHeadTailAndSizeASeekableMemoryWriterHolds) {
    std::mt19937_64 rng(sct::seed());
    for (int round = 0; round < 200; ++round) {
        window_sink window;
        sinkcheck::seekable_memory_writer all;
        const std::size_t writes = 1 + rng() % 12;
        for (std::size_t w = 0; w < writes; ++w) {
            if (rng() % 4 == 0) {
                const std::size_t to = rng() % (window.size() + 40);
                window.seek(to);
                all.seek(to);
            }
            const std::size_t n = rng() % 3 == 0 ? rng() % 100 : rng() % 8;
            std::vector<std::uint8_t> bytes(n);
            for (auto& b : bytes) {
                b = static_cast<std::uint8_t>(1 + rng() % 255);
            }
            if (n == 1) {
                window.write(bytes[0]);
                all.write(bytes[0]);
            } else {
                window.write(bytes.data(), n);
                all.write(bytes.data(), n);
            }
            ASSERT_EQ(window.position(), all.position()) << "round " << round << " write " << w;
        }
        const auto& full = all.bytes();
        ASSERT_EQ(window.size(), full.size()) << "round " << round;
        const std::size_t head = std::min<std::size_t>(full.size(), window_sink::head_size);
        const std::size_t tail = std::min<std::size_t>(full.size(), window_sink::tail_size);
        EXPECT_EQ(window.head(), hex({full.begin(), full.begin() + static_cast<long>(head)})) << "round " << round;
        EXPECT_EQ(window.tail(), hex({full.end() - static_cast<long>(tail), full.end()})) << "round " << round;
    }
}

TEST(Limits, WindowSinkThrowsOnceTheOutputReachesItsStop) {
    window_sink sink(5);
    const std::uint8_t four[4] = {1, 2, 3, 4};
    sink.write(four, 4);
    EXPECT_THROW(sink.write(5), sink_stopped);
    EXPECT_EQ(sink.size(), 5u);
    EXPECT_EQ(sink.head(), "0102030405");
}

// ---------------------------------------------------------------------------------------------
// 1. Depth 100,000. The per-format tests cover nlohmann::json arrays for every encoder and
// objects for CBOR, MessagePack and plain UBJSON; these add objects for the other encoders and
// options, and nlohmann::ordered_json (object_t is a vector of pairs there) for all of them.
// Each expected output is derived by hand from the format's rules and compared in full.

constexpr std::size_t depth = 100000;

/// How a chain of one-child containers is written: the root's opening, the opening of each
/// level between root and innermost, the innermost (empty) container, and the closing of each
/// non-empty level.
struct nesting {
    std::string_view root;
    std::string_view middle;
    std::string_view innermost;
    std::string_view close;
};

std::vector<std::uint8_t> nesting_bytes(const nesting& n) {
    return unhex(hex(unhex(n.root)) + repeat_hex(n.middle, depth - 2) + hex(unhex(n.innermost)) +
                 repeat_hex(n.close, depth - 1));
}

/// [[[...]]]: RFC 8949 §3.1 (0x81 array of one, 0x80 empty); MessagePack fixarray (0x91, 0x90);
/// UBJSON Draft 12 / BJData Draft 2 containers, '#' count with the int8 marker 'i', and '$'
/// typing (BJData Draft 2 allows no '[' after '$'); BON8 0x81 array of one, 0x80 empty.
nesting array_nesting(const encoder& e) {
    const bool size = e.options.use_size;
    const bool type = e.options.use_type;
    switch (e.f) {
        case format::cbor: return {"81", "81", "80", ""};
        case format::msgpack: return {"91", "91", "90", ""};
        case format::ubjson:
            if (type) return {"5b 245b 2369 01", "245b 2369 01", "2369 00", ""};
            [[fallthrough]];
        case format::bjdata:
            if (size) return {"5b 2369 01", "5b 2369 01", "5b 2369 00", ""};
            return {"5b", "5b", "5b 5d", "5d"};
        case format::bon8: return {"81", "81", "80", ""};
        case format::bson: break;
    }
    ADD_FAILURE() << "no array nesting for " << e.name;
    return {};
}

/// {"a":{"a":...{}}}: RFC 8949 §3.1 (0xa1 map of one pair, 0x61 0x61 the one-byte text "a",
/// 0xa0 empty); MessagePack fixmap 0x81, fixstr 0xa1 0x61; UBJSON/BJData keys as a length and
/// bytes with no 'S' ("i\x01a"), '{' after '$' allowed in UBJSON only; BON8 0x87 object of one
/// member, the key "a" as bare UTF-8, 0x86 empty.
nesting object_nesting(const encoder& e) {
    const bool size = e.options.use_size;
    const bool type = e.options.use_type;
    switch (e.f) {
        case format::cbor: return {"a1 6161", "a1 6161", "a0", ""};
        case format::msgpack: return {"81 a161", "81 a161", "80", ""};
        case format::ubjson:
            if (type) return {"7b 247b 2369 01 690161", "247b 2369 01 690161", "2369 00", ""};
            [[fallthrough]];
        case format::bjdata:
            if (size) return {"7b 2369 01 690161", "7b 2369 01 690161", "7b 2369 00", ""};
            return {"7b 690161", "7b 690161", "7b 7d", "7d"};
        case format::bon8: return {"87 61", "87 61", "86", ""};
        case format::bson: break;
    }
    ADD_FAILURE() << "no object nesting for " << e.name;
    return {};
}

/// BSON documents each holding the next as their only element (type byte and one-character
/// key per link), the last one empty. bsonspec.org: document ::= int32 e_list "\x00" and
/// element ::= type e_name value, so each document is 8 bytes (int32, type, key, NUL,
/// terminator) longer than the one it holds and the empty one is 5.
std::vector<std::uint8_t> bson_chain(const std::vector<std::pair<std::uint8_t, char>>& links) {
    std::vector<std::uint8_t> out;
    const std::size_t documents = links.size() + 1;
    auto le32 = [&out](std::size_t v) {
        for (int i = 0; i < 4; ++i) {
            out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
        }
    };
    for (std::size_t i = 0; i < links.size(); ++i) {
        le32(5 + 8 * (documents - 1 - i));
        out.push_back(links[i].first);
        out.push_back(static_cast<std::uint8_t>(links[i].second));
        out.push_back(0);
    }
    le32(5);
    out.insert(out.end(), documents, 0);
    return out;
}

template <class Json>
std::vector<std::uint8_t> encode_bytes(const encoder& e, const Json& j) {
    if (e.options.bson_patch_lengths) {
        sinkcheck::seekable_memory_writer w;
        sinkcheck::encode(e.f, j, w, e.options);
        return w.take();
    }
    return sinkcheck::encode_to_vector(e.f, j, e.options);
}

/// Equal bytes; on a difference, the sizes and the first offset that differs, not two
/// megabytes of hex.
void expect_same_bytes(const std::vector<std::uint8_t>& actual, const std::vector<std::uint8_t>& expected,
                       const std::string& what) {
    const auto diff = std::mismatch(actual.begin(), actual.end(), expected.begin(), expected.end());
    if (diff.first == actual.end() && diff.second == expected.end()) {
        return;
    }
    const auto at = static_cast<std::size_t>(diff.first - actual.begin());
    ADD_FAILURE() << what << ": " << actual.size() << " bytes, expected " << expected.size()
                  << "; first difference at byte " << at << " (got "
                  << (diff.first == actual.end() ? std::string("end") : hex({*diff.first})) << ", expected "
                  << (diff.second == expected.end() ? std::string("end") : hex({*diff.second})) << ")";
}

TEST(Limits, EncodesObjectsNested100000DeepWhereNoFormatTestDoes) {
    const auto deep = sct::nested_objects<nlohmann::json>(depth);
    for (const auto& e : every_encoder()) {
        const bool covered =
            e.f == format::cbor || e.f == format::msgpack || (e.f == format::ubjson && !e.options.use_size);
        if (covered) {
            continue;  // cbor_test, msgpack_test, ubjson_test: EncodesObjectsNested100000Deep
        }
        const auto expected =
            e.f == format::bson ? bson_chain({depth - 1, {0x03, 'a'}}) : nesting_bytes(object_nesting(e));
        expect_same_bytes(encode_bytes(e, deep), expected, e.name);
    }
}

TEST(Limits, EncodesOrderedJsonArraysAndObjectsNested100000DeepInEveryEncoder) {
    using ordered = nlohmann::ordered_json;
    const auto objects = sct::nested_objects<ordered>(depth);
    const auto arrays = sct::nested_arrays<ordered>(depth);
    ordered in_document = ordered::object();  // BSON's top level must be a document
    in_document["v"] = sct::nested_arrays<ordered>(depth);
    std::vector<std::pair<std::uint8_t, char>> array_links(depth, {0x04, '0'});
    array_links.front() = {0x04, 'v'};

    for (const auto& e : every_encoder()) {
        if (e.f == format::bson) {
            expect_same_bytes(encode_bytes(e, objects), bson_chain({depth - 1, {0x03, 'a'}}),
                              std::string(e.name) + " objects");
            expect_same_bytes(encode_bytes(e, in_document), bson_chain(array_links), std::string(e.name) + " arrays");
            continue;
        }
        expect_same_bytes(encode_bytes(e, objects), nesting_bytes(object_nesting(e)), std::string(e.name) + " objects");
        expect_same_bytes(encode_bytes(e, arrays), nesting_bytes(array_nesting(e)), std::string(e.name) + " arrays");
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Strings (and binaries) of 2^31 and 2^32 bytes without allocating them.

/// 2^32 bytes of 'a' followed by 2 MiB of NUL, readable, backed by 4 MiB of memory: one memfd
/// holding 2 MiB of 'a' then 2 MiB of NUL, its first half mapped 2,048 times side by side over
/// a reserved range and its second half once after them (2,049 mappings, far below the default
/// vm.max_map_count of 65,530).
class region {
public:
    static constexpr std::size_t chunk = std::size_t{2} << 20;
    static constexpr std::size_t run = two_to_32;

    /// The one region of the process, mapped on first use.
    static const region& get() {
        static const region r;
        return r;
    }

    /// Empty when the region is mapped, else why it is not.
    const std::string& failure() const noexcept { return failure_; }

    /// The last n bytes of the run of 'a': n bytes of 'a', and a NUL right after them.
    const char* last(std::size_t n) const noexcept { return base_ + run - n; }

    region(const region&) = delete;
    region& operator=(const region&) = delete;

private:
    region() { map(); }
    ~region() {
#if defined(__linux__)
        if (base_ != nullptr) {
            munmap(base_, run + chunk);
        }
        if (fd_ >= 0) {
            close(fd_);
        }
#endif
    }

    void fail(const char* step) { failure_ = std::string(step) + " failed: " + std::strerror(errno); }

    void map() {
#if defined(__linux__)
        fd_ = memfd_create("sinkcheck-limits", MFD_CLOEXEC);
        if (fd_ < 0) {
            return fail("memfd_create");
        }
        if (ftruncate(fd_, static_cast<off_t>(2 * chunk)) != 0) {
            return fail("ftruncate");
        }
        const std::string as(chunk, 'a');
        for (std::size_t done = 0; done < chunk;) {
            const ssize_t n = pwrite(fd_, as.data() + done, chunk - done, static_cast<off_t>(done));
            if (n <= 0) {
                return fail("pwrite");
            }
            done += static_cast<std::size_t>(n);
        }
        void* reserved = mmap(nullptr, run + chunk, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (reserved == MAP_FAILED) {
            return fail("mmap of the 4 GiB reservation");
        }
        base_ = static_cast<char*>(reserved);
        for (std::size_t i = 0; i <= run / chunk; ++i) {
            const off_t half = static_cast<off_t>(i < run / chunk ? 0 : chunk);
            if (mmap(base_ + i * chunk, chunk, PROT_READ, MAP_SHARED | MAP_FIXED, fd_, half) == MAP_FAILED) {
                return fail("mmap MAP_FIXED of the memfd");
            }
        }
#else
        failure_ = "needs Linux (memfd_create, mmap MAP_FIXED)";
#endif
    }

    char* base_ = nullptr;
    int fd_ = -1;
    std::string failure_;
};

/// A std::string that presents a stretch of the region instead of its own contents through
/// the members the encoders read a string value with: size(), empty(), data(), c_str()
/// (format/*.hpp, detail/utf8.hpp). Its own contents are the byte 0xff, never valid UTF-8, so
/// an encoder that read the value through the std::string base instead would refuse it
/// (type_error.316) or write a byte other than 'a'.
class region_string : public std::string {
public:
    using std::string::string;
    region_string() = default;

    static region_string view(const char* data, std::size_t size) {
        region_string s("\xff");
        s.view_ = data;
        s.view_size_ = size;
        return s;
    }

    size_type size() const noexcept { return view_ != nullptr ? view_size_ : std::string::size(); }
    size_type length() const noexcept { return size(); }
    bool empty() const noexcept { return size() == 0; }
    const char* data() const noexcept { return view_ != nullptr ? view_ : std::string::data(); }
    /// The region has a NUL after its run of 'a', so a view of its last bytes is terminated.
    const char* c_str() const noexcept { return data(); }

private:
    const char* view_ = nullptr;
    size_type view_size_ = 0;
};

using region_json = nlohmann::basic_json<std::map, std::vector, region_string>;

/// A byte vector that presents a stretch of the region through the members the MessagePack
/// encoder reads a binary value with: size(), empty(), data() (format/msgpack.hpp). Its own
/// contents are the byte 0xff, so an encoder that wrote the std::vector base instead would write
/// a byte other than 'a'.
class region_bytes : public std::vector<std::uint8_t> {
public:
    using std::vector<std::uint8_t>::vector;
    region_bytes() = default;

    static region_bytes view(const char* data, std::size_t size) {
        region_bytes b(1, std::uint8_t{0xff});
        b.view_ = reinterpret_cast<const std::uint8_t*>(data);
        b.view_size_ = size;
        return b;
    }

    size_type size() const noexcept { return view_ != nullptr ? view_size_ : std::vector<std::uint8_t>::size(); }
    bool empty() const noexcept { return size() == 0; }
    const std::uint8_t* data() const noexcept { return view_ != nullptr ? view_ : std::vector<std::uint8_t>::data(); }

private:
    const std::uint8_t* view_ = nullptr;
    size_type view_size_ = 0;
};

using region_binary_json = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t, std::uint64_t,
                                                double, std::allocator, nlohmann::adl_serializer, region_bytes>;

/// Skips the test, with the reason, when the region could not be mapped.
#define SKIP_WITHOUT_REGION()                                                     \
    if (!region::get().failure().empty()) {                                       \
        GTEST_SKIP() << "no 4 GiB read-only region: " << region::get().failure(); \
    }

/// [s] with s the last n bytes of the run; BSON, whose top level is a document: {"s": s}.
region_json string_value(format f, std::size_t n) {
    region_json s(region_string::view(region::get().last(n), n));
    if (f == format::bson) {
        region_json doc = region_json::object();
        doc["s"] = std::move(s);
        return doc;
    }
    region_json a = region_json::array();
    a.push_back(std::move(s));
    return a;
}

std::string as_hex(std::size_t count) { return sct::repeat("61", count); }

/// Encodes a string of n bytes of 'a' (string_value) and checks the bytes before the run,
/// the bytes after it and the total length.
void expect_string(const char* what, format f, const encode_options& o, std::size_t n, std::string_view before_hex,
                   std::string_view after_hex) {
    SCOPED_TRACE(std::string(what) + ", string of " + std::to_string(n) + " bytes");
    const auto before = unhex(before_hex);
    const auto after = unhex(after_hex);
    window_sink sink;
    sinkcheck::encode(f, string_value(f, n), sink, o);
    EXPECT_EQ(sink.size(), before.size() + n + after.size());
    EXPECT_EQ(sink.head(), hex(before) + as_hex(window_sink::head_size - before.size()));
    EXPECT_EQ(sink.tail(), as_hex(window_sink::tail_size - after.size()) + hex(after));
}

/// Encodes a string of n bytes of 'a' and requires out_of_range.903 with this message and
/// pointer, after exactly `written` bytes of output whose first bytes are `head_hex`.
void expect_string_refused(const char* what, format f, const encode_options& o, std::size_t n,
                           const std::string& message, const std::string& pointer, std::size_t written,
                           const std::string& head_hex) {
    SCOPED_TRACE(std::string(what) + ", string of " + std::to_string(n) + " bytes");
    window_sink sink;
    try {
        sinkcheck::encode(f, string_value(f, n), sink, o);
        ADD_FAILURE() << "encoded without error, " << sink.size() << " bytes, starting " << sink.head();
    } catch (const sinkcheck::out_of_range& e) {
        EXPECT_EQ(e.id(), sinkcheck::error_id::length_too_large);
        EXPECT_EQ(e.message(), message);
        EXPECT_EQ(e.pointer(), pointer);
    }
    EXPECT_EQ(sink.size(), written);
    EXPECT_EQ(sink.head(), hex(unhex(head_hex)));
}

TEST(Limits, RegionStringPresentsFourGiBOfAThroughTheMembersEncodersRead) {
    SKIP_WITHOUT_REGION();
    const region_string s = region_string::view(region::get().last(two_to_32), two_to_32);
    EXPECT_EQ(s.size(), two_to_32);
    EXPECT_EQ(s.length(), two_to_32);
    EXPECT_FALSE(s.empty());
    EXPECT_EQ(s.c_str(), s.data());
    for (const std::size_t at : {std::size_t{0}, region::chunk - 1, region::chunk, two_to_31, two_to_32 - 1}) {
        EXPECT_EQ(s.data()[at], 'a') << "byte " << at;
    }
    EXPECT_EQ(s.c_str()[two_to_32], '\0');
    EXPECT_EQ(static_cast<const std::string&>(s), "\xff");  // what the std::string base holds

    // and the copy basic_json makes of it presents the same bytes
    const region_json j(s);
    const auto& held = j.get_ref<const region_string&>();
    EXPECT_EQ(held.size(), two_to_32);
    EXPECT_EQ(held.data(), s.data());
}

// RFC 8949 §3: argument 26 (0x7a) carries a 4-byte length up to 2^32 - 1, argument 27 (0x7b)
// an 8-byte one; 0x81 is the enclosing array of one.
TEST(Limits, CborWritesFourGiBStringsWithFourAndEightByteLengths) {
    SKIP_WITHOUT_REGION();
    expect_string("cbor", format::cbor, {}, two_to_32 - 1, "81 7a ffffffff", "");
    expect_string("cbor", format::cbor, {}, two_to_32, "81 7b 0000000100000000", "");
}

// MessagePack spec "str 32" (0xdb): a 32-bit big-endian length, so 2^32 - 1 is the longest
// string; "Limitation": a longer one cannot be represented (msgpack-length-overflow).
TEST(Limits, MsgpackWritesStr32UpTo2To32Minus1AndRefuses2To32BeforeItsHead) {
    SKIP_WITHOUT_REGION();
    expect_string("msgpack", format::msgpack, {}, two_to_32 - 1, "91 db ffffffff", "");
    expect_string_refused("msgpack", format::msgpack, {}, two_to_32,
                          "MessagePack str length 4294967296 does not fit the 32-bit length field", "/0", 1, "91");
    EXPECT_STREQ(sinkcheck::msgpack_divergence(string_value(format::msgpack, two_to_32)), "msgpack-length-overflow");
}

/// [b] with b the last n bytes of the run as a binary value, with the subtype if there is one.
region_binary_json binary_value(std::size_t n, std::optional<std::uint8_t> subtype) {
    const region_bytes b = region_bytes::view(region::get().last(n), n);
    region_binary_json a = region_binary_json::array();
    a.push_back(subtype ? region_binary_json::binary(b, *subtype) : region_binary_json::binary(b));
    return a;
}

// MessagePack spec "bin 32" (0xc6) and "ext 32" (0xc9, the type byte after the length): a 32-bit
// big-endian length, so 2^32 - 1 bytes is the longest payload; "Limitation": a longer one
// cannot be represented (msgpack-length-overflow), refused before its head is written.
TEST(Limits, MsgpackWritesBin32AndExt32UpTo2To32Minus1AndRefuses2To32BeforeTheirHead) {
    SKIP_WITHOUT_REGION();
    struct binary_case {
        std::string family;
        std::optional<std::uint8_t> subtype;
        std::string head_hex;  // after the enclosing array's 0x91
    };
    const binary_case cases[] = {
        {"bin", std::nullopt, "c6 ffffffff"},
        {"ext", std::uint8_t{7}, "c9 ffffffff 07"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.family);
        const auto head = unhex("91" + c.head_hex);
        const region_binary_json longest = binary_value(two_to_32 - 1, c.subtype);
        window_sink sink;
        sinkcheck::encode_msgpack(longest, sink);
        EXPECT_EQ(sink.size(), head.size() + two_to_32 - 1);
        EXPECT_EQ(sink.head(), hex(head) + as_hex(window_sink::head_size - head.size()));
        EXPECT_EQ(sink.tail(), as_hex(window_sink::tail_size));
        EXPECT_EQ(sinkcheck::msgpack_divergence(longest), nullptr);

        const region_binary_json too_long = binary_value(two_to_32, c.subtype);
        window_sink refused;
        try {
            sinkcheck::encode_msgpack(too_long, refused);
            ADD_FAILURE() << "encoded without error, " << refused.size() << " bytes, starting " << refused.head();
        } catch (const sinkcheck::out_of_range& e) {
            EXPECT_EQ(e.id(), sinkcheck::error_id::length_too_large);
            EXPECT_EQ(e.message(),
                      "MessagePack " + c.family + " length 4294967296 does not fit the 32-bit length field");
            EXPECT_EQ(e.pointer(), "/0");
        }
        EXPECT_EQ(refused.size(), 1u);
        EXPECT_EQ(refused.head(), "91");
        EXPECT_STREQ(sinkcheck::msgpack_divergence(too_long), "msgpack-length-overflow");
    }
}

// UBJSON Draft 12: a string is S, a length with its integer marker, the bytes; the smallest
// marker that holds the length: l (int32, big-endian) up to 2^31 - 1, then L (int64). The
// options change only the array's header: "#i\x01" (use_size) and "$S#i\x01" (use_type, the
// element's S then omitted).
TEST(Limits, UbjsonWritesStringLengthsPastInt32AsInt64InEveryOption) {
    SKIP_WITHOUT_REGION();
    expect_string("ubjson", format::ubjson, {}, two_to_31 - 1, "5b 53 6c 7fffffff", "5d");
    expect_string("ubjson", format::ubjson, {}, two_to_31, "5b 53 4c 0000000080000000", "5d");
    expect_string("ubjson", format::ubjson, {}, two_to_32, "5b 53 4c 0000000100000000", "5d");
    expect_string("ubjson use_size", format::ubjson, sized(), two_to_32, "5b 2369 01 53 4c 0000000100000000", "");
    expect_string("ubjson use_type", format::ubjson, typed(), two_to_32, "5b 2453 2369 01 4c 0000000100000000", "");
}

// BJData Draft 2: integers are little-endian and m (uint32) holds lengths up to 2^32 - 1, then
// L (int64); 'S' may not follow '$', so use_type writes what use_size writes.
TEST(Limits, BjdataWritesStringLengthsPastUint32AsInt64InEveryOption) {
    SKIP_WITHOUT_REGION();
    expect_string("bjdata", format::bjdata, {}, two_to_32 - 1, "5b 53 6d ffffffff", "5d");
    expect_string("bjdata", format::bjdata, {}, two_to_32, "5b 53 4c 0000000001000000", "5d");
    expect_string("bjdata use_size", format::bjdata, sized(), two_to_32, "5b 2369 01 53 4c 0000000001000000", "");
    expect_string("bjdata use_type", format::bjdata, typed(), two_to_32, "5b 2369 01 53 4c 0000000001000000", "");
}

// bsonspec.org: document ::= int32 e_list "\x00" and string ::= int32 (byte*) "\x00", every
// int32 signed. {"s": s} is 4 + (1 + 2) + 4 + n + 1 + 1 = n + 13 bytes, so 2^31 - 14 bytes is
// the longest string it can hold: the document announces 0x7fffffff, the string n + 1.
TEST(Limits, BsonWritesTheLongestStringAnInt32DocumentLengthHolds) {
    SKIP_WITHOUT_REGION();
    const std::size_t n = two_to_31 - 14;
    expect_string("bson", format::bson, {}, n, "ffffff7f 02 7300 f3ffff7f", "00 00");
    expect_string("bson patch", format::bson, patch_lengths(), n, "ffffff7f 02 7300 f3ffff7f", "00 00");
}

// One byte more and the document is 2^31 bytes: out_of_range.903 for the document (pointer
// ""). The default mode refuses in its sizing pass, before writing; the patch mode finds out
// at the end, and must leave its placeholder unpatched rather than patch in a wrapped length.
TEST(Limits, BsonRefusesADocumentOneByteOverInt32WithOutOfRange903) {
    SKIP_WITHOUT_REGION();
    const std::size_t n = two_to_31 - 13;
    const std::string message = "BSON document length 2147483648 does not fit its int32 length field";
    expect_string_refused("bson", format::bson, {}, n, message, "", 0, "");
    // placeholder, "s" string element, its length 2^31 - 12, then the run of 'a' to byte 32
    expect_string_refused("bson patch", format::bson, patch_lengths(), n, message, "", two_to_31,
                          "00000000 02 7300 f4ffff7f" + as_hex(window_sink::head_size - 11));
}

// A string length field of 2^31, 2^32 or 2^32 + 1 does not fit the int32 either; 3.11.2 casts
// it (bson-length-overflow), which would announce -2^31, 0 and 1. Refused at the string
// (pointer "/s") before any of it is written.
TEST(Limits, BsonRefusesStringLengthsOfInt32AndBeyondWithOutOfRange903) {
    SKIP_WITHOUT_REGION();
    for (const std::size_t n : {two_to_31 - 1, two_to_32 - 1, two_to_32}) {
        const std::string message =
            "BSON string length " + std::to_string(n + 1) + " does not fit its int32 length field";
        expect_string_refused("bson", format::bson, {}, n, message, "/s", 0, "");
        // the patch mode has written the top document's placeholder when it reaches "s"
        expect_string_refused("bson patch", format::bson, patch_lengths(), n, message, "/s", 4, "00000000");
        EXPECT_STREQ(sinkcheck::bson_divergence(string_value(format::bson, n)), "bson-length-overflow");
    }
}

// BON8 strings carry no length (docs/BON8.md): the bytes themselves, then 0xff (eos) since the
// message ends right after the string; 0x81 is the enclosing array of one.
TEST(Limits, Bon8WritesAFourGiBStringBareAndClosesItWithEos) {
    SKIP_WITHOUT_REGION();
    expect_string("bon8", format::bon8, {}, two_to_32, "81", "ff");
}

// ---------------------------------------------------------------------------------------------
// 3. Containers that claim 2^32 + 1 elements.

/// Iterates a container's real elements; for a claimed size, cycles over them until it has
/// taken that many steps, counting the steps. Bidirectional, as basic_json requires of its
/// containers' iterators.
template <class It>
class cycle_iterator {
public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = typename std::iterator_traits<It>::value_type;
    using difference_type = typename std::iterator_traits<It>::difference_type;
    using pointer = typename std::iterator_traits<It>::pointer;
    using reference = typename std::iterator_traits<It>::reference;

    cycle_iterator() = default;
    // implicit: basic_json keeps what the base container returns (std::map::find) in ours
    cycle_iterator(It it) : cur_(it) {}
    /// At step `index` of the cycle over [first, last), which must not be empty.
    cycle_iterator(It first, It last, std::size_t index, std::size_t* steps)
        : cur_(nth(first, last, index)), first_(first), last_(last), index_(index), steps_(steps), cycling_(true) {}

    reference operator*() const { return *cur_; }
    pointer operator->() const { return std::addressof(*cur_); }

    cycle_iterator& operator++() {
        ++cur_;
        if (cycling_) {
            ++index_;
            ++*steps_;
            if (cur_ == last_) {
                cur_ = first_;
            }
        }
        return *this;
    }
    cycle_iterator operator++(int) {
        cycle_iterator old = *this;
        ++*this;
        return old;
    }
    cycle_iterator& operator--() {
        if (cycling_) {
            --index_;
            ++*steps_;
            if (cur_ == first_) {
                cur_ = last_;
            }
        }
        --cur_;
        return *this;
    }
    cycle_iterator operator--(int) {
        cycle_iterator old = *this;
        --*this;
        return old;
    }

    friend bool operator==(const cycle_iterator& a, const cycle_iterator& b) {
        return a.cycling_ || b.cycling_ ? a.index_ == b.index_ : a.cur_ == b.cur_;
    }
    friend bool operator!=(const cycle_iterator& a, const cycle_iterator& b) { return !(a == b); }

private:
    static It nth(It first, It last, std::size_t index) {
        const auto period = static_cast<std::size_t>(std::distance(first, last));
        return std::next(first, static_cast<difference_type>(index % period));
    }

    It cur_{};
    It first_{};
    It last_{};
    std::size_t index_ = 0;
    std::size_t* steps_ = nullptr;
    bool cycling_ = false;
};

/// A std::vector or std::map whose size() and iterators can claim more elements than it
/// holds. basic_json's destructor reserves size() slots and moves every element out, so a
/// claim must be withdrawn (claim(0), see claim_guard) before the value is destroyed; copies
/// hold the real elements only.
template <class Base>
class claiming : public Base {
public:
    using iterator = cycle_iterator<typename Base::iterator>;
    using const_iterator = cycle_iterator<typename Base::const_iterator>;
    using size_type = typename Base::size_type;

    using Base::Base;
    claiming() = default;
    claiming(const claiming& other) : Base(other) {}
    claiming(claiming&& other) noexcept : Base(std::move(other)) {}
    claiming& operator=(const claiming& other) {
        Base::operator=(other);
        claimed_ = 0;
        return *this;
    }
    claiming& operator=(claiming&& other) noexcept {
        Base::operator=(std::move(other));
        claimed_ = 0;
        return *this;
    }
    ~claiming() = default;

    size_type size() const noexcept { return claimed_ != 0 ? claimed_ : Base::size(); }
    bool empty() const noexcept { return size() == 0; }

    iterator begin() noexcept {
        return claimed_ != 0 ? iterator(Base::begin(), Base::end(), 0, &steps_) : iterator(Base::begin());
    }
    iterator end() noexcept {
        return claimed_ != 0 ? iterator(Base::begin(), Base::end(), claimed_, &steps_) : iterator(Base::end());
    }
    const_iterator begin() const noexcept {
        return claimed_ != 0 ? const_iterator(Base::cbegin(), Base::cend(), 0, &steps_)
                             : const_iterator(Base::cbegin());
    }
    const_iterator end() const noexcept {
        return claimed_ != 0 ? const_iterator(Base::cbegin(), Base::cend(), claimed_, &steps_)
                             : const_iterator(Base::cend());
    }
    const_iterator cbegin() const noexcept { return begin(); }
    const_iterator cend() const noexcept { return end(); }

    /// From now on size() is n and iteration cycles over the real elements (n != 0 needs at
    /// least one) for n steps; 0 returns to the real elements.
    void claim(size_type n) noexcept {
        claimed_ = n;
        steps_ = 0;
    }
    /// Iterator steps taken over claimed elements since claim().
    std::size_t steps() const noexcept { return steps_; }

private:
    size_type claimed_ = 0;
    mutable std::size_t steps_ = 0;
};

template <class T, class... Rest>
class claimed_vector : public claiming<std::vector<T, Rest...>> {
public:
    using claiming<std::vector<T, Rest...>>::claiming;
};

template <class K, class V, class... Rest>
class claimed_map : public claiming<std::map<K, V, Rest...>> {
public:
    using claiming<std::map<K, V, Rest...>>::claiming;
};

using claimed_json = nlohmann::basic_json<claimed_map, claimed_vector>;

template <class Container>
class claim_guard {
public:
    claim_guard(Container& c, std::size_t n) noexcept : c_(c) { c_.claim(n); }
    ~claim_guard() { c_.claim(0); }
    claim_guard(const claim_guard&) = delete;
    claim_guard& operator=(const claim_guard&) = delete;

private:
    Container& c_;
};

constexpr std::size_t claimed = two_to_32 + 1;

/// [x] with x the array [null, 0] or the object {"a": null, "b": 0}: two different element
/// types, so that UBJSON's use_type test for a common type stops at the second element.
claimed_json claimed_value(bool object) {
    claimed_json x = object ? claimed_json::object() : claimed_json::array();
    if (object) {
        x["a"] = nullptr;
        x["b"] = 0;
    } else {
        x.push_back(nullptr);
        x.push_back(0);
    }
    claimed_json outer = claimed_json::array();
    outer.push_back(std::move(x));
    return outer;
}

/// prefix followed by unit again and again, cut to the sink's head: what the first 32 bytes
/// of a streamed container must be.
std::string head_of(std::string_view prefix_hex, std::string_view unit_hex) {
    std::string h = hex(unhex(prefix_hex));
    const std::string unit = hex(unhex(unit_hex));
    while (h.size() < 2 * window_sink::head_size) {
        h += unit;
    }
    return h.substr(0, 2 * window_sink::head_size);
}

/// Encodes [x] (claimed_value) with x claiming 2^32 + 1 elements into a sink that stops after
/// 32 bytes, and checks those bytes: the header with its count and the first elements. The
/// encoder may take no more steps over x than the elements in those 32 bytes (plus a few for
/// UBJSON's use_type check): a header must not wait for a walk over 2^32 elements.
void expect_claimed_head(const char* what, format f, const encode_options& o, bool object,
                         const std::string& expected_head) {
    SCOPED_TRACE(std::string(what) + (object ? ", object" : ", array"));
    claimed_json j = claimed_value(object);
    claimed_json& x = j[0];
    window_sink sink(window_sink::head_size);
    if (object) {
        auto& members = x.get_ref<claimed_json::object_t&>();
        const claim_guard<claimed_json::object_t> guard(members, claimed);
        ASSERT_EQ(x.size(), claimed);
        EXPECT_THROW(sinkcheck::encode(f, j, sink, o), sink_stopped);
        EXPECT_LE(members.steps(), window_sink::head_size);
    } else {
        auto& elements = x.get_ref<claimed_json::array_t&>();
        const claim_guard<claimed_json::array_t> guard(elements, claimed);
        ASSERT_EQ(x.size(), claimed);
        EXPECT_THROW(sinkcheck::encode(f, j, sink, o), sink_stopped);
        EXPECT_LE(elements.steps(), window_sink::head_size);
    }
    EXPECT_EQ(sink.head(), expected_head);
}

TEST(Limits, ClaimedContainersCycleOverTheirElementsForTheClaimedCount) {
    claimed_json j = claimed_value(false);
    auto& a = j[0].get_ref<claimed_json::array_t&>();
    {
        const claim_guard<claimed_json::array_t> guard(a, 5);
        EXPECT_EQ(j[0].size(), 5u);
        std::string seen;
        for (const auto& v : std::as_const(a)) {
            seen += v.is_null() ? 'n' : '0';
        }
        EXPECT_EQ(seen, "n0n0n");
        EXPECT_EQ(a.steps(), 5u);
    }
    EXPECT_EQ(j[0].size(), 2u);

    claimed_json k = claimed_value(true);
    auto& o = k[0].get_ref<claimed_json::object_t&>();
    const claim_guard<claimed_json::object_t> guard(o, 3);
    std::string keys;
    for (const auto& kv : std::as_const(o)) {
        keys += kv.first;
    }
    EXPECT_EQ(keys, "aba");
}

// RFC 8949 §3: argument 27 (0x9b array, 0xbb map) carries an 8-byte count; 0xf6 null, 0x00 the
// integer 0, 0x61 0x61 / 0x61 0x62 the keys "a" / "b".
TEST(Limits, CborWritesContainersClaiming2To32Plus1ElementsWithEightByteCounts) {
    expect_claimed_head("cbor", format::cbor, {}, false, head_of("81 9b 0000000100000001", "f6 00"));
    expect_claimed_head("cbor", format::cbor, {}, true, head_of("81 bb 0000000100000001", "6161 f6 6162 00"));
}

/// Encodes [x] with x claiming 2^32 + 1 elements and requires out_of_range.903 with this
/// message at "/0", before the encoder has taken a single step over x and with nothing but the
/// outer array's 0x91 written.
void expect_claimed_refused(format f, bool object, const std::string& message) {
    SCOPED_TRACE(object ? "object" : "array");
    claimed_json j = claimed_value(object);
    claimed_json& x = j[0];
    window_sink sink(window_sink::head_size);  // an encoder that does not refuse fails fast
    auto refuse = [&] {
        try {
            sinkcheck::encode(f, j, sink);
            ADD_FAILURE() << "encoded without error";
        } catch (const sink_stopped&) {
            ADD_FAILURE() << "wrote elements instead of refusing: " << sink.head();
        } catch (const sinkcheck::out_of_range& e) {
            EXPECT_EQ(e.id(), sinkcheck::error_id::length_too_large);
            EXPECT_EQ(e.message(), message);
            EXPECT_EQ(e.pointer(), "/0");
        }
    };
    if (object) {
        auto& members = x.get_ref<claimed_json::object_t&>();
        const claim_guard<claimed_json::object_t> guard(members, claimed);
        refuse();
        EXPECT_STREQ(sinkcheck::msgpack_divergence(j), "msgpack-length-overflow");
        EXPECT_EQ(members.steps(), 0u);
    } else {
        auto& elements = x.get_ref<claimed_json::array_t&>();
        const claim_guard<claimed_json::array_t> guard(elements, claimed);
        refuse();
        EXPECT_STREQ(sinkcheck::msgpack_divergence(j), "msgpack-length-overflow");
        EXPECT_EQ(elements.steps(), 0u);
    }
    EXPECT_EQ(sink.size(), 1u);
    EXPECT_EQ(sink.head(), "91");
}

// MessagePack spec "array 32" / "map 32": a 32-bit count, and "Limitation": at most 2^32 - 1
// elements or pairs (msgpack-length-overflow).
TEST(Limits, MsgpackRefusesContainersClaiming2To32Plus1ElementsBeforeIteratingThem) {
    expect_claimed_refused(format::msgpack, false,
                           "MessagePack array length 4294967297 does not fit the 32-bit length field");
    expect_claimed_refused(format::msgpack, true,
                           "MessagePack map length 4294967297 does not fit the 32-bit length field");
}

// UBJSON Draft 12: without use_size there is no count to get wrong ('[' ... ']' streams);
// with it, "#L" and the count as a big-endian int64 (l holds only 2^31 - 1). Z null, "i\x00"
// the integer 0, "i\x01a" a key. use_type: the outer array's one element is a container, so
// "$[" or "${" (the inner header then drops its '[' / '{'); the inner elements differ, so no '$'.
TEST(Limits, UbjsonWritesContainersClaiming2To32Plus1ElementsWithInt64Counts) {
    expect_claimed_head("ubjson", format::ubjson, {}, false, head_of("5b 5b", "5a 6900"));
    expect_claimed_head("ubjson use_size", format::ubjson, sized(), false,
                        head_of("5b 2369 01 5b 234c 0000000100000001", "5a 6900"));
    expect_claimed_head("ubjson use_type", format::ubjson, typed(), false,
                        head_of("5b 245b 2369 01 234c 0000000100000001", "5a 6900"));
    expect_claimed_head("ubjson", format::ubjson, {}, true, head_of("5b 7b", "690161 5a 690162 6900"));
    expect_claimed_head("ubjson use_size", format::ubjson, sized(), true,
                        head_of("5b 2369 01 7b 234c 0000000100000001", "690161 5a 690162 6900"));
    expect_claimed_head("ubjson use_type", format::ubjson, typed(), true,
                        head_of("5b 247b 2369 01 234c 0000000100000001", "690161 5a 690162 6900"));
}

// BJData Draft 2: the count 2^32 + 1 needs L (int64), little-endian; '[' and '{' may not follow
// '$', so use_type writes what use_size writes.
TEST(Limits, BjdataWritesContainersClaiming2To32Plus1ElementsWithInt64Counts) {
    for (const bool object : {false, true}) {
        const std::string open = object ? "7b" : "5b";
        const std::string unit = object ? "690161 5a 690162 6900" : "5a 6900";
        expect_claimed_head("bjdata", format::bjdata, {}, object, head_of("5b" + open, unit));
        for (const auto& o : {sized(), typed()}) {
            expect_claimed_head(o.use_type ? "bjdata use_type" : "bjdata use_size", format::bjdata, o, object,
                                head_of("5b 2369 01" + open + "234c 0100000001000000", unit));
        }
    }
}

// BON8 (docs/BON8.md): containers of more than 4 elements open with 0x85 (array) or 0x8b
// (object) and end with 0xfe: no count to truncate. 0xfa null, 0x90 the integer 0, keys as
// bare UTF-8 ("a" 0x61, "b" 0x62; a marker after them ends them without eos).
TEST(Limits, Bon8StreamsContainersClaiming2To32Plus1ElementsOpenEnded) {
    expect_claimed_head("bon8", format::bon8, {}, false, head_of("81 85", "fa 90"));
    expect_claimed_head("bon8", format::bon8, {}, true, head_of("81 8b", "61 fa 62 90"));
}

// Two cases visit all 2^32 + 1 elements before they can write or refuse anything; they run
// only with SINKCHECK_LARGE_TESTS=1, as msgpack_test's 4 GiB string does.
bool large_tests() { return std::getenv("SINKCHECK_LARGE_TESTS") != nullptr; }

// use_type: UBJSON Draft 12 / BJData Draft 2 allow '$' only when every element has the same
// type, which the encoder can know only after visiting them all. Elements 0: "$i" and one byte
// each; the count is still the whole int64 (UBJSON big-endian, BJData little-endian, where the
// outer array gets no "$[").
TEST(Limits, UbjsonAndBjdataWriteATypedHeaderForAContainerClaiming2To32Plus1Elements) {
    if (!large_tests()) {
        GTEST_SKIP() << "set SINKCHECK_LARGE_TESTS=1 to run it (about 15 s per format with g++ -O2)";
    }
    const std::pair<format, std::string> cases[] = {
        {format::ubjson, head_of("5b 245b 2369 01 2469 234c 0000000100000001", "00")},
        {format::bjdata, head_of("5b 2369 01 5b 2469 234c 0100000001000000", "00")},
    };
    for (const auto& [f, expected] : cases) {
        SCOPED_TRACE(std::string(sinkcheck::format_name(f)));
        claimed_json outer = claimed_json::array();
        outer.push_back(claimed_json::array({0}));
        auto& elements = outer[0].get_ref<claimed_json::array_t&>();
        const claim_guard<claimed_json::array_t> guard(elements, claimed);
        window_sink sink(window_sink::head_size);
        EXPECT_THROW(sinkcheck::encode(f, outer, sink, typed()), sink_stopped);
        EXPECT_EQ(sink.head(), expected);
    }
}

// bsonspec.org: an array is a document whose keys are the indices in decimal, int32 length
// first. 2^32 + 1 elements need at least 3 bytes each (type, a one-digit index, its NUL), far
// over int32: out_of_range.903 at "/big" before a single element is visited, nothing written.
TEST(Limits, BsonRefusesAnArrayClaiming2To32Plus1ElementsBeforeIteratingIt) {
    claimed_json root = claimed_json::object();
    root["big"] = claimed_json::array({nullptr});
    auto& elements = root["big"].get_ref<claimed_json::array_t&>();
    const claim_guard<claimed_json::array_t> guard(elements, claimed);
    window_sink sink(window_sink::head_size);
    try {
        sinkcheck::encode_bson(root, sink);
        ADD_FAILURE() << "encoded without error";
    } catch (const sink_stopped&) {
        ADD_FAILURE() << "wrote the array instead of refusing it: " << sink.head();
    } catch (const sinkcheck::out_of_range& e) {
        EXPECT_EQ(e.id(), sinkcheck::error_id::length_too_large);
        EXPECT_EQ(e.message(), "BSON array of " + std::to_string(claimed) +
                                   " elements needs more than 2147483647 bytes: its length does not fit its int32 "
                                   "length field");
        EXPECT_EQ(e.pointer(), "/big");
    }
    EXPECT_EQ(sink.size(), 0u);
}

}  // namespace
