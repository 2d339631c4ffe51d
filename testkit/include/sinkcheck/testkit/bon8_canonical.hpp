// sinkcheck/testkit/bon8_canonical.hpp — a second reading of BON8: is every item in its canonical form?
//
// BON8 has no nlohmann release to compare with, and sinkcheck's decoder (bon8_decoder.hpp) reads
// non-canonical input on purpose (longer integers, 85/8b for short containers, a spare eos):
// an encoder that writes 67637031 as int32 or a four-element array with an end marker round-trips
// and passes every other check. This checker is a separate reading of hikoworks/hikogui
// docs/BON8.md ("Encoding" table, "Extra rules", "Canonical Representation") and nlohmann/json's
// BON8 page, written without the reference encoder's or decoder's code: it walks the bytes item by
// item and names the first one that is malformed or longer than the canonical form allows.
//   - integers: the shortest of the 1-, 2-, 3-, 4-byte forms, int32 (8c) or int64 (8d);
//   - floats: -1.0, +0.0 and +1.0 in one byte; -0.0, infinities and NaN as binary32, NaN as
//     7f800001 (the value the spec recommends, the page's choice); binary64 only for a value
//     binary32 cannot hold exactly (decided from the bits, not by converting);
//   - containers: the counted markers for 0..4 elements, the open-ended ones (closed by fe) for 5
//     and more;
//   - strings: valid UTF-8 (RFC 3629); an eos (ff) after a non-empty string exactly when the
//     message ends there or the next byte starts another string; the empty string is ff;
//   - objects: keys are strings and, when asked (nlohmann::json, not ordered_json), strictly
//     ascending by UTF-8 code units;
//   - the message is one value and nothing after it.
// NFC is not checked: strings are not normalised (reference/BON8_CHOICES.md no-nfc).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sinkcheck/testkit/hex.hpp"
#include "sinkcheck/testkit/utf8_oracle.hpp"

namespace sinkcheck::testkit {

/// Where a BON8 message first leaves the canonical form, and how.
struct bon8_flaw {
    std::size_t offset;
    std::string pointer;  // JSON pointer of the item (RFC 6901), "" for the root
    std::string what;

    std::string describe() const { return "byte " + std::to_string(offset) + " (at '" + pointer + "'): " + what; }
};

namespace detail_bon8 {

/// BON8.md "Encoding" table: the ranges of the 2-, 3- and 4-byte integer forms.
inline constexpr std::int64_t one_byte_min = -10, one_byte_max = 39;
inline constexpr std::int64_t short_min = -33818506, short_max = 67637031;

inline std::uint64_t read_be(const std::uint8_t* p, std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) {
        v = v << 8 | p[i];
    }
    return v;
}

/// True when the binary64 with these bits is a binary32 value too: no bit of its significand
/// lies below binary32's last (2^(e-23) for a normal binary32, 2^-149 below that) and its
/// exponent is at most 127. Zero, infinities and NaN are decided by the caller.
inline bool binary64_fits_binary32(std::uint64_t bits) {
    const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
    const std::uint64_t fraction = bits & 0xfffffffffffffULL;
    if (biased == 0) {
        return false;  // a binary64 subnormal is below 2^-1022, far below binary32's 2^-149
    }
    const int e = biased - 1023;
    const std::uint64_t significand = fraction | std::uint64_t{1} << 52;
    int zeros = 0;
    while (((significand >> zeros) & 1U) == 0) {
        ++zeros;
    }
    const int lowest = e - 52 + zeros;  // exponent of the significand's lowest set bit
    const int floor = e - 23 > -149 ? e - 23 : -149;
    return e <= 127 && lowest >= floor;
}

inline bool continuation(std::uint8_t b) { return b >= 0x80 && b <= 0xbf; }

/// Whether the byte at p (of the message ending at end) starts a string item: the empty string
/// (ff), a one-byte character or a lead byte followed by a continuation byte. A lead byte
/// followed by anything else starts an integer.
inline bool starts_string(const std::uint8_t* p, const std::uint8_t* end) {
    if (p == end) {
        return false;
    }
    if (*p == 0xff || *p <= 0x7f) {
        return true;
    }
    return *p >= 0xc2 && *p <= 0xf4 && p + 1 < end && continuation(p[1]);
}

struct open_container {
    bool object = false;
    bool counted = false;
    std::size_t remaining = 0;  // counted: items still due (keys and values)
    std::size_t members = 0;
    bool key_due = true;  // objects: the next item is a key
    std::string last_key;
    bool have_key = false;
    std::string token;  // the pointer token of the child being read
};

class checker {
public:
    checker(const std::uint8_t* data, std::size_t size, bool keys_sorted)
        : begin_(data), p_(data), end_(data + size), keys_sorted_(keys_sorted) {}

    std::optional<bon8_flaw> run() {
        if (p_ == end_) {
            return flaw(0, "an empty message (BON8.md: a message is a single value)");
        }
        bool root_done = false;
        while (!root_done) {
            if (!stack_.empty()) {
                open_container& top = stack_.back();
                if (top.counted && top.remaining == 0) {
                    stack_.pop_back();
                    root_done = item_done();
                    continue;
                }
                if (!top.counted && p_ < end_ && *p_ == 0xfe) {
                    if (top.object && !top.key_due) {
                        return flaw(offset(), "end of container (fe) where the value of a member is due");
                    }
                    const std::size_t n = top.members;
                    if (n <= 4) {
                        return flaw(offset(), "an open-ended " + std::string(top.object ? "object" : "array") + " of " +
                                                  std::to_string(n) + (top.object ? " members" : " elements") +
                                                  " closed by fe: 0..4 take the counted marker");
                    }
                    ++p_;
                    stack_.pop_back();
                    root_done = item_done();
                    continue;
                }
                if (!top.object) {
                    top.token = std::to_string(top.members);
                }
            }
            if (p_ == end_) {
                return flaw(offset(), "the message ends where an item is due");
            }
            if (auto f = item()) {
                return f;
            }
            if (!opened_) {
                root_done = item_done();
            }
        }
        if (p_ != end_) {
            return flaw(offset(), std::to_string(end_ - p_) + " bytes after the message's one value");
        }
        return std::nullopt;
    }

private:
    std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }

    std::string pointer() const {
        std::string out;
        for (const open_container& c : stack_) {
            if (c.object && c.key_due) {
                // a key is being read: the pointer is the object's own
                break;
            }
            out += "/" + pointer_token(c.token);
        }
        return out;
    }

    std::optional<bon8_flaw> flaw(std::size_t at, std::string what) const {
        return bon8_flaw{at, pointer(), std::move(what)};
    }

    bool key_due() const { return !stack_.empty() && stack_.back().object && stack_.back().key_due; }

    /// Counts a finished item in its container; true when it was the root.
    bool item_done() {
        if (stack_.empty()) {
            return true;
        }
        open_container& top = stack_.back();
        if (top.counted) {
            --top.remaining;
        }
        if (top.object) {
            if (!top.key_due) {
                ++top.members;
            }
            top.key_due = !top.key_due;
        } else {
            ++top.members;
        }
        return false;
    }

    /// Reads one item at p_. Opens a container (opened_), or reads a whole scalar.
    std::optional<bon8_flaw> item() {
        opened_ = false;
        const std::uint8_t b = *p_;
        const bool key = key_due();
        if (b == 0xff || b <= 0x7f || (b >= 0xc2 && b <= 0xf7 && p_ + 1 < end_ && continuation(p_[1]))) {
            return string();
        }
        if (key) {
            return flaw(offset(), "an object key must be a string, found byte " + hex_byte(b));
        }
        const std::size_t at = offset();
        if (b <= 0x8b) {
            const bool object = b >= 0x86;
            const bool counted = b != 0x85 && b != 0x8b;
            const std::size_t n = counted ? static_cast<std::size_t>(b - (object ? 0x86 : 0x80)) : 0;
            ++p_;
            open_container c;
            c.object = object;
            c.counted = counted;
            c.remaining = object ? 2 * n : n;
            stack_.push_back(std::move(c));
            opened_ = true;
            return std::nullopt;
        }
        if (b <= 0x8f) {
            const std::size_t n = b == 0x8c || b == 0x8e ? 4 : 8;
            if (static_cast<std::size_t>(end_ - p_) < 1 + n) {
                return flaw(at, "a number cut short by the end of the message");
            }
            const std::uint64_t raw = read_be(p_ + 1, n);
            p_ += 1 + n;
            switch (b) {
                case 0x8c: return int32(at, static_cast<std::int32_t>(static_cast<std::uint32_t>(raw)));
                case 0x8d: return int64(at, static_cast<std::int64_t>(raw));
                case 0x8e: return binary32(at, static_cast<std::uint32_t>(raw));
                default: return binary64(at, raw);
            }
        }
        if (b <= 0xc1 || (b >= 0xf8 && b <= 0xfd)) {
            ++p_;  // the one-byte integers, false, true, null, -1.0, +0.0, +1.0
            return std::nullopt;
        }
        if (b == 0xfe) {
            return flaw(at, "end of container (fe) where a value is due");
        }
        // c2..f7 not followed by a continuation byte: a 2-, 3- or 4-byte integer, each form
        // holding only values its shorter forms cannot (the offset table), so always shortest
        const std::size_t n = b <= 0xdf ? 2 : b <= 0xef ? 3 : 4;
        if (static_cast<std::size_t>(end_ - p_) < n) {
            return flaw(at, "an integer cut short by the end of the message");
        }
        p_ += n;
        return std::nullopt;
    }

    std::optional<bon8_flaw> int32(std::size_t at, std::int32_t v) const {
        if (v >= short_min && v <= short_max) {
            return flaw(at, "integer " + std::to_string(v) + " as int32 (8c): " +
                                (v >= one_byte_min && v <= one_byte_max ? "the one-byte form" : "a 2- to 4-byte form") +
                                " is shorter");
        }
        return std::nullopt;
    }

    std::optional<bon8_flaw> int64(std::size_t at, std::int64_t v) const {
        if (v >= INT32_MIN && v <= INT32_MAX) {
            return flaw(at, "integer " + std::to_string(v) + " as int64 (8d): it fits a shorter form");
        }
        return std::nullopt;
    }

    std::optional<bon8_flaw> binary32(std::size_t at, std::uint32_t bits) const {
        float f;
        std::memcpy(&f, &bits, sizeof f);
        if (f == -1.0F || f == 1.0F || bits == 0) {
            return flaw(at, "binary32 " + to_hex(p_ - 4, 4) + " has a one-byte form (fb, fc or fd)");
        }
        if (std::isnan(f) && bits != 0x7f800001U) {
            return flaw(at, "NaN as binary32 " + to_hex(p_ - 4, 4) + ", canonical NaN is 7f800001");
        }
        return std::nullopt;
    }

    std::optional<bon8_flaw> binary64(std::size_t at, std::uint64_t bits) const {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        if (d == -1.0 || d == 1.0 || bits == 0) {
            return flaw(at, "binary64 " + to_hex(p_ - 8, 8) + " has a one-byte form (fb, fc or fd)");
        }
        if (std::isnan(d) || std::isinf(d) || bits == 0x8000000000000000ULL) {
            return flaw(at, "binary64 " + to_hex(p_ - 8, 8) + ": -0.0, infinities and NaN MUST be binary32");
        }
        if (binary64_fits_binary32(bits)) {
            return flaw(at, "binary64 " + to_hex(p_ - 8, 8) + " is exact in binary32, which it MUST use");
        }
        return std::nullopt;
    }

    /// A string item: ff alone (empty), or characters and the eos the rules ask for.
    std::optional<bon8_flaw> string() {
        const std::size_t at = offset();
        const std::uint8_t* const start = p_;
        if (*p_ == 0xff) {
            ++p_;
        } else {
            while (p_ < end_) {
                const std::uint8_t c = *p_;
                std::size_t n = 0;
                if (c <= 0x7f) {
                    n = 1;
                } else if (c >= 0xc2 && c <= 0xf7 && p_ + 1 < end_ && continuation(p_[1])) {
                    n = c <= 0xdf ? 2 : c <= 0xef ? 3 : 4;
                } else {
                    break;  // a marker, an integer or eos ends the characters
                }
                const std::size_t avail = static_cast<std::size_t>(end_ - p_);
                const std::string_view ch(reinterpret_cast<const char*>(p_), n < avail ? n : avail);
                if (ch.size() < n || first_invalid_utf8(ch) != utf8_ok) {
                    return flaw(offset(), "a string holds invalid UTF-8 at this byte (" + hex_byte(c) + ")");
                }
                p_ += n;
            }
            if (p_ == end_) {
                return flaw(at, "a string runs to the end of the message without its eos (ff)");
            }
            if (*p_ == 0xff) {
                const std::uint8_t* after = p_ + 1;
                if (after != end_ && !starts_string(after, end_)) {
                    return flaw(offset(), "an eos (ff) after a string that the next byte (" + hex_byte(*after) +
                                              ") already ends: only a following string or the message end needs it");
                }
                ++p_;
            }
        }
        if (key_due()) {
            open_container& top = stack_.back();
            std::string k(reinterpret_cast<const char*>(start), static_cast<std::size_t>(p_ - start));
            if (!k.empty() && static_cast<std::uint8_t>(k.back()) == 0xff) {
                k.pop_back();
            }
            if (keys_sorted_ && top.have_key && !ascending(top.last_key, k)) {
                return flaw(at, "key \"" + k + "\" after \"" + top.last_key +
                                    "\": keys MUST ascend by UTF-8 code units, each once");
            }
            top.last_key = k;
            top.have_key = true;
            top.token = k;
        }
        return std::nullopt;
    }

    static bool ascending(const std::string& a, const std::string& b) {
        const std::size_t n = a.size() < b.size() ? a.size() : b.size();
        for (std::size_t i = 0; i < n; ++i) {
            const auto x = static_cast<std::uint8_t>(a[i]);
            const auto y = static_cast<std::uint8_t>(b[i]);
            if (x != y) {
                return x < y;
            }
        }
        return a.size() < b.size();
    }

    static std::string hex_byte(std::uint8_t b) { return to_hex(&b, 1); }

    const std::uint8_t* begin_;
    const std::uint8_t* p_;
    const std::uint8_t* end_;
    bool keys_sorted_;
    std::vector<open_container> stack_;
    bool opened_ = false;
};

}  // namespace detail_bon8

/// The first item of the BON8 message `bytes` that is malformed or not in the canonical form,
/// or nullopt. keys_sorted: object keys must ascend (false for insertion-ordered objects, whose
/// order the encoder keeps by choice: reference/BON8_CHOICES.md ordered-json-key-order).
inline std::optional<bon8_flaw> bon8_canonical_flaw(const std::vector<std::uint8_t>& bytes, bool keys_sorted) {
    detail_bon8::checker c(bytes.data(), bytes.size(), keys_sorted);
    return c.run();
}

}  // namespace sinkcheck::testkit
