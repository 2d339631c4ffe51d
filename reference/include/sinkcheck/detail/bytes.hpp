// sinkcheck/detail/bytes.hpp — fixed-width numbers to bytes, and the float-width tests.
//
// Encoders assemble a marker and its number in a small local buffer and hand it to the sink in
// one write(ptr, n): one capacity check per value instead of one per byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace sinkcheck::detail {

/// The unsigned integer as wide as T.
template <class T>
using uint_of =
    std::conditional_t<sizeof(T) == 1, std::uint8_t,
                       std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                          std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ || __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
/// u with its bytes reversed when the host's order is not `big`'s: one bswap instruction. The
/// portable shift loop below is what GCC turns into the same for integers, but not for a double
/// (35 instructions per value, callgrind), hence the builtins where the compiler has them.
template <bool Big, class U>
[[gnu::always_inline]] inline U to_order(U u) noexcept {
    constexpr bool host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
    if constexpr (sizeof(U) == 1 || Big == host_big) {
        return u;
    } else if constexpr (sizeof(U) == 2) {
        return __builtin_bswap16(u);
    } else if constexpr (sizeof(U) == 4) {
        return __builtin_bswap32(u);
    } else {
        return __builtin_bswap64(u);
    }
}

template <bool Big, class T>
[[gnu::always_inline]] inline std::size_t store_ordered(std::uint8_t* out, T v) noexcept {
    static_assert(std::is_trivially_copyable_v<T>);
    uint_of<T> u;
    std::memcpy(&u, &v, sizeof(T));
    u = to_order<Big>(u);
    std::memcpy(out, &u, sizeof(T));
    return sizeof(T);
}
#else
template <bool Big, class T>
inline std::size_t store_ordered(std::uint8_t* out, T v) noexcept {
    static_assert(std::is_trivially_copyable_v<T>);
    uint_of<T> u;
    std::memcpy(&u, &v, sizeof(T));
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        const std::size_t shift = Big ? 8 * (sizeof(T) - 1 - i) : 8 * i;
        out[i] = static_cast<std::uint8_t>(u >> shift);
    }
    return sizeof(T);
}
#endif

/// Stores v at out in big-endian order; returns sizeof(T).
template <class T>
inline std::size_t store_be(std::uint8_t* out, T v) noexcept {
    return store_ordered<true>(out, v);
}

/// Stores v at out in little-endian order; returns sizeof(T).
template <class T>
inline std::size_t store_le(std::uint8_t* out, T v) noexcept {
    return store_ordered<false>(out, v);
}

template <class T>
inline T load_be(const std::uint8_t* in) noexcept {
    std::uint64_t u = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        u = (u << 8) | in[i];
    }
    T v;
    if constexpr (sizeof(T) == 1) {
        auto b = static_cast<std::uint8_t>(u);
        std::memcpy(&v, &b, 1);
    } else if constexpr (sizeof(T) == 2) {
        auto b = static_cast<std::uint16_t>(u);
        std::memcpy(&v, &b, 2);
    } else if constexpr (sizeof(T) == 4) {
        auto b = static_cast<std::uint32_t>(u);
        std::memcpy(&v, &b, 4);
    } else {
        std::memcpy(&v, &u, 8);
    }
    return v;
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/// Writes marker followed by v in the given byte order, in one sink write of 1 + sizeof(T).
///
/// The bytes are composed in registers and stored in the two pieces a constant-size copy of
/// 1 + sizeof(T) bytes loads them back in (2; 2+1; 4+1; 8+1). Storing the marker byte and the
/// number separately, then copying, makes the copy's first load span two stores, which the CPU
/// cannot forward: a stall of about a dozen cycles on every number an encoder writes.
template <bool Big, class Sink, class T>
[[gnu::always_inline]] inline void put_marker(Sink& sink, std::uint8_t marker, T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    using U = uint_of<T>;
    U u;
    std::memcpy(&u, &v, sizeof(T));
    u = to_order<Big>(u);  // memory order: the bytes to write, first byte lowest
    if constexpr (sizeof(T) == 1) {
        const auto word = static_cast<std::uint16_t>(marker | (static_cast<unsigned>(u) << 8));
        std::uint8_t buf[2];
        std::memcpy(buf, &word, 2);
        sink.write(buf, 2);
    } else {
        const auto first = static_cast<U>(marker | (u << 8));  // marker and all bytes but the last
        std::uint8_t buf[1 + sizeof(T)];
        std::memcpy(buf, &first, sizeof(T));
        buf[sizeof(T)] = static_cast<std::uint8_t>(u >> (8 * (sizeof(T) - 1)));
        sink.write(buf, sizeof buf);
    }
}
#else
template <bool Big, class Sink, class T>
inline void put_marker(Sink& sink, std::uint8_t marker, T v) {
    std::uint8_t buf[1 + sizeof(T)];
    buf[0] = marker;
    store_ordered<Big>(buf + 1, v);
    sink.write(buf, sizeof buf);
}
#endif

/// Writes marker followed by v big-endian, in one sink write.
template <class Sink, class T>
[[gnu::always_inline]] inline void put_marker_be(Sink& sink, std::uint8_t marker, T v) {
    put_marker<true>(sink, marker, v);
}

/// Writes marker followed by v little-endian, in one sink write.
template <class Sink, class T>
[[gnu::always_inline]] inline void put_marker_le(Sink& sink, std::uint8_t marker, T v) {
    put_marker<false>(sink, marker, v);
}

/// True when d is finite-or-not within ±FLT_MAX and survives a round trip through binary32:
/// the test nlohmann 3.11.2 applies before writing a float as binary32 (CBOR fa, MessagePack ca).
/// NaN and ±Inf fail it (the range comparisons are false or exceed FLT_MAX).
inline bool fits_float32(double d) noexcept {
    return d >= static_cast<double>(std::numeric_limits<float>::lowest()) &&
           d <= static_cast<double>((std::numeric_limits<float>::max)()) &&
           static_cast<double>(static_cast<float>(d)) == d;
}

}  // namespace sinkcheck::detail
