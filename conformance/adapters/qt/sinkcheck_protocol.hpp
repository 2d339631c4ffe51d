// The encoder side of the sinkcheck conformance protocol for encoders written in C++ without
// sinkcheck's own headers (docs/conformance.md, "The protocol"), the counterpart of
// ../go/protocol.go: standard C++17 only, so that an adapter over another library (Qt here)
// builds with nothing but that library.
//
// Values arrive in the JSON notation (--notation json or json-decimal; docs/cli.md, "Values JSON
// text cannot hold"). The JSON text is read into a flat arena (a node's children are indices),
// so neither reading nor destroying a value nested 100,000 deep recurses, and read_value()
// applies the notation to one node at a time: an adapter walks the value with a stack of its
// own. A notation object the helper cannot read is an error of the protocol, never
// "unsupported": the process stops with the reason (exit 70), and the runner grades a crash.
#ifndef SINKCHECK_ADAPTERS_QT_SINKCHECK_PROTOCOL_HPP
#define SINKCHECK_ADAPTERS_QT_SINKCHECK_PROTOCOL_HPP

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sinkcheck_protocol {

// Per-vector exit statuses (docs/conformance.md, "Per-vector mode").
constexpr int exit_refused = 65;
constexpr int exit_unsupported = 77;
constexpr int exit_software = 70;

// Thrown by an adapter: the value cannot be asked of its library (batch status 2, exit 77).
struct unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// Thrown by an adapter: its library rejected the value (batch status 1, exit 65).
struct refused : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// The input is not the notation the protocol promises: a fault of the runner or the helper.
struct notation_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct json_node {
    enum class kind : std::uint8_t { null, boolean, number, string, array, object };
    kind type = kind::null;
    bool truth = false;
    std::string text;                   // number: as written; string: its bytes, escapes resolved
    std::vector<std::size_t> children;  // array elements, object members' values
    std::vector<std::string> keys;      // object keys in the order written
};

// One JSON text; the root is nodes[0].
using json_text = std::vector<json_node>;

namespace detail {

inline void append_utf8(std::string& out, std::uint32_t cp) {
    // A lone surrogate escape (\ud800) is kept as its three-byte form (ED A0 80), the bytes the
    // notation itself would carry in {"$string": hex}, so one string path sees both spellings.
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

class reader {
public:
    explicit reader(const std::string& text) : s_(text) {}

    json_text read() {
        want w = want::value;
        for (;;) {
            skip_space();
            switch (w) {
                case want::key_or_close:
                    if (peek() == '}') {
                        ++p_;
                        stack_.pop_back();
                        w = want::after;
                        break;
                    }
                    [[fallthrough]];
                case want::key: {
                    expect('"');
                    std::string key = string_body();
                    skip_space();
                    expect(':');
                    nodes_[stack_.back()].keys.push_back(std::move(key));
                    w = want::value;
                    break;
                }
                case want::value_or_close:
                    if (peek() == ']') {
                        ++p_;
                        stack_.pop_back();
                        w = want::after;
                        break;
                    }
                    [[fallthrough]];
                case want::value: w = value(); break;
                case want::after:
                    if (stack_.empty()) {
                        if (p_ != s_.size()) fail("text after the value");
                        return std::move(nodes_);
                    }
                    if (peek() == ',') {
                        ++p_;
                        w = nodes_[stack_.back()].type == json_node::kind::array ? want::value : want::key;
                    } else if (peek() == (nodes_[stack_.back()].type == json_node::kind::array ? ']' : '}')) {
                        ++p_;
                        stack_.pop_back();
                    } else {
                        fail("',' or the end of the container expected");
                    }
                    break;
            }
        }
    }

private:
    // What the reader expects next.
    enum class want { value, value_or_close, key, key_or_close, after };

    [[noreturn]] void fail(const std::string& what) const {
        throw notation_error("the value is not JSON text: " + what + " at byte " + std::to_string(p_));
    }
    char peek() const { return p_ < s_.size() ? s_[p_] : '\0'; }
    void expect(char c) {
        if (peek() != c) fail(std::string("'") + c + "' expected");
        ++p_;
    }
    void skip_space() {
        while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' || s_[p_] == '\r')) ++p_;
    }

    // Reads one value; a container is left open on the stack. Returns what comes next.
    want value() {
        std::size_t i = nodes_.size();
        nodes_.emplace_back();
        if (!stack_.empty()) nodes_[stack_.back()].children.push_back(i);
        json_node& n = nodes_[i];
        const char c = peek();
        if (c == '[' || c == '{') {
            ++p_;
            n.type = c == '[' ? json_node::kind::array : json_node::kind::object;
            stack_.push_back(i);
            return c == '[' ? want::value_or_close : want::key_or_close;
        }
        if (c == '"') {
            ++p_;
            n.type = json_node::kind::string;
            n.text = string_body();
        } else if (literal("true")) {
            n.type = json_node::kind::boolean;
            n.truth = true;
        } else if (literal("false")) {
            n.type = json_node::kind::boolean;
        } else if (literal("null")) {
            n.type = json_node::kind::null;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            n.type = json_node::kind::number;
            n.text = number();
        } else {
            fail("a value expected");
        }
        return want::after;
    }

    bool literal(const char* word) {
        const std::size_t n = std::strlen(word);
        if (s_.compare(p_, n, word) != 0) return false;
        p_ += n;
        return true;
    }

    std::string number() {
        // RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
        const std::size_t start = p_;
        auto digits = [this] {
            const std::size_t from = p_;
            while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') ++p_;
            if (p_ == from) fail("a digit expected in a number");
        };
        if (peek() == '-') ++p_;
        if (peek() == '0')
            ++p_;
        else
            digits();
        if (peek() == '.') {
            ++p_;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            ++p_;
            if (peek() == '+' || peek() == '-') ++p_;
            digits();
        }
        return s_.substr(start, p_ - start);
    }

    std::uint32_t hex4() {
        if (s_.size() - p_ < 4) fail("four hex digits expected after \\u");
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = s_[p_++];
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= std::uint32_t(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= std::uint32_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= std::uint32_t(c - 'A' + 10);
            else
                fail("a hex digit expected after \\u");
        }
        return v;
    }

    // After the opening quote; RFC 8259 §7.
    std::string string_body() {
        std::string out;
        for (;;) {
            if (p_ >= s_.size()) fail("an unterminated string");
            const char c = s_[p_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("a control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            const char e = p_ < s_.size() ? s_[p_++] : '\0';
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    std::uint32_t cp = hex4();
                    if (cp >= 0xD800 && cp < 0xDC00 && s_.compare(p_, 2, "\\u") == 0) {
                        const std::size_t back = p_;
                        p_ += 2;
                        const std::uint32_t low = hex4();
                        if (low >= 0xDC00 && low < 0xE000)
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        else
                            p_ = back;
                    }
                    append_utf8(out, cp);
                    break;
                }
                default: fail("an unknown escape in a string");
            }
        }
    }

    const std::string& s_;
    std::size_t p_ = 0;
    json_text nodes_;
    std::vector<std::size_t> stack_;
};

}  // namespace detail

inline json_text read_json(const std::string& text) { return detail::reader(text).read(); }

// One value of the notation (docs/cli.md, "Values JSON text cannot hold").
struct value {
    enum class kind { null, boolean, integer, floating, string, binary, array, object, discarded };
    kind type = kind::null;
    bool truth = false;
    bool negative = false;  // integer: its sign, and
    std::string magnitude;  // its magnitude in decimal digits, no leading zero ("0" for zero)
    double number = 0;      // floating
    std::string bytes;      // string, binary: the bytes (a string's need not be UTF-8)
    bool has_subtype = false;
    std::uint64_t subtype = 0;
    std::vector<std::size_t> items;  // array elements, object members' values: nodes of the text
    std::vector<std::string> keys;   // object keys' bytes, in the vector's order
};

namespace detail {

[[noreturn]] inline void notation_fail(const std::string& at, const std::string& what) {
    throw notation_error("JSON notation at \"" + at + "\": " + what);
}

inline bool is_digits(const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

inline std::string hex_bytes(const json_node& n, const std::string& at, const char* name) {
    if (n.type != json_node::kind::string || n.text.size() % 2 != 0 ||
        n.text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        notation_fail(at, std::string(name) + " holds a string of an even number of hex digits");
    std::string out;
    for (std::size_t k = 0; k < n.text.size(); k += 2) out += char(std::stoi(n.text.substr(k, 2), nullptr, 16));
    return out;
}

// An integer given as a JSON integer or a string of decimal digits, with an optional '-'.
inline void integer(value& v, const json_node& n, const std::string& at, const char* name) {
    const std::string& t = n.text;
    const bool minus = !t.empty() && t[0] == '-';
    std::string digits = t.substr(minus ? 1 : 0);
    if ((n.type != json_node::kind::number && n.type != json_node::kind::string) || !is_digits(digits))
        notation_fail(at, std::string(name) + " holds an integer, as a number or a string of decimal digits");
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
    v.type = value::kind::integer;
    v.negative = minus && digits != "0";
    v.magnitude = digits;
}

inline double float_text(const std::string& s, const std::string& at) {
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    const std::string bits = s.compare(0, 2, "0x") == 0 ? s.substr(2) : s;
    if (bits.size() == 16 && bits.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos &&
        (bits != s || s.find_first_of(".eE+-") == std::string::npos)) {
        const std::uint64_t u = std::stoull(bits, nullptr, 16);
        double d;
        std::memcpy(&d, &u, sizeof d);
        return d;
    }
    // A decimal (json-decimal): glibc's strtod rounds correctly, so no bit is lost.
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) notation_fail(at, "$float holds \"" + s + "\", not a number");
    return d;
}

inline std::string key_bytes(const json_text& t, const json_node& n, const std::string& at) {
    if (n.type == json_node::kind::string) return n.text;
    if (n.type == json_node::kind::object && n.keys.size() == 1 && n.keys[0] == "$string")
        return hex_bytes(t[n.children[0]], at, "$string");
    notation_fail(at, "a key is a string or {\"$string\": hex}");
}

}  // namespace detail

// The notation's value at node i of t (at: its JSON pointer, for messages). Containers' members
// are left as node indices for the caller to read in turn.
inline value read_value(const json_text& t, std::size_t i, const std::string& at) {
    using detail::notation_fail;
    const json_node& n = t[i];
    value v;
    switch (n.type) {
        case json_node::kind::null: return v;
        case json_node::kind::boolean:
            v.type = value::kind::boolean;
            v.truth = n.truth;
            return v;
        case json_node::kind::string:
            v.type = value::kind::string;
            v.bytes = n.text;
            return v;
        case json_node::kind::number:
            if (n.text.find_first_of(".eE") != std::string::npos) {
                v.type = value::kind::floating;
                v.number = detail::float_text(n.text, at);
            } else {
                detail::integer(v, n, at, "a number");
            }
            return v;
        case json_node::kind::array:
            v.type = value::kind::array;
            v.items = n.children;
            return v;
        case json_node::kind::object: break;
    }
    std::map<std::string, std::size_t> field;
    for (std::size_t k = 0; k < n.keys.size(); ++k) field.emplace(n.keys[k], n.children[k]);
    auto only = [&](std::initializer_list<const char*> names) {
        if (field.size() != n.keys.size() || field.size() != names.size()) return false;
        for (const char* name : names)
            if (field.count(name) == 0) return false;
        return true;
    };
    if (only({"$binary"}) || only({"$binary", "$subtype"})) {
        v.type = value::kind::binary;
        v.bytes = detail::hex_bytes(t[field["$binary"]], at, "$binary");
        if (field.count("$subtype") != 0) {
            value sub;
            detail::integer(sub, t[field["$subtype"]], at, "$subtype");
            if (sub.negative || sub.magnitude.size() > 20 ||
                (sub.magnitude.size() == 20 && sub.magnitude > "18446744073709551615"))
                notation_fail(at, "$subtype " + sub.magnitude + " is not an unsigned 64-bit number");
            v.has_subtype = true;
            v.subtype = std::stoull(sub.magnitude);
        }
    } else if (only({"$float"})) {
        const json_node& f = t[field["$float"]];
        if (f.type != json_node::kind::string) notation_fail(at, "$float holds a string");
        v.type = value::kind::floating;
        v.number = detail::float_text(f.text, at);
    } else if (only({"$integer"})) {
        detail::integer(v, t[field["$integer"]], at, "$integer");
    } else if (only({"$string"})) {
        v.type = value::kind::string;
        v.bytes = detail::hex_bytes(t[field["$string"]], at, "$string");
    } else if (only({"$discarded"})) {
        const json_node& d = t[field["$discarded"]];
        if (d.type != json_node::kind::boolean || !d.truth) notation_fail(at, "$discarded holds true");
        v.type = value::kind::discarded;
    } else if (only({"$members"})) {
        const json_node& list = t[field["$members"]];
        if (list.type != json_node::kind::array) notation_fail(at, "$members holds an array of [key, value] pairs");
        v.type = value::kind::object;
        for (std::size_t k = 0; k < list.children.size(); ++k) {
            const std::string here = at + "/$members/" + std::to_string(k);
            const json_node& pair = t[list.children[k]];
            if (pair.type != json_node::kind::array || pair.children.size() != 2)
                notation_fail(here, "a member is a [key, value] pair");
            v.keys.push_back(detail::key_bytes(t, t[pair.children[0]], here + "/0"));
            v.items.push_back(pair.children[1]);
        }
    } else if (only({"$object"})) {
        const json_node& inner = t[field["$object"]];
        if (inner.type != json_node::kind::object) notation_fail(at, "$object holds an object");
        v.type = value::kind::object;
        v.keys = inner.keys;
        v.items = inner.children;
    } else {
        v.type = value::kind::object;
        v.keys = n.keys;
        v.items = n.children;
    }
    return v;
}

// What encode() is handed: the request's header fields (id, format, use_size, ...) and the value.
struct request {
    std::map<std::string, std::string> fields;
    json_text value;
};

using encode_function = std::function<std::string(const request&)>;

namespace detail {

[[noreturn]] inline void die(const std::string& message) {
    std::cerr << message << '\n';
    std::exit(exit_software);
}

// (status, payload): 0 encoded, 1 refused, 2 unsupported. A value the helper cannot read, or an
// exception that is neither a refusal nor unsupported, stops the process.
inline std::pair<char, std::string> answer(const encode_function& encode, request& r, const std::string& text) {
    const std::string id = r.fields["id"];
    try {
        r.value = read_json(text);
        return {0, encode(r)};
    } catch (const unsupported& e) {
        return {2, e.what()};
    } catch (const refused& e) {
        return {1, e.what()};
    } catch (const std::exception& e) {
        die(id + ": " + e.what());
    }
}

inline std::uint32_t big_endian(const unsigned char* b) {
    return std::uint32_t(b[0]) << 24 | std::uint32_t(b[1]) << 16 | std::uint32_t(b[2]) << 8 | b[3];
}

inline void put_big_endian(std::string& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out += char((v >> shift) & 0xFF);
}

inline bool read_exactly(char* to, std::size_t n) { return std::fread(to, 1, n, stdin) == n; }

inline void serve_batch(const encode_function& encode) {
    for (;;) {
        unsigned char head[4];
        const std::size_t got = std::fread(head, 1, 4, stdin);
        if (got == 0 && std::feof(stdin)) return;
        if (got != 4) die("batch: reading a request's length: end of input after " + std::to_string(got) + " bytes");
        std::string payload(big_endian(head), '\0');
        if (!payload.empty() && !read_exactly(&payload[0], payload.size()))
            die("batch: reading a request of " + std::to_string(payload.size()) + " bytes: end of input");
        const std::size_t cut = payload.find("\n\n");
        if (cut == std::string::npos) die("batch: a request without the empty line after its header");
        request r;
        for (std::size_t from = 0; from < cut;) {
            std::size_t to = payload.find('\n', from);
            if (to > cut) to = cut;
            const std::size_t eq = payload.find('=', from);
            if (eq != std::string::npos && eq > from && eq < to)
                r.fields[payload.substr(from, eq - from)] = payload.substr(eq + 1, to - eq - 1);
            from = to + 1;
        }
        const std::string& seq_text = r.fields["seq"];
        char* end = nullptr;
        const unsigned long long seq = std::strtoull(seq_text.c_str(), &end, 10);
        if (seq_text.empty() || *end != '\0' || seq > 0xFFFFFFFFull)
            die("batch: a request without a valid seq (\"" + seq_text + "\")");
        const auto [status, body] = answer(encode, r, payload.substr(cut + 2));
        std::string frame(1, status);
        put_big_endian(frame, std::uint32_t(seq));
        put_big_endian(frame, std::uint32_t(body.size()));
        frame += body;
        if (std::fwrite(frame.data(), 1, frame.size(), stdout) != frame.size() || std::fflush(stdout) != 0)
            die("batch: writing an answer failed");
    }
}

inline void serve_one(const encode_function& encode) {
    const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    request r;
    auto env = [](const char* name) {
        const char* v = std::getenv(name);
        return std::string(v ? v : "");
    };
    r.fields["id"] = env("SINKCHECK_VECTOR_ID");
    r.fields["format"] = env("SINKCHECK_FORMAT");
    r.fields["use_size"] = env("SINKCHECK_USE_SIZE");
    r.fields["use_type"] = env("SINKCHECK_USE_TYPE");
    const auto [status, body] = answer(encode, r, text);
    if (status == 0) {
        std::fwrite(body.data(), 1, body.size(), stdout);
        std::exit(std::fflush(stdout) == 0 ? 0 : exit_software);
    }
    std::cerr << body << '\n';
    std::exit(status == 1 ? exit_refused : exit_unsupported);
}

}  // namespace detail

// Runs the protocol on stdin and stdout in the mode SINKCHECK_MODE names. It reads the JSON
// notation only: the token notation would need a second parser, and read as JSON it would be
// misread, so the process stops instead.
inline int serve(const encode_function& encode) {
    const char* notation = std::getenv("SINKCHECK_NOTATION");
    if (notation == nullptr || std::string(notation) != "json")
        detail::die(std::string("this encoder reads the JSON notation: run it with sinkcheck conform --notation json "
                                "(SINKCHECK_NOTATION is \"") +
                    (notation ? notation : "") + "\")");
    const char* mode = std::getenv("SINKCHECK_MODE");
    if (mode != nullptr && std::string(mode) == "batch")
        detail::serve_batch(encode);
    else
        detail::serve_one(encode);
    return 0;
}

}  // namespace sinkcheck_protocol

#endif
