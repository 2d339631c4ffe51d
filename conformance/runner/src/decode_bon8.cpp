// decode_bon8.cpp — the BON8 annotator (formats.md §7): annotation only; the value comes from
// sinkcheck's BON8 decoder.
#include "decoder_base.hpp"

namespace sinkcheck::conform::decoding {
namespace {

class bon8_annotator : decoder_base {
public:
    using decoder_base::decoder_base;

    void run() {
        struct frame {
            bool object;
            std::uint64_t remaining;  // unknown_count: ended by fe
            bool want_key;
        };
        std::vector<frame> stack;
        bool done = false;
        while (!done) {
            if (!stack.empty()) {
                frame& f = stack.back();
                if (f.remaining == unknown_count && (!f.object || f.want_key) && peek() == 0xfe) {
                    const std::size_t at = pos_++;
                    note_end(at, "fe end");
                    f.remaining = 0;
                }
                if (f.remaining == 0) {
                    stack.pop_back();
                    leave();
                    done = stack.empty();
                    continue;
                }
                if (f.object && f.want_key) {
                    const std::size_t at = pos_;
                    std::string k;
                    if (!string_item(k)) fail(at, "object key is not a string");
                    note_key(at, "key " + shown(k), k);
                    f.want_key = false;
                    continue;
                }
                if (f.remaining != unknown_count) --f.remaining;
                if (f.object) f.want_key = true;
            }
            const std::size_t at = pos_;
            std::string s;
            if (string_item(s)) {
                note(at, "string " + shown(s));
                done = stack.empty();
                continue;
            }
            const std::uint8_t b = byte();
            if (b >= 0x80 && b <= 0x8b) {
                const bool object = b >= 0x86;
                const std::uint64_t count =
                    (b == 0x85 || b == 0x8b) ? unknown_count : static_cast<std::uint64_t>(b - (object ? 0x86 : 0x80));
                note(at, std::string(object ? "object" : "array") +
                             (count == unknown_count ? " ... fe" : "(" + std::to_string(count) + ")"));
                enter(object);
                stack.push_back({object, count, object});
                continue;
            }
            scalar_item(b, at);
            done = stack.empty();
        }
        if (pos_ != n_) fail(pos_, std::to_string(n_ - pos_) + " byte(s) after the end of the value");
    }

private:
    bool continuation(std::size_t i) const { return i < n_ && p_[i] >= 0x80 && p_[i] <= 0xbf; }

    /// Length of the UTF-8 character at i, or 0 when the bytes there are not one.
    std::size_t character(std::size_t i) const {
        if (i >= n_) return 0;
        const std::uint8_t b = p_[i];
        std::size_t len = b < 0x80                   ? 1
                          : (b >= 0xc2 && b <= 0xdf) ? 2
                          : (b >= 0xe0 && b <= 0xef) ? 3
                          : (b >= 0xf0 && b <= 0xf4) ? 4
                                                     : 0;
        if (len == 0 || i + len > n_) return 0;
        return detail::utf8_invalid_at(reinterpret_cast<const char*>(p_ + i), len) == detail::utf8_valid ? len : 0;
    }

    bool string_item(std::string& out) {
        if (pos_ < n_ && p_[pos_] == 0xff) {
            ++pos_;
            out.clear();
            return true;
        }
        std::size_t len = character(pos_);
        if (len == 0) return false;
        const std::size_t start = pos_;
        while (len != 0) {
            pos_ += len;
            len = character(pos_);
        }
        out.assign(reinterpret_cast<const char*>(p_ + start), pos_ - start);
        if (pos_ < n_ && p_[pos_] == 0xff) ++pos_;
        return true;
    }

    void scalar_item(std::uint8_t b, std::size_t at) {
        if (b >= 0x90 && b <= 0xb7) return note(at, "integer " + std::to_string(b - 0x90));
        if (b >= 0xb8 && b <= 0xc1) return note(at, "integer " + std::to_string(-1 - (b - 0xb8)));
        switch (b) {
            case 0x8c: {
                const auto v = static_cast<std::int32_t>(be(4));
                return note(at, "int32 " + std::to_string(v));
            }
            case 0x8d: {
                const std::uint64_t u = be(8);
                std::int64_t v;
                std::memcpy(&v, &u, 8);
                return note(at, "int64 " + std::to_string(v));
            }
            case 0x8e: return note(at, "binary32 " + float_text(float_from_bits(static_cast<std::uint32_t>(be(4)))));
            case 0x8f: return note(at, "binary64 " + float_text(double_from_bits(be(8))));
            case 0xf8: return note(at, "false");
            case 0xf9: return note(at, "true");
            case 0xfa: return note(at, "null");
            case 0xfb: return note(at, "-1.0");
            case 0xfc: return note(at, "+0.0");
            case 0xfd: return note(at, "+1.0");
            case 0xfe: fail(at, "fe (end of container) outside an end-marked container");
            default: break;
        }
        if (b >= 0xc2 && b <= 0xf7) {
            const std::uint8_t b1 = byte();
            const bool negative = b1 >= 0xc0;
            if (!negative && b1 > 0x7f) fail(at, "neither a UTF-8 character nor an integer");
            std::int64_t v;
            if (b <= 0xdf) {
                v = negative ? -11 - (((b - 0xc2) << 6) | (b1 - 0xc0)) : 40 + (((b - 0xc2) << 7) | b1);
            } else if (b <= 0xef) {
                const std::uint8_t b2 = byte();
                v = negative ? -1931 - ((static_cast<std::int64_t>(b - 0xe0) << 14) | ((b1 - 0xc0) << 8) | b2)
                             : 3880 + ((static_cast<std::int64_t>(b - 0xe0) << 15) | (b1 << 8) | b2);
            } else {
                const std::uint8_t b2 = byte();
                const std::uint8_t b3 = byte();
                v = negative
                        ? -264075 - ((static_cast<std::int64_t>(b - 0xf0) << 22) | ((b1 - 0xc0) << 16) | (b2 << 8) | b3)
                        : 528168 + ((static_cast<std::int64_t>(b - 0xf0) << 23) | (b1 << 16) | (b2 << 8) | b3);
            }
            return note(at, "integer " + std::to_string(v));
        }
        fail(at, "unexpected byte");
    }
};

}  // namespace

void decode_annotated_bon8(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out) {
    bon8_annotator(p, n, limits, out).run();
}

}  // namespace sinkcheck::conform::decoding
