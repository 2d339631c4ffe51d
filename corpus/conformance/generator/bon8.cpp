// bon8.cpp — the BON8 vectors: bytes from a model of the spec, with the spec's own examples
// written by hand.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "generator.hpp"
#include "sinkcheck/conform/corpus.hpp"

namespace corpus_gen {

namespace conform = sinkcheck::conform;

namespace {

// ---------------------------------------------------------------------------------------------
// BON8, from the encoding table and rules of formats.md §7 (BON8 spec revision C, offset
// integer forms, byte-level string termination, NaN as 8e7f800001, exact-only binary32).

class bon8_model {
public:
    bytes encode(const json& j) {
        out_.clear();
        open_string_ = false;
        write(j);
        if (open_string_) out_.push_back(0xff);  // the message ends after a non-empty string
        return out_;
    }

private:
    void item(std::initializer_list<std::uint8_t> b) {
        out_.insert(out_.end(), b);
        open_string_ = false;
    }

    void string(const std::string& s) {
        // A string needs 0xff when it is empty, when the next byte starts another string, or
        // when the message ends.
        if (open_string_) out_.push_back(0xff);
        if (s.empty()) {
            out_.push_back(0xff);
            open_string_ = false;
            return;
        }
        out_.insert(out_.end(), s.begin(), s.end());
        open_string_ = true;
    }

    void integer(std::int64_t v) {
        if (v >= 0 && v <= 39) return item({static_cast<std::uint8_t>(0x90 + v)});
        if (v >= -10 && v <= -1) return item({static_cast<std::uint8_t>(0xb8 + (-1 - v))});
        if (v >= 40 && v <= 3879) {
            const auto u = static_cast<std::uint64_t>(v - 40);
            return item({static_cast<std::uint8_t>(0xc2 + (u >> 7)), static_cast<std::uint8_t>(u & 0x7f)});
        }
        if (v >= 3880 && v <= 528167) {
            const auto u = static_cast<std::uint64_t>(v - 3880);
            return item({static_cast<std::uint8_t>(0xe0 + (u >> 15)), static_cast<std::uint8_t>((u >> 8) & 0x7f),
                         static_cast<std::uint8_t>(u)});
        }
        if (v >= 528168 && v <= 67637031) {
            const auto u = static_cast<std::uint64_t>(v - 528168);
            return item({static_cast<std::uint8_t>(0xf0 + (u >> 23)), static_cast<std::uint8_t>((u >> 16) & 0x7f),
                         static_cast<std::uint8_t>(u >> 8), static_cast<std::uint8_t>(u)});
        }
        if (v <= -11 && v >= -1930) {
            const auto u = static_cast<std::uint64_t>(-11 - v);
            return item({static_cast<std::uint8_t>(0xc2 + (u >> 6)), static_cast<std::uint8_t>(0xc0 + (u & 0x3f))});
        }
        if (v <= -1931 && v >= -264074) {
            const auto u = static_cast<std::uint64_t>(-1931 - v);
            return item({static_cast<std::uint8_t>(0xe0 + (u >> 14)),
                         static_cast<std::uint8_t>(0xc0 + ((u >> 8) & 0x3f)), static_cast<std::uint8_t>(u)});
        }
        if (v <= -264075 && v >= -33818506) {
            const auto u = static_cast<std::uint64_t>(-264075 - v);
            return item({static_cast<std::uint8_t>(0xf0 + (u >> 22)),
                         static_cast<std::uint8_t>(0xc0 + ((u >> 16) & 0x3f)), static_cast<std::uint8_t>(u >> 8),
                         static_cast<std::uint8_t>(u)});
        }
        const auto u = static_cast<std::uint64_t>(v);
        if (v >= INT32_MIN && v <= INT32_MAX) {
            return item({0x8c, static_cast<std::uint8_t>(u >> 24), static_cast<std::uint8_t>(u >> 16),
                         static_cast<std::uint8_t>(u >> 8), static_cast<std::uint8_t>(u)});
        }
        out_.push_back(0x8d);
        for (int i = 7; i >= 0; --i) out_.push_back(static_cast<std::uint8_t>(u >> (8 * i)));
        open_string_ = false;
    }

    void number(double d) {
        if (d == -1.0) return item({0xfb});
        if (d == 0.0 && !std::signbit(d)) return item({0xfc});
        if (d == 1.0) return item({0xfd});
        if (std::isnan(d)) return item({0x8e, 0x7f, 0x80, 0x00, 0x01});
        if (float32_exact(d)) {
            const std::uint32_t b = bits_of(static_cast<float>(d));
            return item({0x8e, static_cast<std::uint8_t>(b >> 24), static_cast<std::uint8_t>(b >> 16),
                         static_cast<std::uint8_t>(b >> 8), static_cast<std::uint8_t>(b)});
        }
        const std::uint64_t b = bits_of(d);
        out_.push_back(0x8f);
        for (int i = 7; i >= 0; --i) out_.push_back(static_cast<std::uint8_t>(b >> (8 * i)));
        open_string_ = false;
    }

    void write(const json& j) {
        switch (j.type()) {
            case json::value_t::null: return item({0xfa});
            case json::value_t::boolean: return item({static_cast<std::uint8_t>(j.get<bool>() ? 0xf9 : 0xf8)});
            case json::value_t::number_integer: return integer(j.get<std::int64_t>());
            case json::value_t::number_unsigned: {
                const std::uint64_t u = j.get<std::uint64_t>();
                if (u > INT64_MAX) die("BON8 model: unsigned above INT64_MAX has no encoding");
                return integer(static_cast<std::int64_t>(u));
            }
            case json::value_t::number_float: return number(j.get<double>());
            case json::value_t::string: return string(j.get_ref<const std::string&>());
            case json::value_t::array:
                if (j.size() <= 4)
                    item({static_cast<std::uint8_t>(0x80 + j.size())});
                else
                    item({0x85});
                for (const json& e : j) write(e);
                if (j.size() > 4) item({0xfe});
                return;
            case json::value_t::object:
                if (j.size() <= 4)
                    item({static_cast<std::uint8_t>(0x86 + j.size())});
                else
                    item({0x8b});
                for (auto it = j.begin(); it != j.end(); ++it) {
                    string(it.key());
                    write(it.value());
                }
                if (j.size() > 4) item({0xfe});
                return;
            case json::value_t::binary: {
                // No binary type in BON8: nlohmann's bon8.md page writes the byte values as an array.
                json a = json::array();
                for (std::uint8_t b : j.get_binary()) a.push_back(b);
                return write(a);
            }
            default: die("BON8 model: no encoding for " + std::string(j.type_name()));
        }
    }

    bytes out_;
    bool open_string_ = false;
};

std::string bon8_int_rule(std::int64_t v) {
    if (v >= 0 && v <= 39) return "one-byte integer 0x90+n (0..39)";
    if (v >= -10 && v <= -1) return "one-byte integer 0xb8+(-1-n) (-1..-10)";
    if (v >= 40 && v <= 3879) return "two-byte positive integer C2-DF 00-7F, offset 40";
    if (v >= 3880 && v <= 528167) return "three-byte positive integer E0-EF 00-7F xx, offset 3880";
    if (v >= 528168 && v <= 67637031) return "four-byte positive integer F0-F7 00-7F xx xx, offset 528168";
    if (v <= -11 && v >= -1930) return "two-byte negative integer C2-DF C0-FF, offset -11";
    if (v <= -1931 && v >= -264074) return "three-byte negative integer E0-EF C0-FF xx, offset -1931";
    if (v <= -264075 && v >= -33818506) return "four-byte negative integer F0-F7 C0-FF xx xx, offset -264075";
    if (v >= INT32_MIN && v <= INT32_MAX) return "int32 0x8c, big-endian, outside the short forms";
    return "int64 0x8d, big-endian, outside int32";
}

}  // namespace

void add_bon8(vector_file& f) {
    bon8_model model;
    const char* spec = "BON8 spec rev. C encoding table (formats.md §7.1)";
    auto add = [&](const std::string& id, const std::string& input, const std::string& rule, const std::string& source,
                   const std::string& hand = "") -> entry& {
        entry& e = f.add(id, input, rule, source);
        const bytes m = model.encode(parse(input));
        if (!hand.empty() && conform::parse_hex(hand) != m) {
            die(e.id + ": hand-written " + hand + " but the BON8 model gives " + conform::to_hex(m));
        }
        e.hand = hand.empty() ? conform::compact_hex(m) : hand;
        e.from_model = true;
        e.level = "exact canonical";
        return e;
    };

    f.section("examples from the BON8 spec and PR #2998's tests, written by hand");
    add("spec/string-ab", "\"ab\"", "a string at the end of the message is terminated by ff",
        "BON8 spec rev. C, examples", "6162ff");
    add("spec/array-ab-bc", "[\"ab\",\"bc\"]", "a string followed by a string is terminated",
        "BON8 spec rev. C, examples", "826162ff6263ff");
    add("spec/array-five-strings", "[\"a\",\"b\",\"c\",\"d\",\"e\"]",
        "five elements: 85 ... fe; the last string is ended by fe", "BON8 spec rev. C, examples",
        "8561ff62ff63ff64ff65fe");
    add("spec/object-ab-bc", "{\"ab\":1,\"bc\":2}", "keys end at the integer that follows",
        "BON8 spec rev. C, examples", "88616291626392");
    add("spec/object-empty-key", "{\"\":1,\"a\":2}", "the empty key is ff", "BON8 spec rev. C, examples", "88ff916192");
    add("spec/nested-array-strings", "{\"a\":[\"b\",\"c\"],\"d\":1}",
        "a string followed by a string across a container boundary is terminated (the spec prints 88618262636491, "
        "contradicting its rule)",
        "BON8 spec rev. C rule text; ambiguity 7.4.3 resolved by the rule (formats.md §7.4)", "88618262ff63ff6491");
    add("spec/nested-then-string", "[[\"a\"],\"b\"]", "byte-level termination: \"a\" is followed by the string \"b\"",
        "BON8 spec rev. C rule text (formats.md §7.4.2, byte-level; PR #2998 writes 82816162ff)", "828161ff62ff");
    add("pr/67637032", "67637032", "just above the four-byte form: int32", "PR #2998 unit-bon8.cpp", "8c04080f28");
    add("pr/-33818507", "-33818507", "just below the four-byte negative form: int32", "PR #2998 unit-bon8.cpp",
        "8cfdfbf875");
    add("pr/100000000.1", "100000000.1", "not exact in binary32: binary64", "PR #2998 unit-bon8.cpp",
        "8f4197d78400666666");
    add("hand/e-in-array", "[\"e\"]", "a string ends the message inside a counted array", "nlohmann bon8.md example",
        "8165ff");
    add("hand/five-then-string", "[1,2,3,4,\"e\"]", "five elements, the last a string ended by fe",
        "nlohmann bon8.md example", "859192939465fe");

    f.section("integers: every short form and both fixed widths");
    for (const std::string& lit : integer_catalogue) {
        if (lit[0] != '-' && std::stoull(lit) > 9223372036854775807ULL) {
            f.refuse("refuse/uint-" + lit, lit, "out_of_range.407", "BON8 integers are signed 64-bit at most",
                     "BON8 spec rev. C (int64 is the widest integer); PR #2998 out_of_range.407");
            continue;
        }
        const std::int64_t v = lit[0] == '-' ? std::stoll(lit) : static_cast<std::int64_t>(std::stoull(lit));
        add("int/" + lit, lit, bon8_int_rule(v), spec);
    }
    for (std::int64_t v : {-2, -9, 41, 167, 168, 3881, 35000, 528169, -12, -74, -75, -1932, -18314, -264076}) {
        add("int/" + std::to_string(v), std::to_string(v), bon8_int_rule(v), spec);
    }
    add("int/minus-zero", "-0", "the integer -0 is 0", spec);

    f.section("floats: -1.0 fb, +0.0 fc, +1.0 fd; binary32 when exact; NaN as 8e7f800001");
    for (const named& n : float_catalogue) {
        const double d = parse(n.input).get<double>();
        std::string rule = d == -1.0                        ? "-1.0 is fb"
                           : (d == 0.0 && !std::signbit(d)) ? "+0.0 is fc"
                           : d == 1.0                       ? "+1.0 is fd"
                           : std::isnan(d)    ? "every NaN is binary32 7f800001 (sign and payload dropped)"
                           : std::isinf(d)    ? "infinity as binary32"
                           : float32_exact(d) ? "exact in binary32: 8e"
                                              : "not exact in binary32: 8f binary64";
        add("float/" + n.name, n.input, rule,
            "BON8 spec rev. C, floating point and canonical rules (formats.md §7.2, 7.4.5, 7.4.6)");
    }
    f.section("null and booleans");
    add("null", "null", "null is fa", spec, "fa");
    add("true", "true", "true is f9", spec, "f9");
    add("false", "false", "false is f8", spec, "f8");

    f.section("strings: raw UTF-8, ff only when needed");
    for (const string_case& s : string_catalogue()) {
        entry& e = add("string/" + s.name, s.input,
                       "a string of " + std::to_string(s.length) + " bytes: raw UTF-8, then ff at the message end",
                       "BON8 spec rev. C, strings");
        if (s.name == "decomposed-e-acute") {
            e.level = "exact";
            e.rule += "; not NFC, so not canonical (the encoder does not normalise)";
        }
    }
    f.section("arrays: 80-84 with the count, 85 ... fe beyond four");
    for (const container_case& c : array_catalogue())
        add("array/" + c.name, c.input, c.rule, "BON8 spec rev. C, arrays");
    f.section("objects: 86-8a with the count, 8b ... fe beyond four; keys in UTF-8 code-unit order");
    for (const container_case& c : object_catalogue())
        add("object/" + c.name, c.input, c.rule, "BON8 spec rev. C, objects");

    f.section("binary: no BON8 type; an array of the byte values (subtype dropped)");
    for (const binary_case& b : binary_catalogue()) {
        if (b.length > 256) continue;
        entry& e = add("binary/" + b.name, b.input,
                       "binary of " + std::to_string(b.length) + " bytes as an array of integers 0..255",
                       "nlohmann bon8.md (formats.md §7.3, NL-bon8-later); outside the BON8 spec");
        e.level = "exact";
    }

    f.section("refused");
    // BON8 strings are bare UTF-8; an ff inside one would even read as its terminator.
    add_shared_refusals(f, {"\"\\xff\"", "{\"\\xc0\\x80\":1}", "[1,discarded]", "{\"a\":discarded}",
                            "BON8 spec rev. C, strings; sinkcheck divergence invalid-utf8",
                            "sinkcheck divergence discarded-value (PR #2998 writes nothing)",
                            "sinkcheck divergence discarded-value (PR #2998 writes nothing)"});
    f.refuse("refuse/invalid-utf8-beyond-u10ffff", "\"\\xf5\\x80\\x80\\x80\"", "type_error.316",
             "lead byte f5 (beyond U+10FFFF) is syntactically admitted by the table but is not UTF-8",
             "formats.md §7.4.8; RFC 3629 §3")
        .divergence = "invalid-utf8";
}

}  // namespace corpus_gen
