// decoder_base.hpp — what the runner's per-format decoders (decode_<format>.cpp) share: the
// bounds-checked cursor with its annotations, the value builder, the float conversions, and the
// entry point of each decoder, which decode.cpp dispatches to. Private to the runner.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/conform/decode.hpp"
#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/testkit/hex.hpp"

namespace sinkcheck::conform::decoding {

using json = nlohmann::json;

inline constexpr std::uint64_t unknown_count = std::numeric_limits<std::uint64_t>::max();
/// Typed UBJSON containers of marker-only elements ([$Z#...) take no bytes per element; this
/// caps how many a decoder will believe.
inline constexpr std::uint64_t max_empty_elements = 1u << 24;

struct failure {
    std::size_t offset;
    std::string message;
};

inline std::string shown(const std::string& s) {
    std::string r = render_value(json(s), 60);
    return r;
}

inline std::string hex_preview(const std::uint8_t* p, std::size_t n) {
    return "h'" + testkit::to_hex(p, std::min<std::size_t>(n, 24)) + (n > 24 ? "...'" : "'");
}

inline std::string float_text(double d) { return render_value(json(d)); }

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
    /// The first item of a value (a member of the innermost open container, if any).
    void note(std::size_t at, std::string t) {
        annotation a = item(at, std::move(t), item_role::head);
        if (!open_.empty()) {
            open_container& c = open_.back();
            a.owner = c.head;
            a.member = c.members++;
            if (c.object) a.key = c.key;
        }
        last_head_ = keep(std::move(a));
    }
    /// An object member's key; the member's head comes next. BSON names its members in the
    /// head's own item: member_key only.
    void note_key(std::size_t at, std::string t, const std::string& k) {
        member_key(k);
        annotation a = item(at, std::move(t), item_role::key);
        if (!open_.empty()) {
            a.owner = open_.back().head;
            a.member = open_.back().members;
        }
        a.key = k;
        keep(std::move(a));
    }
    void member_key(const std::string& k) {
        if (!open_.empty()) open_.back().key = k;
    }
    /// A further item of the value just headed (a CBOR tag's content).
    void note_part(std::size_t at, std::string t) {
        annotation a = item(at, std::move(t), item_role::part);
        a.owner = last_head_;
        keep(std::move(a));
    }
    /// The end marker of the innermost open container.
    void note_end(std::size_t at, std::string t) {
        annotation a = item(at, std::move(t), item_role::part);
        if (!open_.empty()) a.owner = open_.back().head;
        keep(std::move(a));
    }
    void note_filler(std::size_t at, std::string t) {
        annotation a = item(at, std::move(t), item_role::filler);
        if (!open_.empty()) a.owner = open_.back().head;
        keep(std::move(a));
    }
    /// Opens the container whose head was noted last: its members are counted, or (object)
    /// named, from here until leave().
    void enter(bool object) {
        if (last_head_ != no_line) out_.lines[last_head_].object = object;
        open_.push_back({last_head_, 0, object, {}});
        ++depth_;
        if (depth_ > out_.max_depth) out_.max_depth = depth_;
        if (depth_ > limits_.max_depth) fail(pos_, "nesting deeper than " + std::to_string(limits_.max_depth));
    }
    void leave() {
        --depth_;
        open_.pop_back();
    }
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

private:
    struct open_container {
        std::size_t head;  // its line, or no_line past max_lines
        std::size_t members;
        bool object;
        std::string key;  // of the member being read
    };
    annotation item(std::size_t at, std::string t, item_role role) const {
        annotation a;
        a.offset = at;
        a.length = pos_ - at;
        a.depth = depth_;
        a.text = std::move(t);
        a.role = role;
        return a;
    }
    /// Its line, or no_line once max_lines are kept.
    std::size_t keep(annotation&& a) {
        if (out_.lines.size() >= limits_.max_lines) return no_line;
        out_.lines.push_back(std::move(a));
        return out_.lines.size() - 1;
    }
    std::vector<open_container> open_;
    std::size_t last_head_ = no_line;
};

// ---------------------------------------------------------------------------------------------
// Floats from their IEEE 754 bits: binary16 (CBOR, BJData), binary32 and binary64

inline double half_to_double(std::uint16_t h) {
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

inline double float_from_bits(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return static_cast<double>(f);
}
inline double double_from_bits(std::uint64_t b) {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
}

// ---------------------------------------------------------------------------------------------
// The decoders, one per source: each reads one complete value from [p, p+n) into out, and
// throws failure at the first byte it cannot accept.

void decode_annotated_cbor(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out);
/// CBOR's one number space (RFC 8949 §3.4.3): tag 2 and 3 bignums (binary subtypes 2 and 3, as
/// both decoders keep them) and major types 0 and 1 are one kind of number, so every integer is
/// given one form. An integer that fits int64 or uint64 becomes that integer kind, whatever
/// encoding it came in; any other keeps its bignum subtype with the magnitude (n for tag 2,
/// -1-n for tag 3) stripped of leading zeros. Walks the value without recursion.
void to_cbor_number_space(json& value);
void decode_annotated_msgpack(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out);
/// UBJSON (Draft 12, big-endian) or, with bjdata, BJData (Draft 2, little-endian).
void decode_annotated_ubjson(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out,
                             bool bjdata);
void decode_annotated_bson(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out);
/// Annotation only: the value comes from sinkcheck's BON8 decoder (decode.cpp).
void decode_annotated_bon8(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out);

}  // namespace sinkcheck::conform::decoding
