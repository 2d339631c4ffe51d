// sinkcheck/detail/utf8_scalar.hpp — the byte-by-byte UTF-8 check (RFC 3629 §4), the reference
// every other implementation of it must agree with (detail/utf8.hpp lists them).
//
// It runs on every architecture, and on short strings, where a vector check would spend more
// on setting up than on checking. The vector checks (detail/utf8_x86.hpp) only say whether a
// block holds an error; this scan then finds where (utf8_locate_error), so the offset an error
// names never depends on which implementation ran.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sinkcheck::detail {

inline constexpr std::size_t utf8_valid = static_cast<std::size_t>(-1);

/// Index of the first byte of the first invalid sequence in [p, p+n), or utf8_valid: eight bytes
/// at a time through ASCII runs, then each sequence against the range its lead byte allows for
/// its second byte (RFC 3629 §4: E0 A0-BF, ED 80-9F, F0 90-BF, F4 80-8F, else 80-BF).
inline std::size_t utf8_scan_scalar(const std::uint8_t* p, std::size_t n) noexcept {
    std::size_t i = 0;
    while (i < n) {
        while (i + 8 <= n) {
            std::uint64_t w;
            std::memcpy(&w, p + i, 8);
            if ((w & 0x8080808080808080ULL) != 0) {
                break;
            }
            i += 8;
        }
        if (i >= n) {
            break;
        }
        const std::uint8_t b = p[i];
        if (b < 0x80) {
            ++i;
            continue;
        }
        std::size_t len;
        std::uint8_t lo = 0x80;
        std::uint8_t hi = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            len = 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            len = 3;
            if (b == 0xE0) {
                lo = 0xA0;
            } else if (b == 0xED) {
                hi = 0x9F;
            }
        } else if (b >= 0xF0 && b <= 0xF4) {
            len = 4;
            if (b == 0xF0) {
                lo = 0x90;
            } else if (b == 0xF4) {
                hi = 0x8F;
            }
        } else {
            return i;
        }
        if (i + len > n || p[i + 1] < lo || p[i + 1] > hi) {
            return i;
        }
        for (std::size_t k = 2; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) {
                return i;
            }
        }
        i += len;
    }
    return utf8_valid;
}

/// The first error in [p, p+n) when a block check found one in the block starting at `block`
/// and none before it. No error before the block means every sequence that ends before it is
/// well formed, so the last byte before it that is not a continuation (at most four back) starts
/// a sequence, and everything before that one is valid: the scalar scan may start there.
[[gnu::cold, gnu::noinline]] inline std::size_t utf8_locate_error(const std::uint8_t* p, std::size_t n,
                                                                  std::size_t block) noexcept {
    std::size_t start = block;
    for (std::size_t back = 0; back < 4 && start > 0; ++back) {
        --start;
        if ((p[start] & 0xC0) != 0x80) {
            break;
        }
    }
    const std::size_t at = utf8_scan_scalar(p + start, n - start);
    return at == utf8_valid ? utf8_valid : start + at;
}

}  // namespace sinkcheck::detail
