// tools/text.cpp — JSON text for values JSON cannot hold, both ways, and raw output.
//
// nlohmann's dump() throws on binary values and prints NaN and ±Inf as null, so a decoded
// CBOR or MessagePack document could not be printed and read back. The notation is the one of
// docs/cli.md ("Values JSON text cannot hold"), shared with the corpus export: reading it is
// the conformance runner's from_json_notation; printing writes its forms for binary, NaN and
// ±Inf, strings that are not UTF-8 and discarded values, and wraps data objects that look like
// notation in {"$object": ...}. Both directions are iterative: a value as deep as
// max_input_depth prints without recursion.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/detail/hex.hpp"
#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/detail/walk.hpp"

namespace sinkcheck::cli {
namespace {

/// The key sets that mean notation (docs/cli.md); any other object is data, and an object of
/// data with one of these key sets is written inside {"$object": ...}.
bool is_notation_shape(const json::object_t& o) {
    const auto has = [&](const char* k) { return o.count(k) != 0; };
    switch (o.size()) {
        case 1:
            return has("$binary") || has("$float") || has("$object") || has("$integer") || has("$string") ||
                   has("$discarded") || has("$members");
        case 2: return has("$binary") && has("$subtype");
        default: return false;
    }
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
        text += sinkcheck::detail::hex_digit(static_cast<unsigned>(bits >> shift));
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
    // The notation has one reader, the conformance runner's: to wire text, then the value.
    conform::parse_limits limits;
    limits.allow_repeat = false;
    limits.max_wire_bytes = static_cast<std::size_t>(-1);
    try {
        value = conform::parse_value(conform::from_json_notation(value), limits).value;
    } catch (const conform::notation_error& e) {
        throw input_error(input_name + ": " + e.what());
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
        const std::size_t bad = detail::utf8_invalid_at(k.data(), k.size());
        if (bad != detail::utf8_valid) {
            throw input_error(name_ + ": at '" + child_pointer(stack_) + "': a key that is not valid UTF-8 (byte " +
                              std::to_string(bad) + " of the key); decode prints no {\"$members\": ...}");
        }
        out_ += json(k).dump();
        out_ += indent_ >= 0 ? ": " : ":";
    }
    void string(const std::string& s) {
        if (detail::utf8_invalid_at(s.data(), s.size()) != detail::utf8_valid) {
            notation("$string", '"' + to_hex(std::vector<std::uint8_t>(s.begin(), s.end())) + '"');
            return;
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
            case json::value_t::discarded: notation("$discarded", "true"); return;  // only from the notation
            default: out_ += v.dump(); return;                                      // null, boolean, integers
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

void write_stdout(std::string_view data) {
    if (std::fwrite(data.data(), 1, data.size(), stdout) != data.size() || std::fflush(stdout) != 0) {
        throw input_error(std::string("sinkcheck: cannot write to standard output: ") + std::strerror(errno));
    }
}

}  // namespace sinkcheck::cli
