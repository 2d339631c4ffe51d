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

/// Stores v at out in big-endian order; returns sizeof(T).
template <class T>
inline std::size_t store_be(std::uint8_t* out, T v) noexcept {
    static_assert(std::is_trivially_copyable_v<T>);
    using U = std::conditional_t<sizeof(T) == 1, std::uint8_t,
              std::conditional_t<sizeof(T) == 2, std::uint16_t,
              std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    U u;
    std::memcpy(&u, &v, sizeof(T));
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        out[i] = static_cast<std::uint8_t>(u >> (8 * (sizeof(T) - 1 - i)));
    }
    return sizeof(T);
}

/// Stores v at out in little-endian order; returns sizeof(T).
template <class T>
inline std::size_t store_le(std::uint8_t* out, T v) noexcept {
    static_assert(std::is_trivially_copyable_v<T>);
    using U = std::conditional_t<sizeof(T) == 1, std::uint8_t,
              std::conditional_t<sizeof(T) == 2, std::uint16_t,
              std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    U u;
    std::memcpy(&u, &v, sizeof(T));
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        out[i] = static_cast<std::uint8_t>(u >> (8 * i));
    }
    return sizeof(T);
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

/// Writes marker followed by v big-endian, in one sink write.
template <class Sink, class T>
inline void put_marker_be(Sink& sink, std::uint8_t marker, T v) {
    std::uint8_t buf[1 + sizeof(T)];
    buf[0] = marker;
    store_be(buf + 1, v);
    sink.write(buf, sizeof buf);
}

/// Writes marker followed by v little-endian, in one sink write.
template <class Sink, class T>
inline void put_marker_le(Sink& sink, std::uint8_t marker, T v) {
    std::uint8_t buf[1 + sizeof(T)];
    buf[0] = marker;
    store_le(buf + 1, v);
    sink.write(buf, sizeof buf);
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
