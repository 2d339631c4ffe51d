// sinkcheck/testkit/edges.hpp — the values at the edges of every format, written once.
//
// Integers at the width edges of every format (docs/formats.md): CBOR 23/24 and the 1/2/4/8-byte
// heads, MessagePack fixint 127/128 and -32/-33, fixstr 31/32, UBJSON/BJData i/U/I/u/l/m/L/M/H,
// BSON int32/int64, BON8 one-byte 39/40 and the 2/3/4-byte short forms with their offsets;
// doubles of every class (signed zeros, NaNs with sign and payload, infinities, denormals of
// binary16, 32 and 64, the binary32 and binary16 extremes and values just past them); lengths
// at every length-class edge. The property generators, the fuzz value builder and the unit
// tests' random values all draw from these tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace sinkcheck::testkit::edges {

/// The range of a BJData ND-array element type (BJData Draft 2 "Numeric"; "char" holds
/// 0..127); lo is 0 or negative, so a range is [lo, hi] over both integer kinds.
struct ndarray_range {
    const char* name;
    std::int64_t lo;
    std::uint64_t hi;
};

inline constexpr ndarray_range ndarray_ranges[] = {
    {"uint8", 0, 255},
    {"int8", -128, 127},
    {"uint16", 0, 65535},
    {"int16", -32768, 32767},
    {"uint32", 0, 4294967295ULL},
    {"int32", -2147483648LL, 2147483647U},
    {"uint64", 0, 18446744073709551615ULL},
    {"int64", -9223372036854775807LL - 1, 9223372036854775807ULL},
    {"char", 0, 127},
};

inline constexpr std::uint64_t unsigned_integers[] = {0,
                                                      1,
                                                      23,
                                                      24,
                                                      31,
                                                      32,
                                                      39,
                                                      40,
                                                      127,
                                                      128,
                                                      255,
                                                      256,
                                                      3879,
                                                      3880,
                                                      32767,
                                                      32768,
                                                      65535,
                                                      65536,
                                                      528167,
                                                      528168,
                                                      67637031,
                                                      67637032,
                                                      2147483647ULL,
                                                      2147483648ULL,
                                                      4294967295ULL,
                                                      4294967296ULL,
                                                      9223372036854775807ULL,
                                                      9223372036854775808ULL,
                                                      18446744073709551615ULL};

inline constexpr std::int64_t negative_integers[] = {-1,
                                                     -10,
                                                     -11,
                                                     -24,
                                                     -25,
                                                     -32,
                                                     -33,
                                                     -128,
                                                     -129,
                                                     -256,
                                                     -257,
                                                     -1930,
                                                     -1931,
                                                     -32768,
                                                     -32769,
                                                     -65536,
                                                     -65537,
                                                     -264074,
                                                     -264075,
                                                     -33818506,
                                                     -33818507,
                                                     -2147483648LL,
                                                     -2147483649LL,
                                                     -4294967296LL,
                                                     -4294967297LL,
                                                     std::numeric_limits<std::int64_t>::min() + 1,
                                                     std::numeric_limits<std::int64_t>::min()};

/// Bit patterns, so NaN payloads and signs survive exactly.
inline constexpr std::uint64_t double_bits[] = {
    0x0000000000000000ULL,  // 0.0
    0x8000000000000000ULL,  // -0.0
    0x3FF0000000000000ULL,  // 1.0
    0xBFF0000000000000ULL,  // -1.0
    0x3FF8000000000000ULL,  // 1.5, binary32- and binary16-exact
    0x3FB999999999999AULL,  // 0.1, exact in neither
    0x3FF199999999999AULL,  // 1.1
    0xC010666666666666ULL,  // -4.1
    0x40F86A0000000000ULL,  // 100000.0
    0x40EFFC0000000000ULL,  // 65504.0, the largest binary16
    0x40EFFC2000000000ULL,  // 65505.0
    0x40EFFE0000000000ULL,  // 65520.0, rounds past the largest binary16
    0x7E37E43C8800759CULL,  // 1e300
    0xFE37E43C8800759CULL,  // -1e300
    0x7FF0000000000000ULL,  // +Inf
    0xFFF0000000000000ULL,  // -Inf
    0x7FF8000000000000ULL,  // quiet NaN
    0xFFF8000000000000ULL,  // negative quiet NaN
    0x7FF0000000000001ULL,  // signalling NaN
    0x7FF800000000BEEFULL,  // NaN with a payload
    0x0000000000000001ULL,  // smallest binary64 denormal
    0x8000000000000001ULL,  // its negative
    0x0010000000000000ULL,  // smallest binary64 normal
    0x36A0000000000000ULL,  // smallest binary32 denormal
    0x3696D601AD376AB9ULL,  // 1e-45
    0x3810000000000000ULL,  // smallest binary32 normal
    0x47EFFFFFE0000000ULL,  // largest binary32
    0xC7EFFFFFE0000000ULL,  // its negative
    0x47EFFFFFE0000001ULL,  // just above the largest binary32
    0x3E70000000000000ULL,  // 5.960464477539063e-8, smallest binary16 denormal
    0x3F10000000000000ULL,  // 6.103515625e-5, smallest binary16 normal
    0x3FF0000000000001ULL,  // 1.0000000000000002
    0x4197D78400666666ULL,  // 100000000.1
    0x4340000000000000ULL,  // 2^53
    0x43F0000000000000ULL,  // 2^64
    0xC3F0000000000000ULL,  // -2^64
    0x43E0000000000000ULL,  // 2^63
    0xC3E0000000000000ULL,  // -2^63
};

/// Byte lengths at the length-class edges: CBOR 23/24/255/256/65535/65536, MessagePack fixstr
/// 31/32 and str8/16/32, UBJSON/BJData 127/128/255/256/32767/32768, BON8 counts 4/5.
inline constexpr std::size_t lengths[] = {0,  1,   4,   5,   15,  16,    23,    24,    31,
                                          32, 127, 128, 255, 256, 32767, 32768, 65535, 65536};

/// Chunk sizes for a chunked sink's first chunk and cap, drawn independently: small and odd
/// sizes and powers of two +-1, since an odd cap whose half rounds down is where a `<` written
/// for `<=` in "double while next <= cap / 2" shows (first 1, cap 3: chunks 1 3 3 instead of 1 2 3).
inline constexpr std::size_t chunk_sizes[] = {1, 2, 3, 5, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 2047, 2048, 2049};

/// Nesting depths around the walker's inline stack (32 frames, reference detail/walk.hpp) and
/// its multiples: where a frame moves between the inline array and the heap.
inline constexpr std::size_t nesting_depths[] = {31, 32, 33, 34, 63, 64, 65, 66, 95, 96, 97, 98};

/// Block sizes every sink is swept with besides those around its windows and chunks.
inline constexpr std::size_t block_sweep[] = {0, 1, 2, 3, 5, 7, 13, 32, 1024};

inline double double_from_bits(std::uint64_t bits) noexcept {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

template <class T, std::size_t N>
std::vector<T> as_vector(const T (&table)[N]) {
    return std::vector<T>(table, table + N);
}

/// double_bits as doubles.
inline const std::vector<double>& doubles() {
    static const std::vector<double> v = [] {
        std::vector<double> out;
        for (std::uint64_t bits : double_bits) {
            out.push_back(double_from_bits(bits));
        }
        return out;
    }();
    return v;
}

}  // namespace sinkcheck::testkit::edges
