// sinkcheck/detail/hex.hpp — bytes as lowercase hex digits, for every message and dump that shows
// them: the decoders' errors here, the test kit's hex dump, the runner's and the tool's texts.
#pragma once

#include <cstdint>
#include <string>

namespace sinkcheck::detail {

/// The lowercase hex digit of the low four bits of n.
constexpr char hex_digit(unsigned n) noexcept { return "0123456789abcdef"[n & 15U]; }

/// Appends b as two lowercase hex digits.
inline void append_hex(std::string& out, std::uint8_t b) {
    out += hex_digit(static_cast<unsigned>(b) >> 4U);
    out += hex_digit(b);
}

}  // namespace sinkcheck::detail
