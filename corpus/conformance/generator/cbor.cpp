// cbor.cpp — the CBOR vectors: the oracle's exact bytes, RFC 8949 Appendix A by hand, and the
// canonical level from the model of RFC 8949 §4.2.1 core deterministic encoding
// (sinkcheck/conform/canonical.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "generator.hpp"
#include "sinkcheck/conform/canonical.hpp"
#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/testkit/oracle.hpp"

namespace corpus_gen {

namespace conform = sinkcheck::conform;

namespace {

const char* rfc_cbor = "RFC 8949 §3.1, §4.2.1";

std::string cbor_int_rule(const std::string& lit) {
    const bool neg = lit[0] == '-';
    std::uint64_t arg;
    if (neg) {
        const long long v = std::stoll(lit);
        arg = static_cast<std::uint64_t>(-1 - v);
    } else {
        arg = std::stoull(lit);
    }
    std::string kind = neg ? "negative integer (major type 1, argument -1-n = " + std::to_string(arg) + ")"
                           : "unsigned integer (major type 0)";
    const char* width = arg < 24               ? "argument in the initial byte (0..23)"
                        : arg <= 0xff          ? "one-byte argument (additional information 24)"
                        : arg <= 0xffff        ? "two-byte argument (additional information 25)"
                        : arg <= 0xffffffffULL ? "four-byte argument (additional information 26)"
                                               : "eight-byte argument (additional information 27)";
    return kind + ", shortest head: " + width;
}

void add_cbor_canonical(vector_file& f) {
    // Every exact vector whose value has a deterministic encoding gets the canonical level: the
    // same vector when the bytes agree, a "/canonical" twin when they differ (formats.md §2).
    std::vector<entry> twins;
    std::set<std::string> ids;
    for (const entry& e : f.entries()) ids.insert(e.id);
    for (entry& e : f.entries()) {
        if (!e.error.empty() || e.level != "exact" || !e.divergence.empty() || ids.count(e.id + "/canonical") != 0)
            continue;
        const json j = parse(e.input);
        const bytes canonical = conform::canonical_cbor(j);
        bytes exact;
        if (!e.hand.empty())
            exact = conform::parse_hex(e.hand);
        else
            exact = sinkcheck::oracle_encode(format::cbor, j);
        if (canonical == exact) {
            e.level = "exact canonical";
            e.rule += "; also the core deterministic encoding";
            continue;
        }
        entry t = e;
        t.id += "/canonical";
        t.level = "canonical";
        t.hand = conform::compact_hex(canonical);
        t.from_model = true;
        t.alts.clear();
        t.rule = "core deterministic encoding of the value of " + e.id + " (differs from nlohmann 3.11.2)";
        t.source = "RFC 8949 §4.2.1, §4.2.2";
        twins.push_back(std::move(t));
    }
    for (entry& t : twins) f.entries().push_back(std::move(t));
}

}  // namespace

void add_cbor(vector_file& f) {
    f.section("RFC 8949 Appendix A: every example a JSON value (or a binary) can express");
    struct rfc_row {
        std::string name, slug, input, hex;
    };
    // Bytes copied by hand from RFC 8949 Appendix A, Table 6.
    const std::vector<rfc_row> rows = {
        {"0", "0", "0", "00"},
        {"1", "1", "1", "01"},
        {"10", "10", "10", "0a"},
        {"23", "23", "23", "17"},
        {"24", "24", "24", "1818"},
        {"25", "25", "25", "1819"},
        {"100", "100", "100", "1864"},
        {"1000", "1000", "1000", "1903e8"},
        {"1000000", "1000000", "1000000", "1a000f4240"},
        {"1000000000000", "1000000000000", "1000000000000", "1b000000e8d4a51000"},
        {"18446744073709551615", "18446744073709551615", "18446744073709551615", "1bffffffffffffffff"},
        {"-1", "-1", "-1", "20"},
        {"-10", "-10", "-10", "29"},
        {"-100", "-100", "-100", "3863"},
        {"-1000", "-1000", "-1000", "3903e7"},
        {"0.0", "0.0", "0.0", "f90000"},
        {"-0.0", "-0.0", "-0.0", "f98000"},
        {"1.0", "1.0", "1.0", "f93c00"},
        {"1.1", "1.1", "1.1", "fb3ff199999999999a"},
        {"1.5", "1.5", "1.5", "f93e00"},
        {"65504.0", "65504.0", "65504.0", "f97bff"},
        {"100000.0", "100000.0", "100000.0", "fa47c35000"},
        {"3.4028234663852886e+38", "float32-max", "3.4028234663852886e+38", "fa7f7fffff"},
        {"1.0e+300", "1e300", "1.0e+300", "fb7e37e43c8800759c"},
        {"5.960464477539063e-8", "half-min-subnormal", "5.960464477539063e-8", "f90001"},
        {"0.00006103515625", "half-min-normal", "0.00006103515625", "f90400"},
        {"-4.0", "-4.0", "-4.0", "f9c400"},
        {"-4.1", "-4.1", "-4.1", "fbc010666666666666"},
        {"Infinity", "infinity", "Infinity", "f97c00"},
        {"NaN", "nan", "NaN", "f97e00"},
        {"-Infinity", "-infinity", "-Infinity", "f9fc00"},
        {"false", "false", "false", "f4"},
        {"true", "true", "true", "f5"},
        {"null", "null", "null", "f6"},
        {"23(h'01020304')", "tag23-bytes", "h'01020304'#23", "d74401020304"},
        {"24(h'6449455446')", "tag24-bytes", "h'6449455446'#24", "d818456449455446"},
        {"h''", "bytes-empty", "h''", "40"},
        {"h'01020304'", "bytes-01020304", "h'01020304'", "4401020304"},
        {"\"\"", "text-empty", "\"\"", "60"},
        {"\"a\"", "text-a", "\"a\"", "6161"},
        {"\"IETF\"", "text-IETF", "\"IETF\"", "6449455446"},
        {"\"\\\"\\\\\"", "text-quote-backslash", "\"\\\"\\\\\"", "62225c"},
        {"\"\\u00fc\"", "text-u00fc", "\"\\u00fc\"", "62c3bc"},
        {"\"\\u6c34\"", "text-u6c34", "\"\\u6c34\"", "63e6b0b4"},
        {"\"\\ud800\\udd51\"", "text-u10151", "\"\\ud800\\udd51\"", "64f0908591"},
        {"[]", "array-empty", "[]", "80"},
        {"[1, 2, 3]", "array-1-2-3", "[1,2,3]", "83010203"},
        {"[1, [2, 3], [4, 5]]", "array-nested", "[1,[2,3],[4,5]]", "8301820203820405"},
        {"[1, 2, 3, ..., 25]", "array-1-to-25", "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]",
         "98190102030405060708090a0b0c0d0e0f101112131415161718181819"},
        {"{}", "map-empty", "{}", "a0"},
        {"{\"a\": 1, \"b\": [2, 3]}", "map-a-b", "{\"a\":1,\"b\":[2,3]}", "a26161016162820203"},
        {"[\"a\", {\"b\": \"c\"}]", "array-a-map-b-c", "[\"a\",{\"b\":\"c\"}]", "826161a161626163"},
        {"{\"a\": \"A\", ..., \"e\": \"E\"}", "map-a-to-e",
         "{\"a\":\"A\",\"b\":\"B\",\"c\":\"C\",\"d\":\"D\",\"e\":\"E\"}", "a56161614161626142616361436164614461656145"},
        {"{\"Fun\": true, \"Amt\": -2}", "map-fun-amt", "{\"Fun\":true,\"Amt\":-2}", "a263416d74216346756ef5"}};
    // Rows that are not preferred serialization: acceptable alternatives of the value above.
    const std::map<std::string, std::vector<std::string>> alternatives = {
        {"Infinity", {"fa7f800000", "fb7ff0000000000000"}},
        {"NaN", {"fa7fc00000", "fb7ff8000000000000"}},
        {"-Infinity", {"faff800000", "fbfff0000000000000"}},
        {"[]", {"9fff"}},
        {"[1, [2, 3], [4, 5]]",
         {"9f018202039f0405ffff", "9f01820203820405ff", "83018202039f0405ff", "83019f0203ff820405"}},
        {"[1, 2, 3, ..., 25]", {"9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff"}},
        {"[\"a\", {\"b\": \"c\"}]", {"826161bf61626163ff"}},
        {"{\"Fun\": true, \"Amt\": -2}", {"bf6346756ef563416d7421ff"}}};
    for (const rfc_row& r : rows) {
        const json j = parse(r.input);
        const bytes ours = sinkcheck::oracle_encode(format::cbor, j);
        const bytes rfc = conform::parse_hex(r.hex);
        if (conform::canonical_cbor(j) != rfc)
            die("RFC row " + r.name + ": the deterministic model disagrees with the RFC");
        const std::string id = "rfc8949-a/" + r.slug;
        if (ours == rfc) {
            entry& e =
                f.add(id, r.input, "RFC 8949 Appendix A example " + r.name + "; nlohmann 3.11.2 writes the RFC's bytes",
                      "RFC 8949 Appendix A");
            e.level = "exact canonical";
            e.hand = r.hex;
            if (auto a = alternatives.find(r.name); a != alternatives.end()) e.alts = a->second;
            continue;
        }
        entry& x = f.add(id, r.input, "RFC 8949 Appendix A example " + r.name + " as nlohmann 3.11.2 writes it",
                         "nlohmann 3.11.2 quirk: binary32 for exact floats, never binary16; subtype tags with a "
                         "two-byte head (formats.md §2)");
        x.alts.push_back(r.hex);
        if (auto a = alternatives.find(r.name); a != alternatives.end()) {
            x.alts.insert(x.alts.end(), a->second.begin(), a->second.end());
        }
        entry& c =
            f.add(id + "/canonical", r.input, "RFC 8949 Appendix A example " + r.name + ", preferred serialization",
                  "RFC 8949 Appendix A, §4.2.1");
        c.level = "canonical";
        c.hand = r.hex;
        c.from_model = true;
    }
    // The big-integer rows: JSON text holds them; nlohmann's model turns them into doubles.
    // Judged by value at every level, like bigint/: one value, one verdict, whether an encoder
    // writes the RFC's integer or the reference's double (no exact row and canonical twin that
    // would grade the same bytes differently).
    struct big_row {
        std::string name, input, rfc, ours;
    };
    const std::vector<big_row> bigs = {
        {"18446744073709551616", "18446744073709551616", "c249010000000000000000", "fa5f800000"},
        {"-18446744073709551616", "-18446744073709551616", "3bffffffffffffffff", "fadf800000"},
        {"-18446744073709551617", "-18446744073709551617", "c349010000000000000000", "fadf800000"}};
    for (const big_row& b : bigs) {
        entry& x = f.add("rfc8949-a/" + b.name, b.input,
                         "an integer beyond 64 bits: the RFC's integer (bignum tag, or major type 1 when it fits) "
                         "or the nearest double of nlohmann's model, judged by value at every level",
                         "RFC 8949 Appendix A, §3.4.3; nlohmann 3.11.2 quirk: integers outside int64/uint64 parse "
                         "as doubles (formats.md §2.4)");
        x.level = "equivalent";
        x.hand = b.ours;
        x.alts.push_back(b.rfc);
    }

    f.section("integers: every head width of major types 0 and 1");
    for (const std::string& lit : integer_catalogue) f.add("int/" + lit, lit, cbor_int_rule(lit), rfc_cbor);
    f.add("int/minus-zero", "-0", "the integer -0 is 0 (major type 0)", rfc_cbor);
    // The integer as RFC 8949 writes it: a bignum (§3.4.3), or major type 1 while -1-n fits 64 bits.
    add_big_integers(f, "; RFC 8949 §3.4.3",
                     {{"18446744073709551616", "c249010000000000000000"},
                      {"-9223372036854775809", "3b8000000000000000"},
                      {"-18446744073709551616", "3bffffffffffffffff"},
                      {"-18446744073709551617", "c349010000000000000000"}});

    f.section("floats: binary32 when exact, binary64 otherwise; NaN and infinities as binary16");
    for (const named& n : float_catalogue) {
        const double d = parse(n.input).get<double>();
        std::string rule;
        if (std::isnan(d))
            rule = "NaN of any sign or payload is f97e00 (sign and payload dropped)";
        else if (std::isinf(d))
            rule = "infinity as binary16";
        else if (float32_exact(d))
            rule = "exact in binary32: fa, never binary16";
        else
            rule = "not exact in binary32: fb binary64";
        f.add("float/" + n.name, n.input, rule,
              "nlohmann 3.11.2 quirk: write_compact_float (formats.md §2); RFC 8949 §3.3");
    }

    f.section("simple values");
    f.add("simple/null", "null", "null is simple value 22 (f6)", "RFC 8949 §3.3");
    f.add("simple/true", "true", "true is simple value 21 (f5)", "RFC 8949 §3.3");
    f.add("simple/false", "false", "false is simple value 20 (f4)", "RFC 8949 §3.3");

    f.section("text strings: length heads on the byte length");
    for (const string_case& s : string_catalogue()) {
        const std::string rule = "text string of " + std::to_string(s.length) + " bytes: " +
                                 (s.length < 24        ? "length in the initial byte"
                                  : s.length <= 0xff   ? "one-byte length"
                                  : s.length <= 0xffff ? "two-byte length"
                                                       : "four-byte length");
        f.add("string/" + s.name, s.input, rule, "RFC 8949 §3.1 major type 3");
    }

    f.section("byte strings and binary subtypes (tags)");
    for (const binary_case& b : binary_catalogue()) {
        std::string rule = "byte string of " + std::to_string(b.length) + " bytes";
        std::string source = "RFC 8949 §3.1 major type 2";
        if (b.has_subtype) {
            rule += " under tag " + std::to_string(b.subtype) + " (the subtype)";
            if (b.subtype < 24) {
                rule += "; the tag head is d8 xx although c0+n would do";
                source = "nlohmann 3.11.2 quirk: subtype tags 0..23 written d8 xx (formats.md §2.3); RFC 8949 §3.4";
            }
        }
        f.add("binary/" + b.name, b.input, rule, source);
    }
    for (std::uint64_t s : wide_subtypes) {
        f.add("binary/subtype-" + std::to_string(s), "h'0102'#" + std::to_string(s),
              "subtype " + std::to_string(s) + " as a tag with the shortest head", "RFC 8949 §3.4, §3.1 major type 6");
    }

    f.section("arrays");
    for (const container_case& c : array_catalogue())
        f.add("array/" + c.name, c.input, c.rule + ": definite length, shortest head",
              "RFC 8949 §3.1 major type 4, §4.2.1");
    f.section("maps: keys in nlohmann's bytewise order");
    for (const container_case& c : object_catalogue()) {
        entry& e = f.add("map/" + c.name, c.input, c.rule + ": definite length, keys in bytewise order of their UTF-8",
                         "RFC 8949 §3.1 major type 5; nlohmann 3.11.2: std::map key order (formats.md §1)");
        if (c.name.rfind("count-", 0) == 0) {
            const std::size_t n = std::stoul(c.name.substr(6));
            const std::string h = n < 24        ? be(0xa0 + n, 1)
                                  : n <= 0xff   ? "b8" + be(n, 1)
                                  : n <= 0xffff ? "b9" + be(n, 2)
                                                : "ba" + be(n, 4);
            e.hand = counted_map_hex(h, n, 0x60);
        }
    }

    f.section("recorded divergences: values nlohmann 3.11.2 writes as invalid CBOR, refused");
    add_shared_refusals(
        f, {"\"\\xff\"", "{\"\\xfe\":1}", "[1,discarded]", "{\"a\":discarded}",
            "sinkcheck divergence invalid-utf8 (3.11.2 writes the bytes: 61ff); RFC 8949 §3.1, §5.3.1",
            "sinkcheck divergence discarded-value (3.11.2 writes 8201: two elements announced, one written)"});
    f.refuse("refuse/invalid-utf8-overlong", "\"\\xc0\\xaf\"", "type_error.316", "an overlong form is not UTF-8",
             "sinkcheck divergence invalid-utf8; RFC 3629 §3")
        .divergence = "invalid-utf8";
    f.refuse("refuse/invalid-utf8-surrogate", "\"\\xed\\xa0\\x80\"", "type_error.316",
             "an encoded surrogate is not UTF-8", "sinkcheck divergence invalid-utf8; RFC 3629 §3")
        .divergence = "invalid-utf8";
    f.refuse("refuse/invalid-utf8-truncated", "[\"ok\",\"\\xe6\\xb0\"]", "type_error.316",
             "a truncated sequence is not UTF-8", "sinkcheck divergence invalid-utf8; RFC 8949 §3.1")
        .divergence = "invalid-utf8";

    add_cbor_canonical(f);
}

}  // namespace corpus_gen
