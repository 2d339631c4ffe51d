// Selecting vectors, running them, classifying the outcomes (run.hpp).
#include "sinkcheck/conform/run.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "sinkcheck/conform/arguments.hpp"
#include "sinkcheck/detail/hex.hpp"
#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/detail/walk.hpp"
#include "sinkcheck/error.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;

std::size_t index_of(result r) { return static_cast<std::size_t>(r); }

/// What a verdict keeps of the encoder's output and stderr after classification.
constexpr std::size_t kept_output = 4096;
constexpr std::size_t kept_stderr = 8192;

bool selected(const test_vector& v, run_level level) {
    if (v.negative()) return true;  // refusals apply at every level
    switch (level) {
        case run_level::exact: return (v.levels & (level_exact | level_equivalent)) != 0;
        case run_level::canonical: return (v.levels & (level_canonical | level_equivalent)) != 0;
        case run_level::equivalent: return (v.levels & (level_exact | level_equivalent)) != 0;
    }
    return false;
}

bool strict_at(const test_vector& v, run_level level) {
    if (level == run_level::exact) return (v.levels & level_exact) != 0;
    if (level == run_level::canonical) return (v.levels & level_canonical) != 0;
    return false;
}

/// "type_error.316" from a refusal message, or "" when it names no category.
std::string category_in(const std::string& message) {
    static const std::regex re("(type_error|out_of_range|parse_error|other_error|invalid_iterator)\\.([0-9]+)");
    std::smatch m;
    if (std::regex_search(message, m, re)) return m.str(1) + "." + m.str(2);
    return "";
}

using testkit::hex_window;

/// The annotated decode around the item marked `>>`: the item on line `marked`, or when no line
/// is marked (no_line) the one holding byte `at`.
std::string annotated_window(format f, const std::vector<std::uint8_t>& b, std::size_t at, const decoded& d,
                             std::size_t marked) {
    std::string out;
    const std::size_t focus = marked < d.lines.size() ? d.lines[marked].offset : at;
    const std::size_t lo = focus > 48 ? focus - 48 : 0;
    const std::size_t hi = focus + 48;
    std::size_t shown = 0;
    bool skipped = false;
    for (std::size_t i = 0; i < d.lines.size(); ++i) {
        const annotation& a = d.lines[i];
        const std::size_t end = a.offset + std::max<std::size_t>(a.length, 1);
        if (end <= lo || a.offset > hi) {
            skipped = true;
            continue;
        }
        if (shown == 0 && skipped) out += "    ...\n";
        if (++shown > 16) {
            out += "    ...\n";
            break;
        }
        char buf[32];
        std::snprintf(buf, sizeof buf, "%06zx  ", a.offset);
        std::string bytes = to_hex(b.data() + a.offset, std::min<std::size_t>(a.length, 8));
        if (a.length > 8) bytes += "..";
        bytes.resize(std::max<std::size_t>(bytes.size(), 18), ' ');
        const bool here = marked < d.lines.size() ? i == marked : at >= a.offset && at < end;
        out += (here ? ">>" : "  ") + std::string(buf) + bytes + " " + std::string(2 * a.depth, ' ') + a.text + "\n";
    }
    if (!d.ok) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%06zx  ", d.error_offset);
        out += "!!" + std::string(buf) + "not " + std::string(format_name(f)) + ": " + d.error + "\n";
    }
    return out;
}

// ---- difference classes ---------------------------------------------------------------------
//
// A class names the root cause of a difference, so that one cause is one class however the
// value around it looks (and --generate's shrinking, which keeps a smaller value only when it
// fails in the same class, can get down to the cause). When the values differ, the class comes
// from the first place where they do (a JSON pointer, keys in sorted order), whatever the bytes
// before it; when they are equal, from the first item, in value order, that is encoded another
// way, and key order only when every item is encoded alike. docs/conformance.md, "Results".

/// A class and the item to mark on each side (no_line: the item holding the first differing byte).
struct classified {
    std::string name;
    std::size_t expect_line = no_line;
    std::size_t actual_line = no_line;
};

/// The whole input is an integer literal beyond 64 bits, which nlohmann's model holds as the
/// nearest double (formats.md §1).
bool literal_beyond_64_bits(const test_vector& v) {
    const std::string& text = v.input_text;
    return v.input.value.is_number_float() && !text.empty() &&
           text.find_first_not_of("0123456789", text[0] == '-' ? 1 : 0) == std::string::npos;
}

/// How two items that stand for equal values (or are the first to differ) differ in encoding,
/// from their annotations.
std::string item_class(const test_vector& v, const std::string& e, const std::string& a) {
    auto has = [](const std::string& s, const char* w) { return s.find(w) != std::string::npos; };
    if (e == a) {
        // Same item, a head of another width.
        if (has(e, "tag")) return "tag head width";
        return "head width";
    }
    auto is_float = [&](const std::string& t) {
        return has(t, "float") || has(t, "double ") || has(t, "binary32") || has(t, "binary64") || t == "+0.0" ||
               t == "-1.0" || t == "+1.0";
    };
    auto is_int = [&](const std::string& t) {
        return has(t, "unsigned ") || has(t, "negative ") || has(t, "fixint") || has(t, "uint ") || has(t, "int ") ||
               has(t, "int32") || has(t, "int64") || has(t, "integer");
    };
    if (has(e, "key") && has(a, "key")) return "key order";
    if (is_float(e) && is_float(a)) return "float width";
    if (literal_beyond_64_bits(v)) return "integer beyond 64 bits";
    if (is_float(e) && is_int(a)) return "integer packing of whole doubles";
    if (is_int(e) && is_int(a)) return "integer width";
    if (has(e, "tag") || has(a, "tag")) return "tag encoding";
    if (has(e, "(*)") || has(a, "(*)")) return "indefinite length";
    return "other";
}

/// The class of the first item, in the order written, that differs: what every difference was
/// classed by before values were compared, now the last resort (no-op markers, decodes cut
/// at max_lines).
classified first_differing_item(const test_vector& v, const decoded& expect, const decoded& actual) {
    std::size_t i = 0;
    while (i < expect.lines.size() && i < actual.lines.size() && expect.lines[i].text == actual.lines[i].text &&
           expect.lines[i].length == actual.lines[i].length) {
        ++i;
    }
    if (i >= expect.lines.size() || i >= actual.lines.size()) return {"length or structure"};
    return {item_class(v, expect.lines[i].text, actual.lines[i].text), i, i};
}

/// The items of an annotated decode arranged by value: each container's members in the order
/// written, each object member's key item, each value's further items (tag content, end marker).
class item_tree {
public:
    struct owned {
        std::vector<std::size_t> members;
        std::vector<std::size_t> keys;
        std::vector<std::size_t> parts;
    };

    explicit item_tree(const decoded& d) : d_(d) {
        for (std::size_t i = 0; i < d.lines.size(); ++i) {
            const annotation& a = d.lines[i];
            if (a.role == item_role::filler) continue;
            if (a.owner == no_line) {
                if (a.role == item_role::head && root_ == no_line) root_ = i;
                continue;
            }
            owned& o = owned_[a.owner];
            (a.role == item_role::head ? o.members : a.role == item_role::key ? o.keys : o.parts).push_back(i);
        }
    }

    std::size_t root() const { return root_; }
    const annotation& line(std::size_t i) const { return d_.lines[i]; }
    const owned& of(std::size_t head) const {
        static const owned none;
        const auto it = owned_.find(head);
        return it == owned_.end() ? none : it->second;
    }
    /// The key item of member m of the object headed on line `head`, or no_line.
    std::size_t key_of(std::size_t head, std::size_t m) const {
        for (const std::size_t k : of(head).keys) {
            if (line(k).member == m) return k;
        }
        return no_line;
    }

    /// The head of the value at a JSON pointer, or of the innermost value on its way there that
    /// this decode holds (a member that only the other side has: its object).
    std::size_t find(const std::string& pointer) const {
        std::size_t at = root_;
        std::size_t i = 0;
        while (at != no_line && i < pointer.size() && pointer[i] == '/') {
            std::string token;
            for (++i; i < pointer.size() && pointer[i] != '/'; ++i) {
                if (pointer[i] == '~' && i + 1 < pointer.size()) {
                    token += pointer[++i] == '1' ? '/' : '~';  // RFC 6901 §4
                } else {
                    token += pointer[i];
                }
            }
            const owned& o = of(at);
            std::size_t next = no_line;
            if (line(at).object) {
                for (const std::size_t m : o.members) {
                    if (line(m).key == token) next = m;
                }
            } else if (!token.empty() && token.find_first_not_of("0123456789") == std::string::npos &&
                       token.size() < 19 && std::stoull(token) < o.members.size()) {
                next = o.members[std::stoull(token)];
            }
            if (next == no_line) break;
            at = next;
        }
        return at;
    }

private:
    const decoded& d_;
    std::size_t root_ = no_line;
    std::map<std::size_t, owned> owned_;
};

/// For two encodings of equal values: the first item, in value order (pre-order, members as
/// the expected bytes order them, an object's keys before its members' values), encoded another
/// way; else the first object whose members are written in another order; else nothing.
std::optional<classified> first_encoding_difference(const test_vector& v, const item_tree& e, const item_tree& a) {
    if (e.root() == no_line || a.root() == no_line) return std::nullopt;
    const auto differ = [&](std::size_t x, std::size_t y) {
        return e.line(x).text != a.line(y).text || e.line(x).length != a.line(y).length;
    };
    const auto item = [&](std::size_t x, std::size_t y) {
        return classified{item_class(v, e.line(x).text, a.line(y).text), x, y};
    };
    std::optional<classified> order;
    std::vector<std::pair<std::size_t, std::size_t>> todo{{e.root(), a.root()}};
    while (!todo.empty()) {
        const auto [ei, ai] = todo.back();
        todo.pop_back();
        if (differ(ei, ai)) return item(ei, ai);
        const item_tree::owned& eo = e.of(ei);
        const item_tree::owned& ao = a.of(ai);
        for (std::size_t k = 0; k < eo.parts.size() && k < ao.parts.size(); ++k) {
            if (differ(eo.parts[k], ao.parts[k])) return item(eo.parts[k], ao.parts[k]);
        }
        if (eo.parts.size() != ao.parts.size() || eo.members.size() != ao.members.size()) {
            return classified{"length or structure", ei, ai};
        }
        const std::size_t first_child = todo.size();
        if (e.line(ei).object) {
            std::map<std::string, std::size_t> written;  // the actual side's members: name -> place
            for (std::size_t m = 0; m < ao.members.size(); ++m) written.emplace(a.line(ao.members[m]).key, m);
            for (std::size_t m = 0; m < eo.members.size(); ++m) {
                const auto it = written.find(e.line(eo.members[m]).key);
                if (it == written.end()) return classified{"length or structure", eo.members[m], ai};
                const std::size_t ek = e.key_of(ei, m);
                const std::size_t ak = a.key_of(ai, it->second);
                if (ek != no_line && ak != no_line && differ(ek, ak)) return item(ek, ak);
                if (!order && it->second != m) {
                    order = classified{"key order", ek != no_line ? ek : eo.members[m],
                                       ak != no_line ? ak : ao.members[it->second]};
                }
                todo.emplace_back(eo.members[m], ao.members[it->second]);
            }
        } else {
            for (std::size_t m = 0; m < eo.members.size(); ++m) todo.emplace_back(eo.members[m], ao.members[m]);
        }
        std::reverse(todo.begin() + static_cast<std::ptrdiff_t>(first_child), todo.end());
    }
    return order;
}

/// The kind of a decoded value, as the classes name it. CBOR bignums (binary subtypes 2 and 3
/// after to_cbor_number_space) are integers: RFC 8949 §3.4.3.
const char* kind_of(format f, const json& j) {
    switch (j.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return "boolean";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned: return "integer";
        case json::value_t::number_float: return "float";
        case json::value_t::string: return "string";
        case json::value_t::binary: {
            const auto& b = j.get_binary();
            const bool bignum = f == format::cbor && b.has_subtype() && (b.subtype() == 2 || b.subtype() == 3);
            return bignum ? "integer" : "binary";
        }
        case json::value_t::array: return "array";
        case json::value_t::object: return "object";
        case json::value_t::discarded: break;
    }
    return "discarded";
}

/// Whether integer i (an integer kind, or a CBOR bignum) is the value of the double d: a whole
/// double written as an integer. -0.0 is the integer 0 here (its sign is what the packing loses).
bool is_whole_double(const json& d, const json& i) {
    const double x = d.get<double>();
    if (!std::isfinite(x) || std::trunc(x) != x) return false;
    if (i.is_number_unsigned()) return x >= 0 && x < 18446744073709551616.0 && static_cast<std::uint64_t>(x) == i;
    if (i.is_number_integer()) {
        return x >= -9223372036854775808.0 && x < 9223372036854775808.0 &&
               static_cast<std::int64_t>(x) == i.get<std::int64_t>();
    }
    if (!i.is_binary() || std::fabs(x) < 18446744073709551616.0) return false;  // a bignum holds more than 64 bits
    const auto& n = i.get_binary();
    if ((n.subtype() == 3) != (x < 0)) return false;
    // |x| = mantissa * 2^(exponent - 53), written out big-endian; tag 3 holds |x| - 1.
    int exponent = 0;
    const auto mantissa = static_cast<std::uint64_t>(std::ldexp(std::frexp(std::fabs(x), &exponent), 53));
    std::vector<std::uint8_t> magnitude(static_cast<std::size_t>(exponent + 7) / 8);
    for (int bit = 0; bit < 53; ++bit) {
        if (((mantissa >> bit) & 1) == 0) continue;
        const int at = bit + exponent - 53;
        magnitude[magnitude.size() - 1 - static_cast<std::size_t>(at / 8)] |= static_cast<std::uint8_t>(1u << (at % 8));
    }
    if (n.subtype() == 3) {
        for (auto b = magnitude.rbegin(); b != magnitude.rend() && (*b)-- == 0; ++b) {}
    }
    magnitude.erase(magnitude.begin(),
                    std::find_if(magnitude.begin(), magnitude.end(), [](std::uint8_t b) { return b != 0; }));
    return magnitude == static_cast<const std::vector<std::uint8_t>&>(n);
}

/// Where two unequal values first differ: a pointer and the values there, nullptr for a member
/// only the other side has.
struct value_split {
    std::string pointer;
    const json* expected;
    const json* actual;
};

value_split first_value_split(const json& expected, const json& actual) {
    const auto d = testkit::first_value_difference(testkit::same_representation, expected, actual);
    value_split s{d ? d->pointer : std::string(), d ? d->original : &expected, d ? d->decoded : &actual};
    // Objects with other member sets: the first member (in key order) only one side has.
    const json* const e = s.expected;
    const json* const a = s.actual;
    if (e != nullptr && a != nullptr && e->is_object() && a->is_object()) {
        for (const json* side : {e, a}) {
            const json* other = side == e ? a : e;
            for (auto it = side->begin(); it != side->end(); ++it) {
                if (other->contains(it.key())) continue;
                sinkcheck::detail::append_pointer_token(s.pointer, it.key());
                s.expected = side == e ? &it.value() : nullptr;
                s.actual = side == e ? nullptr : &it.value();
                return s;
            }
        }
    }
    return s;
}

/// The class of a difference of value at s.
std::string value_class(format f, const test_vector& v, const value_split& s) {
    if (s.expected == nullptr || s.actual == nullptr) return "length or structure";
    const std::string e = kind_of(f, *s.expected);
    const std::string a = kind_of(f, *s.actual);
    if (e == a) return e == "array" || e == "object" ? "length or structure" : "different value: " + e;
    if (e == "float" && a == "integer") {
        if (s.pointer.empty() && literal_beyond_64_bits(v)) return "integer beyond 64 bits";
        if (is_whole_double(*s.expected, *s.actual)) return "integer packing of whole doubles";
    }
    return "different type";
}

/// The class of output that decodes to `actual` but not exactly to the expected bytes, with the
/// items to mark. refs[0] is the expected bytes' value, then the alternatives' (ok == false:
/// not decodable).
classified classify_difference(const test_vector& v, const std::vector<decoded_value>& refs, const json& actual,
                               const decoded& de, const decoded& da, bool truncated, std::string& where) {
    const item_tree e(de);
    const item_tree a(da);
    if (refs[0].ok && same_value(refs[0].value, actual)) {
        if (!truncated) {
            if (auto c = first_encoding_difference(v, e, a)) return *c;
        }
        return first_differing_item(v, de, da);
    }
    // Against the reference whose value at the first difference is of the actual's kind, if any
    // (an integer beyond 64 bits written as a wrong integer: the listed integer, not nlohmann's
    // double); else the expected bytes'.
    std::optional<value_split> chosen;
    for (const decoded_value& ref : refs) {
        if (!ref.ok || same_value(ref.value, actual)) continue;  // a listed alternative it matches
        value_split s = first_value_split(ref.value, actual);
        const bool same_kind = s.expected != nullptr && s.actual != nullptr &&
                               std::string(kind_of(v.fmt, *s.expected)) == kind_of(v.fmt, *s.actual);
        if (!chosen || same_kind) chosen = std::move(s);
        if (same_kind) break;
    }
    if (!chosen) return {"different value"};  // the expected bytes do not decode: a corpus error
    where = chosen->pointer;
    return {value_class(v.fmt, v, *chosen), e.find(chosen->pointer), a.find(chosen->pointer)};
}

}  // namespace

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    auto escape = [&out](unsigned char b) {
        out += "\\x";
        detail::append_hex(out, b);
    };
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t bad = detail::utf8_invalid_at(text.data() + i, text.size() - i);
        const std::size_t valid_end = bad == detail::utf8_valid ? text.size() : i + bad;
        for (; i < valid_end; ++i) {
            const auto b = static_cast<unsigned char>(text[i]);
            // XML 1.0 has no C0 control but tab and newline (even as a reference), nor U+FFFE
            // and U+FFFF (EF BF BE, EF BF BF); TAP and the text report want none either.
            if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f) {
                escape(b);
            } else if (b == 0xef && i + 2 < valid_end && static_cast<unsigned char>(text[i + 1]) == 0xbf &&
                       (static_cast<unsigned char>(text[i + 2]) & 0xfe) == 0xbe) {
                escape(b);
                escape(static_cast<unsigned char>(text[++i]));
                escape(static_cast<unsigned char>(text[++i]));
            } else {
                out += text[i];
            }
        }
        if (i < text.size()) escape(static_cast<unsigned char>(text[i++]));
    }
    return out;
}

const char* result_name(result r) noexcept {
    switch (r) {
        case result::pass: return "pass";
        case result::pass_equivalent: return "pass-equivalent";
        case result::fail: return "fail";
        case result::refused_correctly: return "refused-correctly";
        case result::crash: return "crash";
        case result::timeout: return "timeout";
        case result::unsupported: return "unsupported";
        case result::harness_error: return "harness-error";
    }
    return "?";
}

namespace {

vector_result classify_outcome(const test_vector& v, run_level level, const encode_outcome& o) {
    vector_result r;
    r.vector = &v;
    r.strict = strict_at(v, level);
    r.seconds = o.seconds;
    // Only the excerpt the reports show is kept, in buffers of its own size: a flood of 64 MiB
    // per vector must not stay behind in every verdict (issue 15: 751 MB after 9 vectors).
    r.stderr_text = printable(o.stderr_text.substr(0, kept_stderr));
    r.actual.assign(o.bytes.begin(),
                    o.bytes.begin() + static_cast<std::ptrdiff_t>(std::min(o.bytes.size(), kept_output)));
    r.actual_size = o.bytes.size();
    if (o.bytes.size() > kept_output) {
        r.actual_digest = fnv1a64(std::string_view(reinterpret_cast<const char*>(o.bytes.data()), o.bytes.size()));
    }
    using k = encode_outcome::kind;
    switch (o.what) {
        case k::crashed:
            r.verdict = result::crash;
            r.detail = o.message;
            return r;
        case k::timed_out:
            r.verdict = result::timeout;
            r.detail = o.message;
            return r;
        case k::unsupported:
            r.verdict = result::unsupported;
            r.detail = "declared unsupported" + (o.message.empty() ? std::string() : ": " + o.message);
            return r;
        case k::harness_error:
            r.verdict = result::harness_error;
            r.detail = o.message;
            return r;
        case k::output_limit:
            r.verdict = result::fail;
            r.detail = "output flood: " + o.message;
            return r;
        case k::protocol_error:
            r.verdict = result::fail;
            r.detail = "protocol violation: " + o.message;
            return r;
        case k::refused:
            if (!v.negative()) {
                r.verdict = result::fail;
                r.detail = "refused a valid value: " + o.message;
                r.difference = "refuses a valid value";
                return r;
            }
            if (const std::string c = category_in(o.message); !c.empty() && c != v.error) {
                r.verdict = result::fail;
                r.detail = "refused with " + c + ", expected " + v.error + ": " + o.message;
                r.difference = "refuses for another reason";
                return r;
            }
            r.verdict = result::refused_correctly;
            r.success = true;
            r.detail = o.message;
            return r;
        case k::output: break;
    }
    if (v.negative()) {
        r.verdict = result::fail;
        r.detail = "wrote " + std::to_string(o.bytes.size()) + " bytes for a value it must refuse (" + v.error + ")";
        r.difference = "writes a value it must refuse";
        if (o.bytes.size() <= 64) r.detail += ": " + to_hex(o.bytes);
        return r;
    }
    if (o.bytes == v.expect) {
        r.verdict = result::pass;
        r.success = true;
        return r;
    }
    // Where do the bytes part, and what do both sides decode to?
    const std::size_t at = testkit::first_difference(o.bytes, v.expect);
    r.first_diff = at;
    decode_limits lim;
    lim.build_value = false;
    lim.max_lines = 200000;
    const decoded de = decode_annotated(v.fmt, v.expect, lim);
    const decoded da = decode_annotated(v.fmt, o.bytes, lim);
    const bool truncated = de.lines.size() >= lim.max_lines || da.lines.size() >= lim.max_lines;
    // Same value as the expected bytes or as a listed alternative (an `equivalent` vector's exact
    // integer beside nlohmann's double): any encoding of either is the same answer. This is
    // decodes_to's judgement, with each side decoded once.
    const decoded_value va = decode_value(v.fmt, o.bytes);
    std::vector<decoded_value> refs{decode_value(v.fmt, v.expect)};
    for (const auto& alternative : v.alternatives) refs.push_back(decode_value(v.fmt, alternative));
    bool same = false;
    for (const decoded_value& ref : refs) same = same || (va.ok && ref.ok && same_value(ref.value, va.value));
    std::string where;  // the JSON pointer of the first difference of value
    const classified c =
        va.ok ? classify_difference(v, refs, va.value, de, da, truncated, where) : classified{"malformed output"};
    r.difference = c.name;
    r.diff_text =
        "expected: " + hex_window(v.expect, at, 16) + "\n" + annotated_window(v.fmt, v.expect, at, de, c.expect_line) +
        "actual:   " + hex_window(o.bytes, at, 16) + "\n" + annotated_window(v.fmt, o.bytes, at, da, c.actual_line);
    for (std::size_t i = 0; i < v.alternatives.size(); ++i) {
        if (o.bytes == v.alternatives[i]) {
            r.verdict = result::pass_equivalent;
            r.success = !r.strict;
            r.detail = "matches listed alternative " + std::to_string(i + 1) +
                       " (differs from the expected bytes at byte " + std::to_string(at) + ")";
            return r;
        }
    }
    if (same) {
        r.verdict = result::pass_equivalent;
        r.success = !r.strict;
        r.detail = "different bytes (from byte " + std::to_string(at) + "), same value (decoded by " + va.how + ")";
        return r;
    }
    r.verdict = result::fail;
    if (!va.ok) {
        r.detail = "differs at byte " + std::to_string(at) + "; the output does not decode: " + va.how;
    } else {
        r.detail = "differs at byte " + std::to_string(at) +
                   " and decodes to a different value: " + render_value(va.value, 120);
        if (!where.empty()) r.detail += " (the values part at " + where + ")";
    }
    return r;
}

}  // namespace

vector_result classify(const test_vector& v, run_level level, const declared_behaviour& declared,
                       const encode_outcome& o) {
    vector_result r = classify_outcome(v, level, o);
    r.detail = printable(r.detail);  // it may quote the encoder's stderr or refusal reason
    if (r.success || o.what != encode_outcome::kind::output ||
        (r.verdict != result::fail && r.verdict != result::pass_equivalent)) {
        return r;
    }
    const bool refusal_for_invalid_utf8 = v.error == "type_error." + std::to_string(error_id::invalid_utf8);
    if (const char* d =
            explained_by(declared, v.fmt, v.negative() ? nullptr : &v.expect, refusal_for_invalid_utf8, o.bytes)) {
        r.declared = d;
        r.expected_failure = true;
        r.expected_reason = declared_reason(r);
    }
    return r;
}

/// Asks the encoder for a failing value a second time. An encoder whose answers differ (Go's
/// map order, a timing-dependent buffer) would otherwise be blamed for whichever answer came
/// first, and the same finding regraded under another class on the next run: its value gets a
/// class of its own, with both answers in its detail. Returns whether the answers differed.
bool ask_again(encoder_session& session, const test_vector& v, run_level level, const declared_behaviour& declared,
               vector_result& first) {
    const vector_result second = classify(v, level, declared, send_vector(session, v));
    if (second.verdict == first.verdict && second.actual_size == first.actual_size && second.actual == first.actual &&
        second.actual_digest == first.actual_digest && second.difference == first.difference) {
        return false;
    }
    const auto answer = [](const vector_result& r) {
        std::string a = std::string(result_name(r.verdict));
        if (!r.difference.empty()) a += " (" + r.difference + ")";
        a += ", " + std::to_string(r.actual_size) + " bytes";
        if (r.actual_size > 0) a += " " + to_hex(r.actual.data(), std::min<std::size_t>(r.actual.size(), 24));
        return a;
    };
    first.detail = "asked twice, answered differently: first " + answer(first) + "; then " + answer(second) +
                   "; first answer's detail: " + first.detail;
    first.difference = nondeterministic_class;
    first.verdict = result::fail;
    first.success = false;
    return true;
}

bool worth_asking_again(const vector_result& r) {
    return !r.success && !r.declared && (r.verdict == result::fail || r.verdict == result::pass_equivalent);
}

void warn_nondeterministic(const run_summary& s) {
    if (s.nondeterministic == 0) return;
    std::fprintf(stderr,
                 "sinkcheck conform: warning: %zu failing value(s) got a different answer when asked again "
                 "(class '%s'): the encoder's output is not a function of the value\n",
                 s.nondeterministic, nondeterministic_class);
}

std::string default_corpus() {
    if (const char* env = std::getenv("SINKCHECK_CORPUS")) {
        if (*env == '\0') throw conform_error("SINKCHECK_CORPUS is set but empty: unset it, or name a corpus");
        return env;
    }
    // Installed: DATADIR/sinkcheck/conformance next to BINDIR, wherever the prefix was moved.
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
#ifdef SINKCHECK_CORPUS_INSTALLED
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / SINKCHECK_CORPUS_INSTALLED;
        if (fs::is_directory(installed, ec)) return installed.string();
    }
#endif
#ifdef SINKCHECK_CORPUS_DIR
    // A build tree: the source tree's corpus.
    if (fs::is_directory(SINKCHECK_CORPUS_DIR, ec)) return SINKCHECK_CORPUS_DIR;
#endif
    throw conform_error(
        "no built-in corpus: it is installed under share/sinkcheck/conformance next to the program's bin/; "
        "name one with --corpus or SINKCHECK_CORPUS");
}

namespace {

struct expected_entry {
    std::string reason;
    std::size_t line;
};

std::map<std::string, expected_entry> load_expected_failures(const std::string& path,
                                                             const std::set<std::string>& ids) {
    std::string text;
    try {
        text = read_small_file(path, "an expected-failures list");
    } catch (const corpus_error& e) {
        throw conform_error(e.what());
    }
    std::istringstream in(text);
    std::map<std::string, expected_entry> out;
    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        std::string reason;
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos) {
            reason = line.substr(hash + 1);
            line.resize(hash);
        }
        auto trim = [](std::string& s) {
            s.erase(0, s.find_first_not_of(" \t\r"));
            s.erase(s.find_last_not_of(" \t\r") + 1);
        };
        trim(line);
        trim(reason);
        if (line.empty()) continue;
        if (line.find_first_of(" \t") != std::string::npos) {
            throw conform_error(path + ":" + std::to_string(n) +
                                ": one vector id per line, then an optional '# reason'");
        }
        if (ids.count(line) == 0) {
            throw conform_error(path + ":" + std::to_string(n) + ": no vector of this format has the id '" + line +
                                "'");
        }
        if (!out.emplace(line, expected_entry{printable(reason), n}).second) {
            throw conform_error(path + ":" + std::to_string(n) + ": '" + line + "' is listed twice");
        }
    }
    return out;
}

}  // namespace

std::vector<vector_result> grade_vectors(const std::vector<test_vector>& vectors, run_level level,
                                         const declared_behaviour& declared, unsigned jobs_wanted,
                                         encoder_factory& factory) {
    std::vector<vector_result> results(vectors.size());
    std::atomic<std::size_t> next{0};
    const unsigned jobs =
        std::max(1u, std::min<unsigned>(jobs_wanted, static_cast<unsigned>(std::max<std::size_t>(1, vectors.size()))));
    std::atomic<bool> stop{false};
    std::mutex stop_mutex;
    std::string stop_message;
    // The vector before broke the protocol in a way its session noticed only later (batch: an
    // extra frame): it is graded for that, whatever its answer looked like.
    auto regrade = [&](std::size_t i, const std::string& violation) {
        encode_outcome late;
        late.what = encode_outcome::kind::protocol_error;
        late.message = violation;
        late.seconds = results[i].seconds;
        results[i] = classify(vectors[i], level, declared, late);
    };
    auto work = [&]() {
        std::unique_ptr<encoder_session> session = factory.open();
        std::size_t previous = vectors.size();  // the last vector this session ran
        try {
            for (;;) {
                const std::size_t i = stop.load() ? vectors.size() : next.fetch_add(1);
                if (i >= vectors.size()) break;
                const encode_outcome o = send_vector(*session, vectors[i]);
                if (!o.previous_violation.empty() && previous < vectors.size()) regrade(previous, o.previous_violation);
                results[i] = classify(vectors[i], level, declared, o);
                previous = i;
            }
            if (const std::string late = session->finish(); !late.empty() && previous < vectors.size()) {
                regrade(previous, late);
            }
        } catch (const run_stopped& e) {
            const std::lock_guard<std::mutex> lock(stop_mutex);
            if (!stop.exchange(true)) stop_message = e.what();
        }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
    if (stop.load()) throw conform_error(stop_message);
    return results;
}

encode_outcome send_vector(encoder_session& session, const test_vector& v) {
    encode_outcome o;
    try {
        o = session.encode(v);
    } catch (const run_stopped&) {
        throw;
    } catch (const std::exception& e) {
        o.what = encode_outcome::kind::harness_error;
        o.message = std::string("the runner failed: ") + e.what();
    }
    return o;
}

run_summary run_conformance(const conform_options& options, encoder_factory& factory) {
    run_summary s;
    s.options = options;
    s.encoder_description = factory.describe();
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<test_vector> all;
    try {
        s.corpus = options.corpus.empty() ? default_corpus() : options.corpus;
        all = load_corpus(s.corpus, options.fmt);
    } catch (const corpus_error& e) {
        throw conform_error(e.what());
    }
    bool any_canonical = false;
    std::set<std::string> ids;  // every id of the format, for the expected-failures list
    for (test_vector& v : all) {
        if (v.fmt != options.fmt) continue;
        ids.insert(v.id);
        if ((v.levels & level_canonical) != 0) any_canonical = true;
        if (!selected(v, options.level)) continue;
        if (!options.filters.empty() &&
            std::none_of(options.filters.begin(), options.filters.end(),
                         [&](const std::string& g) { return ::fnmatch(g.c_str(), v.id.c_str(), 0) == 0; })) {
            continue;
        }
        s.vectors.push_back(std::move(v));
    }
    if (s.vectors.empty()) {
        throw conform_error("no " + std::string(format_name(options.fmt)) + " vector matches the level and filters");
    }
    if (options.level == run_level::canonical && !any_canonical) {
        throw conform_error(std::string(format_name(options.fmt)) +
                            " defines no canonical encoding; use --level exact or --level equivalent");
    }
    std::map<std::string, expected_entry> expected;
    if (!options.expected_failures.empty()) expected = load_expected_failures(options.expected_failures, ids);

    const auto t1 = std::chrono::steady_clock::now();
    s.results = grade_vectors(s.vectors, options.level, options.declared, options.jobs, factory);
    // Every vector that fails by its answer is asked again, through a session of its own.
    std::unique_ptr<encoder_session> again;
    for (std::size_t i = 0; i < s.results.size(); ++i) {
        vector_result& r = s.results[i];
        if (!worth_asking_again(r)) continue;
        try {
            if (!again) again = factory.open();
            if (ask_again(*again, s.vectors[i], options.level, options.declared, r)) ++s.nondeterministic;
        } catch (const run_stopped& e) {
            throw conform_error(e.what());
        }
    }
    if (again) again->finish();
    warn_nondeterministic(s);
    s.encode_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();

    for (vector_result& r : s.results) {
        if (auto it = expected.find(r.vector->id); it != expected.end()) {
            r.expected_failure = true;
            r.expected_reason = it->second.reason;
        }
    }
    count_results(s);
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return s;
}

void unlisted_results::add(const vector_result& r) {
    ++values;
    ++counts[index_of(r.verdict)];
    if (r.success) {
        ++passed;
    } else if (r.declared) {
        ++declared;
    } else if (r.verdict != result::unsupported) {
        ++failing[index_of(r.verdict)];
    }
    if (!r.difference.empty()) ++(r.success ? differences_allowed : differences_failing)[r.difference];
}

void count_results(run_summary& s) {
    // What was only counted, none of it listed as expected.
    std::size_t unlisted_unsupported = s.unlisted.counts[index_of(result::unsupported)];
    s.unsupported += unlisted_unsupported;
    s.expected_failures += s.unlisted.declared;
    for (const result r : all_results) {
        s.counts[index_of(r)] += s.unlisted.counts[index_of(r)];
        s.failing[index_of(r)] += s.unlisted.failing[index_of(r)];
        s.failures += s.unlisted.failing[index_of(r)];
    }
    for (const vector_result& r : s.results) {
        ++s.counts[index_of(r.verdict)];
        if (r.verdict == result::unsupported) {
            ++s.unsupported;
            // A listed vector the encoder declares unsupported is what the list said: it does
            // not conform. The others are tolerated only up to --max-unsupported.
            if (r.expected_failure)
                ++s.unsupported_listed;
            else
                ++unlisted_unsupported;
        } else if (r.expected_failure) {
            if (r.success)
                ++s.unexpected_passes;
            else
                ++s.expected_failures;
        } else if (!r.success) {
            ++s.failures;
            ++s.failing[index_of(r.verdict)];
        }
    }
    // The budget is a threshold, not an allowance per vector: past it, every unlisted one is
    // undeclared, since nothing says which of them the user meant to tolerate.
    s.unsupported_allowed = s.options.max_unsupported.allowed(s.total());
    if (unlisted_unsupported <= s.unsupported_allowed)
        s.unsupported_tolerated = unlisted_unsupported;
    else
        s.unsupported_undeclared = unlisted_unsupported;
}

// ---- the command ----------------------------------------------------------------------------

const std::string_view conform_usage =
    "usage: sinkcheck conform --format F --encoder 'CMD ARGS' [options]\n"
    "\n"
    "Runs an encoder against the conformance corpus of format F and grades every vector:\n"
    "pass, pass-equivalent, fail, refused-correctly, crash, timeout, unsupported, harness-error.\n"
    "\n"
    "  --format F               {formats}\n"
    "  --encoder 'CMD ARGS'     the encoder process (split like a shell would, no expansions),\n"
    "                           or linked:NAME for a C++ encoder linked into this program\n"
    "  --mode per-vector|batch  one process per vector (default) or one process, framed\n"
    "  --notation token|json|json-decimal\n"
    "                           the value notation sent to the process: the corpus's tokens\n"
    "                           (default) or JSON that a stock parser reads whole (docs/cli.md),\n"
    "                           every double as {\"$float\": \"0x<bits>\"}; json-decimal: doubles\n"
    "                           in decimal, for a reader whose parser rounds correctly\n"
    "  --level exact|canonical|equivalent\n"
    "                           exact (default): the reference profile's bytes; canonical: the\n"
    "                           format's canonical bytes (CBOR, BON8); equivalent: any bytes that\n"
    "                           decode to the same value\n"
    "  --filter GLOB            only vector ids matching GLOB (repeatable)\n"
    "  --jobs N                 run N vectors at a time, 1 to 256 (default 1)\n"
    "  --timeout S              seconds per vector before the process group is killed,\n"
    "                           0.001 to 1000000 (default 10)\n"
    "  --max-output BYTES       stdout beyond this is a flood: killed, fail; 1 to 1073741824\n"
    "                           (default 16777216)\n"
    "  --expected-failures FILE one vector id per line, '# reason' after it: vectors expected\n"
    "                           to fail or to be declared unsupported\n"
    "  --write-expected-failures FILE\n"
    "                           list the vectors that do not conform there, in that form\n"
    "                           (unsupported ones with the reason 'unsupported: ...')\n"
    "  --max-unsupported N|P%   tolerate up to N (or P% of the vectors) declared unsupported\n"
    "                           without being listed; default 0: every one must be listed\n"
    "  --declare NAME           what the encoder does differently on purpose (repeatable):\n"
    "                           whole-floats-as-integers (a whole double written as an integer),\n"
    "                           writes-invalid-utf8 (strings written as bytes, valid or not); a\n"
    "                           failing answer one explains is an expected failure. A linked\n"
    "                           encoder's own declarations apply without it\n"
    "  --report text|json|junit|tap|html   (default text)\n"
    "  --output FILE            write the report there instead of stdout\n"
    "  --corpus PATH            a .vectors file or a directory of them (default: the built-in corpus)\n"
    "  --list-linked            list the linked encoders and exit\n"
    "\n"
    "Generated values instead of the corpus (docs/conformance.md, \"Generated values\"):\n"
    "  --generate N             grade N values from the test kit's value builder, 1 to 100000000;\n"
    "                           shrink each class of failure to a small value\n"
    "  --seed S                 the values' seed, 0 to 9999999999999999999 (default 1)\n"
    "  --profile default|hostile\n"
    "                           default: values the format holds and a JSON-like encoder can be\n"
    "                           asked for; hostile: also invalid UTF-8, discarded values, huge\n"
    "                           counts, deep nesting, and the refusals they call for\n"
    "  --save FILE              write each class's shrunk value there as a .vectors entry\n"
    "  --shrink-steps N         candidates tried per value shrunk, 0 to 10000000 (default 2000)\n"
    "  --shard I/N              grade only the values whose index is I-1 modulo N (N runs side\n"
    "                           by side, e.g. a CI matrix, grade the values of one run)\n"
    "\n"
    "  sinkcheck conform --merge A.json --merge B.json ... [--report text|json] [--output FILE]\n"
    "                           the JSON reports of every shard of one run, joined into one verdict\n"
    "\n"
    "Protocol and classification: docs/conformance.md. Exit status: 0 the encoder conforms\n"
    "(expected failures and declared unsupported values aside), 1 it does not (or an expected\n"
    "failure now passes, or more values are unsupported than declared), 2 usage or\n"
    "input error (a malformed vector file is reported as FILE:LINE: message), or an encoder\n"
    "that cannot be started or, in batch mode, answers nothing to its first request.\n"
    "Every option but --filter is given at most once.\n";

namespace {

/// Limits of the numeric options: past them a value would overflow the clock (a timeout of
/// 1e10 s is more nanoseconds than 63 bits hold) or ask the runner to hold more output than it
/// sensibly can; refusing them is clearer than a run where every vector times out at once.
constexpr double min_timeout = 0.001;
constexpr double max_timeout = 1e6;  // 11.6 days
constexpr std::size_t max_max_output = std::size_t{1} << 30;
constexpr std::uint64_t max_generate = 100000000;
constexpr std::uint64_t max_shards = 10000;
constexpr std::uint64_t max_seed = 9999999999999999999ULL;  // 19 digits: what parse_count reads
constexpr std::uint64_t max_shrink_steps = 10000000;

double parse_seconds(const std::string& option, const std::string& text) {
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (text.empty() || end == nullptr || *end != '\0' || !std::isfinite(d) || d < min_timeout || d > max_timeout) {
        throw conform_error(option + " is a number of seconds from 0.001 to 1000000, not '" + text + "'");
    }
    return d;
}

/// A decimal integer in [low, high], digits only (no sign, exponent or fraction).
std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t low, std::uint64_t high) {
    std::uint64_t n = 0;
    bool ok = !text.empty() && text.size() <= 19 && text.find_first_not_of("0123456789") == std::string::npos;
    if (ok) n = std::stoull(text);
    if (!ok || n < low || n > high) {
        throw conform_error(option + " is a whole number from " + std::to_string(low) + " to " + std::to_string(high) +
                            ", not '" + text + "'");
    }
    return n;
}

/// --max-unsupported: N, a whole number up to the most values a run can have, or P%, a
/// percentage from 0 to 100 with at most three decimals (kept in thousandths, so the budget is
/// computed in integers and 50% of 3 is exactly 1).
unsupported_budget read_unsupported_budget(const std::string& option, const std::string& text) {
    auto digits = [](const std::string& t, std::size_t max_size) {
        return !t.empty() && t.size() <= max_size && t.find_first_not_of("0123456789") == std::string::npos;
    };
    unsupported_budget b;
    b.text = text;
    bool ok = false;
    if (!text.empty() && text.back() == '%') {
        const std::string number = text.substr(0, text.size() - 1);
        const std::size_t dot = number.find('.');
        const std::string whole = number.substr(0, dot);
        std::string fraction = dot == std::string::npos ? "000" : number.substr(dot + 1);
        if (digits(whole, 3) && digits(fraction, 3)) {
            fraction.resize(3, '0');
            b.share = true;
            b.count = std::stoull(whole) * 1000 + std::stoull(fraction);
            ok = b.count <= 100000;
        }
    } else if (digits(text, 9)) {
        b.count = std::stoull(text);
        ok = b.count <= max_generate;
    }
    if (!ok) {
        throw conform_error(option + " is a whole number from 0 to " + std::to_string(max_generate) +
                            " or a percentage from 0% to 100% (at most three decimals), not '" + text + "'");
    }
    return b;
}

/// --declare NAME: one of all_declarations, spelled with '_' or '-'.
void declare(declared_behaviour& d, std::string name) {
    std::replace(name.begin(), name.end(), '-', '_');
    std::string known;
    for (const declaration& each : all_declarations) {
        if (name == each.name) {
            d.*each.member = true;
            return;
        }
        known += std::string(known.empty() ? "" : ", ") + each.name;
    }
    throw conform_error("--declare names one of " + known + ", not '" + name + "'");
}

/// Every option of `sinkcheck conform`, once: its name, whether it takes a value and may be
/// repeated, which runs it applies to, and what it sets. parse_arguments reads nothing else.
struct conform_option {
    enum class runs { any, corpus, generated };
    std::string_view name;
    bool takes_value;
    bool repeatable;
    runs applies_to;    // corpus options make no sense with --generate, generated-value ones without
    bool process_only;  // means nothing to a linked encoder: warned about and ignored
    void (*apply)(conform_options& o, const std::string& name, const std::string& value);
};

using runs = conform_option::runs;

void set_mode(conform_options& o, const std::string& /*name*/, const std::string& value) {
    if (value == "per-vector")
        o.mode = process_mode::per_vector;
    else if (value == "batch")
        o.mode = process_mode::batch;
    else
        throw conform_error("--mode is per-vector or batch");
}

void set_notation(conform_options& o, const std::string& /*name*/, const std::string& value) {
    if (value == "token")
        o.notation = wire_notation::token;
    else if (value == "json")
        o.notation = wire_notation::json;
    else if (value == "json-decimal")
        o.notation = wire_notation::json_decimal;
    else
        throw conform_error("--notation is token, json or json-decimal");
}

void set_report(conform_options& o, const std::string& /*name*/, const std::string& value) {
    static const std::map<std::string, report_kind> kinds = {{"text", report_kind::text},
                                                             {"json", report_kind::json},
                                                             {"junit", report_kind::junit},
                                                             {"tap", report_kind::tap},
                                                             {"html", report_kind::html}};
    const auto it = kinds.find(value);
    if (it == kinds.end()) throw conform_error("--report is text, json, junit, tap or html");
    o.report = it->second;
}

void set_shard(conform_options& o, const std::string& /*name*/, const std::string& value) {
    const std::size_t slash = value.find('/');
    if (slash == std::string::npos) throw conform_error("--shard is I/N (1 <= I <= N <= 10000), not '" + value + "'");
    o.generate.shard_count = parse_count("--shard's N", value.substr(slash + 1), 1, max_shards);
    o.generate.shard_index = parse_count("--shard's I", value.substr(0, slash), 1, o.generate.shard_count) - 1;
}

// clang-format off
const conform_option conform_options_table[] = {
    // name            value  repeat runs              process
    {"--format",        true,  false, runs::any,       false, [](conform_options& o, const std::string& /*n*/, const std::string& v) {
         const auto f = parse_format(v);
         if (!f) throw conform_error("unknown format '" + v + "' (" + format_names() + ")");
         o.fmt = *f; }},
    {"--encoder",       true,  false, runs::any,       false, [](conform_options& o, const std::string& /*n*/, const std::string& v) { o.encoder = v; }},
    {"--mode",          true,  false, runs::any,       true,  &set_mode},
    {"--notation",      true,  false, runs::any,       true,  &set_notation},
    {"--level",         true,  false, runs::any,       false, [](conform_options& o, const std::string& /*n*/, const std::string& v) {
         if (!parse_level(v, o.level)) throw conform_error("--level is exact, canonical or equivalent"); }},
    {"--filter",        true,  true,  runs::corpus,    false, [](conform_options& o, const std::string& /*n*/, const std::string& v) { o.filters.push_back(v); }},
    {"--jobs",          true,  false, runs::any,       false, [](conform_options& o, const std::string& n, const std::string& v) {
         o.jobs = static_cast<unsigned>(parse_count(n, v, 1, 256)); }},
    {"--timeout",       true,  false, runs::any,       true,  [](conform_options& o, const std::string& n, const std::string& v) {
         o.limits.timeout_seconds = parse_seconds(n, v); }},
    {"--max-output",    true,  false, runs::any,       true,  [](conform_options& o, const std::string& n, const std::string& v) {
         o.limits.max_output = parse_count(n, v, 1, max_max_output); }},
    {"--report",        true,  false, runs::any,       false, &set_report},
    {"--output",        true,  false, runs::any,       false, [](conform_options& o, const std::string& /*n*/, const std::string& v) { o.output = v; }},
    {"--corpus",        true,  false, runs::corpus,    false, [](conform_options& o, const std::string& /*n*/, const std::string& v) { o.corpus = v; }},
    {"--expected-failures", true, false, runs::corpus, false, [](conform_options& o, const std::string& /*n*/, const std::string& v) { o.expected_failures = v; }},
    {"--write-expected-failures", true, false, runs::corpus, false, [](conform_options& o, const std::string& /*n*/, const std::string& v) { o.write_expected_failures = v; }},
    {"--max-unsupported", true, false, runs::any,      false, [](conform_options& o, const std::string& n, const std::string& v) {
         o.max_unsupported = read_unsupported_budget(n, v); }},
    {"--declare",       true,  true,  runs::any,       false, [](conform_options& o, const std::string& /*n*/, const std::string& v) { declare(o.declared, v); }},
    {"--generate",      true,  false, runs::any,       false, [](conform_options& o, const std::string& n, const std::string& v) {
         o.generate.count = parse_count(n, v, 1, max_generate); }},
    {"--seed",          true,  false, runs::generated, false, [](conform_options& o, const std::string& n, const std::string& v) {
         o.generate.seed = parse_count(n, v, 0, max_seed); }},
    {"--profile",       true,  false, runs::generated, false, [](conform_options& o, const std::string& /*n*/, const std::string& v) {
         if (v != "default" && v != "hostile") throw conform_error("--profile is default or hostile");
         o.generate.hostile = v == "hostile"; }},
    {"--save",          true,  false, runs::generated, false, [](conform_options& o, const std::string& /*n*/, const std::string& v) { o.generate.save = v; }},
    {"--shrink-steps",  true,  false, runs::generated, false, [](conform_options& o, const std::string& n, const std::string& v) {
         o.generate.shrink_steps = parse_count(n, v, 0, max_shrink_steps); }},
    {"--shard",         true,  false, runs::generated, false, &set_shard},
    {"--merge",         true,  true,  runs::any,       false, [](conform_options& o, const std::string& /*n*/, const std::string& v) { o.merge.push_back(v); }},
    {"--list-linked",   false, false, runs::any,       false, [](conform_options& /*o*/, const std::string& /*n*/, const std::string& /*v*/) {}},
};
// clang-format on

conform_options parse_arguments(const std::vector<std::string>& args, bool& list_linked) {
    std::vector<arguments::option> grammar;
    for (const conform_option& each : conform_options_table) {
        grammar.push_back({each.name, each.takes_value, each.repeatable});
    }
    conform_options o;
    std::optional<arguments> parsed;
    try {
        parsed.emplace(args, grammar);
        parsed->expect_no_operands();
    } catch (const usage_error& e) {
        throw conform_error(e.what());
    }
    list_linked = parsed->has("--list-linked");
    const bool generating = parsed->has("--generate");
    for (const auto& [name, value] : parsed->given()) {
        const conform_option& each = *std::find_if(std::begin(conform_options_table), std::end(conform_options_table),
                                                   [&n = name](const conform_option& c) { return c.name == n; });
        // Generated values have no corpus to select from or list; the corpus has nothing to shrink.
        if (generating && each.applies_to == runs::corpus) {
            throw conform_error(name +
                                " applies to the corpus, not to --generate (save the findings with --save, then grade "
                                "them as a corpus)");
        }
        if (!generating && each.applies_to == runs::generated) throw conform_error(name + " needs --generate N");
        each.apply(o, name, value);
    }
    if (format saved = o.fmt; !o.generate.save.empty() && (!format_of_file(o.generate.save, saved) || saved != o.fmt)) {
        // what it writes is read back as a corpus, which knows a file's format by its name
        throw conform_error("--save " + o.generate.save + ": name the file " + std::string(format_name(o.fmt)) +
                            ".vectors or " + std::string(format_name(o.fmt)) + "-PART.vectors");
    }
    if (!o.merge.empty()) {
        for (const auto& given : parsed->given()) {
            const std::string& other = given.first;
            if (other != "--merge" && other != "--report" && other != "--output")
                throw conform_error(other + " does not apply to --merge (only --report text|json and --output do)");
        }
        if (o.report != report_kind::text && o.report != report_kind::json)
            throw conform_error("--merge writes a text or json report");
        return o;
    }
    if (!list_linked && (!parsed->has("--format") || !parsed->has("--encoder"))) {
        throw conform_error("--format and --encoder are required");
    }
    if (o.encoder.rfind("linked:", 0) == 0) {
        // A linked encoder runs in this process: no process to time out, kill or start per vector.
        for (const conform_option& each : conform_options_table) {
            if (each.process_only && parsed->has(each.name)) {
                std::fprintf(stderr, "sinkcheck conform: warning: %s does not apply to a linked encoder; ignored\n",
                             std::string(each.name).c_str());
            }
        }
    }
    return o;
}

/// The vectors that do not conform, as an expected-failures list that --expected-failures reads
/// back: the id, then the verdict and its one-line reason. Unsupported ones are listed too, their
/// reason starting "unsupported:", so that a reader of the list sees what was never graded.
void write_expected_failures(const run_summary& s, const std::string& path) {
    std::string list = "# " + std::string(format_name(s.options.fmt)) + " at level " + level_name(s.options.level) +
                       ": " + s.encoder_description + "\n";
    std::size_t n = 0;
    std::size_t unsupported = 0;
    const std::string declared = "declared unsupported: ";
    for (const vector_result& r : s.results) {
        if (r.success || r.declared) continue;  // the declaration says it already
        std::string why = r.difference.empty() ? r.detail : r.difference;
        if (r.verdict == result::unsupported) {
            if (why.rfind(declared, 0) == 0) why.erase(0, declared.size());
            ++unsupported;
        }
        std::string reason = std::string(result_name(r.verdict)) + ": " + why;
        std::replace(reason.begin(), reason.end(), '\n', ' ');
        if (reason.size() > 100) reason = reason.substr(0, 100) + "...";
        list += r.vector->id + "  # " + reason + "\n";
        ++n;
    }
    std::ofstream out(path, std::ios::binary);
    out << list;
    out.close();
    if (!out) throw conform_error(path + ": cannot write the expected-failures list");
    std::fprintf(stderr, "%s: %zu vectors listed as expected failures, %zu of them unsupported\n", path.c_str(), n,
                 unsupported);
}

}  // namespace

unsupported_budget parse_unsupported_budget(const std::string& option, const std::string& text) {
    return read_unsupported_budget(option, text);
}

int run_conform_command(const std::vector<std::string>& args) {
    for (const std::string& a : args) {
        if (a == "--help" || a == "-h") {
            std::fputs(with_format_names(conform_usage).c_str(), stdout);
            return 0;
        }
    }
    try {
        bool list_linked = false;
        conform_options o = parse_arguments(args, list_linked);
        if (!o.merge.empty()) return merge_reports(o.merge, o.report, o.output);
        if (list_linked) {
            for (const linked_encoder_info& info : linked_encoders()) {
                const std::string declares = declaration_names(info.declared);
                std::printf("linked:%-14s %s%s\n", info.name.c_str(), info.description.c_str(),
                            declares.empty() ? "" : (" (declares " + declares + ")").c_str());
            }
            return 0;
        }
        std::unique_ptr<encoder_factory> factory;
        if (o.encoder.rfind("linked:", 0) == 0) {
            const std::string name = o.encoder.substr(7);
            for (const linked_encoder_info& info : linked_encoders()) {
                if (info.name != name) continue;
                factory = make_linked_factory(info);
                for (const declaration& each : all_declarations) {
                    if (info.declared.*each.member) o.declared.*each.member = true;
                }
            }
            if (!factory) throw conform_error("no linked encoder '" + name + "' (see --list-linked)");
        } else {
            try {
                factory = make_process_factory(o.encoder, o.mode, o.limits, o.notation);
            } catch (const std::invalid_argument& e) {
                throw conform_error(std::string("--encoder: ") + e.what());
            }
        }
        const run_summary s = o.generate.count != 0 ? run_generated(o, *factory) : run_conformance(o, *factory);
        const std::string report = render_report(s);
        if (o.output.empty()) {
            std::fwrite(report.data(), 1, report.size(), stdout);
            std::fflush(stdout);
        } else {
            std::ofstream out(o.output, std::ios::binary);
            out << report;
            out.close();
            if (!out) {
                std::fprintf(stderr, "sinkcheck conform: cannot write %s\n", o.output.c_str());
                return 2;
            }
            std::fprintf(stderr,
                         "%s: %zu of %zu graded, %zu failing, %zu expected failures, %zu unexpected passes, %zu "
                         "unsupported (%zu not declared)\n",
                         o.output.c_str(), s.graded(), s.total(), s.failures, s.expected_failures, s.unexpected_passes,
                         s.unsupported, s.unsupported_undeclared);
        }
        if (!o.write_expected_failures.empty()) write_expected_failures(s, o.write_expected_failures);
        return s.conforms() ? 0 : 1;
    } catch (const conform_error& e) {
        std::fprintf(stderr, "sinkcheck conform: %s\n", e.what());
        return 2;
    }
}

}  // namespace sinkcheck::conform
