// sinkcheck/testkit/hex.hpp — the one hex dump: bytes as lowercase hex digits, where two outputs
// part, and a window of bytes around that offset for a report.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "sinkcheck/detail/hex.hpp"

namespace sinkcheck::testkit {

/// "00ff1a": two lowercase digits a byte, nothing between them.
inline std::string to_hex(const std::uint8_t* p, std::size_t n) {
    std::string out;
    out.reserve(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
        sinkcheck::detail::append_hex(out, p[i]);
    }
    return out;
}

inline std::string to_hex(const std::vector<std::uint8_t>& bytes) { return to_hex(bytes.data(), bytes.size()); }

inline std::string to_hex(std::string_view chars) {
    return to_hex(reinterpret_cast<const std::uint8_t*>(chars.data()), chars.size());
}

/// Index of the first byte where a and b differ (the shorter length if one is a prefix of the
/// other, the length when they are equal).
inline std::size_t first_difference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) noexcept {
    return static_cast<std::size_t>(
        std::mismatch(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(std::min(a.size(), b.size())), b.begin())
            .first -
        a.begin());
}

/// "000010: ... 61 62 [63] 64 ... (200 bytes)": the bytes within `radius` of `at`, led by the hex
/// offset of the first one shown, the byte at `at` bracketed ("[end]" when `at` is past the last
/// byte), "..." where bytes are left out on either side.
inline std::string hex_window(const std::vector<std::uint8_t>& bytes, std::size_t at, std::size_t radius = 16) {
    const std::size_t from = at > radius ? at - radius : 0;
    const std::size_t to = std::min(bytes.size(), at + radius);
    char offset[32];
    std::snprintf(offset, sizeof offset, "%06zx: ", from);
    std::string out = offset;
    if (from > 0) {
        out += "... ";
    }
    for (std::size_t i = from; i < to; ++i) {
        if (i == at) {
            out += '[';
        }
        out += to_hex(&bytes[i], 1);
        if (i == at) {
            out += ']';
        }
        if (i + 1 < to) {
            out += ' ';
        }
    }
    if (at >= bytes.size()) {
        out += " [end]";
    }
    if (to < bytes.size()) {
        out += " ... (" + std::to_string(bytes.size()) + " bytes)";
    }
    return out;
}

}  // namespace sinkcheck::testkit
