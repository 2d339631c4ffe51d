// decode_msgpack.cpp — the annotated MessagePack decoder (spec.md).
#include "decoder_base.hpp"

namespace sinkcheck::conform::decoding {
namespace {

class msgpack_decoder : decoder_base {
public:
    using decoder_base::decoder_base;

    void run() {
        struct frame {
            bool map;
            std::uint64_t remaining;
            bool want_key;
        };
        std::vector<frame> stack;
        bool done = false;
        while (!done) {
            if (!stack.empty()) {
                frame& f = stack.back();
                if (f.remaining == 0) {
                    done = close_innermost(stack);
                    continue;
                }
                if (f.map && f.want_key) {
                    const std::size_t at = pos_;
                    std::string k;
                    if (!string_item(k)) fail(at, "map key is not a str (no JSON-model value)");
                    note_key(at, "key str(" + std::to_string(k.size()) + ") " + shown(k), k);
                    build_.key(std::move(k));
                    f.want_key = false;
                    continue;
                }
                --f.remaining;
                if (f.map) f.want_key = true;
            }
            const std::size_t at = pos_;
            const std::uint8_t b = peek();
            std::uint64_t count = unknown_count;
            bool map = false;
            if (b >= 0x80 && b <= 0x8f) {
                ++pos_;
                count = b & 0x0f;
                map = true;
            } else if (b >= 0x90 && b <= 0x9f) {
                ++pos_;
                count = b & 0x0f;
            } else if (b == 0xdc || b == 0xdd || b == 0xde || b == 0xdf) {
                ++pos_;
                count = be(b == 0xdc || b == 0xde ? 2 : 4);
                map = b >= 0xde;
            }
            if (count != unknown_count) {
                check_count(count, map ? 2 : 1, at);
                note(at, std::string(map ? "map(" : "array(") + std::to_string(count) + ")");
                open(map, at);
                enter(map);
                stack.push_back({map, count, map});
                continue;
            }
            scalar_item(at);
            done = stack.empty();
        }
        finish();
    }

private:
    bool string_item(std::string& out) {
        const std::size_t at = pos_;
        const std::uint8_t b = peek();
        std::size_t len;
        if (b >= 0xa0 && b <= 0xbf) {
            ++pos_;
            len = b & 0x1f;
        } else if (b == 0xd9 || b == 0xda || b == 0xdb) {
            ++pos_;
            len = static_cast<std::size_t>(be(b == 0xd9 ? 1 : b == 0xda ? 2 : 4));
        } else {
            return false;
        }
        out = text(len, at);
        return true;
    }

    void scalar_item(std::size_t at) {
        std::string s;
        if (string_item(s)) {
            note(at, "str(" + std::to_string(s.size()) + ") " + shown(s));
            return scalar(json(std::move(s)), at);
        }
        const std::uint8_t b = byte();
        if (b <= 0x7f) {
            note(at, "positive fixint " + std::to_string(b));
            return scalar(json(static_cast<std::uint64_t>(b)), at);
        }
        if (b >= 0xe0) {
            const int v = static_cast<int>(b) - 256;
            note(at, "negative fixint " + std::to_string(v));
            return scalar(json(static_cast<std::int64_t>(v)), at);
        }
        switch (b) {
            case 0xc0: note(at, "nil"); return scalar(json(nullptr), at);
            case 0xc2: note(at, "false"); return scalar(json(false), at);
            case 0xc3: note(at, "true"); return scalar(json(true), at);
            case 0xc4:
            case 0xc5:
            case 0xc6: {
                const std::size_t len = static_cast<std::size_t>(be(b == 0xc4 ? 1 : b == 0xc5 ? 2 : 4));
                auto v = raw(len);
                note(at, "bin " +
                             std::to_string(b == 0xc4   ? 8
                                            : b == 0xc5 ? 16
                                                        : 32) +
                             " (" + std::to_string(len) + ") " + hex_preview(v.data(), v.size()));
                return scalar(json::binary(std::move(v)), at);
            }
            case 0xc7:
            case 0xc8:
            case 0xc9:
            case 0xd4:
            case 0xd5:
            case 0xd6:
            case 0xd7:
            case 0xd8: {
                std::size_t len;
                if (b >= 0xd4)
                    len = std::size_t{1} << (b - 0xd4);
                else
                    len = static_cast<std::size_t>(be(b == 0xc7 ? 1 : b == 0xc8 ? 2 : 4));
                const std::uint8_t type = byte();
                auto v = raw(len);
                note(at, std::string(b >= 0xd4 ? "fixext " : "ext ") + "(" + std::to_string(len) + ") type " +
                             std::to_string(static_cast<int>(static_cast<std::int8_t>(type))) + " " +
                             hex_preview(v.data(), v.size()));
                return scalar(json::binary(std::move(v), type), at);
            }
            case 0xca: return floating(float_from_bits(static_cast<std::uint32_t>(be(4))), at, "float 32");
            case 0xcb: return floating(double_from_bits(be(8)), at, "float 64");
            case 0xcc:
            case 0xcd:
            case 0xce:
            case 0xcf: {
                const std::size_t k = std::size_t{1} << (b - 0xcc);
                const std::uint64_t v = be(k);
                note(at, "uint " + std::to_string(8 * k) + " " + std::to_string(v));
                return scalar(json(v), at);
            }
            case 0xd0:
            case 0xd1:
            case 0xd2:
            case 0xd3: {
                const std::size_t k = std::size_t{1} << (b - 0xd0);
                const std::uint64_t u = be(k);
                std::int64_t v;
                if (k == 8) {
                    std::memcpy(&v, &u, 8);
                } else {
                    const std::uint64_t sign = std::uint64_t{1} << (8 * k - 1);
                    v = (u & sign) != 0 ? static_cast<std::int64_t>(u) - static_cast<std::int64_t>(sign << 1)
                                        : static_cast<std::int64_t>(u);
                }
                note(at, "int " + std::to_string(8 * k) + " " + std::to_string(v));
                return scalar(json(v), at);
            }
            default: fail(at, b == 0xc1 ? "0xc1 is never used" : "unexpected byte");
        }
    }
};

}  // namespace

void decode_annotated_msgpack(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out) {
    msgpack_decoder(p, n, limits, out).run();
}

}  // namespace sinkcheck::conform::decoding
