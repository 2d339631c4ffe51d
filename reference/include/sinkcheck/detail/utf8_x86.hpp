// sinkcheck/detail/utf8_x86.hpp — UTF-8 validation 16 (SSSE3) or 32 (AVX2) bytes at a time.
//
// The method is the "lookup" check of Keiser and Lemire ("Validating UTF-8 in less than one
// instruction per byte", 2021): every error RFC 3629 §4 names shows in the pair (previous byte,
// byte) or in whether a byte two or three after a lead is a continuation, so three 16-entry
// tables indexed by nibbles and two saturating subtractions check a whole block in a dozen
// instructions, with no branch per byte. A block check says only whether there is an error;
// utf8_locate_error then finds it with the scalar scan, so the offset is the scalar one.
//
// The product is built without -m flags, so each kernel carries its own target attribute and
// runs only where the CPU reports the extension (detail/utf8.hpp, utf8_scan). Other
// architectures use the scalar scan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sinkcheck/detail/utf8_scalar.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SINKCHECK_UTF8_X86 1
#include <immintrin.h>
#else
#define SINKCHECK_UTF8_X86 0
#endif

#if SINKCHECK_UTF8_X86
namespace sinkcheck::detail::utf8_x86 {

// What a pair (first, second) of adjacent bytes can be wrong by, one bit each. first_high,
// first_low and second_high below give, per nibble, the errors that nibble is compatible with;
// their AND is the errors the pair has.
inline constexpr std::uint8_t too_short = 0x01;   // a lead byte, then no continuation
inline constexpr std::uint8_t too_long = 0x02;    // ASCII, then a continuation
inline constexpr std::uint8_t overlong_3 = 0x04;  // E0 80-9F
inline constexpr std::uint8_t too_large = 0x08;   // F4 90-BF, F5-FF 90-BF: above U+10FFFF
inline constexpr std::uint8_t surrogate = 0x10;   // ED A0-BF: U+D800-DFFF
inline constexpr std::uint8_t overlong_2 = 0x20;  // C0 or C1, then a continuation
// F0 80-8F (overlong) and F5-FF 80-8F (too large) share a bit: both want a second byte 8x
inline constexpr std::uint8_t overlong_4_or_large = 0x40;
// two continuations in a row: an error unless the second is the third or fourth byte of a
// sequence, which the subtractions in the kernels tell; so this bit is compared, not or-ed in
inline constexpr std::uint8_t two_continuations = 0x80;

struct nibble_tables {
    std::uint8_t first_high[16];   // by the first byte's high nibble
    std::uint8_t first_low[16];    // by the first byte's low nibble
    std::uint8_t second_high[16];  // by the second byte's high nibble
};

/// The tables, derived from the byte ranges of RFC 3629 §4 rather than written as numbers.
constexpr nibble_tables make_nibble_tables() noexcept {
    nibble_tables t{};
    for (unsigned v = 0; v < 16; ++v) {
        // first byte, high nibble: 0-7 ASCII, 8-B continuation, C-F a lead
        std::uint8_t high = 0;
        if (v < 0x8) {
            high = too_long;
        } else if (v < 0xC) {
            high = two_continuations;
        } else if (v == 0xC) {
            high = too_short | overlong_2;
        } else if (v == 0xD) {
            high = too_short;
        } else if (v == 0xE) {
            high = too_short | overlong_3 | surrogate;
        } else {
            high = too_short | too_large | overlong_4_or_large;
        }
        t.first_high[v] = high;

        // first byte, low nibble: the classes that need no particular lead pass whatever it is
        std::uint8_t low = too_short | too_long | two_continuations;
        if (v == 0x0) {
            low |= overlong_2 | overlong_3 | overlong_4_or_large;  // C0, E0, F0
        }
        if (v == 0x1) {
            low |= overlong_2;  // C1
        }
        if (v >= 0x4) {
            low |= too_large;  // F4-FF
        }
        if (v >= 0x5) {
            low |= overlong_4_or_large;  // F5-FF
        }
        if (v == 0xD) {
            low |= surrogate;  // ED
        }
        t.first_low[v] = low;

        // second byte, high nibble: the continuation ranges 80-8F, 90-9F, A0-BF
        std::uint8_t second = too_short;
        if (v >= 0x8 && v < 0xC) {
            second = too_long | overlong_2 | two_continuations;
            second |= v == 0x8   ? overlong_3 | overlong_4_or_large
                      : v == 0x9 ? overlong_3 | too_large
                                 : surrogate | too_large;
        }
        t.second_high[v] = second;
    }
    return t;
}

inline constexpr nibble_tables tables = make_nibble_tables();

/// Subtracted (saturating) from a block's last bytes, what leaves something only where a
/// sequence is still open: a lead in the last byte, a lead of three or four in the one before,
/// a lead of four in the third last. The 16-byte kernel uses the last 16.
alignas(32) inline constexpr std::uint8_t open_at_end[32] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,     0xFF,     0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0 - 1, 0xE0 - 1, 0xC0 - 1};

// ---- SSSE3: 16 bytes a block ----

struct ssse3_constants {
    __m128i first_high, first_low, second_high, nibble, open_at_end, third_from, fourth_from, top_bit;
};

inline __m128i load16(const std::uint8_t* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

[[gnu::target("ssse3")]] inline ssse3_constants ssse3_load() noexcept {
    ssse3_constants c{};
    c.first_high = load16(tables.first_high);
    c.first_low = load16(tables.first_low);
    c.second_high = load16(tables.second_high);
    c.nibble = _mm_set1_epi8(0x0F);
    c.open_at_end = load16(open_at_end + 16);
    // a byte minus (lead - 0x80), saturating, keeps its top bit only when it is at least lead
    c.third_from = _mm_set1_epi8(static_cast<char>(0xE0 - 0x80));
    c.fourth_from = _mm_set1_epi8(static_cast<char>(0xF0 - 0x80));
    c.top_bit = _mm_set1_epi8(static_cast<char>(0x80));
    return c;
}

/// Whether `in` continues `prev` (the block before, or zeros: ASCII) without error; `open` is
/// what the last block left unfinished, which an ASCII block cannot finish.
[[gnu::target("ssse3"), gnu::always_inline]] inline bool ssse3_block_ok(__m128i in, __m128i& prev, __m128i& open,
                                                                        const ssse3_constants& c) noexcept {
    const __m128i zero = _mm_setzero_si128();
    if (_mm_movemask_epi8(in) == 0) {
        const bool ok = _mm_movemask_epi8(_mm_cmpeq_epi8(open, zero)) == 0xFFFF;
        prev = in;
        open = zero;
        return ok;
    }
    const __m128i prev1 = _mm_alignr_epi8(in, prev, 15);
    const __m128i prev2 = _mm_alignr_epi8(in, prev, 14);
    const __m128i prev3 = _mm_alignr_epi8(in, prev, 13);
    const __m128i pair =
        _mm_and_si128(_mm_and_si128(_mm_shuffle_epi8(c.first_high, _mm_and_si128(_mm_srli_epi16(prev1, 4), c.nibble)),
                                    _mm_shuffle_epi8(c.first_low, _mm_and_si128(prev1, c.nibble))),
                      _mm_shuffle_epi8(c.second_high, _mm_and_si128(_mm_srli_epi16(in, 4), c.nibble)));
    const __m128i continues =
        _mm_and_si128(_mm_or_si128(_mm_subs_epu8(prev2, c.third_from), _mm_subs_epu8(prev3, c.fourth_from)), c.top_bit);
    const __m128i errors = _mm_xor_si128(pair, continues);
    open = _mm_subs_epu8(in, c.open_at_end);
    prev = in;
    return _mm_movemask_epi8(_mm_cmpeq_epi8(errors, zero)) == 0xFFFF;
}

/// The four bytes before p[k] as a little-endian word, zeros standing for bytes before p: what
/// a block starting at k needs of the text before it (its last three bytes).
inline std::uint32_t four_before(const std::uint8_t* p, std::size_t k) noexcept {
    std::uint32_t w = 0;
    if (k >= 4) {
        std::memcpy(&w, p + k - 4, 4);
    } else {
        for (std::size_t j = 0; j < k; ++j) {
            w |= static_cast<std::uint32_t>(p[j]) << (8 * (4 - k + j));
        }
    }
    return w;
}

/// The last block of a text of at least 16 bytes that is not a multiple of 16: the 16 bytes
/// ending the text, which overlap the block before them. Checking a byte again gives the same
/// answer, as long as the bytes before the block are the text's own.
[[gnu::target("ssse3")]] inline __m128i ssse3_before(const std::uint8_t* p, std::size_t k) noexcept {
    return _mm_slli_si128(_mm_cvtsi32_si128(static_cast<int>(four_before(p, k))), 12);
}

[[gnu::target("ssse3")]] inline std::size_t scan_ssse3(const std::uint8_t* p, std::size_t n) noexcept {
    const ssse3_constants c = ssse3_load();
    __m128i prev = _mm_setzero_si128();
    __m128i open = _mm_setzero_si128();
    if (n < 16) {
        // the zeros after the text end any sequence it leaves open with an error of their own
        alignas(16) std::uint8_t padded[16] = {};
        std::memcpy(padded, p, n);
        return ssse3_block_ok(_mm_load_si128(reinterpret_cast<const __m128i*>(padded)), prev, open, c)
                   ? utf8_valid
                   : utf8_locate_error(p, n, 0);
    }
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        if (!ssse3_block_ok(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), prev, open, c)) {
            return utf8_locate_error(p, n, i);
        }
    }
    if (i < n) {
        prev = ssse3_before(p, n - 16);
        if (!ssse3_block_ok(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16)), prev, open, c)) {
            return utf8_locate_error(p, n, i);  // the bytes before i passed already
        }
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi8(open, _mm_setzero_si128())) == 0xFFFF ? utf8_valid
                                                                                  : utf8_locate_error(p, n, n);
}

// ---- AVX2: 32 bytes a block, the same steps ----
// Written out again rather than shared through a template: the target attribute belongs to a
// function, not to a template's instantiation, and intrinsics inline only into a function whose
// target includes theirs.

struct avx2_constants {
    __m256i first_high, first_low, second_high, nibble, open_at_end, third_from, fourth_from, top_bit;
};

[[gnu::target("avx2")]] inline avx2_constants avx2_load() noexcept {
    // a lambda would not inherit the target attribute: the 16-byte tables come from ssse3_load
    const ssse3_constants narrow = ssse3_load();
    avx2_constants c{};
    c.first_high = _mm256_broadcastsi128_si256(narrow.first_high);
    c.first_low = _mm256_broadcastsi128_si256(narrow.first_low);
    c.second_high = _mm256_broadcastsi128_si256(narrow.second_high);
    c.nibble = _mm256_set1_epi8(0x0F);
    c.open_at_end = _mm256_load_si256(reinterpret_cast<const __m256i*>(open_at_end));
    c.third_from = _mm256_set1_epi8(static_cast<char>(0xE0 - 0x80));
    c.fourth_from = _mm256_set1_epi8(static_cast<char>(0xF0 - 0x80));
    c.top_bit = _mm256_set1_epi8(static_cast<char>(0x80));
    return c;
}

[[gnu::target("avx2"), gnu::always_inline]] inline bool avx2_block_ok(__m256i in, __m256i& prev, __m256i& open,
                                                                      const avx2_constants& c) noexcept {
    if (_mm256_movemask_epi8(in) == 0) {
        const bool ok = _mm256_testz_si256(open, open) != 0;
        prev = in;
        open = _mm256_setzero_si256();
        return ok;
    }
    // alignr shifts within each 128-bit lane: give it the lane before each of in's lanes
    const __m256i before = _mm256_permute2x128_si256(prev, in, 0x21);
    const __m256i prev1 = _mm256_alignr_epi8(in, before, 15);
    const __m256i prev2 = _mm256_alignr_epi8(in, before, 14);
    const __m256i prev3 = _mm256_alignr_epi8(in, before, 13);
    const __m256i pair = _mm256_and_si256(
        _mm256_and_si256(_mm256_shuffle_epi8(c.first_high, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), c.nibble)),
                         _mm256_shuffle_epi8(c.first_low, _mm256_and_si256(prev1, c.nibble))),
        _mm256_shuffle_epi8(c.second_high, _mm256_and_si256(_mm256_srli_epi16(in, 4), c.nibble)));
    const __m256i continues = _mm256_and_si256(
        _mm256_or_si256(_mm256_subs_epu8(prev2, c.third_from), _mm256_subs_epu8(prev3, c.fourth_from)), c.top_bit);
    const __m256i errors = _mm256_xor_si256(pair, continues);
    open = _mm256_subs_epu8(in, c.open_at_end);
    prev = in;
    return _mm256_testz_si256(errors, errors) != 0;
}

/// The AVX2 check; with Copy, each block is also stored to dst (which must not overlap p) from the
/// register it was checked in, so a copy that checks reads the text once. dst then holds the n
/// bytes when the result is utf8_valid, and is scratch otherwise.
template <bool Copy>
[[gnu::target("avx2")]] inline std::size_t avx2_pass(std::uint8_t* dst, const std::uint8_t* p, std::size_t n) noexcept {
    if (n < 32) {
        if constexpr (Copy) {
            std::memcpy(dst, p, n);
        }
        return scan_ssse3(p, n);
    }
    const avx2_constants c = avx2_load();
    __m256i prev = _mm256_setzero_si256();
    __m256i open = _mm256_setzero_si256();
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256i in = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
        if constexpr (Copy) {
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), in);
        }
        if (!avx2_block_ok(in, prev, open, c)) {
            return utf8_locate_error(p, n, i);
        }
    }
    if (i < n) {
        const __m256i in = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 32));
        if constexpr (Copy) {
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + n - 32), in);
        }
        // only the upper lane of prev reaches the block (avx2_block_ok's permute)
        prev = _mm256_inserti128_si256(_mm256_setzero_si256(), ssse3_before(p, n - 32), 1);
        if (!avx2_block_ok(in, prev, open, c)) {
            return utf8_locate_error(p, n, i);
        }
    }
    return _mm256_testz_si256(open, open) != 0 ? utf8_valid : utf8_locate_error(p, n, n);
}

[[gnu::target("avx2")]] inline std::size_t scan_avx2(const std::uint8_t* p, std::size_t n) noexcept {
    return avx2_pass<false>(nullptr, p, n);
}

/// scan_avx2 that also copies the n bytes to dst as it checks them (avx2_pass).
[[gnu::target("avx2")]] inline std::size_t copy_scan_avx2(std::uint8_t* dst, const std::uint8_t* p,
                                                          std::size_t n) noexcept {
    return avx2_pass<true>(dst, p, n);
}

/// What this CPU offers, asked once. libgcc's check includes the operating system's consent to
/// the wider registers (XGETBV), not only the CPUID bit.
enum class level { none, ssse3, avx2 };

inline level cpu_level() noexcept {
    static const level detected = [] {
        __builtin_cpu_init();  // the answer is needed before libgcc's constructors may have run
        if (__builtin_cpu_supports("avx2")) {
            return level::avx2;
        }
        return __builtin_cpu_supports("ssse3") ? level::ssse3 : level::none;
    }();
    return detected;
}

inline bool has_ssse3() noexcept { return cpu_level() >= level::ssse3; }
inline bool has_avx2() noexcept { return cpu_level() >= level::avx2; }

}  // namespace sinkcheck::detail::utf8_x86
#endif
