// sinkcheck/format/bon8_decoder.hpp — strict BON8 decoder, the check on the BON8 encoder.
//
// BON8 has no released oracle, so what encode_bon8 writes is read back here and compared with
// the value it came from. The decoder accepts what nlohmann/json's BON8 page accepts
// (docs/mkdocs/docs/features/binary_formats/bon8.md: non-shortest integers, counted-size
// containers ended by 0xfe, unsorted keys, an eos after a string that would end without it) and
// rejects everything that is not BON8 with a decode_error naming the byte offset: invalid UTF-8,
// truncation, a misplaced 0xfe, a container whose count or end marker does not match, a key that
// is not a string, a duplicate key, bytes after the value. It never recurses: a 100,000-deep
// message decodes (or is rejected) with an explicit stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/detail/bytes.hpp"
#include "sinkcheck/detail/hex.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/format/bon8.hpp"

namespace sinkcheck {
namespace detail {

inline std::string bon8_hex_byte(std::uint8_t b) {
    std::string out = "0x";
    append_hex(out, b);
    return out;
}

inline bool bon8_continuation(std::uint8_t b) noexcept { return (b & 0xc0) == 0x80; }

/// Reads one BON8 message into a Json; see the header comment.
template <class Json>
class bon8_reader {
public:
    using string_t = typename Json::string_t;

    bon8_reader(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}

    Json read() {
        if (size_ == 0) {
            fail("empty input: a BON8 message is one value", 0);
        }
        Json root;
        bool have_root = false;
        while (!have_root) {
            if (!stack_.empty() && ends_here(stack_.back())) {
                Json done = std::move(stack_.back().value);
                stack_.pop_back();
                have_root = attach(std::move(done), root);
            } else if (!stack_.empty() && stack_.back().value.is_object() && !stack_.back().has_key) {
                read_key(stack_.back());
            } else {
                Json v;
                if (read_value(v)) {
                    have_root = attach(std::move(v), root);
                }
            }
        }
        if (pos_ != size_) {
            fail(std::to_string(size_ - pos_) + " byte(s) after the end of the message's value", pos_);
        }
        return root;
    }

private:
    static constexpr std::size_t open_ended = static_cast<std::size_t>(-1);

    /// An array or object being filled.
    struct level {
        Json value;
        std::size_t start;      // offset of its marker
        std::size_t remaining;  // values still to read, or open_ended (ended by 0xfe)
        bool has_key;           // objects: key read, value pending
        string_t key;
    };

    [[noreturn]] static void fail(const std::string& message, std::size_t offset) {
        throw decode_error(message, offset);
    }

    /// Where the input ran out, for the message.
    std::string inside() const {
        if (stack_.empty()) {
            return "";
        }
        const level& top = stack_.back();
        return std::string(" inside the ") + (top.value.is_object() ? "object" : "array") + " at byte " +
               std::to_string(top.start);
    }

    [[noreturn]] void truncated(const std::string& what) const { fail("input ends in " + what + inside(), size_); }

    std::uint8_t peek(const char* what) const {
        if (pos_ >= size_) {
            truncated(what);
        }
        return data_[pos_];
    }

    /// True when the byte at pos_ starts a string (docs/BON8.md table: a UTF-8 character or eos;
    /// a 0xc2..0xf7 lead is a character only when a continuation byte follows, else an integer).
    bool string_starts(const char* what) const {
        const std::uint8_t b = peek(what);
        if (b < 0x80 || b == bon8_eos) {
            return true;
        }
        if (b >= 0xc2 && b <= 0xf7) {
            if (pos_ + 1 >= size_) {
                truncated(std::string(what) + " whose first byte is " + bon8_hex_byte(b));
            }
            return bon8_continuation(data_[pos_ + 1]);
        }
        return false;
    }

    /// True when the innermost container is complete: its count is used up, or (no count) an
    /// end marker stands where its next value or key would; the end marker is consumed.
    bool ends_here(const level& top) {
        if (top.remaining == 0) {
            return true;
        }
        if (top.remaining == open_ended && !top.has_key && pos_ < size_ && data_[pos_] == bon8_end) {
            ++pos_;
            return true;
        }
        return false;
    }

    /// Adds a finished value to the innermost container; true when it was the message's value.
    bool attach(Json&& v, Json& root) {
        if (stack_.empty()) {
            root = std::move(v);
            return true;
        }
        level& top = stack_.back();
        if (top.value.is_object()) {
            top.value.template get_ref<typename Json::object_t&>().emplace(std::move(top.key), std::move(v));
            top.key = string_t();
            top.has_key = false;
        } else {
            top.value.template get_ref<typename Json::array_t&>().push_back(std::move(v));
        }
        if (top.remaining != open_ended) {
            --top.remaining;
        }
        return false;
    }

    void read_key(level& top) {
        const std::size_t at = pos_;
        if (!string_starts("an object key")) {
            if (data_[at] == bon8_end) {
                misplaced_end(at);
            }
            fail("object key must be a string, found " + bon8_hex_byte(data_[at]) + inside(), at);
        }
        string_t key = read_string();
        if (top.value.find(key) != top.value.end()) {
            fail("duplicate object key \"" + key + "\"" + inside(), at);
        }
        top.key = std::move(key);
        top.has_key = true;
    }

    /// Reads the value at pos_ into v and returns true, or pushes a container and returns false.
    bool read_value(Json& v) {
        const std::size_t at = pos_;
        if (string_starts("a value")) {
            v = read_string();
            return true;
        }
        const std::uint8_t b = data_[pos_];
        if (b >= bon8_array_count && b <= bon8_object) {
            ++pos_;
            const bool object = b >= bon8_object_count;
            const std::uint8_t counted = object ? bon8_object_count : bon8_array_count;
            const std::uint8_t ended = object ? bon8_object : bon8_array;
            stack_.push_back(level{object ? Json::object() : Json::array(), at,
                                   b == ended ? open_ended : std::size_t{b} - counted, false, string_t()});
            return false;
        }
        if (b >= 0x90 && b <= 0xb7) {
            v = Json(static_cast<typename Json::number_unsigned_t>(b - 0x90));
            ++pos_;
            return true;
        }
        if (b >= 0xb8 && b <= 0xc1) {
            v = Json(static_cast<typename Json::number_integer_t>(-1 - (b - 0xb8)));
            ++pos_;
            return true;
        }
        if (b >= 0xc2 && b <= 0xf7) {
            v = integer(read_short_integer(b));
            return true;
        }
        switch (b) {
            case bon8_int32: v = integer(load_be<std::int32_t>(fixed(4, "an int32"))); return true;
            case bon8_int64: v = integer(load_be<std::int64_t>(fixed(8, "an int64"))); return true;
            case bon8_binary32: v = Json(static_cast<double>(load_be<float>(fixed(4, "a binary32")))); return true;
            case bon8_binary64: v = Json(load_be<double>(fixed(8, "a binary64"))); return true;
            case bon8_false: v = Json(false); break;
            case bon8_true: v = Json(true); break;
            case bon8_null: v = Json(nullptr); break;
            case bon8_minus_one: v = Json(-1.0); break;
            case bon8_zero: v = Json(0.0); break;
            case bon8_one: v = Json(1.0); break;
            default: misplaced_end(at);
        }
        ++pos_;
        return true;
    }

    /// 0xfe where a value is due: in a counted container, outside any, or after an object key.
    [[noreturn]] void misplaced_end(std::size_t at) const {
        if (stack_.empty()) {
            fail("end-of-container marker 0xfe outside any container", at);
        }
        const level& top = stack_.back();
        if (top.has_key) {
            fail("end-of-container marker 0xfe where the value of key \"" + top.key + "\" is due" + inside(), at);
        }
        fail("end-of-container marker 0xfe" + inside() + ", which has a count (" + std::to_string(top.remaining) +
                 " more expected)",
             at);
    }

    /// The marker at pos_ and the n bytes after it; returns a pointer to those n bytes.
    const std::uint8_t* fixed(std::size_t n, const char* what) {
        if (size_ - pos_ < 1 + n) {
            truncated(std::string(what) + " at byte " + std::to_string(pos_));
        }
        const std::uint8_t* p = data_ + pos_ + 1;
        pos_ += 1 + n;
        return p;
    }

    static Json integer(std::int64_t v) {
        // non-negative integers decode as number_unsigned, as nlohmann's page specifies
        if (v >= 0) {
            return Json(static_cast<typename Json::number_unsigned_t>(v));
        }
        return Json(static_cast<typename Json::number_integer_t>(v));
    }

    /// A 2-4 byte integer: lead 0xc2..0xdf / 0xe0..0xef / 0xf0..0xf7, then 0x00..0x7f (positive)
    /// or 0xc0..0xff (negative); inverse of bon8_store_integer.
    std::int64_t read_short_integer(std::uint8_t lead) {
        const std::size_t n = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
        if (size_ - pos_ < n) {
            truncated("a " + std::to_string(n) + "-byte integer at byte " + std::to_string(pos_));
        }
        const std::uint8_t* p = data_ + pos_;
        pos_ += n;
        const bool negative = p[1] >= 0xc0;
        std::uint64_t u = negative ? p[1] - 0xc0u : p[1];
        for (std::size_t i = 2; i < n; ++i) {
            u = (u << 8) | p[i];
        }
        const int second_bits = negative ? 6 : 7;
        const int low_bits = second_bits + 8 * static_cast<int>(n - 2);
        const std::uint64_t first = lead - (n == 2 ? 0xc2u : n == 3 ? 0xe0u : 0xf0u);
        u |= first << low_bits;
        const auto value = static_cast<std::int64_t>(u);
        if (negative) {
            return (n == 2 ? bon8_neg2 : n == 3 ? bon8_neg3 : bon8_neg4) - value;
        }
        return (n == 2 ? bon8_pos2 : n == 3 ? bon8_pos3 : bon8_pos4) + value;
    }

    /// A string starting at pos_: UTF-8 characters up to an eos (consumed) or up to the first
    /// byte that cannot continue the string (not consumed). docs/BON8.md: a string at the very
    /// end of the message must be closed by eos.
    string_t read_string() {
        const std::size_t start = pos_;
        if (data_[pos_] == bon8_eos) {
            ++pos_;
            return string_t();
        }
        string_t s;
        while (true) {
            if (pos_ >= size_) {
                fail("the string at byte " + std::to_string(start) +
                         " reaches the end of the message without its end-of-string byte 0xff",
                     size_);
            }
            const std::uint8_t b = data_[pos_];
            if (b == bon8_eos) {
                ++pos_;
                return s;
            }
            if (b < 0x80) {
                s.push_back(static_cast<char>(b));
                ++pos_;
                continue;
            }
            if (b < 0xc2 || b > 0xf7 || pos_ + 1 >= size_ || !bon8_continuation(data_[pos_ + 1])) {
                return s;  // a marker or an integer ends the string; a lone last lead byte is read next
            }
            const std::size_t n = utf8_character(b);
            s.append(reinterpret_cast<const char*>(data_ + pos_), n);
            pos_ += n;
        }
    }

    /// Validates the multi-byte character at pos_ (lead b, a continuation byte after it) per
    /// RFC 3629 §4; returns its length.
    std::size_t utf8_character(std::uint8_t b) const {
        const std::size_t n = b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
        const std::uint8_t second = data_[pos_ + 1];
        const char* problem = nullptr;
        if (b > 0xf4 || (b == 0xf4 && second > 0x8f)) {
            problem = "a code point above U+10FFFF";
        } else if ((b == 0xe0 && second < 0xa0) || (b == 0xf0 && second < 0x90)) {
            problem = "an overlong form";
        } else if (b == 0xed && second > 0x9f) {
            problem = "a UTF-16 surrogate";
        } else if (size_ - pos_ < n) {
            problem = "a sequence cut short by the end of the message";
        } else {
            for (std::size_t i = 2; i < n; ++i) {
                if (!bon8_continuation(data_[pos_ + i])) {
                    problem = "a sequence cut short (too few continuation bytes)";
                }
            }
        }
        if (problem != nullptr) {
            fail("invalid UTF-8 in a string: " + std::string(problem) + " starting with " + bon8_hex_byte(b), pos_);
        }
        return n;
    }

    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
    std::vector<level> stack_;
};

}  // namespace detail

/// Decodes one BON8 message that fills exactly [data, data + size); throws decode_error with
/// the byte offset of the first problem. Non-negative integers become number_unsigned,
/// negative ones number_integer, arrays of byte values stay arrays (BON8 has no binary type).
template <class Json = nlohmann::json>
Json decode_bon8(const std::uint8_t* data, std::size_t size) {
    detail::bon8_reader<Json> reader(data, size);
    return reader.read();
}

template <class Json = nlohmann::json>
Json decode_bon8(const std::vector<std::uint8_t>& bytes) {
    return decode_bon8<Json>(bytes.data(), bytes.size());
}

}  // namespace sinkcheck
