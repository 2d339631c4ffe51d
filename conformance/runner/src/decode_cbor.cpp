// decode_cbor.cpp — the annotated CBOR decoder (RFC 8949 §3).
#include <algorithm>

#include "decoder_base.hpp"

namespace sinkcheck::conform::decoding {
namespace {

class cbor_decoder : decoder_base {
public:
    using decoder_base::decoder_base;

    void run() {
        struct frame {
            bool map;
            std::uint64_t remaining;  // unknown_count: indefinite
            bool want_key;
        };
        std::vector<frame> stack;
        bool done = false;
        while (!done) {
            if (!stack.empty()) {
                frame& f = stack.back();
                const bool at_member_start = !f.map || f.want_key;
                if ((f.remaining == 0 && at_member_start) ||
                    (f.remaining == unknown_count && at_member_start && peek() == 0xff)) {
                    if (f.remaining == unknown_count) {
                        const std::size_t at = pos_++;
                        note_end(at, "break");
                    }
                    done = close_innermost(stack);
                    continue;
                }
                if (f.map && f.want_key) {
                    build_.key(key_item());
                    f.want_key = false;
                    continue;
                }
                if (f.remaining != unknown_count) --f.remaining;
                if (f.map) f.want_key = true;
            }
            const std::size_t at = pos_;
            const std::uint8_t ib = byte();
            const int major = ib >> 5;
            const int ai = ib & 31;
            if (major == 4 || major == 5) {
                const std::uint64_t count = argument(ai, at, true);
                std::string t = major == 4 ? "array" : "map";
                if (count == unknown_count) {
                    t += "(*) indefinite";
                } else {
                    check_count(count, major == 4 ? 1 : 2, at);
                    t += "(" + std::to_string(count) + ")";
                }
                note(at, t);
                open(major == 5, at);
                enter(major == 5);
                stack.push_back({major == 5, count, major == 5});
                continue;
            }
            scalar_item(ib, at);
            done = stack.empty();
        }
        finish();
    }

private:
    std::uint64_t argument(int ai, std::size_t at, bool indefinite_ok) {
        if (ai < 24) return static_cast<std::uint64_t>(ai);
        switch (ai) {
            case 24: return be(1);
            case 25: return be(2);
            case 26: return be(4);
            case 27: return be(8);
            case 31:
                if (indefinite_ok) return unknown_count;
                fail(at, "indefinite length not allowed here");
            default: fail(at, "reserved additional information " + std::to_string(ai));
        }
    }

    /// A byte or text string (definite or indefinite chunks) whose initial byte was read.
    std::string string_body(int major, int ai, std::size_t at) {
        const std::uint64_t len = argument(ai, at, true);
        if (len != unknown_count) {
            check_count(len, 1, at);
            need(static_cast<std::size_t>(len));
            std::string s(reinterpret_cast<const char*>(p_ + pos_), static_cast<std::size_t>(len));
            pos_ += static_cast<std::size_t>(len);
            return s;
        }
        std::string s;
        for (;;) {
            const std::size_t chunk_at = pos_;
            const std::uint8_t b = byte();
            if (b == 0xff) break;
            if ((b >> 5) != major || (b & 31) == 31)
                fail(chunk_at, "an indefinite string chunk must be a definite string of the same major type");
            s += string_body(major, b & 31, chunk_at);
        }
        return s;
    }

    std::string key_item() {
        const std::size_t at = pos_;
        const std::uint8_t ib = byte();
        if ((ib >> 5) != 3) fail(at, "map key is not a text string (no JSON-model value)");
        std::string k = string_body(3, ib & 31, at);
        if (detail::utf8_invalid_at(k.data(), k.size()) != detail::utf8_valid) fail(at, "key is not valid UTF-8");
        note_key(at, "key text(" + std::to_string(k.size()) + ") " + shown(k), k);
        return k;
    }

    void scalar_item(std::uint8_t ib, std::size_t at) {
        const int major = ib >> 5;
        const int ai = ib & 31;
        switch (major) {
            case 0: {
                const std::uint64_t v = argument(ai, at, false);
                note(at, "unsigned " + std::to_string(v));
                return scalar(json(v), at);
            }
            case 1: {
                const std::uint64_t v = argument(ai, at, false);
                if (v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                    const std::int64_t n = -1 - static_cast<std::int64_t>(v);
                    note(at, "negative " + std::to_string(n));
                    return scalar(json(n), at);
                }
                // -1-v is below INT64_MIN, which no integer kind of the JSON model holds: it is
                // kept exactly, as the tag-3 bignum of the same value (RFC 8949 §3.4.3), the
                // form to_cbor_number_space gives every such integer.
                out_.oracle_misreads = "a negative integer below INT64_MIN (nlohmann 3.11.2 wraps it)";
                std::vector<std::uint8_t> magnitude(8);
                for (std::size_t i = 0; i < 8; ++i) magnitude[i] = static_cast<std::uint8_t>(v >> (56 - 8 * i));
                note(at, "negative -1-" + std::to_string(v) + " (beyond int64)");
                return scalar(json::binary(std::move(magnitude), 3), at);
            }
            case 2: {
                std::string s = string_body(2, ai, at);
                note(at, "bytes(" + std::to_string(s.size()) + ") " +
                             hex_preview(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
                return scalar(json::binary(std::vector<std::uint8_t>(s.begin(), s.end())), at);
            }
            case 3: {
                std::string s = string_body(3, ai, at);
                if (detail::utf8_invalid_at(s.data(), s.size()) != detail::utf8_valid)
                    fail(at, "text string is not valid UTF-8");
                note(at, "text(" + std::to_string(s.size()) + ") " + shown(s));
                return scalar(json(std::move(s)), at);
            }
            case 6: {
                if (ai < 24) out_.oracle_misreads = "a one-byte tag head (nlohmann 3.11.2 drops or rejects it)";
                const std::uint64_t tag = argument(ai, at, false);
                note(at, "tag " + std::to_string(tag));
                const std::size_t item_at = pos_;
                const std::uint8_t b = byte();
                if ((b >> 5) != 2)
                    fail(item_at,
                         "tag " + std::to_string(tag) + " over a non-byte-string item has no JSON-model value");
                std::string s = string_body(2, b & 31, item_at);
                ++depth_;
                note_part(item_at, "bytes(" + std::to_string(s.size()) + ") " +
                                       hex_preview(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()) +
                                       " (subtype " + std::to_string(tag) + ")");
                --depth_;
                return scalar(json::binary(std::vector<std::uint8_t>(s.begin(), s.end()), tag), at);
            }
            default: break;
        }
        switch (ai) {
            case 20: note(at, "false"); return scalar(json(false), at);
            case 21: note(at, "true"); return scalar(json(true), at);
            case 22: note(at, "null"); return scalar(json(nullptr), at);
            case 23: fail(at, "undefined (f7) has no JSON-model value");
            case 24: fail(at, "simple value " + std::to_string(byte()) + " has no JSON-model value");
            case 25: return floating(half_to_double(static_cast<std::uint16_t>(be(2))), at, "float16");
            case 26: return floating(float_from_bits(static_cast<std::uint32_t>(be(4))), at, "float32");
            case 27: return floating(double_from_bits(be(8)), at, "float64");
            case 31: fail(at, "break (ff) outside an indefinite-length item");
            default:
                fail(at, ai < 20 ? "simple value " + std::to_string(ai) + " has no JSON-model value"
                                 : "reserved additional information " + std::to_string(ai));
        }
    }
};

}  // namespace

void to_cbor_number_space(json& value) {
    std::vector<json*> todo{&value};
    while (!todo.empty()) {
        json& j = *todo.back();
        todo.pop_back();
        if (j.is_array() || j.is_object()) {
            for (json& member : j) todo.push_back(&member);
            continue;
        }
        if (!j.is_binary() || !j.get_binary().has_subtype()) continue;
        auto& b = j.get_binary();
        if (b.subtype() != 2 && b.subtype() != 3) continue;
        // RFC 8949 §3.4.3: decoders accept leading zeros, and they change nothing.
        b.erase(b.begin(), std::find_if(b.begin(), b.end(), [](std::uint8_t x) { return x != 0; }));
        if (b.size() > 8) continue;
        std::uint64_t n = 0;
        for (const std::uint8_t x : b) n = (n << 8) | x;
        if (b.subtype() == 2) {
            j = n;
        } else if (n <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            j = -1 - static_cast<std::int64_t>(n);
        }
    }
}

void decode_annotated_cbor(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out) {
    cbor_decoder(p, n, limits, out).run();
}

}  // namespace sinkcheck::conform::decoding
