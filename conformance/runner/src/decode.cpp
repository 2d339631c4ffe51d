// Annotated, iterative decoders for the six formats, and value equivalence (decode.hpp).
#include "sinkcheck/conform/decode.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/format/bon8_decoder.hpp"
#include "sinkcheck/oracle.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;

constexpr std::uint64_t unknown_count = std::numeric_limits<std::uint64_t>::max();
/// Typed UBJSON containers of marker-only elements ([$Z#...) take no bytes per element; this
/// caps how many a decoder will believe.
constexpr std::uint64_t max_empty_elements = 1u << 24;
/// nlohmann's readers recurse; deeper values are only decoded here.
constexpr std::size_t oracle_max_depth = 256;

struct failure {
    std::size_t offset;
    std::string message;
};

std::string shown(const std::string& s) {
    std::string r = render_value(json(s), 60);
    return r;
}

std::string hex_preview(const std::uint8_t* p, std::size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string out = "h'";
    for (std::size_t i = 0; i < n && i < 24; ++i) {
        out += digits[p[i] >> 4];
        out += digits[p[i] & 15];
    }
    if (n > 24) out += "...";
    out += '\'';
    return out;
}

std::string float_text(double d) { return render_value(json(d)); }

/// Builds a json value from decoder events without recursion.
class builder {
public:
    explicit builder(bool enabled) : enabled_(enabled) {}

    /// False when the key already exists in the enclosing object.
    bool scalar(json&& v) { return place(std::move(v)) != nullptr || !enabled_; }
    bool open(bool object) {
        json* node = place(object ? json::object() : json::array());
        if (enabled_ && node == nullptr) return false;
        stack_.push_back(node);
        keys_.emplace_back();
        return true;
    }
    void key(std::string k) {
        if (enabled_) keys_.back() = std::move(k);
    }
    void close() {
        stack_.pop_back();
        keys_.pop_back();
    }
    json take() { return std::move(root_); }

private:
    json* place(json&& v) {
        if (!enabled_) return nullptr;
        if (stack_.empty() || stack_.back() == nullptr) {
            root_ = std::move(v);
            return &root_;
        }
        json* top = stack_.back();
        if (top->is_array()) {
            auto& a = top->get_ref<json::array_t&>();
            a.push_back(std::move(v));
            return &a.back();
        }
        auto& o = top->get_ref<json::object_t&>();
        // Encoders mostly write keys in order, so the end is usually the right hint.
        const std::size_t before = o.size();
        auto it = o.emplace_hint(o.end(), keys_.back(), std::move(v));
        return o.size() != before ? &it->second : nullptr;
    }

    bool enabled_;
    json root_;
    std::vector<json*> stack_;
    std::vector<std::string> keys_;
};

/// What every format decoder shares: a bounds-checked cursor, annotations, the builder.
class decoder_base {
public:
    decoder_base(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out)
        : p_(p), n_(n), limits_(limits), out_(out), build_(limits.build_value) {}

protected:
    [[noreturn]] void fail(std::size_t at, const std::string& message) const { throw failure{at, message}; }

    void need(std::size_t k) const {
        if (k > n_ - pos_) {
            fail(pos_, "unexpected end of input: " + std::to_string(k) + " more byte(s) needed, " +
                           std::to_string(n_ - pos_) + " left");
        }
    }
    std::uint8_t byte() {
        need(1);
        return p_[pos_++];
    }
    std::uint8_t peek() const {
        need(1);
        return p_[pos_];
    }
    std::uint64_t be(std::size_t k) {
        need(k);
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < k; ++i) v = (v << 8) | p_[pos_ + i];
        pos_ += k;
        return v;
    }
    std::uint64_t le(std::size_t k) {
        need(k);
        std::uint64_t v = 0;
        for (std::size_t i = k; i > 0; --i) v = (v << 8) | p_[pos_ + i - 1];
        pos_ += k;
        return v;
    }
    std::string text(std::size_t k, std::size_t at) {
        need(k);
        std::string s(reinterpret_cast<const char*>(p_ + pos_), k);
        pos_ += k;
        const std::size_t bad = detail::utf8_invalid_at(s.data(), s.size());
        if (bad != detail::utf8_valid) fail(at, "string is not valid UTF-8 (byte " + std::to_string(bad) + " of it)");
        return s;
    }
    std::vector<std::uint8_t> raw(std::size_t k) {
        need(k);
        std::vector<std::uint8_t> v(p_ + pos_, p_ + pos_ + k);
        pos_ += k;
        return v;
    }
    void check_count(std::uint64_t count, std::size_t min_item_bytes, std::size_t at) const {
        if (min_item_bytes == 0 ? count > max_empty_elements : count > (n_ - pos_) / min_item_bytes) {
            fail(at, "count " + std::to_string(count) + " exceeds what the remaining " + std::to_string(n_ - pos_) +
                         " bytes can hold");
        }
    }
    void note(std::size_t at, std::string t) {
        if (out_.lines.size() < limits_.max_lines) {
            out_.lines.push_back({at, pos_ - at, depth_, std::move(t)});
        }
    }
    void enter() {
        ++depth_;
        if (depth_ > out_.max_depth) out_.max_depth = depth_;
        if (depth_ > limits_.max_depth) fail(pos_, "nesting deeper than " + std::to_string(limits_.max_depth));
    }
    void leave() { --depth_; }
    /// Ends the innermost container; true when that was the outermost one.
    template <class Stack>
    bool close_innermost(Stack& stack) {
        build_.close();
        stack.pop_back();
        leave();
        return stack.empty();
    }
    void scalar(json&& v, std::size_t at) {
        if (!build_.scalar(std::move(v))) fail(at, "duplicate key in an object");
    }
    void open(bool object, std::size_t at) {
        if (!build_.open(object)) fail(at, "duplicate key in an object");
    }
    /// A float item: annotated as "label value", placed as a double.
    void floating(double d, std::size_t at, const std::string& label) {
        note(at, label + " " + float_text(d));
        scalar(json(d), at);
    }
    void finish() {
        if (pos_ != n_) fail(pos_, std::to_string(n_ - pos_) + " byte(s) after the end of the value");
        out_.value = build_.take();
    }

    const std::uint8_t* p_;
    std::size_t n_;
    std::size_t pos_ = 0;
    std::size_t depth_ = 0;
    decode_limits limits_;
    decoded& out_;
    builder build_;
};

// ---------------------------------------------------------------------------------------------
// CBOR (RFC 8949 §3)

double half_to_double(std::uint16_t h) {
    const int e = (h >> 10) & 0x1f;
    const int m = h & 0x3ff;
    double v;
    if (e == 0)
        v = std::ldexp(m, -24);
    else if (e == 31)
        v = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    else
        v = std::ldexp(m + 1024, e - 25);
    return (h & 0x8000) != 0 ? -v : v;
}

double float_from_bits(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return static_cast<double>(f);
}
double double_from_bits(std::uint64_t b) {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
}

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
                        note(at, "break");
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
                enter();
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
        note(at, "key text(" + std::to_string(k.size()) + ") " + shown(k));
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
                // -1-v is below INT64_MIN: the JSON model holds it as the nearest double.
                out_.oracle_misreads = "a negative integer below INT64_MIN (nlohmann 3.11.2 wraps it)";
                const double d = -1.0 - static_cast<double>(v);
                note(at, "negative -1-" + std::to_string(v) + " (beyond int64: " + float_text(d) + ")");
                return scalar(json(d), at);
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
                note(item_at, "bytes(" + std::to_string(s.size()) + ") " +
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

// ---------------------------------------------------------------------------------------------
// MessagePack (spec.md)

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
                    note(at, "key str(" + std::to_string(k.size()) + ") " + shown(k));
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
                enter();
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

// ---------------------------------------------------------------------------------------------
// UBJSON (Draft 12, big-endian) and BJData (Draft 2, little-endian)

class ubjson_decoder : decoder_base {
public:
    ubjson_decoder(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out, bool bjdata)
        : decoder_base(p, n, limits, out), bj_(bjdata) {}

    void run() {
        struct frame {
            bool object;
            std::uint64_t remaining;  // unknown_count: ended by ']' / '}'
            std::uint8_t type;        // 0: every value has its marker
            bool want_key;
        };
        std::vector<frame> stack;
        bool done = false;
        while (!done) {
            std::uint8_t type = 0;
            if (!stack.empty()) {
                frame& f = stack.back();
                if (f.remaining == unknown_count) {
                    skip_noops();
                    const std::uint8_t end = f.object ? '}' : ']';
                    if ((!f.object || f.want_key) && peek() == end) {
                        const std::size_t at = pos_++;
                        note(at, std::string(1, static_cast<char>(end)) + " end");
                        f.remaining = 0;
                    }
                }
                if (f.remaining == 0) {
                    done = close_innermost(stack);
                    continue;
                }
                if (f.object && f.want_key) {
                    const std::size_t at = pos_;
                    const std::uint64_t len = length(at);
                    std::string k = text(static_cast<std::size_t>(len), at);
                    note(at, "key (" + std::to_string(len) + ") " + shown(k));
                    build_.key(std::move(k));
                    f.want_key = false;
                    continue;
                }
                if (f.remaining != unknown_count) --f.remaining;
                if (f.object) f.want_key = true;
                type = f.type;
            }
            const std::size_t at = pos_;
            std::uint8_t marker = type;
            if (marker == 0) {
                skip_noops();
                marker = byte();
            }
            if (marker == '[' || marker == '{') {
                std::uint8_t t = 0;
                std::uint64_t count = unknown_count;
                bool nd = false;
                header(marker == '{', t, count, nd, at);
                if (nd) {
                    done = stack.empty();
                    continue;
                }
                open(marker == '{', at);
                enter();
                stack.push_back({marker == '{', count, t, marker == '{'});
                continue;
            }
            value(marker, at, type != 0);
            done = stack.empty();
        }
        finish();
    }

private:
    void skip_noops() {
        while (pos_ < n_ && p_[pos_] == 'N') {
            note(pos_, "N no-op");
            ++pos_;
        }
    }

    /// After '[' or '{': optional '$' type (then '#' is required), optional '#' count; BJData
    /// '#[' dimensions make an ND-array, decoded whole here.
    void header(bool object, std::uint8_t& type, std::uint64_t& count, bool& nd, std::size_t at) {
        std::string t = object ? "{ object" : "[ array";
        if (pos_ < n_ && p_[pos_] == '$') {
            ++pos_;
            type = byte();
            if (bj_ && (type == 'S' || type == 'H' || type == 'T' || type == 'F' || type == 'N' || type == 'Z' ||
                        type == '[' || type == '{')) {
                fail(pos_ - 1, std::string("BJData allows only fixed-size types after '$', not '") +
                                   static_cast<char>(type) + "'");
            }
            t += std::string(" $") + static_cast<char>(type);
            if (pos_ >= n_ || p_[pos_] != '#') fail(pos_, "'$' type must be followed by a '#' count");
        }
        if (pos_ < n_ && p_[pos_] == '#') {
            ++pos_;
            if (bj_ && pos_ < n_ && p_[pos_] == '[') {
                if (type == 0 || object) fail(pos_, "ND-array dimensions need an array with a '$' type");
                nd_array(type, at);
                nd = true;
                return;
            }
            count = length(pos_);
            std::size_t min = 1;
            if (type != 0) min = payload_size(type);
            if (object) min += 1;
            check_count(count, min, at);
            t += " #" + std::to_string(count);
        }
        note(at, t);
    }

    std::size_t payload_size(std::uint8_t type) const {
        switch (type) {
            case 'Z':
            case 'T':
            case 'F':
            case 'N': return 0;
            case 'i':
            case 'U':
            case 'C': return 1;
            case 'I':
            case 'u':
            case 'h': return 2;
            case 'l':
            case 'm':
            case 'd': return 4;
            case 'L':
            case 'M':
            case 'D': return 8;
            default: return 1;
        }
    }

    void nd_array(std::uint8_t type, std::size_t at) {
        // Dimensions: an array of integers (itself possibly optimized), decoded without a builder.
        const std::size_t dims_at = pos_;
        ++pos_;
        std::uint8_t dt = 0;
        std::uint64_t dn = unknown_count;
        if (pos_ < n_ && p_[pos_] == '$') {
            ++pos_;
            dt = byte();
            if (byte() != '#') fail(pos_ - 1, "'$' type must be followed by a '#' count");
            dn = length(pos_);
        } else if (pos_ < n_ && p_[pos_] == '#') {
            ++pos_;
            dn = length(pos_);
        }
        std::vector<std::uint64_t> dims;
        for (;;) {
            if (dn == unknown_count) {
                if (peek() == ']') {
                    ++pos_;
                    break;
                }
            } else if (dims.size() == dn) {
                break;
            }
            if (dims.size() > 64) fail(pos_, "more than 64 ND-array dimensions");
            const std::size_t v_at = pos_;
            const std::uint8_t m = dt != 0 ? dt : byte();
            std::int64_t d = 0;
            if (!integer(m, d) || d < 0) fail(v_at, "an ND-array dimension must be a non-negative integer");
            dims.push_back(static_cast<std::uint64_t>(d));
        }
        std::uint64_t total = 1;
        for (std::uint64_t d : dims) {
            if (d != 0 && total > unknown_count / d) fail(dims_at, "ND-array size overflows");
            total *= d;
        }
        if (dims.empty()) total = 0;
        check_count(total, payload_size(type), at);
        std::string shape;
        for (std::uint64_t d : dims) shape += (shape.empty() ? "" : "x") + std::to_string(d);
        note(at, std::string("[ ND-array $") + static_cast<char>(type) + " #[" + shape + "]");
        // As nlohmann 3.11.2 reads it: a row vector (one dimension, or 1xN) or an empty one is a
        // plain array; anything else the annotated _ArrayType_/_ArraySize_/_ArrayData_ object.
        if (total == 0 || dims.size() == 1 || (dims.size() == 2 && dims[0] == 1)) {
            open(false, at);
            enter();
            for (std::uint64_t k = 0; k < total; ++k) value(type, pos_, true);
            leave();
            build_.close();
            return;
        }
        static const std::pair<char, const char*> names[] = {
            {'U', "uint8"},  {'i', "int8"},  {'u', "uint16"}, {'I', "int16"},  {'m', "uint32"}, {'l', "int32"},
            {'M', "uint64"}, {'L', "int64"}, {'d', "single"}, {'D', "double"}, {'C', "char"}};
        const char* name = nullptr;
        for (const auto& nm : names) {
            if (nm.first == static_cast<char>(type)) name = nm.second;
        }
        if (name == nullptr) fail(at, std::string("no ND-array type for '") + static_cast<char>(type) + "'");
        open(true, at);
        build_.key("_ArrayType_");
        scalar(json(name), at);
        build_.key("_ArraySize_");
        open(false, at);
        for (std::uint64_t d : dims) scalar(json(d), at);
        build_.close();
        build_.key("_ArrayData_");
        open(false, at);
        enter();
        for (std::uint64_t k = 0; k < total; ++k) value(type == 'C' ? 'U' : type, pos_, true);
        leave();
        build_.close();
        build_.close();
    }

    std::uint64_t fixed(std::size_t k) { return bj_ ? le(k) : be(k); }

    /// Reads the integer payload of marker m; false when m is not an integer marker.
    bool integer(std::uint8_t m, std::int64_t& out) {
        switch (m) {
            case 'i':
                // NOLINTNEXTLINE(bugprone-signed-char-misuse): the sign extension is the point
                out = static_cast<std::int8_t>(fixed(1));
                return true;
            case 'U': out = static_cast<std::int64_t>(fixed(1)); return true;
            case 'I': out = static_cast<std::int16_t>(fixed(2)); return true;
            case 'l': out = static_cast<std::int32_t>(fixed(4)); return true;
            case 'L': {
                const std::uint64_t u = fixed(8);
                std::memcpy(&out, &u, 8);
                return true;
            }
            case 'u':
                if (!bj_) return false;
                out = static_cast<std::int64_t>(fixed(2));
                return true;
            case 'm':
                if (!bj_) return false;
                out = static_cast<std::int64_t>(fixed(4));
                return true;
            default: return false;
        }
    }

    /// A length or count: an integer with its own marker, never negative.
    std::uint64_t length(std::size_t at) {
        const std::uint8_t m = byte();
        if (bj_ && m == 'M') return fixed(8);
        std::int64_t v = 0;
        if (!integer(m, v)) fail(at, std::string("a length needs an integer marker, found '") + printable(m) + "'");
        if (v < 0) fail(at, "negative length " + std::to_string(v));
        return static_cast<std::uint64_t>(v);
    }

    static std::string printable(std::uint8_t m) {
        if (m >= 0x20 && m < 0x7f) return std::string(1, static_cast<char>(m));
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", m);
        return buf;
    }

    void value(std::uint8_t m, std::size_t at, bool typed) {
        const std::string prefix = typed ? std::string("($") + static_cast<char>(m) + ") " : std::string();
        std::int64_t v = 0;
        if (integer(m, v)) {
            note(at, prefix + static_cast<char>(m) + " " + std::to_string(v));
            if (v >= 0) return scalar(json(static_cast<std::uint64_t>(v)), at);
            return scalar(json(v), at);
        }
        switch (m) {
            case 'Z': note(at, prefix + "Z null"); return scalar(json(nullptr), at);
            case 'T': note(at, prefix + "T true"); return scalar(json(true), at);
            case 'F': note(at, prefix + "F false"); return scalar(json(false), at);
            case 'M':
                if (bj_) {
                    const std::uint64_t u = fixed(8);
                    note(at, prefix + "M " + std::to_string(u));
                    return scalar(json(u), at);
                }
                break;
            case 'd': return floating(float_from_bits(static_cast<std::uint32_t>(fixed(4))), at, prefix + "d float32");
            case 'D': return floating(double_from_bits(fixed(8)), at, prefix + "D float64");
            case 'h':
                if (bj_)
                    return floating(half_to_double(static_cast<std::uint16_t>(fixed(2))), at, prefix + "h float16");
                break;
            case 'C': {
                const std::uint8_t c = byte();
                if (c > 0x7f) fail(at, "a char 'C' must be ASCII");
                note(at, prefix + "C '" + printable(c) + "'");
                return scalar(json(std::string(1, static_cast<char>(c))), at);
            }
            case 'S': {
                const std::uint64_t len = length(pos_);
                std::string s = text(static_cast<std::size_t>(len), at);
                note(at, prefix + "S (" + std::to_string(len) + ") " + shown(s));
                return scalar(json(std::move(s)), at);
            }
            case 'H': {
                const std::uint64_t len = length(pos_);
                std::string s = text(static_cast<std::size_t>(len), at);
                json number;
                try {
                    parse_limits lim;
                    lim.allow_repeat = false;
                    number = parse_value(s, lim).value;
                } catch (const notation_error&) {}
                if (!number.is_number()) fail(at, "high-precision 'H' is not a JSON number: " + shown(s));
                note(at, prefix + "H (" + std::to_string(len) + ") " + s);
                return scalar(std::move(number), at);
            }
            default: break;
        }
        fail(at, "unknown marker '" + printable(m) + "'");
    }

    bool bj_;
};

// ---------------------------------------------------------------------------------------------
// BSON (bsonspec.org 1.1)

class bson_decoder : decoder_base {
public:
    using decoder_base::decoder_base;

    void run() {
        struct frame {
            bool array;
            std::size_t end;  // offset of the document's terminating NUL
        };
        std::vector<frame> stack;
        const std::size_t top_at = pos_;
        stack.push_back({false, document(n_, top_at, false)});
        open(true, top_at);
        enter();
        while (!stack.empty()) {
            frame& f = stack.back();
            if (pos_ == f.end) {
                ++pos_;
                note(f.end, "00 end of document");
                build_.close();
                stack.pop_back();
                leave();
                continue;
            }
            const std::size_t at = pos_;
            const std::size_t limit = f.end;  // f dangles once a nested document is pushed
            const std::uint8_t type = byte();
            const std::string key = cstring(limit);
            if (!f.array) build_.key(key);
            const std::string label = "\"" + key + "\": ";
            switch (type) {
                case 0x01: {
                    const double d = double_from_bits(le(8));
                    note(at, label + "double " + float_text(d));
                    scalar(json(d), at);
                    break;
                }
                case 0x02: {
                    const std::uint64_t len = le(4);
                    if (len < 1 || pos_ > limit || len > limit - pos_)
                        fail(at, "string length " + std::to_string(static_cast<std::int32_t>(len)) +
                                     " does not fit the document");
                    std::string s = text(static_cast<std::size_t>(len - 1), at);
                    if (byte() != 0) fail(pos_ - 1, "string not terminated by NUL");
                    note(at, label + "string (" + std::to_string(len - 1) + ") " + shown(s));
                    scalar(json(std::move(s)), at);
                    break;
                }
                case 0x03:
                case 0x04: {
                    const std::size_t end = document(limit, at, type == 0x04);
                    open(type == 0x03, at);
                    enter();
                    stack.push_back({type == 0x04, end});
                    break;
                }
                case 0x05: {
                    const std::uint64_t len = le(4);
                    if (pos_ > limit || len > limit - pos_) fail(at, "binary length does not fit the document");
                    const std::uint8_t sub = byte();
                    auto v = raw(static_cast<std::size_t>(len));
                    note(at, label + "binary (" + std::to_string(len) + ") subtype " + std::to_string(sub) + " " +
                                 hex_preview(v.data(), v.size()));
                    scalar(json::binary(std::move(v), sub), at);
                    break;
                }
                case 0x08: {
                    const std::uint8_t b = byte();
                    if (b > 1) fail(at, "boolean byte must be 0 or 1");
                    note(at, label + (b ? "true" : "false"));
                    scalar(json(b == 1), at);
                    break;
                }
                case 0x0a:
                    note(at, label + "null");
                    scalar(json(nullptr), at);
                    break;
                case 0x10: {
                    const auto v = static_cast<std::int32_t>(le(4));
                    note(at, label + "int32 " + std::to_string(v));
                    if (v >= 0)
                        scalar(json(static_cast<std::uint64_t>(v)), at);
                    else
                        scalar(json(static_cast<std::int64_t>(v)), at);
                    break;
                }
                case 0x12: {
                    const std::uint64_t u = le(8);
                    std::int64_t v;
                    std::memcpy(&v, &u, 8);
                    note(at, label + "int64 " + std::to_string(v));
                    if (v >= 0)
                        scalar(json(static_cast<std::uint64_t>(v)), at);
                    else
                        scalar(json(v), at);
                    break;
                }
                default: fail(at, "element type 0x" + to_hex_byte(type) + " has no JSON-model value");
            }
            if (pos_ > limit) fail(at, "element overruns its document");
        }
        finish();
    }

private:
    static std::string to_hex_byte(std::uint8_t b) {
        char buf[4];
        std::snprintf(buf, sizeof buf, "%02x", b);
        return buf;
    }

    /// Reads a document's size; returns the offset of its final NUL.
    std::size_t document(std::size_t limit, std::size_t at, bool array) {
        const std::size_t start = pos_;
        const std::uint64_t size = le(4);
        if (size < 5 || start > limit || size > limit - start) {
            fail(start, "document size " + std::to_string(static_cast<std::int32_t>(size)) + " does not fit the " +
                            std::to_string(limit - start) + " bytes available");
        }
        const std::size_t end = start + static_cast<std::size_t>(size) - 1;
        if (p_[end] != 0) fail(end, "a document must end with 00");
        note(at, std::string(array ? "array document (" : "document (") + std::to_string(size) + " bytes)");
        return end;
    }

    std::string cstring(std::size_t limit) {
        const std::size_t at = pos_;
        while (pos_ < limit && p_[pos_] != 0) ++pos_;
        if (pos_ >= limit) fail(at, "element name not terminated inside the document");
        std::string s(reinterpret_cast<const char*>(p_ + at), pos_ - at);
        ++pos_;
        if (detail::utf8_invalid_at(s.data(), s.size()) != detail::utf8_valid)
            fail(at, "element name is not valid UTF-8");
        return s;
    }
};

// ---------------------------------------------------------------------------------------------
// BON8 (formats.md §7): annotation only; the value comes from sinkcheck's BON8 decoder.

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
                    note(pos_++, "fe end");
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
                    note(at, "key " + shown(k));
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
                enter();
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

bool oracle_reads(format f) {
    return f == format::cbor || f == format::msgpack || f == format::ubjson || f == format::bjdata || f == format::bson;
}

}  // namespace

decoded decode_annotated(format f, const std::uint8_t* data, std::size_t size, const decode_limits& limits) {
    decoded out;
    decode_limits lim = limits;
    if (f == format::bon8) lim.build_value = false;
    try {
        switch (f) {
            case format::cbor: cbor_decoder(data, size, lim, out).run(); break;
            case format::msgpack: msgpack_decoder(data, size, lim, out).run(); break;
            case format::ubjson: ubjson_decoder(data, size, lim, out, false).run(); break;
            case format::bjdata: ubjson_decoder(data, size, lim, out, true).run(); break;
            case format::bson: bson_decoder(data, size, lim, out).run(); break;
            case format::bon8: bon8_annotator(data, size, lim, out).run(); break;
        }
        out.ok = true;
    } catch (const failure& e) {
        out.ok = false;
        out.error = e.message;
        out.error_offset = e.offset;
    }
    if (out.ok && f == format::bon8 && limits.build_value) {
        try {
            out.value = decode_bon8<json>(data, size);
        } catch (const std::exception& e) {
            out.ok = false;
            out.error = e.what();
        }
    }
    return out;
}

decoded_value decode_value(format f, const std::vector<std::uint8_t>& bytes) {
    decoded_value r;
    decode_limits lim;
    lim.max_lines = 0;
    decoded mine = decode_annotated(f, bytes, lim);
    if (!mine.ok) {
        r.how = "not decodable: byte " + std::to_string(mine.error_offset) + ": " + mine.error;
        return r;
    }
    if (f == format::bon8) {
        r.ok = true;
        r.value = std::move(mine.value);
        r.how = "sinkcheck's BON8 decoder";
        return r;
    }
    if (!mine.oracle_misreads.empty()) {
        r.how = "sinkcheck's decoder (the bytes hold " + mine.oracle_misreads + ")";
    } else if (oracle_reads(f) && mine.max_depth <= oracle_max_depth) {
        try {
            r.value = oracle_decode<json>(f, bytes);
            r.ok = true;
            r.how = "nlohmann 3.11.2";
            return r;
        } catch (const std::exception& e) {
            r.how = std::string("sinkcheck's decoder (nlohmann 3.11.2 cannot read it: ") + e.what() + ")";
        }
    } else {
        r.how = "sinkcheck's decoder (too deep for nlohmann 3.11.2's recursive reader)";
    }
    r.ok = true;
    r.value = std::move(mine.value);
    return r;
}

bool same_value(const json& a, const json& b) {
    std::vector<std::pair<const json*, const json*>> todo{{&a, &b}};
    while (!todo.empty()) {
        const json& x = *todo.back().first;
        const json& y = *todo.back().second;
        todo.pop_back();
        const bool xi = x.is_number_integer();
        const bool yi = y.is_number_integer();
        if (xi || yi) {
            if (!(xi && yi)) return false;
            // is_number_integer covers both signednesses; compare by value.
            if (x.is_number_unsigned() && y.is_number_unsigned()) {
                if (x.get<std::uint64_t>() != y.get<std::uint64_t>()) return false;
            } else if (x.is_number_unsigned() || y.is_number_unsigned()) {
                const json& u = x.is_number_unsigned() ? x : y;
                const json& s = x.is_number_unsigned() ? y : x;
                if (s.get<std::int64_t>() < 0 ||
                    static_cast<std::uint64_t>(s.get<std::int64_t>()) != u.get<std::uint64_t>())
                    return false;
            } else if (x.get<std::int64_t>() != y.get<std::int64_t>()) {
                return false;
            }
            continue;
        }
        if (x.type() != y.type()) return false;
        switch (x.type()) {
            case json::value_t::number_float: {
                const double dx = x.get<double>();
                const double dy = y.get<double>();
                if (std::isnan(dx) && std::isnan(dy)) break;
                std::uint64_t bx, by;
                std::memcpy(&bx, &dx, 8);
                std::memcpy(&by, &dy, 8);
                if (bx != by) return false;
                break;
            }
            case json::value_t::array:
                if (x.size() != y.size()) return false;
                for (std::size_t i = 0; i < x.size(); ++i) todo.emplace_back(&x[i], &y[i]);
                break;
            case json::value_t::object: {
                if (x.size() != y.size()) return false;
                for (auto it = x.begin(); it != x.end(); ++it) {
                    auto jt = y.find(it.key());
                    if (jt == y.end()) return false;
                    todo.emplace_back(&it.value(), &*jt);
                }
                break;
            }
            case json::value_t::binary: {
                const auto& bx = x.get_binary();
                const auto& by = y.get_binary();
                if (bx.has_subtype() != by.has_subtype() || (bx.has_subtype() && bx.subtype() != by.subtype()))
                    return false;
                if (static_cast<const std::vector<std::uint8_t>&>(bx) !=
                    static_cast<const std::vector<std::uint8_t>&>(by))
                    return false;
                break;
            }
            default:
                if (x != y) return false;
        }
    }
    return true;
}

}  // namespace sinkcheck::conform
