// msgpack.cpp — the MessagePack vectors.
#include <cstdint>
#include <string>
#include <vector>

#include "generator.hpp"

namespace corpus_gen {

namespace {

std::string msgpack_int_rule(const std::string& lit) {
    if (lit[0] != '-') {
        const std::uint64_t v = std::stoull(lit);
        return v < 128              ? "positive fixint (0x00-0x7f)"
               : v <= 0xff          ? "uint 8 (0xcc): non-negative values use the unsigned family"
               : v <= 0xffff        ? "uint 16 (0xcd)"
               : v <= 0xffffffffULL ? "uint 32 (0xce)"
                                    : "uint 64 (0xcf)";
    }
    const long long v = std::stoll(lit);
    return v >= -32         ? "negative fixint (0xe0-0xff)"
           : v >= -128      ? "int 8 (0xd0)"
           : v >= -32768    ? "int 16 (0xd1)"
           : v >= INT32_MIN ? "int 32 (0xd2)"
                            : "int 64 (0xd3)";
}

}  // namespace

void add_msgpack(vector_file& f) {
    const char* spec = "MessagePack spec.md";
    f.section("integers: the smallest format of the unsigned family for n >= 0, the signed family below");
    for (const std::string& lit : integer_catalogue) {
        f.add("int/" + lit, lit, msgpack_int_rule(lit),
              std::string(spec) + " (int format family); nlohmann 3.11.2 (formats.md §3)");
    }
    f.add("int/minus-zero", "-0", "the integer -0 is positive fixint 0", spec);
    add_big_integers(f);
    f.section("floats: float 32 (ca) when exact and finite, float 64 (cb) otherwise");
    for (const named& n : float_catalogue) {
        const double d = parse(n.input).get<double>();
        std::string rule = std::isnan(d)   ? "NaN fails the range test: float 64 with its bits (payload and sign kept)"
                           : std::isinf(d) ? "infinity fails the range test: float 64"
                           : float32_exact(d) ? "exact in binary32: float 32 (ca)"
                                              : "not exact in binary32: float 64 (cb)";
        f.add("float/" + n.name, n.input, rule,
              "nlohmann 3.11.2 quirk: write_compact_float (formats.md §3); MessagePack spec.md float format family");
    }
    f.section("nil and booleans");
    f.add("nil", "null", "nil is c0", spec);
    f.add("true", "true", "true is c3", spec);
    f.add("false", "false", "false is c2", spec);
    f.section("strings: fixstr, str 8, str 16, str 32 on the byte length");
    for (const string_case& s : string_catalogue()) {
        const char* kind = s.length <= 31       ? "fixstr (a0-bf)"
                           : s.length <= 0xff   ? "str 8 (d9)"
                           : s.length <= 0xffff ? "str 16 (da)"
                                                : "str 32 (db)";
        f.add("string/" + s.name, s.input, "string of " + std::to_string(s.length) + " bytes: " + kind,
              std::string(spec) + " (str format family)");
    }
    f.section("binary: bin 8/16/32 without subtype, fixext/ext with one");
    for (const binary_case& b : binary_catalogue()) {
        std::string rule;
        if (!b.has_subtype) {
            rule = b.length <= 0xff ? "bin 8 (c4)" : b.length <= 0xffff ? "bin 16 (c5)" : "bin 32 (c6)";
        } else {
            switch (b.length) {
                case 1: rule = "fixext 1 (d4)"; break;
                case 2: rule = "fixext 2 (d5)"; break;
                case 4: rule = "fixext 4 (d6)"; break;
                case 8: rule = "fixext 8 (d7)"; break;
                case 16: rule = "fixext 16 (d8)"; break;
                default: rule = b.length <= 0xff ? "ext 8 (c7)" : b.length <= 0xffff ? "ext 16 (c8)" : "ext 32 (c9)";
            }
            rule += ", type byte = subtype " + std::to_string(b.subtype);
            if (b.subtype >= 128) rule += " (the int8 type " + std::to_string(static_cast<int>(b.subtype) - 256) + ")";
            if (b.length == 0) rule += "; an empty payload is ext 8 (no fixext 0)";
        }
        f.add("binary/" + b.name, b.input, rule + " of " + std::to_string(b.length) + " bytes",
              std::string(spec) + " (bin and ext format families); nlohmann 3.11.2 (formats.md §3)");
    }
    f.section("arrays: fixarray, array 16, array 32");
    for (const container_case& c : array_catalogue())
        f.add("array/" + c.name, c.input, c.rule, std::string(spec) + " (array format family)");
    f.section("maps: fixmap, map 16, map 32; keys in nlohmann's bytewise order");
    for (const container_case& c : object_catalogue()) {
        entry& e = f.add("map/" + c.name, c.input, c.rule,
                         std::string(spec) + " (map format family); nlohmann 3.11.2 std::map key order");
        if (c.name.rfind("count-", 0) == 0) {
            const std::size_t n = std::stoul(c.name.substr(6));
            const std::string h = n <= 15 ? be(0x80 + n, 1) : n <= 0xffff ? "de" + be(n, 2) : "df" + be(n, 4);
            e.hand = counted_map_hex(h, n, 0xa0);
        }
    }
    f.section("refused: invalid UTF-8, discarded values, subtypes that do not fit the int8 ext type");
    add_shared_refusals(f,
                        {"\"\\xff\"", "{\"a\\x80\":1}", "[discarded,1]", "{\"a\":1,\"b\":discarded}",
                         "sinkcheck divergence invalid-utf8 (3.11.2 writes the bytes: a1ff); MessagePack spec.md str",
                         "sinkcheck divergence discarded-value (3.11.2 writes 9201)"});
    f.refuse("refuse/invalid-utf8-surrogate", "\"\\xed\\xb0\\x80\"", "type_error.316",
             "an encoded surrogate is not UTF-8", "sinkcheck divergence invalid-utf8; RFC 3629 §3")
        .divergence = "invalid-utf8";
    for (std::uint64_t s : wide_subtypes) {
        f.refuse("refuse/subtype-" + std::to_string(s), "h'0102'#" + std::to_string(s), "out_of_range.902",
                 "the ext type is one signed byte; subtype " + std::to_string(s) + " does not fit",
                 "sinkcheck divergence msgpack-ext-subtype-truncated (3.11.2 keeps the low 8 bits); MessagePack "
                 "spec.md ext")
            .divergence = "msgpack-ext-subtype-truncated";
    }
}

}  // namespace corpus_gen
