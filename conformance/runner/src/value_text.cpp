// The value notation parser and renderer (grammar: corpus/conformance/README.md, "Values").
#include "sinkcheck/conform/value_text.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "sinkcheck/detail/hex.hpp"
#include "sinkcheck/detail/utf8.hpp"

namespace sinkcheck::conform {
int hex_digit(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

namespace {

using json = nlohmann::json;

/// The text without the white space between its tokens (strings keep theirs): the wire text
/// of a value written without repetitions.
std::string without_space(std::string_view s) {
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    if (std::none_of(s.begin(), s.end(), space)) return std::string(s);
    std::string out;
    out.reserve(s.size());
    bool in_string = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (in_string) {
            out += c;
            if (c == '\\' && i + 1 < s.size()) {
                out += s[++i];
            } else if (c == '"') {
                in_string = false;
            }
        } else if (!space(c)) {
            in_string = c == '"';
            out += c;
        }
    }
    return out;
}

using sinkcheck::detail::append_utf8;

class parser {
public:
    /// expand false: a syntax check only; repetitions are counted and bounded, not expanded.
    parser(std::string_view text, const parse_limits& limits, bool expand)
        : s_(text), limits_(limits), expand_(expand) {}

    parsed_value run() {
        const std::size_t bad = detail::utf8_invalid_at(s_.data(), s_.size());
        if (bad != detail::utf8_valid) {
            throw notation_error("the text is not valid UTF-8 (write raw bytes as \\xHH)", bad);
        }
        bool need_value = true;
        for (;;) {
            if (need_value) {
                skip_ws();
                const char c = peek();
                if (c == '[' || c == '{') {
                    open_container(c);
                    skip_ws();
                    if (peek() == (c == '[' ? ']' : '}')) {
                        need_value = false;
                    } else if (c == '{') {
                        parse_key(stack_.back());
                    }
                    continue;
                }
                place(scalar());
                need_value = false;
                continue;
            }
            skip_ws();
            if (stack_.empty()) {
                if (i_ != s_.size()) {
                    fail("unexpected text after the value");
                }
                if (!limits_.allow_repeat && limits_.want_wire) out_.wire = without_space(s_);
                return std::move(out_);
            }
            frame& top = stack_.back();
            const char close = top.object ? '}' : ']';
            if (peek() == ',') {
                ++i_;
                emit(',');
                if (top.object) {
                    parse_key(top);
                }
                need_value = true;
            } else if (peek() == close) {
                ++i_;
                emit(close);
                close_container(top);
                stack_.pop_back();
            } else {
                fail(std::string("expected ',' or '") + close + "'");
            }
        }
    }

private:
    struct frame {
        json* node;
        bool object;
        std::string key;             // member being parsed (objects)
        std::string key_raw;         // that key as written, without quotes
        std::size_t wire_body = 0;   // wire offset after the opening bracket
        std::size_t wire_value = 0;  // wire offset of the current member's value
    };

    /// Appends to the wire text, which is built as the parser goes only when repetitions may
    /// change it; without them it is the text less its white space (run() makes it at the end).
    template <class T>
    void emit(const T& token) {
        if (limits_.allow_repeat) out_.wire += token;
    }

    [[noreturn]] void fail(const std::string& message) const { throw notation_error(message, i_); }
    [[noreturn]] void fail_at(const std::string& message, std::size_t at) const { throw notation_error(message, at); }

    char peek() const noexcept { return i_ < s_.size() ? s_[i_] : '\0'; }

    void skip_ws() noexcept {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) {
            ++i_;
        }
    }

    bool take(std::string_view word) noexcept {
        if (s_.substr(i_, word.size()) == word) {
            i_ += word.size();
            return true;
        }
        return false;
    }

    void grow_check(std::size_t extra) const {
        if (out_.wire.size() + extra > limits_.max_wire_bytes) {
            fail("the value expands beyond " + std::to_string(limits_.max_wire_bytes) + " bytes");
        }
    }

    json* place(json&& v) {
        if (stack_.empty()) {
            out_.value = std::move(v);
            return &out_.value;
        }
        frame& top = stack_.back();
        if (!top.object) {
            auto& a = top.node->get_ref<json::array_t&>();
            a.push_back(std::move(v));
            return &a.back();
        }
        auto& o = top.node->get_ref<json::object_t&>();
        return &o.emplace(top.key, std::move(v)).first->second;
    }

    void open_container(char c) {
        ++i_;
        emit(c);
        json* node = place(c == '[' ? json::array() : json::object());
        frame f{node, c == '{', {}, {}, out_.wire.size(), 0};
        stack_.push_back(std::move(f));
    }

    void parse_key(frame& f) {
        skip_ws();
        if (peek() != '"') {
            fail("expected a string as object key");
        }
        const std::size_t at = i_;
        const std::size_t raw_begin = i_ + 1;
        f.key = string_body();
        const std::string_view key_raw = s_.substr(raw_begin, i_ - 1 - raw_begin);
        if (limits_.allow_repeat) f.key_raw = std::string(key_raw);  // for '{...}*N'
        if (f.node->contains(f.key)) {
            fail_at("duplicate object key", at);
        }
        emit('"');
        emit(key_raw);
        emit('"');
        skip_ws();
        if (peek() != ':') {
            fail("expected ':' after the object key");
        }
        ++i_;
        emit(':');
        f.wire_value = out_.wire.size();
    }

    /// `*N` after a value, if present (corpus notation only).
    bool repeat_suffix(std::uint64_t& n) {
        skip_ws();
        if (peek() != '*') {
            return false;
        }
        if (!limits_.allow_repeat) {
            fail("repetition '*N' is corpus notation, not allowed here");
        }
        ++i_;
        skip_ws();
        n = unsigned_literal("a repetition count");
        if (n > std::numeric_limits<std::uint32_t>::max()) {
            fail("repetition count too large");
        }
        return true;
    }

    /// Values in v, v itself included (a repeated unit is copied whole, nested repetitions and
    /// all), without recursion.
    static std::uint64_t nodes_in(const json& v) {
        std::uint64_t n = 0;
        std::vector<const json*> todo = {&v};
        while (!todo.empty()) {
            const json* x = todo.back();
            todo.pop_back();
            ++n;
            if (x->is_array() || x->is_object()) {
                for (const json& e : *x) todo.push_back(&e);
            }
        }
        return n;
    }

    /// Counts what a repetition creates against max_repeated_elements; false in a syntax-only
    /// pass, where nothing is expanded.
    bool may_expand(std::uint64_t units, std::uint64_t n) {
        const std::uint64_t created = std::max<std::uint64_t>(units, 1) * n;
        if (created > limits_.max_repeated_elements || repeated_ + created > limits_.max_repeated_elements) {
            fail("repetitions create more than " + std::to_string(limits_.max_repeated_elements) + " elements");
        }
        repeated_ += created;
        return expand_;
    }

    std::uint64_t unsigned_literal(const char* what) {
        const std::size_t at = i_;
        std::uint64_t n = 0;
        while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
            const auto d = static_cast<std::uint64_t>(s_[i_] - '0');
            if (n > (std::numeric_limits<std::uint64_t>::max() - d) / 10) {
                fail_at(std::string(what) + " does not fit 64 bits", at);
            }
            n = n * 10 + d;
            ++i_;
        }
        if (i_ == at) {
            fail(std::string("expected ") + what);
        }
        return n;
    }

    void close_container(frame& f) {
        std::uint64_t n = 0;
        if (!repeat_suffix(n)) {
            return;
        }
        // Everything between the brackets, as already written to the wire.
        const std::size_t end = out_.wire.size() - 1;
        if (!f.object) {
            const std::string body = out_.wire.substr(f.wire_body, end - f.wire_body);
            grow_check(body.size() * n);
            auto& a = f.node->get_ref<json::array_t&>();
            if (!may_expand(nodes_in(*f.node) - 1, n)) return;
            const json::array_t unit = a;
            a.clear();
            out_.wire.resize(f.wire_body);
            for (std::uint64_t k = 0; k < n; ++k) {
                a.insert(a.end(), unit.begin(), unit.end());
                if (!body.empty()) {
                    if (k != 0) {
                        out_.wire += ',';
                    }
                    out_.wire += body;
                }
            }
            out_.wire += ']';
            return;
        }
        auto& o = f.node->get_ref<json::object_t&>();
        if (o.size() != 1) {
            fail("'{...}*N' needs exactly one member: its key gets the index as a suffix");
        }
        const json unit = o.begin()->second;
        const std::string value_text = out_.wire.substr(f.wire_value, end - f.wire_value);
        grow_check((value_text.size() + f.key_raw.size() + 16) * n);
        if (!may_expand(nodes_in(unit), n)) return;
        std::size_t width = 1;
        for (std::uint64_t last = n > 0 ? n - 1 : 0; last >= 10; last /= 10) {
            ++width;
        }
        o.clear();
        out_.wire.resize(f.wire_body);
        char digits[32];
        for (std::uint64_t k = 0; k < n; ++k) {
            std::snprintf(digits, sizeof digits, "%0*llu", static_cast<int>(width), static_cast<unsigned long long>(k));
            o.emplace_hint(o.end(), f.key + digits, unit);  // keys come in ascending order
            if (k != 0) {
                out_.wire += ',';
            }
            out_.wire += '"';
            out_.wire += f.key_raw;
            out_.wire += digits;
            out_.wire += "\":";
            out_.wire += value_text;
        }
        out_.wire += '}';
    }

    json scalar() {
        const std::size_t at = i_;
        const char c = peek();
        if (c == '"') {
            std::string s = string_body();
            const std::string_view raw = s_.substr(at + 1, i_ - at - 2);
            std::uint64_t n = 1;
            if (repeat_suffix(n) && (grow_check(raw.size() * n), may_expand(1, n))) {
                std::string expanded;
                expanded.reserve(s.size() * n);
                emit('"');
                for (std::uint64_t k = 0; k < n; ++k) {
                    expanded += s;
                    emit(raw);
                }
                emit('"');
                return json(std::move(expanded));
            }
            emit('"');
            emit(raw);
            emit('"');
            return json(std::move(s));
        }
        if (c == 'h' && s_.substr(i_, 2) == "h'") {
            return binary();
        }
        if (c == 'f' && s_.substr(i_, 4) == "f64'") {
            return float_bits();
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            if (take("-NaN")) {
                return special("-NaN", -std::numeric_limits<double>::quiet_NaN());
            }
            if (take("-Infinity")) {
                return special("-Infinity", -std::numeric_limits<double>::infinity());
            }
            return number();
        }
        if (take("null")) {
            emit("null");
            return json(nullptr);
        }
        if (take("true")) {
            emit("true");
            return json(true);
        }
        if (take("false")) {
            emit("false");
            return json(false);
        }
        if (take("NaN")) {
            return special("NaN", std::numeric_limits<double>::quiet_NaN());
        }
        if (take("Infinity")) {
            return special("Infinity", std::numeric_limits<double>::infinity());
        }
        if (take("discarded")) {
            out_.plain_json = false;
            emit("discarded");
            return json(json::value_t::discarded);
        }
        if (c == '\0') {
            fail("expected a value, found the end of the text");
        }
        fail("expected a value");
    }

    json special(const char* spelling, double v) {
        out_.plain_json = false;
        emit(spelling);
        return json(v);
    }

    json number() {
        const std::size_t at = i_;
        bool negative = false;
        if (peek() == '-') {
            negative = true;
            ++i_;
        }
        if (peek() == '0') {
            ++i_;
        } else if (peek() >= '1' && peek() <= '9') {
            while (peek() >= '0' && peek() <= '9') ++i_;
        } else {
            fail("expected a digit");
        }
        bool is_float = false;
        if (peek() == '.') {
            is_float = true;
            ++i_;
            if (!(peek() >= '0' && peek() <= '9')) fail("expected a digit after '.'");
            while (peek() >= '0' && peek() <= '9') ++i_;
        }
        if (peek() == 'e' || peek() == 'E') {
            is_float = true;
            ++i_;
            if (peek() == '+' || peek() == '-') ++i_;
            if (!(peek() >= '0' && peek() <= '9')) fail("expected a digit in the exponent");
            while (peek() >= '0' && peek() <= '9') ++i_;
        }
        const std::string_view literal = s_.substr(at, i_ - at);
        emit(literal);
        const char* const first = literal.data();
        const char* const last = first + literal.size();
        if (!is_float) {
            // nlohmann's model: non-negative -> number_unsigned, negative -> number_integer,
            // beyond 64 bits -> the nearest double (corpus README, "Integers beyond 64 bits").
            if (negative) {
                std::int64_t v = 0;
                if (std::from_chars(first, last, v).ec == std::errc()) return json(v);
            } else {
                std::uint64_t v = 0;
                if (std::from_chars(first, last, v).ec == std::errc()) return json(v);
            }
        }
        // Correctly rounded, as strtod; strtod also decides what from_chars leaves out of
        // range (overflow to infinity, underflow to a denormal or zero).
        double d = 0;
        if (std::from_chars(first, last, d).ec == std::errc()) return json(d);
        return json(std::strtod(std::string(literal).c_str(), nullptr));
    }

    json float_bits() {
        const std::size_t at = i_;
        i_ += 4;
        std::uint64_t bits = 0;
        for (int k = 0; k < 16; ++k) {
            const int d = hex_digit(peek());
            if (d < 0) fail("f64'...' needs exactly 16 hex digits");
            bits = (bits << 4) | static_cast<std::uint64_t>(d);
            ++i_;
        }
        if (peek() != '\'') fail("f64'...' needs exactly 16 hex digits");
        ++i_;
        double v;
        std::memcpy(&v, &bits, sizeof v);
        out_.plain_json = false;
        emit(s_.substr(at, i_ - at));
        return json(v);
    }

    json binary() {
        i_ += 2;
        const std::size_t digits_at = i_;
        std::vector<std::uint8_t> bytes;
        // room for the digits up to the next quote (a bound when the text is malformed)
        if (const std::size_t quote = s_.find('\'', i_); quote != std::string_view::npos) {
            bytes.reserve((quote - i_) / 2);
        }
        int high = -1;
        while (peek() != '\'') {
            const int d = hex_digit(peek());
            if (d < 0) fail(peek() == '\0' ? "unterminated h'...'" : "not a hex digit in h'...'");
            if (high < 0) {
                high = d;
            } else {
                bytes.push_back(static_cast<std::uint8_t>(high * 16 + d));
                high = -1;
            }
            ++i_;
        }
        if (high >= 0) fail("odd number of hex digits in h'...'");
        const std::string digits(s_.substr(digits_at, i_ - digits_at));
        ++i_;
        out_.plain_json = false;
        std::uint64_t n = 1;
        if (repeat_suffix(n) && (grow_check(digits.size() * n), !may_expand(1, n))) n = 1;
        if (n != 1) {
            const std::vector<std::uint8_t> unit = bytes;
            bytes.clear();
            for (std::uint64_t k = 0; k < n; ++k) {
                bytes.insert(bytes.end(), unit.begin(), unit.end());
            }
        }
        emit("h'");
        for (std::uint64_t k = 0; k < n; ++k) {
            emit(digits);
        }
        emit('\'');
        if (peek() == '#') {
            ++i_;
            const std::size_t sub_at = i_;
            const std::uint64_t subtype = unsigned_literal("a subtype after '#'");
            emit('#');
            emit(s_.substr(sub_at, i_ - sub_at));
            return json::binary(std::move(bytes), subtype);
        }
        return json::binary(std::move(bytes));
    }

    /// Reads a string token starting at the opening quote; returns its bytes.
    std::string string_body() {
        ++i_;
        std::string out;
        for (;;) {
            if (i_ >= s_.size()) fail("unterminated string");
            const char c = s_[i_];
            if (c == '"') {
                ++i_;
                return out;
            }
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string must be escaped");
            if (c != '\\') {
                // a run of plain bytes in one append: most strings have no escape at all
                std::size_t end = i_ + 1;
                while (end < s_.size() && s_[end] != '"' && s_[end] != '\\' &&
                       static_cast<unsigned char>(s_[end]) >= 0x20) {
                    ++end;
                }
                out.append(s_.data() + i_, end - i_);
                i_ = end;
                continue;
            }
            ++i_;
            const char e = peek();
            ++i_;
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'x': {
                    const int h = hex_digit(peek());
                    const int l = h < 0 ? -1 : hex_digit(i_ + 1 < s_.size() ? s_[i_ + 1] : '\0');
                    if (l < 0) fail("\\x needs two hex digits");
                    out += static_cast<char>(h * 16 + l);
                    i_ += 2;
                    out_.plain_json = false;
                    break;
                }
                case 'u': {
                    std::uint32_t cp = unicode_escape();
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        if (!take("\\u")) fail("high surrogate without a low surrogate (write the bytes with \\x)");
                        const std::uint32_t lo = unicode_escape();
                        if (lo < 0xDC00 || lo > 0xDFFF)
                            fail("high surrogate without a low surrogate (write the bytes with \\x)");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        fail("lone low surrogate (write the bytes with \\x)");
                    }
                    append_utf8(out, cp);
                    break;
                }
                default: fail_at("unknown escape in a string", i_ - 2);
            }
        }
    }

    std::uint32_t unicode_escape() {
        std::uint32_t cp = 0;
        for (int k = 0; k < 4; ++k) {
            const int d = hex_digit(peek());
            if (d < 0) fail("\\u needs four hex digits");
            cp = (cp << 4) | static_cast<std::uint32_t>(d);
            ++i_;
        }
        return cp;
    }

    std::string_view s_;
    parse_limits limits_;
    bool expand_;
    std::uint64_t repeated_ = 0;  // elements created by repetitions so far
    std::size_t i_ = 0;
    parsed_value out_;
    std::vector<frame> stack_;
};

/// Whether the decimal text [first, last) reads as v: correctly rounded, as strtod (which
/// decides what from_chars leaves out of range).
bool reads_back(const char* first, const char* last, double v) {
    double back = 0;
    if (std::from_chars(first, last, back).ec == std::errc()) return back == v;
    return std::strtod(std::string(first, last).c_str(), nullptr) == v;
}

void render_float(std::string& out, double v) {
    if (std::isnan(v)) {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        if (bits == 0x7ff8000000000000ULL) {
            out += "NaN";
        } else if (bits == 0xfff8000000000000ULL) {
            out += "-NaN";
        } else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "f64'%016llx'", static_cast<unsigned long long>(bits));
            out += buf;
        }
        return;
    }
    if (std::isinf(v)) {
        out += v > 0 ? "Infinity" : "-Infinity";
        return;
    }
    // The fewest significant digits that read back to v, in printf's %g form. No %.Pg with P
    // below the digit count of the shortest round-trip form (to_chars) reads back, so the search
    // starts there; it nearly always ends there too.
    char buf[40];
    const auto shortest = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    int digits = 0;
    for (const char* p = buf; p != shortest.ptr && *p != 'e'; ++p) digits += (*p >= '0' && *p <= '9') ? 1 : 0;
    const char* end = buf;
    for (int precision = std::max(digits, 1); precision <= 17; ++precision) {
        end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, precision).ptr;
        if (reads_back(buf, end, v)) break;
    }
    const std::string_view s(buf, static_cast<std::size_t>(end - buf));
    out += s;
    if (s.find_first_of(".e") == std::string_view::npos) out += ".0";
}

void render_string(std::string& out, const std::string& s) {
    out += '"';
    // Valid UTF-8 (nearly every string) has no byte to escape at or above 0x80, so whole runs
    // without a quote, backslash or control character are copied at once.
    const bool valid = detail::utf8_invalid_at(s.data(), s.size()) == detail::utf8_valid;
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (valid && b >= 0x20 && b != '"' && b != '\\' && b != 0x7f) {
            std::size_t end = i + 1;
            while (end < s.size()) {
                const auto c = static_cast<unsigned char>(s[end]);
                if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f) break;
                ++end;
            }
            out.append(s, i, end - i);
            i = end;
            continue;
        }
        if (b >= 0x80) {
            // Copy a valid multi-byte sequence as is; escape the first byte of an invalid one.
            const std::size_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
            if (i + len > s.size() || detail::utf8_invalid_at(s.data() + i, len) != detail::utf8_valid) {
                out += "\\x";
                detail::append_hex(out, b);
                ++i;
            } else {
                out.append(s, i, len);
                i += len;
            }
            continue;
        }
        switch (b) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (b < 0x20 || b == 0x7f) {
                    out += "\\u00";
                    detail::append_hex(out, b);
                } else {
                    out += static_cast<char>(b);
                }
        }
        ++i;
    }
    out += '"';
}

template <class Integer>
void append_number(std::string& out, Integer n) {
    char buf[24];
    out.append(buf, static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, n).ptr - buf));
}

void render_scalar(std::string& out, const json& j) {
    switch (j.type()) {
        case json::value_t::null: out += "null"; break;
        case json::value_t::boolean: out += j.get<bool>() ? "true" : "false"; break;
        case json::value_t::number_unsigned: append_number(out, j.get<std::uint64_t>()); break;
        case json::value_t::number_integer: append_number(out, j.get<std::int64_t>()); break;
        case json::value_t::number_float: render_float(out, j.get<double>()); break;
        case json::value_t::string: render_string(out, j.get_ref<const std::string&>()); break;
        case json::value_t::binary: {
            const auto& b = j.get_binary();
            out += "h'";
            std::size_t at = out.size();
            out.resize(at + 2 * b.size());
            for (std::uint8_t x : b) {
                out[at++] = detail::hex_digit(x >> 4U);
                out[at++] = detail::hex_digit(x);
            }
            out += '\'';
            if (b.has_subtype()) {
                out += '#';
                append_number(out, b.subtype());
            }
            break;
        }
        case json::value_t::discarded: out += "discarded"; break;
        default: out += "?"; break;
    }
}

}  // namespace

parsed_value parse_value(std::string_view text, const parse_limits& limits) {
    // The syntax first: an error after `[""]*1000000` must not wait for a million copies.
    // Without repetitions nothing is expanded, so one pass finds the same first error.
    if (limits.allow_repeat) parser(text, limits, false).run();
    return parser(text, limits, true).run();
}

parsed_value rendered_value(nlohmann::json value) {
    parsed_value out;
    out.wire = render_value(value);
    // The parser's view of every node: integers by sign, and whether the text used an
    // extension token (NaN, Infinity, f64'', h'', discarded) or a \x escape.
    const auto text_plain = [](const std::string& s) {
        return detail::utf8_invalid_at(s.data(), s.size()) == detail::utf8_valid;
    };
    std::vector<json*> todo = {&out.value};
    out.value = std::move(value);
    while (!todo.empty()) {
        json& j = *todo.back();
        todo.pop_back();
        switch (j.type()) {
            case json::value_t::array:
                for (json& e : j.get_ref<json::array_t&>()) todo.push_back(&e);
                break;
            case json::value_t::object:
                for (auto& [key, member] : j.get_ref<json::object_t&>()) {
                    if (!text_plain(key)) out.plain_json = false;
                    todo.push_back(&member);
                }
                break;
            case json::value_t::number_integer:
                if (j.get<std::int64_t>() >= 0) j = static_cast<std::uint64_t>(j.get<std::int64_t>());
                break;
            case json::value_t::number_float:
                if (!std::isfinite(j.get<double>())) out.plain_json = false;
                break;
            case json::value_t::string:
                if (!text_plain(j.get_ref<const std::string&>())) out.plain_json = false;
                break;
            case json::value_t::binary:
            case json::value_t::discarded: out.plain_json = false; break;
            default: break;
        }
    }
    return out;
}

std::string render_value(const nlohmann::json& value, std::size_t max_bytes) {
    struct level {
        const json* node;
        json::const_iterator it;
        bool first;
    };
    std::string out;
    std::vector<level> stack;
    const json* next = &value;
    for (;;) {
        if (max_bytes != 0 && out.size() > max_bytes) {
            out.resize(max_bytes);
            out += "...";
            return out;
        }
        if (next != nullptr) {
            if (next->is_array() || next->is_object()) {
                out += next->is_array() ? '[' : '{';
                stack.push_back({next, next->cbegin(), true});
            } else {
                render_scalar(out, *next);
            }
            next = nullptr;
            continue;
        }
        if (stack.empty()) {
            return out;
        }
        level& top = stack.back();
        if (top.it == top.node->cend()) {
            out += top.node->is_array() ? ']' : '}';
            stack.pop_back();
            continue;
        }
        if (!top.first) {
            out += ',';
        }
        top.first = false;
        if (top.node->is_object()) {
            render_string(out, top.it.key());
            out += ':';
        }
        next = &*top.it;
        ++top.it;
    }
}

}  // namespace sinkcheck::conform
