// sinkcheck/testkit/utf8_oracle.hpp — a second UTF-8 validator, kept apart from the encoders' own.
//
// Whether a value holds text that is not UTF-8 decides between "recorded divergence" (the
// reference refuses such text, nlohmann 3.11.2 writes it) and "regression". Asked of the encoders'
// own check (sinkcheck/detail/utf8.hpp), a slip there would go unseen: the encoder and the judge
// would agree on the wrong answer, surrogates accepted by both, say. This validator takes another
// route to the same rules (RFC 3629 §3 and §4): it decodes each sequence to its code point first
// and then asks of the number whether it is a surrogate, above U+10FFFF or written longer than it
// needs, where the encoders' check compares each byte with the range its lead byte allows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sinkcheck::testkit {

inline constexpr std::size_t utf8_ok = static_cast<std::size_t>(-1);

/// Offset of the first byte of s that does not start a well-formed UTF-8 sequence, or utf8_ok.
inline std::size_t first_invalid_utf8(std::string_view s) noexcept {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto lead = static_cast<unsigned char>(s[i]);
        std::size_t length = 1;
        std::uint32_t code_point = lead;
        if (lead >= 0x80) {
            if ((lead & 0xE0U) == 0xC0U) {
                length = 2;
                code_point = lead & 0x1FU;
            } else if ((lead & 0xF0U) == 0xE0U) {
                length = 3;
                code_point = lead & 0x0FU;
            } else if ((lead & 0xF8U) == 0xF0U) {
                length = 4;
                code_point = lead & 0x07U;
            } else {
                return i;  // a continuation byte with no lead, or F8..FF
            }
            if (s.size() - i < length) {
                return i;  // cut short by the end of the text
            }
            for (std::size_t k = 1; k < length; ++k) {
                const auto next = static_cast<unsigned char>(s[i + k]);
                if ((next & 0xC0U) != 0x80U) {
                    return i;  // cut short by a byte that is not a continuation
                }
                code_point = (code_point << 6U) | (next & 0x3FU);
            }
            // the smallest code point each length may carry: below it the form is overlong
            static constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
            const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
            if (code_point < smallest[length] || surrogate || code_point > 0x10FFFF) {
                return i;
            }
        }
        i += length;
    }
    return utf8_ok;
}

/// A key as a JSON pointer token (RFC 6901 §3: '~' as "~0", '/' as "~1").
inline std::string pointer_token(std::string_view key) {
    std::string out;
    for (char c : key) {
        out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
    return out;
}

/// Where text in j is not UTF-8 ("string at /a/0", "key at /b, byte 2"), or "" when every string
/// and every key is. Walks without recursion, so any depth is fine.
template <class Json>
std::string invalid_utf8_in(const Json& j) {
    std::vector<std::pair<const Json*, std::string>> todo{{&j, ""}};
    while (!todo.empty()) {
        auto [node, pointer] = std::move(todo.back());
        todo.pop_back();
        if (node->is_string()) {
            const std::size_t at = first_invalid_utf8(node->template get_ref<const std::string&>());
            if (at != utf8_ok) {
                return "string at '" + pointer + "', byte " + std::to_string(at);
            }
        } else if (node->is_object()) {
            for (auto it = node->begin(); it != node->end(); ++it) {
                const std::size_t at = first_invalid_utf8(it.key());
                if (at != utf8_ok) {
                    return "key in '" + pointer + "', byte " + std::to_string(at);
                }
                todo.emplace_back(&it.value(), pointer + "/" + pointer_token(it.key()));
            }
        } else if (node->is_array()) {
            for (std::size_t i = 0; i < node->size(); ++i) {
                todo.emplace_back(&(*node)[i], pointer + "/" + std::to_string(i));
            }
        }
    }
    return {};
}

}  // namespace sinkcheck::testkit
