// sinkcheck/detail/utf8.hpp — strict UTF-8 validation (RFC 3629).
//
// Text strings in every format sinkcheck writes are UTF-8 by specification (RFC 8949 §3.1 major
// type 3, MessagePack "str", UBJSON/BJData 'S', BSON "string", BON8 strings); nlohmann 3.11.2
// writes whatever bytes a std::string holds, which yields invalid items (KNOWN_DIVERGENCES.md,
// invalid-utf8). Rejected: stray continuation bytes, overlong forms (C0, C1, E0 80-9F,
// F0 80-8F), UTF-16 surrogates (ED A0-BF), code points above U+10FFFF (F4 90+, F5-FF),
// truncated sequences.
//
// Most text in real documents is ASCII, tested a word at a time inline (all_ascii); the rest goes
// to the widest check the CPU has (detail/utf8_x86.hpp, else the scalar scan of
// detail/utf8_scalar.hpp), which all report the same first invalid byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "sinkcheck/detail/utf8_scalar.hpp"
#include "sinkcheck/detail/utf8_x86.hpp"
#include "sinkcheck/error.hpp"

namespace sinkcheck::detail {

/// True when none of the n bytes at p has its top bit set. Keys and most strings in real
/// documents are short and ASCII: they are tested a word at a time, the tail as a word that
/// overlaps the last full one, so a 5-byte key costs two loads and no per-byte loop.
inline bool all_ascii(const std::uint8_t* p, std::size_t n) noexcept {
    constexpr std::uint64_t high_bits = 0x8080808080808080ULL;
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 <= n; i += 8) {
            std::uint64_t w;
            std::memcpy(&w, p + i, 8);
            if ((w & high_bits) != 0) {
                return false;
            }
        }
        std::uint64_t last;
        std::memcpy(&last, p + n - 8, 8);
        return (last & high_bits) == 0;
    }
    if (n >= 4) {
        std::uint32_t first, last;
        std::memcpy(&first, p, 4);
        std::memcpy(&last, p + n - 4, 4);
        return ((first | last) & 0x80808080U) == 0;
    }
    // 0..3 bytes: the first, middle and last byte cover them all
    return n == 0 || ((p[0] | p[n / 2] | p[n - 1]) & 0x80) == 0;
}

/// One way of finding the first invalid byte; every one gives the same answer on every input
/// (reference/test/utf8_implementations_test.cpp holds them to the scalar scan and to the test
/// kit's oracle).
struct utf8_implementation {
    const char* name;
    bool (*supported)() noexcept;  // whether this CPU can run it
    std::size_t (*scan)(const std::uint8_t* p, std::size_t n) noexcept;
};

inline bool utf8_always_supported() noexcept { return true; }

/// The one list of implementations: the tests run every one this CPU supports.
inline constexpr utf8_implementation utf8_implementations[] = {
    {"scalar", utf8_always_supported, utf8_scan_scalar},
#if SINKCHECK_UTF8_X86
    {"ssse3", utf8_x86::has_ssse3, utf8_x86::scan_ssse3},
    {"avx2", utf8_x86::has_avx2, utf8_x86::scan_avx2},
#endif
};

/// Below this many bytes a non-ASCII string is checked byte by byte. Shorter than one block, the
/// vector checks copy the text into a zero-padded block (about 12 ns, the store not forwarded to
/// the wide load); the scalar scan of 12 bytes took 2-7 ns. From 16 bytes the last block overlaps
/// the one before it instead, and a check of 16-48 bytes took 4-6 ns, where the scalar scan took
/// 9-80 ns (Latin text: 9-83, CJK: 9-31; development measurements, AMD EPYC, g++ 12).
inline constexpr std::size_t utf8_vector_from = 16;

/// utf8_invalid_at for text that is not all ASCII, with the widest check this CPU has; out of
/// line, so the ASCII test before it stays small enough to inline.
[[gnu::noinline]] inline std::size_t utf8_scan(const std::uint8_t* p, std::size_t n) noexcept {
#if SINKCHECK_UTF8_X86
    if (n >= utf8_vector_from) {
        switch (utf8_x86::cpu_level()) {
            case utf8_x86::level::avx2: return utf8_x86::scan_avx2(p, n);
            case utf8_x86::level::ssse3: return utf8_x86::scan_ssse3(p, n);
            case utf8_x86::level::none: break;
        }
    }
#endif
    return utf8_scan_scalar(p, n);
}

/// From this many bytes ASCII text goes to the vector checks too, which test it 32 bytes at a
/// time: on a 256 KiB ASCII string 1.31x (0.93-1.85) the word loop of all_ascii (bench_utf8,
/// row 13, g++ -O2, 11 repetitions on a loaded machine). Below it the inline word test costs
/// less than the call.
inline constexpr std::size_t utf8_ascii_vector_from = 256;

/// Index of the first byte of the first invalid sequence in [p, p+n), or utf8_valid.
inline std::size_t utf8_invalid_at(const char* data, std::size_t n) noexcept {
    const auto* p = reinterpret_cast<const std::uint8_t*>(data);
    if (n >= utf8_ascii_vector_from) {
        return utf8_scan(p, n);
    }
    return all_ascii(p, n) ? utf8_valid : utf8_scan(p, n);
}

/// The same for a string of any type with data() and size(): the encoders pass Json::string_t,
/// which need not be std::string, and must check the bytes they write, not those of a base class.
template <class String>
inline std::size_t utf8_invalid_at(const String& s) noexcept {
    return utf8_invalid_at(s.data(), s.size());
}

/// From this many bytes an encoder checks text as it copies it into a sink that lends its room
/// (write_text_in_room); shorter text keeps the inline check and one write.
inline constexpr std::size_t utf8_copy_from = utf8_ascii_vector_from;

/// Copies the n bytes at src to dst (not overlapping) and returns utf8_invalid_at of them. With
/// AVX2 each block is checked in the register it is copied through, so the text is read once;
/// elsewhere it is copied, then checked. dst holds the text only when the result is utf8_valid.
inline std::size_t utf8_copy_invalid_at(std::uint8_t* dst, const char* src, std::size_t n) noexcept {
    const auto* p = reinterpret_cast<const std::uint8_t*>(src);
#if SINKCHECK_UTF8_X86
    if (n >= utf8_vector_from && utf8_x86::cpu_level() == utf8_x86::level::avx2) {
        return utf8_x86::copy_scan_avx2(dst, p, n);
    }
#endif
    if (n != 0) {
        std::memcpy(dst, p, n);
    }
    return utf8_invalid_at(src, n);
}

/// The type_error.316 for byte b at index `at`; out of line, so that require_utf8 inlines.
[[noreturn, gnu::noinline, gnu::cold]] inline void throw_invalid_utf8(std::uint8_t b, std::size_t at,
                                                                      const char* what) {
    static const char hex[] = "0123456789ABCDEF";
    throw type_error(316, std::string("invalid UTF-8 byte at index ") + std::to_string(at) + ": 0x" + hex[b >> 4] +
                              hex[b & 15] + " in " + what);
}

/// Throws type_error.316 naming the offending byte when s is not valid UTF-8.
template <class String>
inline void require_utf8(const String& s, const char* what = "string") {
    const std::size_t at = utf8_invalid_at(s.data(), s.size());
    if (at != utf8_valid) {
        throw_invalid_utf8(static_cast<std::uint8_t>(s.data()[at]), at, what);
    }
}

/// Whether a sink lends the room ahead of its cursor for writing in place: room_for(n) gives where
/// n bytes would go, or null when they do not fit, and commit(n) makes them written.
template <class Sink, class = void>
struct lends_room : std::false_type {};

template <class Sink>
struct lends_room<Sink, std::void_t<decltype(std::declval<Sink&>().room_for(std::size_t{})),
                                    decltype(std::declval<Sink&>().commit(std::size_t{}))>> : std::true_type {};

/// Writes head[0..h) and the text s in the sink's room, checking s as it is copied: returns false
/// (nothing done) when they do not fit, throws type_error.316 naming `what` (nothing written) when s
/// is not UTF-8. The same bytes and the same refusal as require_utf8 and two writes, one read of s.
template <class Sink, class String>
inline bool write_text_in_room(Sink& sink, const std::uint8_t* head, std::size_t h, const String& s, const char* what) {
    std::uint8_t* at = sink.room_for(h + s.size());
    if (at == nullptr) {
        return false;
    }
    const std::size_t bad = utf8_copy_invalid_at(at + h, s.data(), s.size());
    if (bad != utf8_valid) {
        throw_invalid_utf8(static_cast<std::uint8_t>(s.data()[bad]), bad, what);
    }
    std::memcpy(at, head, h);
    sink.commit(h + s.size());
    return true;
}

/// Appends code point cp (at most U+10FFFF; surrogates are not screened) as UTF-8.
inline void append_utf8(std::string& out, std::uint32_t cp) {
    auto put = [&out](std::uint32_t b) { out += static_cast<char>(static_cast<std::uint8_t>(b)); };
    if (cp < 0x80) {
        put(cp);
    } else if (cp < 0x800) {
        put(0xC0 | (cp >> 6));
        put(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        put(0xE0 | (cp >> 12));
        put(0x80 | ((cp >> 6) & 0x3F));
        put(0x80 | (cp & 0x3F));
    } else {
        put(0xF0 | (cp >> 18));
        put(0x80 | ((cp >> 12) & 0x3F));
        put(0x80 | ((cp >> 6) & 0x3F));
        put(0x80 | (cp & 0x3F));
    }
}

}  // namespace sinkcheck::detail
