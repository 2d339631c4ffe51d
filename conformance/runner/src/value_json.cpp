// The value notation as JSON text (docs/cli.md, "Values JSON text cannot hold"), both ways:
// from the wire notation (value_text.hpp) to JSON, and from a parsed JSON document back to wire
// text. Both directions keep what the wire says and nlohmann's model forgets: key order as
// written, strings and keys that are not UTF-8, integers beyond 64 bits, the integer/double
// distinction. Both are iterative: a value may nest as deep as the corpus allows.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/detail/utf8.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;

/// Integers up to this magnitude are exact in every JSON reader (IEEE doubles included).
constexpr std::uint64_t exact_in_double = std::uint64_t{1} << 53;

std::string hex_of(std::string_view bytes) {
    return to_hex(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

bool is_utf8(std::string_view s) { return detail::utf8_invalid_at(s.data(), s.size()) == detail::utf8_valid; }

/// s (valid UTF-8) as a JSON string literal: quote, backslash and control characters escaped.
void append_json_string(std::string& out, std::string_view s) {
    out += '"';
    for (const char c : s) {
        const auto b = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (b < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(b));
            out += buf;
        } else {
            out += c;
        }
    }
    out += '"';
}

// ---- wire -> JSON --------------------------------------------------------------------------

enum class token_kind { open_array, close_array, open_object, close_object, comma, colon, string, scalar };

struct token {
    token_kind kind = token_kind::scalar;
    std::string_view text;  // the token as spelled
    std::string bytes;      // strings: the decoded bytes
};

/// Reads the wire text token by token. The wire comes from parse_value, so it is well formed;
/// a malformed one still only ever yields notation_error, never a read out of bounds.
class wire_tokens {
public:
    explicit wire_tokens(std::string_view s) : s_(s) {}

    bool done() const noexcept { return i_ >= s_.size(); }

    token next() {
        token t;
        const std::size_t at = i_;
        const char c = s_[i_];
        switch (c) {
            case '[':
                t.kind = token_kind::open_array;
                ++i_;
                break;
            case ']':
                t.kind = token_kind::close_array;
                ++i_;
                break;
            case '{':
                t.kind = token_kind::open_object;
                ++i_;
                break;
            case '}':
                t.kind = token_kind::close_object;
                ++i_;
                break;
            case ',':
                t.kind = token_kind::comma;
                ++i_;
                break;
            case ':':
                t.kind = token_kind::colon;
                ++i_;
                break;
            case '"':
                t.kind = token_kind::string;
                t.bytes = string_body();
                break;
            default:
                t.kind = token_kind::scalar;
                if (s_.substr(i_, 2) == "h'" || s_.substr(i_, 4) == "f64'") {
                    // h'..'#N or f64'..': up to the closing quote, then a subtype's digits.
                    const std::size_t q = s_.find('\'', s_.find('\'', i_) + 1);
                    if (s_.find('\'', i_) == std::string_view::npos || q == std::string_view::npos) {
                        throw notation_error("unterminated quoted token", i_);
                    }
                    i_ = q + 1;
                    if (i_ < s_.size() && s_[i_] == '#') ++i_;
                }
                while (i_ < s_.size() && std::strchr("[]{},:\"", s_[i_]) == nullptr) ++i_;
        }
        t.text = s_.substr(at, i_ - at);
        return t;
    }

private:
    std::string string_body() {
        std::string out;
        ++i_;
        for (;;) {
            if (i_ >= s_.size()) throw notation_error("unterminated string", i_);
            const char c = s_[i_++];
            if (c == '"') return out;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i_ >= s_.size()) throw notation_error("unterminated string", i_);
            const char e = s_[i_++];
            switch (e) {
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'x': out += static_cast<char>(hex_pair()); break;
                case 'u': {
                    std::uint32_t cp = hex_quad();
                    if (cp >= 0xD800 && cp <= 0xDBFF && s_.substr(i_, 2) == "\\u") {
                        i_ += 2;
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (hex_quad() - 0xDC00);
                    }
                    detail::append_utf8(out, cp);
                    break;
                }
                default: out += e;
            }
        }
    }

    int hex_pair() {
        const int h = i_ < s_.size() ? hex_digit(s_[i_]) : -1;
        const int l = i_ + 1 < s_.size() ? hex_digit(s_[i_ + 1]) : -1;
        if (h < 0 || l < 0) throw notation_error("\\x needs two hex digits", i_);
        i_ += 2;
        return h * 16 + l;
    }

    std::uint32_t hex_quad() {
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const int d = i_ < s_.size() ? hex_digit(s_[i_]) : -1;
            if (d < 0) throw notation_error("\\u needs four hex digits", i_);
            v = (v << 4) | static_cast<std::uint32_t>(d);
            ++i_;
        }
        return v;
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

/// True when a wire integer literal is beyond what every JSON reader holds exactly.
bool beyond_double_range(std::string_view literal) {
    const std::string_view digits = literal.substr(literal.front() == '-' ? 1 : 0);
    if (digits.size() > 20) return true;
    errno = 0;
    const unsigned long long v = std::strtoull(std::string(digits).c_str(), nullptr, 10);
    return errno != 0 || v > exact_in_double;
}

/// The binary64 bits of a wire token that spells a double (NaN, -NaN, Infinity, -Infinity,
/// f64'...', a number with a fraction or an exponent); nullopt for every other token.
std::optional<std::uint64_t> double_bits_of(std::string_view t) {
    if (t == "NaN") return 0x7ff8000000000000ULL;
    if (t == "-NaN") return 0xfff8000000000000ULL;
    if (t == "Infinity") return 0x7ff0000000000000ULL;
    if (t == "-Infinity") return 0xfff0000000000000ULL;
    if (t.substr(0, 4) == "f64'") {
        std::uint64_t bits = 0;
        for (const char c : t.substr(4, 16)) bits = (bits << 4) | static_cast<std::uint64_t>(hex_digit(c));
        return bits;
    }
    if (t.empty() || !(t.front() == '-' || (t.front() >= '0' && t.front() <= '9')) ||
        t.find_first_of(".eE") == std::string_view::npos) {
        return std::nullopt;
    }
    // The conversion parse_value makes, so these are the bits of the value the vector holds.
    const double d = std::strtod(std::string(t).c_str(), nullptr);
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
}

void append_scalar(std::string& out, std::string_view t, json_floats floats) {
    if (floats == json_floats::bits) {
        if (const std::optional<std::uint64_t> bits = double_bits_of(t)) {
            char buf[40];
            std::snprintf(buf, sizeof buf, "{\"$float\":\"0x%016llx\"}", static_cast<unsigned long long>(*bits));
            out += buf;
            return;
        }
    }
    const auto float_object = [&](std::string_view spelled) {
        out += "{\"$float\":\"";
        out += spelled;
        out += "\"}";
    };
    if (t == "null" || t == "true" || t == "false") {
        out += t;
    } else if (t == "discarded") {
        out += "{\"$discarded\":true}";
    } else if (t == "NaN") {
        float_object("nan");
    } else if (t == "-NaN") {
        float_object("0xfff8000000000000");
    } else if (t == "Infinity") {
        float_object("inf");
    } else if (t == "-Infinity") {
        float_object("-inf");
    } else if (t.substr(0, 4) == "f64'") {
        out += "{\"$float\":\"0x";
        out += t.substr(4, 16);
        out += "\"}";
    } else if (t.substr(0, 2) == "h'") {
        const std::size_t close = t.find('\'', 2);
        out += "{\"$binary\":\"";
        out += t.substr(2, close - 2);
        out += '"';
        if (close + 1 < t.size()) {
            const std::string_view sub = t.substr(close + 2);
            out += ",\"$subtype\":";
            if (beyond_double_range(sub)) {
                out += '"';
                out += sub;
                out += '"';
            } else {
                out += sub;
            }
        }
        out += '}';
    } else if (t.find_first_of(".eE") == std::string_view::npos) {
        if (t == "-0") {
            out += '0';  // the integer 0: a bare -0 would read as the double -0.0 in JavaScript
        } else if (beyond_double_range(t)) {
            out += "{\"$integer\":\"";
            out += t;
            out += "\"}";
        } else {
            out += t;
        }
    } else {
        // A double, spelled the shortest way that reads back to the same bits (one spelling per
        // value, so equal vectors export equally): a JSON number when no reader can take it for
        // an integer, else {"$float": ...}.
        const double d = std::strtod(std::string(t).c_str(), nullptr);
        const std::string shortest = json(d).dump();
        if (!std::isfinite(d)) {
            float_object(d > 0 ? "inf" : "-inf");
        } else if (std::trunc(d) != d) {
            out += shortest;
        } else {
            float_object(shortest);
        }
    }
}

/// Whether each object of the wire (in order of its opening brace) needs {"$members": ...}:
/// a key that is not UTF-8, a key starting with '$' (it could read as notation), or keys not
/// in strictly increasing byte order (a plain JSON object's order is not significant).
std::vector<bool> objects_needing_members(std::string_view wire) {
    struct open_object {
        std::size_t index;
        std::string last_key;
        bool has_key = false;
        bool expect_key = true;
    };
    std::vector<bool> needs;
    std::vector<open_object> objects;
    std::vector<bool> is_object;  // the open containers: object or array
    wire_tokens tokens(wire);
    while (!tokens.done()) {
        token t = tokens.next();
        switch (t.kind) {
            case token_kind::open_object:
                objects.push_back({needs.size(), {}, false, true});
                needs.push_back(false);
                is_object.push_back(true);
                break;
            case token_kind::open_array: is_object.push_back(false); break;
            case token_kind::close_object:
                if (!objects.empty()) objects.pop_back();
                if (!is_object.empty()) is_object.pop_back();
                break;
            case token_kind::close_array:
                if (!is_object.empty()) is_object.pop_back();
                break;
            case token_kind::comma:
                if (!is_object.empty() && is_object.back() && !objects.empty()) objects.back().expect_key = true;
                break;
            case token_kind::string:
                if (!is_object.empty() && is_object.back() && !objects.empty() && objects.back().expect_key) {
                    open_object& o = objects.back();
                    o.expect_key = false;
                    if (!is_utf8(t.bytes) || (!t.bytes.empty() && t.bytes.front() == '$') ||
                        (o.has_key && !(o.last_key < t.bytes))) {
                        needs[o.index] = true;
                    }
                    o.last_key = std::move(t.bytes);
                    o.has_key = true;
                }
                break;
            default: break;
        }
    }
    return needs;
}

// ---- JSON -> wire --------------------------------------------------------------------------

/// Where a value sits in the JSON document, as a chain of parents (a pointer is built only
/// for an error message, so deep values cost no quadratic memory).
struct place {
    std::size_t parent;
    std::string segment;
};

constexpr std::size_t no_parent = static_cast<std::size_t>(-1);

class json_to_wire {
public:
    std::string run(const json& root) {
        places_.push_back({no_parent, {}});
        work_.push_back({&root, 0, nullptr});
        while (!work_.empty()) {
            const step s = work_.back();
            work_.pop_back();
            if (s.literal != nullptr) {
                out_ += s.literal;
            } else {
                value(*s.v, s.place);
            }
        }
        return std::move(out_);
    }

private:
    struct step {
        const json* v;
        std::size_t place;
        const char* literal;  // when set: text to append, v is unused
    };

    [[noreturn]] void fail(std::size_t at, const std::string& message) const {
        std::vector<const std::string*> segments;
        for (std::size_t p = at; p != no_parent && places_[p].parent != no_parent; p = places_[p].parent) {
            segments.push_back(&places_[p].segment);
        }
        std::string pointer;
        for (auto it = segments.rbegin(); it != segments.rend(); ++it) {
            pointer += '/';
            for (const char c : **it) {
                if (c == '~')
                    pointer += "~0";
                else if (c == '/')
                    pointer += "~1";
                else
                    pointer += c;
            }
        }
        throw notation_error("at '" + pointer + "': " + message, 0);
    }

    std::size_t child(std::size_t parent, std::string segment) {
        places_.push_back({parent, std::move(segment)});
        return places_.size() - 1;
    }

    void value(const json& v, std::size_t at) {
        switch (v.type()) {
            case json::value_t::null: out_ += "null"; return;
            case json::value_t::boolean: out_ += v.get<bool>() ? "true" : "false"; return;
            // A number the parser took for a double (it has '.' or an exponent, or is beyond 64
            // bits) prints with a '.' or an exponent, so it stays a double in the wire.
            case json::value_t::number_integer:
            case json::value_t::number_unsigned:
            case json::value_t::number_float: out_ += v.dump(); return;
            case json::value_t::string: {
                const std::string& s = v.get_ref<const std::string&>();
                append_wire_string(s);
                return;
            }
            case json::value_t::array: {
                out_ += '[';
                work_.push_back({nullptr, 0, "]"});
                for (std::size_t i = v.size(); i-- > 0;) {
                    work_.push_back({&v[i], child(at, std::to_string(i)), nullptr});
                    if (i > 0) work_.push_back({nullptr, 0, ","});
                }
                return;
            }
            case json::value_t::object: object(v, at); return;
            case json::value_t::binary:
            case json::value_t::discarded: break;
        }
        fail(at, "not a value of JSON text");
    }

    /// A string in wire text: JSON escapes where JSON has them, UTF-8 as it is, and \xHH for
    /// every byte outside ASCII only when the string is not UTF-8 (so that plain JSON stays
    /// plain: parsed_value::plain_json).
    void append_wire_string(std::string_view bytes) {
        const bool utf8 = is_utf8(bytes);
        out_ += '"';
        for (const char c : bytes) {
            const auto b = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
                out_ += '\\';
                out_ += c;
            } else if (b < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(b));
                out_ += buf;
            } else if (b >= 0x80 && !utf8) {
                out_ += "\\x" + to_hex(&b, 1);
            } else {
                out_ += c;
            }
        }
        out_ += '"';
    }

    std::string key_bytes(const json& k, std::size_t at) {
        if (k.is_string()) return k.get<std::string>();
        if (k.is_object() && k.size() == 1 && k.contains("$string")) return string_bytes(k.at("$string"), at);
        fail(at, "a key is a string or {\"$string\": \"hex\"}");
    }

    std::string string_bytes(const json& hex, std::size_t at) {
        const std::vector<std::uint8_t> bytes = hex_bytes(hex, at, "$string");
        return std::string(bytes.begin(), bytes.end());
    }

    std::vector<std::uint8_t> hex_bytes(const json& hex, std::size_t at, const char* name) {
        const std::string* s = hex.is_string() ? &hex.get_ref<const std::string&>() : nullptr;
        if (s == nullptr || s->size() % 2 != 0) {
            fail(at, std::string("\"") + name + "\" holds a string of an even number of hex digits");
        }
        std::vector<std::uint8_t> out;
        out.reserve(s->size() / 2);
        for (std::size_t i = 0; i < s->size(); i += 2) {
            const int h = hex_digit((*s)[i]);
            const int l = hex_digit((*s)[i + 1]);
            if (h < 0 || l < 0)
                fail(at, std::string("\"") + name + "\" holds a string of an even number of hex digits");
            out.push_back(static_cast<std::uint8_t>(h * 16 + l));
        }
        return out;
    }

    /// The digits of an unsigned (or, with allow_sign, signed) decimal given as a JSON
    /// integer or a string of digits.
    std::string decimal(const json& v, std::size_t at, const char* name, bool allow_sign) {
        if (v.is_number_unsigned() || (allow_sign && v.is_number_integer())) return v.dump();
        const std::string* s = v.is_string() ? &v.get_ref<const std::string&>() : nullptr;
        const std::size_t from = s != nullptr && allow_sign && !s->empty() && s->front() == '-' ? 1 : 0;
        if (s == nullptr || s->size() == from || s->find_first_not_of("0123456789", from) != std::string::npos ||
            ((*s)[from] == '0' && s->size() > from + 1)) {
            fail(at, std::string("\"") + name + "\" holds " + (allow_sign ? "an integer" : "an unsigned integer") +
                         ", as a number or a string of decimal digits");
        }
        return *s;
    }

    void object(const json& v, std::size_t at) {
        const auto only = [&](const char* a, const char* b = nullptr) {
            return v.size() == (b == nullptr ? 1U : 2U) && v.contains(a) && (b == nullptr || v.contains(b));
        };
        if (only("$binary") || only("$binary", "$subtype")) {
            out_ += "h'";
            const std::vector<std::uint8_t> bytes = hex_bytes(v.at("$binary"), at, "$binary");
            out_ += to_hex(bytes);
            out_ += '\'';
            if (v.contains("$subtype")) {
                const std::string digits = decimal(v.at("$subtype"), at, "$subtype", false);
                errno = 0;
                std::strtoull(digits.c_str(), nullptr, 10);
                if (errno != 0 || digits.size() > 20) fail(at, "\"$subtype\" is at most 18446744073709551615");
                out_ += '#';
                out_ += digits;
            }
        } else if (only("$float")) {
            float_literal(v.at("$float"), at);
        } else if (only("$integer")) {
            out_ += decimal(v.at("$integer"), at, "$integer", true);
        } else if (only("$string")) {
            append_wire_string(string_bytes(v.at("$string"), at));
        } else if (only("$discarded")) {
            if (v.at("$discarded") != true) fail(at, "\"$discarded\" holds true");
            out_ += "discarded";
        } else if (only("$members")) {
            members(v.at("$members"), at);
        } else if (only("$object")) {
            const json& inner = v.at("$object");
            if (!inner.is_object()) fail(at, "\"$object\" holds an object");
            plain_object(inner, child(at, "$object"));
        } else {
            plain_object(v, at);
        }
    }

    void float_literal(const json& f, std::size_t at) {
        const std::string* s = f.is_string() ? &f.get_ref<const std::string&>() : nullptr;
        const char* shape =
            "\"$float\" holds \"nan\", \"inf\", \"-inf\", \"0x\" and 16 hex digits, or a decimal number";
        if (s == nullptr) fail(at, shape);
        if (*s == "nan") {
            out_ += "NaN";
        } else if (*s == "inf") {
            out_ += "Infinity";
        } else if (*s == "-inf") {
            out_ += "-Infinity";
        } else if (s->size() == 18 && s->compare(0, 2, "0x") == 0) {
            for (std::size_t i = 2; i < 18; ++i) {
                if (hex_digit((*s)[i]) < 0) fail(at, shape);
            }
            out_ += "f64'" + s->substr(2) + "'";
        } else {
            // A decimal in JSON number syntax; written with '.' so that it reads as a double.
            const json parsed = json::parse(*s, nullptr, false);
            if (!parsed.is_number() || s->find_first_not_of("+-0123456789.eE") != std::string::npos) fail(at, shape);
            out_ += *s;
            if (s->find_first_of(".eE") == std::string::npos) out_ += ".0";
        }
    }

    void plain_object(const json& v, std::size_t at) {
        out_ += '{';
        work_.push_back({nullptr, 0, "}"});
        std::vector<std::pair<const std::string*, const json*>> items;
        for (const auto& [k, member] : v.get_ref<const json::object_t&>()) items.emplace_back(&k, &member);
        for (std::size_t i = items.size(); i-- > 0;) {
            work_.push_back({items[i].second, child(at, *items[i].first), nullptr});
            work_.push_back({nullptr, 0, ":"});
            work_.push_back({nullptr, 0, key_literal(*items[i].first)});
            if (i > 0) work_.push_back({nullptr, 0, ","});
        }
    }

    void members(const json& list, std::size_t at) {
        if (!list.is_array()) fail(at, "\"$members\" holds an array of [key, value] pairs");
        out_ += '{';
        work_.push_back({nullptr, 0, "}"});
        for (std::size_t i = list.size(); i-- > 0;) {
            const std::size_t here = child(child(at, "$members"), std::to_string(i));
            const json& pair = list[i];
            if (!pair.is_array() || pair.size() != 2) fail(here, "a member is a [key, value] pair");
            const char* key = key_literal(key_bytes(pair[0], child(here, "0")));
            work_.push_back({&pair[1], child(here, "1"), nullptr});
            work_.push_back({nullptr, 0, ":"});
            work_.push_back({nullptr, 0, key});
            if (i > 0) work_.push_back({nullptr, 0, ","});
        }
    }

    /// The wire spelling of a key, kept alive until it is appended.
    const char* key_literal(const std::string& bytes) {
        std::string saved = std::move(out_);
        out_.clear();
        append_wire_string(bytes);
        key_text_.push_back(std::move(out_));
        out_ = std::move(saved);
        return key_text_.back().c_str();
    }

    std::string out_;
    std::vector<step> work_;
    std::vector<place> places_;
    std::deque<std::string> key_text_;  // a deque: appending keeps earlier strings in place
};

}  // namespace

std::string to_json_notation(std::string_view wire, json_floats floats) {
    const std::vector<bool> needs = objects_needing_members(wire);
    std::string out;
    out.reserve(wire.size() + wire.size() / 4);
    struct open_container {
        bool object;
        bool members;
        bool expect_key;
    };
    std::vector<open_container> open;
    std::size_t next_object = 0;
    wire_tokens tokens(wire);
    while (!tokens.done()) {
        const token t = tokens.next();
        const bool in_members = !open.empty() && open.back().members;
        switch (t.kind) {
            case token_kind::open_array:
                out += '[';
                open.push_back({false, false, false});
                break;
            case token_kind::open_object: {
                const bool members = next_object < needs.size() && needs[next_object];
                ++next_object;
                out += members ? "{\"$members\":[" : "{";
                open.push_back({true, members, true});
                break;
            }
            case token_kind::close_array:
                out += ']';
                if (!open.empty()) open.pop_back();
                break;
            case token_kind::close_object:
                if (in_members) {
                    // "]" closes the last pair unless the object was empty.
                    out += out.back() == '[' ? "]}" : "]]}";
                } else {
                    out += '}';
                }
                if (!open.empty()) open.pop_back();
                break;
            case token_kind::comma:
                if (in_members) {
                    out += "],";
                    open.back().expect_key = true;
                } else {
                    out += ',';
                    if (!open.empty() && open.back().object) open.back().expect_key = true;
                }
                break;
            case token_kind::colon: out += in_members ? "," : ":"; break;
            case token_kind::string: {
                const bool key = !open.empty() && open.back().object && open.back().expect_key;
                if (key) {
                    open.back().expect_key = false;
                    if (in_members) out += '[';
                }
                if (is_utf8(t.bytes)) {
                    append_json_string(out, t.bytes);
                } else {
                    out += "{\"$string\":\"" + hex_of(t.bytes) + "\"}";
                }
                break;
            }
            case token_kind::scalar: append_scalar(out, t.text, floats); break;
        }
    }
    return out;
}

std::string from_json_notation(const nlohmann::json& value) { return json_to_wire().run(value); }

}  // namespace sinkcheck::conform
