// tools/text.cpp — JSON text for values JSON cannot hold, both ways, and raw output.
//
// nlohmann's dump() throws on binary values and prints NaN and ±Inf as null, so a decoded
// CBOR or MessagePack document could not be printed and read back. The notation (docs/cli.md):
//   {"$binary": "0a0b", "$subtype": 5}   binary, subtype optional
//   {"$float": "nan" | "inf" | "-inf" | "0x7ff8000000000001"}   the last: any binary64 bits
//   {"$object": {...}}   a real object whose keys would read as one of these three shapes
// Both directions are iterative: a value as deep as max_input_depth prints without recursion.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/detail/walk.hpp"

namespace sinkcheck::cli {
namespace {

constexpr const char* hex_digits = "0123456789abcdef";

/// The four key sets that mean notation; any other object is data.
bool is_notation_shape(const json::object_t& o) {
    const auto has = [&](const char* k) { return o.count(k) != 0; };
    switch (o.size()) {
        case 1: return has("$binary") || has("$float") || has("$object");
        case 2: return has("$binary") && has("$subtype");
        default: return false;
    }
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/// Hex text to bytes; nullopt unless it is an even number of hex digits.
std::optional<std::vector<std::uint8_t>> parse_hex(const std::string& text) {
    if (text.size() % 2 != 0) {
        return std::nullopt;
    }
    std::vector<std::uint8_t> bytes;
    bytes.reserve(text.size() / 2);
    for (std::size_t i = 0; i < text.size(); i += 2) {
        const int hi = hex_value(text[i]);
        const int lo = hex_value(text[i + 1]);
        if (hi < 0 || lo < 0) {
            return std::nullopt;
        }
        bytes.push_back(static_cast<std::uint8_t>(hi << 4 | lo));
    }
    return bytes;
}

std::optional<double> parse_float_notation(const std::string& text) {
    if (text == "nan") {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (text == "inf") {
        return std::numeric_limits<double>::infinity();
    }
    if (text == "-inf") {
        return -std::numeric_limits<double>::infinity();
    }
    if (text.size() != 18 || text.compare(0, 2, "0x") != 0) {
        return std::nullopt;
    }
    const auto bytes = parse_hex(text.substr(2));
    if (!bytes) {
        return std::nullopt;
    }
    std::uint64_t bits = 0;
    for (std::uint8_t b : *bytes) {
        bits = bits << 8 | b;
    }
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

/// "nan" for the default quiet NaN, "inf", "-inf", else the exact bits (NaN sign and payload
/// survive a MessagePack or BJData round trip, so the text must keep them).
std::string float_notation(double d) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    if (bits == 0x7ff8000000000000ULL) {
        return "nan";
    }
    if (std::isinf(d)) {
        return d > 0 ? "inf" : "-inf";
    }
    std::string text = "0x";
    for (int shift = 60; shift >= 0; shift -= 4) {
        text += hex_digits[(bits >> shift) & 0xF];
    }
    return text;
}

/// One level of a depth-first walk over a container; the child being visited is at `index`
/// (arrays) or `it` (objects).
template <class Json, class ObjectIt>
struct text_frame {
    Json* node = nullptr;
    bool wrapped = false;  // came from {"$object": ...}: one more level of braces in the text
    std::size_t index = 0;
    ObjectIt it{};
    bool started = false;
};

/// JSON pointer of the child being visited in the innermost frame (data keys only).
template <class Frame>
std::string child_pointer(const std::vector<Frame>& stack) {
    std::string out;
    for (const Frame& f : stack) {
        if (!f.started) {
            break;
        }
        if (f.node->is_object()) {
            detail::append_pointer_token(out, f.it->first);
        } else {
            detail::append_pointer_token(out, std::to_string(f.index));
        }
    }
    return out;
}

json::object_t& object_of(json& j) { return j.get_ref<json::object_t&>(); }
const json::object_t& object_of(const json& j) { return j.get_ref<const json::object_t&>(); }

/// Advances frame f to its next child; false when there is none.
template <class Frame>
bool next_child(Frame& f) {
    if (f.node->is_object()) {
        auto& o = object_of(*f.node);
        if (f.started) {
            ++f.it;
        } else {
            f.it = o.begin();
        }
        f.started = true;
        return f.it != o.end();
    }
    if (f.started) {
        ++f.index;
    }
    f.started = true;
    return f.index < f.node->size();
}

}  // namespace

void resolve_text_notation(json& value, const std::string& input_name) {
    using frame = text_frame<json, json::object_t::iterator>;
    std::vector<frame> stack;
    // Converts v in place when it is notation, else opens it for descent.
    const auto visit = [&](json& v) {
        const auto fail = [&](const std::string& message) {
            throw input_error(input_name + ": at '" + child_pointer(stack) + "': " + message);
        };
        if (v.is_array() && !v.empty()) {
            stack.push_back(frame{&v, false});
            return;
        }
        if (!v.is_object() || v.empty()) {
            return;
        }
        auto& o = v.get_ref<json::object_t&>();
        if (!is_notation_shape(o)) {
            stack.push_back(frame{&v, false});
            return;
        }
        if (auto it = o.find("$object"); it != o.end()) {
            if (!it->second.is_object()) {
                fail("\"$object\" must hold an object");
            }
            json inner = std::move(it->second);
            v = std::move(inner);
            if (!v.empty()) {
                stack.push_back(frame{&v, true});
            }
            return;
        }
        if (auto it = o.find("$float"); it != o.end()) {
            const json& text = it->second;
            const auto d = text.is_string() ? parse_float_notation(text.get_ref<const std::string&>()) : std::nullopt;
            if (!d) {
                fail("\"$float\" must be \"nan\", \"inf\", \"-inf\" or \"0x\" and 16 hex digits");
            }
            v = *d;
            return;
        }
        const json& hex = o.at("$binary");
        auto bytes = hex.is_string() ? parse_hex(hex.get_ref<const std::string&>()) : std::nullopt;
        if (!bytes) {
            fail("\"$binary\" must be a string of an even number of hex digits");
        }
        auto sub = o.find("$subtype");
        if (sub == o.end()) {
            v = json::binary(std::move(*bytes));
        } else if (sub->second.is_number_unsigned()) {
            v = json::binary(std::move(*bytes), sub->second.get<std::uint64_t>());
        } else {
            fail("\"$subtype\" must be an integer from 0 to 18446744073709551615");
        }
    };

    visit(value);
    while (!stack.empty()) {
        frame& f = stack.back();
        if (!next_child(f)) {
            stack.pop_back();
            continue;
        }
        visit(f.node->is_object() ? f.it->second : (*f.node)[f.index]);
    }
}

namespace {

class text_writer {
public:
    text_writer(int indent, const std::string& input_name) : indent_(indent), name_(input_name) {}

    std::string print(const json& root) {
        value(root);
        while (!stack_.empty()) {
            frame& f = stack_.back();
            const bool first = !f.started;
            if (next_child(f)) {
                if (!first) {
                    out_ += ',';
                }
                line_break();
                if (f.node->is_object()) {
                    key(f.it->first);
                    value(f.it->second);
                } else {
                    value((*f.node)[f.index]);
                }
                continue;
            }
            close(f.node->is_object() ? '}' : ']');
            if (f.wrapped) {
                close('}');
            }
            stack_.pop_back();
        }
        return std::move(out_);
    }

private:
    using frame = text_frame<const json, json::object_t::const_iterator>;

    void line_break() {
        if (indent_ >= 0) {
            out_ += '\n';
            out_.append(level_ * static_cast<std::size_t>(indent_), ' ');
        }
    }
    void open(char c) {
        out_ += c;
        ++level_;
    }
    void close(char c) {
        --level_;
        line_break();
        out_ += c;
    }
    void key(const std::string& k) {
        string(k);
        out_ += indent_ >= 0 ? ": " : ":";
    }
    void string(const std::string& s) {
        const std::size_t bad = detail::utf8_invalid_at(s.data(), s.size());
        if (bad != detail::utf8_valid) {
            throw input_error(name_ + ": at '" + child_pointer(stack_) + "': string is not valid UTF-8 (byte " +
                              std::to_string(bad) + " of the string), which JSON text cannot hold");
        }
        out_ += json(s).dump();
    }
    /// A notation object of one or two members whose values are already JSON text.
    void notation(const char* k1, const std::string& v1, const char* k2 = nullptr, const std::string& v2 = {}) {
        open('{');
        line_break();
        key(k1);
        out_ += v1;
        if (k2 != nullptr) {
            out_ += ',';
            line_break();
            key(k2);
            out_ += v2;
        }
        close('}');
    }

    void value(const json& v) {
        switch (v.type()) {
            case json::value_t::string: string(v.get_ref<const std::string&>()); return;
            case json::value_t::number_float: {
                const double d = v.get<double>();
                if (std::isfinite(d)) {
                    out_ += v.dump();
                } else {
                    notation("$float", '"' + float_notation(d) + '"');
                }
                return;
            }
            case json::value_t::binary: {
                const auto& b = v.get_binary();
                const std::string hex = '"' + to_hex(b) + '"';
                if (b.has_subtype()) {
                    notation("$binary", hex, "$subtype", std::to_string(b.subtype()));
                } else {
                    notation("$binary", hex);
                }
                return;
            }
            case json::value_t::array:
            case json::value_t::object: {
                const bool object = v.is_object();
                if (v.empty()) {
                    out_ += object ? "{}" : "[]";
                    return;
                }
                const bool wrapped = object && is_notation_shape(v.get_ref<const json::object_t&>());
                if (wrapped) {
                    open('{');
                    line_break();
                    key("$object");
                }
                open(object ? '{' : '[');
                stack_.push_back(frame{&v, wrapped});
                return;
            }
            case json::value_t::discarded: out_ += "null"; return;  // not produced by any reader
            default: out_ += v.dump(); return;                      // null, boolean, integers
        }
    }

    int indent_;
    const std::string& name_;
    std::string out_;
    std::size_t level_ = 0;
    std::vector<frame> stack_;
};

}  // namespace

std::string to_text(const json& value, int indent, const std::string& input_name) {
    return text_writer(indent, input_name).print(value);
}

std::string to_hex(const std::vector<std::uint8_t>& bytes) {
    std::string out;
    out.reserve(bytes.size() * 2);
    for (std::uint8_t b : bytes) {
        out += hex_digits[b >> 4];
        out += hex_digits[b & 0xF];
    }
    return out;
}

void write_stdout(std::string_view data) {
    if (std::fwrite(data.data(), 1, data.size(), stdout) != data.size() || std::fflush(stdout) != 0) {
        throw input_error(std::string("sinkcheck: cannot write to standard output: ") + std::strerror(errno));
    }
}

}  // namespace sinkcheck::cli
