// generate.cpp — writes the conformance vectors (corpus/conformance/*.vectors).
//
// The bytes of every vector come from one of three places, never from the reference encoder:
//   * nlohmann 3.11.2 (the oracle) for the exact level of CBOR, MessagePack, UBJSON, BJData, BSON;
//   * hex written by hand in this file (RFC 8949 Appendix A, the BON8 spec examples, every
//     recorded divergence, the big-container templates) — where the oracle applies too, the
//     generator stops unless both agree, so a slip in a hand derivation cannot enter the corpus;
//   * two small spec models below, written from the specification tables and nothing else:
//     RFC 8949 §4.2.1 core deterministic CBOR (the canonical level) and BON8 (formats.md §7,
//     revision C rules), since no released oracle exists for either.
// The conformance drift test re-checks every vector against the oracle and the reference, and
// conformance/test/conform_canonical_check.py against cbor2's own deterministic encoder.
//
// Usage: sinkcheck-corpus-gen OUTDIR   (writes OUTDIR/<format>.vectors)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/oracle.hpp"

namespace {

using nlohmann::json;
using sinkcheck::format;
using bytes = std::vector<std::uint8_t>;
namespace conform = sinkcheck::conform;

[[noreturn]] void die(const std::string& message) {
    std::cerr << "sinkcheck-corpus-gen: " << message << "\n";
    std::exit(1);
}

// ---------------------------------------------------------------------------------------------
// The vector list of one format file.

struct entry {
    std::string id;
    std::string input;
    std::string options;
    std::string level = "exact";
    std::string hand;  // hex written by hand; empty: the oracle's bytes (or the model's)
    std::vector<std::string> alts;
    std::string error;
    std::string rule;
    std::string source;
    std::string divergence;
    bool from_model = false;  // hand holds a spec model's bytes (no oracle for them)
    std::string section;      // starts a new "# --- section" block when it changes
};

class vector_file {
public:
    explicit vector_file(format f) : f_(f) {}

    format fmt() const { return f_; }
    void section(const std::string& title) { section_ = title; }

    entry& add(const std::string& id, const std::string& input, const std::string& rule, const std::string& source) {
        entry e;
        e.id = std::string(sinkcheck::format_name(f_)) + "/" + id;
        e.input = input;
        e.rule = rule;
        e.source = source;
        e.section = section_;
        entries_.push_back(std::move(e));
        return entries_.back();
    }

    entry& refuse(const std::string& id, const std::string& input, const std::string& error, const std::string& rule,
                  const std::string& source) {
        entry& e = add(id, input, rule, source);
        e.error = error;
        return e;
    }

    std::vector<entry>& entries() { return entries_; }

    /// Resolves every entry's bytes and writes the file.
    void write(const std::string& dir, const std::string& header) {
        std::string out = header;
        std::string current;
        std::map<std::string, int> ids;
        for (entry& e : entries_) {
            if (ids[e.id]++ != 0) die("duplicate id " + e.id);
            if (e.section != current) {
                current = e.section;
                out += "\n# --- " + current + "\n";
            }
            out += "\nid: " + e.id + "\n";
            out += "input: " + e.input + "\n";
            if (!e.options.empty()) out += "options: " + e.options + "\n";
            if (e.error.empty()) {
                out += "level: " + e.level + "\n";
                out += "expect: " + resolve(e) + "\n";
                for (const std::string& a : e.alts) out += "alt: " + a + "\n";
            } else {
                out += "error: " + e.error + "\n";
            }
            out += "rule: " + e.rule + "\n";
            out += "source: " + e.source + "\n";
            if (!e.divergence.empty()) out += "divergence: " + e.divergence + "\n";
        }
        const std::string path = dir + "/" + std::string(sinkcheck::format_name(f_)) + ".vectors";
        std::ofstream file(path, std::ios::binary);
        file << out;
        if (!file) die("cannot write " + path);
        std::cout << path << ": " << entries_.size() << " vectors\n";
    }

private:
    std::string resolve(const entry& e) const {
        conform::parsed_value v;
        try {
            v = conform::parse_value(e.input);
        } catch (const conform::notation_error& x) {
            die(e.id + ": input: " + x.what());
        }
        sinkcheck::encode_options o;
        o.use_size = e.options.find("use_size") != std::string::npos;
        o.use_type = e.options.find("use_type") != std::string::npos;
        const bool oracle_applies = sinkcheck::oracle_has(f_) && e.divergence.empty() && !e.from_model &&
                                    e.level.find("exact") != std::string::npos;
        if (!oracle_applies) {
            if (e.hand.empty()) die(e.id + ": needs hand-written bytes (no oracle applies)");
            return normal_hex(e.hand);
        }
        const bytes oracle = sinkcheck::oracle_encode(f_, v.value, o);
        if (!e.hand.empty()) {
            const bytes hand = conform::parse_hex(e.hand);
            if (hand != oracle) {
                die(e.id + ": hand-written " + conform::to_hex(hand) + " but nlohmann 3.11.2 writes " +
                    conform::to_hex(oracle));
            }
            return normal_hex(e.hand);
        }
        return conform::compact_hex(oracle);
    }

    /// Hand hex is kept as written when it uses the group notation, otherwise re-spaced.
    static std::string normal_hex(const std::string& hand) {
        if (hand.find('(') != std::string::npos) return hand;
        return conform::compact_hex(conform::parse_hex(hand));
    }

    format f_;
    std::string section_;
    std::vector<entry> entries_;
};

// ---------------------------------------------------------------------------------------------
// Small helpers for writing inputs and hex.

std::string hexs(const bytes& b) { return conform::to_hex(b); }

std::string be(std::uint64_t v, int n) {
    bytes b;
    for (int i = n - 1; i >= 0; --i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    return hexs(b);
}
std::string le(std::uint64_t v, int n) {
    bytes b;
    for (int i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    return hexs(b);
}

std::string nested(const std::string& open, const std::string& close, int depth, const std::string& inner = "") {
    std::string s;
    for (int i = 0; i < depth; ++i) s += open;
    s += inner;
    for (int i = 0; i < depth; ++i) s += close;
    return s;
}

std::uint64_t bits_of(double d) {
    std::uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
}
std::uint32_t bits_of(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
bool float32_exact(double d) {
    if (std::isnan(d)) return false;
    if (std::isinf(d)) return true;
    if (d < -3.4028234663852886e38 || d > 3.4028234663852886e38) return false;
    return static_cast<double>(static_cast<float>(d)) == d;
}

// ---------------------------------------------------------------------------------------------
// The shared value catalogue: every format gets these, each with its own rule text.

const std::vector<std::string> integer_catalogue = {"0",
                                                    "1",
                                                    "10",
                                                    "23",
                                                    "24",
                                                    "25",
                                                    "39",
                                                    "40",
                                                    "100",
                                                    "127",
                                                    "128",
                                                    "255",
                                                    "256",
                                                    "1000",
                                                    "3879",
                                                    "3880",
                                                    "32767",
                                                    "32768",
                                                    "65535",
                                                    "65536",
                                                    "528167",
                                                    "528168",
                                                    "1000000",
                                                    "2147483647",
                                                    "2147483648",
                                                    "4294967295",
                                                    "4294967296",
                                                    "67637031",
                                                    "67637032",
                                                    "1000000000000",
                                                    "9223372036854775807",
                                                    "9223372036854775808",
                                                    "18446744073709551615",
                                                    "-1",
                                                    "-10",
                                                    "-11",
                                                    "-24",
                                                    "-25",
                                                    "-32",
                                                    "-33",
                                                    "-100",
                                                    "-128",
                                                    "-129",
                                                    "-256",
                                                    "-257",
                                                    "-1000",
                                                    "-1930",
                                                    "-1931",
                                                    "-32768",
                                                    "-32769",
                                                    "-65536",
                                                    "-65537",
                                                    "-264074",
                                                    "-264075",
                                                    "-33818506",
                                                    "-33818507",
                                                    "-2147483648",
                                                    "-2147483649",
                                                    "-4294967296",
                                                    "-4294967297",
                                                    "-9223372036854775808"};

/// Integer literals beyond 64 bits: nlohmann's model holds them as the nearest double.
const std::vector<std::string> big_integer_catalogue = {"18446744073709551616", "-9223372036854775809",
                                                        "-18446744073709551616", "-18446744073709551617"};

struct named {
    std::string name;
    std::string input;
};

const std::vector<named> float_catalogue = {{"0.0", "0.0"},
                                            {"-0.0", "-0.0"},
                                            {"1.0", "1.0"},
                                            {"-1.0", "-1.0"},
                                            {"1.5", "1.5"},
                                            {"-1.5", "-1.5"},
                                            {"0.5", "0.5"},
                                            {"2.0", "2.0"},
                                            {"-2.0", "-2.0"},
                                            {"-4.0", "-4.0"},
                                            {"0.1", "0.1"},
                                            {"1.1", "1.1"},
                                            {"-4.1", "-4.1"},
                                            {"0.333", "0.3333333333333333"},
                                            {"100000.0", "100000.0"},
                                            {"65504.0", "65504.0"},
                                            {"65505.0", "65505.0"},
                                            {"65536.0", "65536.0"},
                                            {"16777216.0", "16777216.0"},
                                            {"16777217.0", "16777217.0"},
                                            {"1e7", "1e7"},
                                            {"123456.789", "123456.789"},
                                            {"float32-max", "3.4028234663852886e38"},
                                            {"above-float32-max", "3.4028235677973366e38"},
                                            {"float32-min-normal", "1.1754943508222875e-38"},
                                            {"float32-min-subnormal", "1.401298464324817e-45"},
                                            {"1e-45", "1e-45"},
                                            {"half-min-subnormal", "5.960464477539063e-8"},
                                            {"half-min-normal", "6.103515625e-5"},
                                            {"1e300", "1e300"},
                                            {"-1e300", "-1e300"},
                                            {"1e-300", "1e-300"},
                                            {"double-min-subnormal", "5e-324"},
                                            {"double-max", "1.7976931348623157e308"},
                                            {"1.0000000000000002", "1.0000000000000002"},
                                            {"2^32", "4294967296.0"},
                                            {"2^63", "9223372036854775808.0"},
                                            {"2^64", "18446744073709551616.0"},
                                            {"1e19", "1e19"},
                                            {"-1e-7", "-1e-7"},
                                            {"nan", "NaN"},
                                            {"-nan", "-NaN"},
                                            {"nan-payload", "f64'7ff8000000000001'"},
                                            {"nan-signalling", "f64'7ff0000000000001'"},
                                            {"infinity", "Infinity"},
                                            {"-infinity", "-Infinity"}};

struct string_case {
    std::string name;
    std::string input;
    std::size_t length;  // bytes
};

std::vector<string_case> string_catalogue() {
    std::vector<string_case> v = {{"empty", "\"\"", 0},
                                  {"a", "\"a\"", 1},
                                  {"IETF", "\"IETF\"", 4},
                                  {"quote-backslash", "\"\\\"\\\\\"", 2},
                                  {"u+00fc", "\"\\u00fc\"", 2},
                                  {"u+6c34", "\"\\u6c34\"", 3},
                                  {"u+10151", "\"\\ud800\\udd51\"", 4},
                                  {"emoji", "\"\\ud83d\\ude00\"", 4},
                                  {"nul", "\"\\u0000\"", 1},
                                  {"nul-inside", "\"a\\u0000b\"", 3},
                                  {"control", "\"\\u001f\\u007f\"", 2},
                                  {"decomposed-e-acute", "\"e\\u0301\"", 3},
                                  {"composed-e-acute", "\"\\u00e9\"", 2},
                                  {"u+ffff", "\"\\uffff\"", 3},
                                  {"u+10ffff", "\"\\udbff\\udfff\"", 4},
                                  {"bom", "\"\\ufeff\"", 3},
                                  {"two-byte-chars-24-bytes", "\"\\u00e9\"*12", 24},
                                  {"four-byte-chars-256-bytes", "\"\\ud83d\\ude00\"*64", 256}};
    for (std::size_t n : std::initializer_list<std::size_t>{4, 5, 15, 16, 23, 24, 31, 32, 127, 128, 255, 256, 32767,
                                                            32768, 65535, 65536}) {
        v.push_back({"length-" + std::to_string(n), "\"x\"*" + std::to_string(n), n});
    }
    return v;
}

struct binary_case {
    std::string name;
    std::string input;
    std::size_t length;
    bool has_subtype;
    std::uint64_t subtype;
};

std::vector<binary_case> binary_catalogue() {
    std::vector<binary_case> v = {
        {"empty", "h''", 0, false, 0}, {"one", "h'01'", 1, false, 0}, {"four", "h'01020304'", 4, false, 0}};
    for (std::size_t n : std::initializer_list<std::size_t>{23, 24, 255, 256, 65535, 65536}) {
        v.push_back({"length-" + std::to_string(n), "h'ab'*" + std::to_string(n), n, false, 0});
    }
    for (std::size_t n : std::initializer_list<std::size_t>{0, 1, 2, 3, 4, 5, 8, 15, 16, 17, 255, 256, 65535, 65536}) {
        v.push_back({"subtype-7-length-" + std::to_string(n), "h'cd'*" + std::to_string(n) + "#7", n, true, 7});
    }
    for (std::uint64_t s : {0ULL, 1ULL, 23ULL, 24ULL, 127ULL, 128ULL, 255ULL}) {
        v.push_back({"subtype-" + std::to_string(s), "h'0102'#" + std::to_string(s), 2, true, s});
    }
    return v;
}

/// Subtypes above 255: CBOR writes them (tag heads), MessagePack and BSON must refuse.
const std::vector<std::uint64_t> wide_subtypes = {256,           65535,         65536,
                                                  4294967295ULL, 4294967296ULL, 18446744073709551615ULL};

struct container_case {
    std::string name;
    std::string input;
    std::string rule;
};

std::vector<container_case> array_catalogue() {
    std::vector<container_case> v = {
        {"empty", "[]", "empty array"},
        {"one", "[1]", "one element"},
        {"1-2-3", "[1,2,3]", "small integers"},
        {"nested", "[1,[2,3],[4,5]]", "nested arrays"},
        {"strings", "[\"a\",\"b\"]", "string elements"},
        {"string-then-empty", "[\"ab\",\"\"]", "a string followed by an empty string"},
        {"empty-strings", "[\"\",\"\"]", "empty string elements"},
        {"nulls", "[null,null]", "null elements (marker-only types)"},
        {"true-false", "[true,false]", "booleans of both values (different markers)"},
        {"trues", "[true,true]", "booleans of one value"},
        {"int8-uint8", "[1,200]", "integers of different minimal widths"},
        {"int16s", "[1000,2000,-3000]", "integers of one width (int16)"},
        {"floats", "[1.5,2.5]", "float elements"},
        {"float-widths", "[1.5,0.1]", "floats of different widths"},
        {"arrays", "[[1],[2]]", "array elements"},
        {"objects", "[{\"a\":1},{\"b\":2}]", "object elements"},
        {"empty-arrays", "[[],[]]", "empty array elements"},
        {"mixed", "[1,\"a\",null,true,1.5,{},[],-1]", "one element of every kind"},
        {"string-in-nested-then-string", "[[\"a\"],\"b\"]", "a string ending a nested array, then a string"},
        {"rfc-1-to-25", "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]",
         "25 elements: the count needs a one-byte argument"},
        {"depth-100", nested("[", "]", 100), "nesting 100 deep"},
        {"depth-1000", nested("[", "]", 1000, "0"), "nesting 1000 deep"}};
    for (std::size_t n :
         std::initializer_list<std::size_t>{4, 5, 15, 16, 23, 24, 255, 256, 32767, 32768, 65535, 65536}) {
        v.push_back({"count-" + std::to_string(n), "[0]*" + std::to_string(n), std::to_string(n) + " elements"});
    }
    return v;
}

std::vector<container_case> object_catalogue() {
    std::vector<container_case> v = {
        {"empty", "{}", "empty object"},
        {"one", "{\"a\":1}", "one member"},
        {"key-order-length", "{\"b\":1,\"aa\":2}", "keys of different lengths (bytewise order: aa before b)"},
        {"key-order-digits", "{\"k2\":1,\"k10\":2}", "k10 sorts before k2 bytewise"},
        {"key-order-utf8", "{\"\\ud83d\\ude00\":1,\"\\uff21\":2}", "U+FF21 sorts before U+1F600 in UTF-8 byte order"},
        {"rfc-a-b", "{\"a\":1,\"b\":[2,3]}", "array value"},
        {"rfc-five", "{\"a\":\"A\",\"b\":\"B\",\"c\":\"C\",\"d\":\"D\",\"e\":\"E\"}", "five string members"},
        {"empty-key", "{\"\":0}", "the empty key"},
        {"empty-key-and-a", "{\"\":1,\"a\":2}", "the empty key beside another"},
        {"string-value", "{\"a\":\"b\"}", "a string value after a key"},
        {"nested", "{\"a\":{\"b\":{\"c\":null}}}", "nested objects"},
        {"string-across-containers", "{\"a\":[\"b\",\"c\"],\"d\":1}", "strings that end arrays, then a key"},
        {"string-end-of-object-then-key", "{\"a\":{\"b\":\"c\"},\"d\":\"e\"}",
         "a string value closes an object, a key follows"},
        {"mixed-values", "{\"a\":1,\"b\":\"x\",\"c\":null,\"d\":[true],\"e\":{\"f\":1.5}}", "values of every kind"},
        {"same-type-values", "{\"a\":1,\"b\":2,\"c\":3}", "values of one type"},
        {"key-255", "{\"" + std::string(255, 'k') + "\":0}", "a 255-byte key"},
        {"key-256", "{\"" + std::string(256, 'k') + "\":0}", "a 256-byte key"},
        {"depth-100", nested("{\"a\":", "}", 100, "0"), "objects nested 100 deep"}};
    for (std::size_t n : std::initializer_list<std::size_t>{4, 5, 15, 16, 23, 24, 255, 256, 32768, 65535, 65536}) {
        v.push_back({"count-" + std::to_string(n), "{\"k\":0}*" + std::to_string(n), std::to_string(n) + " members"});
    }
    return v;
}

/// Keys of "{\"k\":0}*n": "k" + the index zero-padded to the digits of n-1.
int key_digits(std::size_t n) {
    int w = 1;
    for (std::size_t last = n - 1; last >= 10; last /= 10) ++w;
    return w;
}

// ---------------------------------------------------------------------------------------------
// RFC 8949 §4.2.1 core deterministic encoding — the canonical level. Written from §3, §4.1,
// §4.2.1 and §4.2.2 only: shortest argument, shortest float that keeps the value (NaN as
// f97e00), definite lengths, map keys sorted by their encoded bytes.

class cbor_deterministic {
public:
    cbor_deterministic() {
        for (std::uint32_t h = 0; h < 0x10000; ++h) {
            const double d = half_value(static_cast<std::uint16_t>(h));
            if (!std::isnan(d)) halves_.emplace(bits_of(d), static_cast<std::uint16_t>(h));
        }
    }

    bytes encode(const json& j) const {
        bytes out;
        write(j, out);
        return out;
    }

private:
    static double half_value(std::uint16_t h) {
        const int exponent = (h >> 10) & 0x1f;
        const int mantissa = h & 0x3ff;
        double v;
        if (exponent == 0)
            v = std::ldexp(mantissa, -24);
        else if (exponent == 31)
            v = mantissa == 0 ? INFINITY : NAN;
        else
            v = std::ldexp(mantissa + 1024, exponent - 25);
        return (h & 0x8000) != 0 ? -v : v;
    }

    static void head(bytes& out, int major, std::uint64_t n) {
        const auto m = static_cast<std::uint8_t>(major << 5);
        if (n < 24) {
            out.push_back(static_cast<std::uint8_t>(m | n));
        } else if (n <= 0xff) {
            out.push_back(m | 24);
            out.push_back(static_cast<std::uint8_t>(n));
        } else if (n <= 0xffff) {
            out.push_back(m | 25);
            for (int i = 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
        } else if (n <= 0xffffffffULL) {
            out.push_back(m | 26);
            for (int i = 3; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
        } else {
            out.push_back(m | 27);
            for (int i = 7; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
        }
    }

    void write(const json& j, bytes& out) const {
        switch (j.type()) {
            case json::value_t::null: out.push_back(0xf6); return;
            case json::value_t::boolean: out.push_back(j.get<bool>() ? 0xf5 : 0xf4); return;
            case json::value_t::number_unsigned: head(out, 0, j.get<std::uint64_t>()); return;
            case json::value_t::number_integer: {
                const std::int64_t v = j.get<std::int64_t>();
                if (v >= 0)
                    head(out, 0, static_cast<std::uint64_t>(v));
                else
                    head(out, 1, static_cast<std::uint64_t>(-1 - v));
                return;
            }
            case json::value_t::number_float: {
                const double d = j.get<double>();
                if (std::isnan(d)) {
                    out.insert(out.end(), {0xf9, 0x7e, 0x00});  // §4.2.2: one NaN, 0xf97e00
                    return;
                }
                if (auto it = halves_.find(bits_of(d)); it != halves_.end()) {
                    out.push_back(0xf9);
                    out.push_back(static_cast<std::uint8_t>(it->second >> 8));
                    out.push_back(static_cast<std::uint8_t>(it->second));
                } else if (float32_exact(d)) {
                    const std::uint32_t b = bits_of(static_cast<float>(d));
                    out.push_back(0xfa);
                    for (int i = 3; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(b >> (8 * i)));
                } else {
                    const std::uint64_t b = bits_of(d);
                    out.push_back(0xfb);
                    for (int i = 7; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(b >> (8 * i)));
                }
                return;
            }
            case json::value_t::string: {
                const auto& s = j.get_ref<const std::string&>();
                head(out, 3, s.size());
                out.insert(out.end(), s.begin(), s.end());
                return;
            }
            case json::value_t::binary: {
                const auto& b = j.get_binary();
                if (b.has_subtype()) head(out, 6, b.subtype());
                head(out, 2, b.size());
                out.insert(out.end(), b.begin(), b.end());
                return;
            }
            case json::value_t::array:
                head(out, 4, j.size());
                for (const json& e : j) write(e, out);
                return;
            case json::value_t::object: {
                std::vector<std::pair<bytes, bytes>> members;
                for (auto it = j.begin(); it != j.end(); ++it) {
                    bytes k, v;
                    write(json(it.key()), k);
                    write(it.value(), v);
                    members.emplace_back(std::move(k), std::move(v));
                }
                std::sort(members.begin(), members.end());  // §4.2.1: bytewise order of encoded keys
                head(out, 5, j.size());
                for (const auto& m : members) {
                    out.insert(out.end(), m.first.begin(), m.first.end());
                    out.insert(out.end(), m.second.begin(), m.second.end());
                }
                return;
            }
            default: die("deterministic CBOR model: no encoding for " + std::string(j.type_name()));
        }
    }

    std::map<std::uint64_t, std::uint16_t> halves_;
};

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

json parse(const std::string& text) { return conform::parse_value(text).value; }

// ---------------------------------------------------------------------------------------------
// Rule texts, per format.

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

std::string ubjson_int_rule(const std::string& lit, bool bjdata) {
    if (lit[0] != '-') {
        const std::uint64_t v = std::stoull(lit);
        if (v <= 127) return "int8 'i': the smallest marker, even where uint8 'U' also fits";
        if (v <= 255) return "uint8 'U'";
        if (v <= 32767) return "int16 'I'";
        if (bjdata && v <= 65535) return "uint16 'u' (BJData)";
        if (v <= 2147483647) return "int32 'l'";
        if (bjdata && v <= 0xffffffffULL) return "uint32 'm' (BJData)";
        if (v <= 9223372036854775807ULL) return "int64 'L'";
        return bjdata ? "uint64 'M' (BJData) above INT64_MAX" : "high-precision 'H' (decimal digits) above INT64_MAX";
    }
    const long long v = std::stoll(lit);
    return v >= -128 ? "int8 'i'" : v >= -32768 ? "int16 'I'" : v >= INT32_MIN ? "int32 'l'" : "int64 'L'";
}

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

/// The integers beyond 64 bits, as nlohmann's model holds them (the nearest double, from the
/// oracle); wrap puts each into the container the format needs at the top (BSON's document).
void add_big_integers(vector_file& f, const std::string& extra_source = "",
                      const std::map<std::string, std::string>& alternatives = {},
                      const std::function<std::string(const std::string&)>& wrap = {}) {
    f.section("integers beyond 64 bits (doubles in nlohmann's model)");
    for (const std::string& lit : big_integer_catalogue) {
        const std::string input = wrap ? wrap(lit) : lit;
        entry& e = f.add(
            "bigint/" + lit, input, "an integer literal beyond 64 bits is held as the nearest double",
            "nlohmann 3.11.2 quirk: integers outside int64/uint64 parse as doubles (formats.md §1)" + extra_source);
        e.level = "equivalent";
        e.hand = conform::to_hex(sinkcheck::oracle_encode(f.fmt(), parse(input)));
        if (auto a = alternatives.find(lit); a != alternatives.end()) e.alts.push_back(a->second);
    }
}

/// The refusals every format shares: text that is not UTF-8 (as a value and as a key) and the
/// discarded value (alone, in an array, in an object); inputs vary per format so that each
/// file tests other invalid sequences, and the sources say what 3.11.2 writes instead.
struct shared_refusals {
    std::string invalid_string, invalid_key, discarded_array, discarded_object;
    std::string utf8_source, discarded_array_source;
    std::string discarded_source = "sinkcheck divergence discarded-value (3.11.2 writes nothing)";
};

void add_shared_refusals(vector_file& f, const shared_refusals& r) {
    f.refuse("refuse/invalid-utf8-string", r.invalid_string, "type_error.316", "a string must be valid UTF-8",
             r.utf8_source)
        .divergence = "invalid-utf8";
    f.refuse("refuse/invalid-utf8-key", r.invalid_key, "type_error.316", "a key must be valid UTF-8", r.utf8_source)
        .divergence = "invalid-utf8";
    f.refuse("refuse/discarded", "discarded", "type_error.901", "a discarded value has no encoding", r.discarded_source)
        .divergence = "discarded-value";
    f.refuse("refuse/discarded-in-array", r.discarded_array, "type_error.901",
             "a discarded element would corrupt the count", r.discarded_array_source)
        .divergence = "discarded-value";
    f.refuse("refuse/discarded-in-map", r.discarded_object, "type_error.901",
             "a discarded member would corrupt the count", r.discarded_source)
        .divergence = "discarded-value";
}

/// Hex of "{\"k\":0}*n" in CBOR or MessagePack: the map head, then n keys "k" + index and 0.
std::string counted_map_hex(const std::string& head, std::size_t n, unsigned text_head_base) {
    const int w = key_digits(n);
    return head + " (" + be(text_head_base + 1 + static_cast<unsigned>(w), 1) + "6b{" + std::to_string(w) + "}00)*" +
           std::to_string(n);
}

// ---------------------------------------------------------------------------------------------
// CBOR

void add_cbor_canonical(vector_file& f, const cbor_deterministic& det) {
    // Every exact vector whose value has a deterministic encoding gets the canonical level: the
    // same vector when the bytes agree, a "/canonical" twin when they differ (formats.md §2).
    std::vector<entry> twins;
    std::set<std::string> ids;
    for (const entry& e : f.entries()) ids.insert(e.id);
    for (entry& e : f.entries()) {
        if (!e.error.empty() || e.level != "exact" || !e.divergence.empty() || ids.count(e.id + "/canonical") != 0)
            continue;
        const json j = parse(e.input);
        const bytes canonical = det.encode(j);
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

void add_cbor(vector_file& f) {
    const cbor_deterministic det;
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
        if (det.encode(j) != rfc) die("RFC row " + r.name + ": the deterministic model disagrees with the RFC");
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

    add_cbor_canonical(f, det);
}

// ---------------------------------------------------------------------------------------------
// MessagePack

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

// ---------------------------------------------------------------------------------------------
// UBJSON and BJData

struct option_set {
    const char* suffix;
    const char* options;
    const char* rule;
};
const option_set option_sets[] = {{"", "", "no options: end markers"},
                                  {"/use_size", "use_size", "use_size: '#' count, no end marker"},
                                  {"/use_size-use_type", "use_size use_type",
                                   "use_size use_type: '$' when every element has the first one's marker"}};

void add_ubjson_family(vector_file& f, bool bjdata) {
    const std::string spec =
        bjdata ? "BJData Draft 2 (neurojson.org/bjdata/draft2); nlohmann 3.11.2 to_bjdata (formats.md §5)"
               : "UBJSON Draft 12; nlohmann 3.11.2 to_ubjson (formats.md §4)";
    const char* endian = bjdata ? "little-endian" : "big-endian";

    f.section("integers: the first fitting marker of the ladder");
    for (const std::string& lit : integer_catalogue)
        f.add("int/" + lit, lit, ubjson_int_rule(lit, bjdata) + ", " + endian, spec);
    f.add("int/minus-zero", "-0", "the integer -0 is int8 0", spec);
    add_big_integers(f);

    f.section("floats: always float64 'D'");
    for (const named& n : float_catalogue) {
        const double d = parse(n.input).get<double>();
        if (!bjdata && (std::isnan(d) || std::isinf(d))) {
            // UBJSON Draft 12 (Value Types, float): infinity and NaN are encoded as null.
            entry& e = f.add("float/" + n.name, n.input, "NaN and infinities are written as null 'Z'",
                             "sinkcheck divergence ubjson-nonfinite-as-null (3.11.2 writes 'D' with the IEEE bits); "
                             "UBJSON Draft 12, float types");
            e.hand = "5a";
            e.divergence = "ubjson-nonfinite-as-null";
            continue;
        }
        f.add("float/" + n.name, n.input,
              std::string("float64 'D' ") + endian + ", never float32 'd'" +
                  (std::isnan(d) || std::isinf(d) ? " (IEEE bits kept)" : ""),
              spec);
    }
    if (!bjdata) {
        f.section("NaN and infinities inside containers: written as null, so '$Z' applies");
        const char* div = "sinkcheck divergence ubjson-nonfinite-as-null; UBJSON Draft 12, float types";
        entry& a = f.add("float/nan-in-array", "[NaN]", "NaN inside an array is null 'Z'", div);
        a.hand = "5b5a5d";
        a.divergence = "ubjson-nonfinite-as-null";
        entry& b = f.add("float/nonfinite-typed", "[NaN,-Infinity]",
                         "NaN and -Infinity are both null: the '$Z' marker-only form", div);
        b.options = "use_size use_type";
        b.hand = "5b245a236902";
        b.divergence = "ubjson-nonfinite-as-null";
        entry& c = f.add("float/finite-and-nan-typed", "[1.5,NaN]", "'D' and 'Z' differ: no '$'", div);
        c.options = "use_size use_type";
        c.hand = "5b236902443ff80000000000005a";
        c.divergence = "ubjson-nonfinite-as-null";
        entry& d = f.add("float/infinity-in-object", "{\"a\":Infinity}", "an infinite member value is null 'Z'", div);
        d.hand = "7b6901615a7d";
        d.divergence = "ubjson-nonfinite-as-null";
    }
    f.section("null and booleans");
    f.add("null", "null", "null 'Z'", spec);
    f.add("true", "true", "true 'T'", spec);
    f.add("false", "false", "false 'F'", spec);

    f.section("strings: 'S', a length with its own integer marker, the bytes");
    for (const string_case& s : string_catalogue()) {
        f.add("string/" + s.name, s.input,
              "string of " + std::to_string(s.length) + " bytes: the length is " +
                  ubjson_int_rule(std::to_string(s.length), bjdata),
              spec);
    }

    f.section("binary: an array of uint8 'U' (subtype dropped), in every option set");
    for (const binary_case& b : binary_catalogue()) {
        if (b.has_subtype && b.name.find("subtype-7-length-") == 0 && b.length > 256) continue;
        for (const option_set& o : option_sets) {
            entry& e =
                f.add("binary/" + b.name + o.suffix, b.input, std::string("binary as an array of uint8; ") + o.rule,
                      spec + "; nlohmann binary_values.md");
            e.options = o.options;
        }
    }
    for (std::uint64_t s : wide_subtypes) {
        f.add("binary/subtype-" + std::to_string(s), "h'0102'#" + std::to_string(s),
              "the subtype is dropped, whatever its size", spec);
    }

    f.section("arrays in every option set");
    for (const container_case& c : array_catalogue()) {
        for (const option_set& o : option_sets) {
            if (c.name == "depth-1000" && o.options[0] != '\0') continue;
            entry& e = f.add("array/" + c.name + o.suffix, c.input, c.rule + "; " + o.rule, spec);
            e.options = o.options;
        }
    }
    f.section("objects in every option set (keys in bytewise order; a key is a length and bytes, no 'S')");
    for (const container_case& c : object_catalogue()) {
        for (const option_set& o : option_sets) {
            entry& e = f.add("object/" + c.name + o.suffix, c.input, c.rule + "; " + o.rule, spec);
            e.options = o.options;
            if (c.name.rfind("count-", 0) == 0) {
                const std::size_t n = std::stoul(c.name.substr(6));
                const int w = key_digits(n);
                const std::string member = "(69" + be(1 + static_cast<unsigned>(w), 1) + "6b{" + std::to_string(w) +
                                           "}" + (std::string(o.options) == "use_size use_type" ? "" : "69") + "00)*" +
                                           std::to_string(n);
                auto count = [&](std::size_t v) {
                    if (v <= 127) return "69" + be(v, 1);
                    if (v <= 255) return "55" + be(v, 1);
                    if (v <= 32767) return "49" + (bjdata ? le(v, 2) : be(v, 2));
                    if (bjdata && v <= 65535) return "75" + le(v, 2);
                    return "6c" + (bjdata ? le(v, 4) : be(v, 4));
                };
                if (o.options[0] == '\0')
                    e.hand = "7b " + member + " 7d";
                else if (std::string(o.options) == "use_size")
                    e.hand = "7b23" + count(n) + " " + member;
                else
                    e.hand = "7b2469" + std::string("23") + count(n) + " " + member;
            }
        }
    }

    if (bjdata) {
        f.section("ND-arrays: an object with exactly _ArrayType_, _ArraySize_, _ArrayData_ becomes an optimized array");
        struct nd {
            std::string name, input, rule;
        };
        const std::vector<nd> nds = {
            {"uint8-2x3", "{\"_ArrayType_\":\"uint8\",\"_ArraySize_\":[2,3],\"_ArrayData_\":[1,2,3,4,5,6]}",
             "uint8 data under $U"},
            {"int8-3", "{\"_ArrayType_\":\"int8\",\"_ArraySize_\":[3],\"_ArrayData_\":[-1,0,1]}",
             "a 1-D size still writes a dimension array"},
            {"uint16-2", "{\"_ArrayType_\":\"uint16\",\"_ArraySize_\":[2],\"_ArrayData_\":[1,65535]}",
             "uint16 data under $u"},
            {"int16-2", "{\"_ArrayType_\":\"int16\",\"_ArraySize_\":[2],\"_ArrayData_\":[-32768,32767]}",
             "int16 data under $I"},
            {"uint32-1", "{\"_ArrayType_\":\"uint32\",\"_ArraySize_\":[1],\"_ArrayData_\":[4294967295]}",
             "uint32 data under $m"},
            {"int32-2", "{\"_ArrayType_\":\"int32\",\"_ArraySize_\":[2],\"_ArrayData_\":[-2147483648,2147483647]}",
             "int32 data under $l"},
            {"uint64-1", "{\"_ArrayType_\":\"uint64\",\"_ArraySize_\":[1],\"_ArrayData_\":[18446744073709551615]}",
             "uint64 data under $M"},
            {"int64-1", "{\"_ArrayType_\":\"int64\",\"_ArraySize_\":[1],\"_ArrayData_\":[-9223372036854775808]}",
             "int64 data under $L"},
            {"single-2", "{\"_ArrayType_\":\"single\",\"_ArraySize_\":[2],\"_ArrayData_\":[1.5,-0.25]}",
             "float32 data under $d"},
            {"double-2", "{\"_ArrayType_\":\"double\",\"_ArraySize_\":[2],\"_ArrayData_\":[0.1,-2.5]}",
             "float64 data under $D"},
            {"char-2", "{\"_ArrayType_\":\"char\",\"_ArraySize_\":[2],\"_ArrayData_\":[97,98]}", "char data under $C"},
            {"uint8-2x2x2", "{\"_ArrayType_\":\"uint8\",\"_ArraySize_\":[2,2,2],\"_ArrayData_\":[1,2,3,4,5,6,7,8]}",
             "three dimensions"},
            {"empty-size", "{\"_ArrayType_\":\"uint8\",\"_ArraySize_\":[],\"_ArrayData_\":[]}",
             "an empty size has product 0"},
            {"keys-any-order", "{\"_ArrayData_\":[7,8],\"_ArraySize_\":[2],\"_ArrayType_\":\"uint8\"}",
             "key order in the text does not matter"}};
        for (const nd& n : nds) {
            for (const option_set& o : option_sets) {
                entry& e = f.add(
                    "ndarray/" + n.name + o.suffix, n.input, n.rule + "; the size array follows the options: " + o.rule,
                    "BJData Draft 2 optimized N-D array; nlohmann 3.11.2 write_bjdata_ndarray (formats.md §5)");
                e.options = o.options;
            }
        }
        f.section("not ND-arrays: written as ordinary objects");
        f.add("ndarray-not/extra-key", "{\"_ArrayType_\":\"uint8\",\"_ArraySize_\":[1],\"_ArrayData_\":[1],\"x\":0}",
              "a fourth key makes it an ordinary object", "nlohmann 3.11.2 write_bjdata_ndarray (formats.md §5)");
        f.add("ndarray-not/unknown-type", "{\"_ArrayType_\":\"float16\",\"_ArraySize_\":[1],\"_ArrayData_\":[1]}",
              "an unknown _ArrayType_ makes it an ordinary object",
              "nlohmann 3.11.2 write_bjdata_ndarray (formats.md §5)");
        f.add("ndarray-not/size-mismatch", "{\"_ArrayType_\":\"uint8\",\"_ArraySize_\":[3],\"_ArrayData_\":[1,2]}",
              "data length differing from the size product makes it an ordinary object",
              "nlohmann 3.11.2 write_bjdata_ndarray (formats.md §5)");

        f.section("ND-arrays whose data 3.11.2 writes wrong (recorded divergences)");
        // Integer data under a float type: the number converted, not its bits reinterpreted.
        const std::string punned = "{\"_ArrayType_\":\"double\",\"_ArraySize_\":[1],\"_ArrayData_\":[1]}";
        const char* punned_source =
            "sinkcheck divergence bjdata-ndarray-punned-float (3.11.2 writes the integer's bits: 1 as 5e-324); "
            "BJData Draft 2, optimized N-D array";
        entry& p1 = f.add("ndarray-divergent/integer-as-double", punned,
                          "integer data of a double ND-array are written as 1.0", punned_source);
        p1.hand = "5b2444 23 5b69015d 000000000000f03f";
        p1.divergence = "bjdata-ndarray-punned-float";
        entry& p2 = f.add("ndarray-divergent/integer-as-double/use_size-use_type", punned,
                          "the same with a typed, counted size array", punned_source);
        p2.options = "use_size use_type";
        p2.hand = "5b2444 23 5b2469236901 01 000000000000f03f";
        p2.divergence = "bjdata-ndarray-punned-float";
        entry& p3 = f.add("ndarray-divergent/integer-as-single",
                          "{\"_ArrayType_\":\"single\",\"_ArraySize_\":[2],\"_ArrayData_\":[1,-1]}",
                          "integer data of a single ND-array are written as 1.0f, -1.0f", punned_source);
        p3.hand = "5b2464 23 5b69025d 0000803f 000080bf";
        p3.divergence = "bjdata-ndarray-punned-float";
        // Data that do not fit the type: the object is written as an ordinary object.
        struct invalid_nd {
            std::string name, input, rule, hand;
        };
        auto key = [](const std::string& k) { return "69" + be(k.size(), 1) + hexs(bytes(k.begin(), k.end())); };
        const std::string data = key("_ArrayData_"), size = key("_ArraySize_"), type = key("_ArrayType_");
        const std::vector<invalid_nd> invalid = {
            {"uint8-300", "{\"_ArrayType_\":\"uint8\",\"_ArraySize_\":[1],\"_ArrayData_\":[300]}",
             "300 does not fit uint8 (3.11.2 writes 2c, which reads back as 44)",
             "7b " + data + " 5b 492c01 5d " + size + " 5b 6901 5d " + type + " 5369 05 " +
                 hexs(bytes{'u', 'i', 'n', 't', '8'}) + " 7d"},
            {"int8-1.5", "{\"_ArrayType_\":\"int8\",\"_ArraySize_\":[1],\"_ArrayData_\":[1.5]}",
             "1.5 is not an int8 (3.11.2 writes the low byte of the double's bits)",
             "7b " + data + " 5b 44000000000000f83f 5d " + size + " 5b 6901 5d " + type + " 5369 04 " +
                 hexs(bytes{'i', 'n', 't', '8'}) + " 7d"},
            {"char-200", "{\"_ArrayType_\":\"char\",\"_ArraySize_\":[1],\"_ArrayData_\":[200]}",
             "a char is at most 127 (3.11.2 writes c8, which its own reader rejects)",
             "7b " + data + " 5b 55c8 5d " + size + " 5b 6901 5d " + type + " 5369 04 " +
                 hexs(bytes{'c', 'h', 'a', 'r'}) + " 7d"}};
        for (const invalid_nd& n : invalid) {
            entry& e = f.add(
                "ndarray-divergent/" + n.name, n.input, n.rule + "; written as an ordinary object",
                "sinkcheck divergence bjdata-ndarray-invalid; BJData Draft 2, optimized N-D array, numeric ranges");
            e.hand = n.hand;
            e.divergence = "bjdata-ndarray-invalid";
        }
    }

    f.section("refused");
    const std::string div_utf8 = std::string("sinkcheck divergence invalid-utf8 (3.11.2 writes the bytes); ") +
                                 (bjdata ? "BJData Draft 2 string" : "UBJSON Draft 12 string");
    add_shared_refusals(f, {"\"\\xff\"", "{\"\\xc3\":1}", "[discarded]", "{\"a\":discarded,\"b\":1}", div_utf8,
                            "sinkcheck divergence discarded-value (3.11.2 writes [], the element lost)"});
    f.refuse("refuse/invalid-utf8-in-array", "[\"a\",\"\\xf8\\x88\\x80\\x80\\x80\"]", "type_error.316",
             "a 5-byte form is not UTF-8", div_utf8)
        .divergence = "invalid-utf8";
    for (const char* input : {"[1,2]", "1"}) {
        entry& t = f.refuse(
            std::string("refuse/type-without-size/") + (input[0] == '[' ? "array" : "scalar"), input,
            "invalid_argument", "use_type without use_size is refused for every value: a '$' type needs a '#' count",
            std::string("sinkcheck divergence ubjson-type-without-size (3.11.2 asserts); ") +
                (bjdata ? "BJData Draft 2, optimized format: a type cannot be specified alone"
                        : "UBJSON Draft 12, optimized format: if a type is specified, a count must be too"));
        t.options = "use_type";
        t.divergence = "ubjson-type-without-size";
    }
    entry& dc = f.refuse("refuse/discarded-counted", "[1,discarded]", "type_error.901",
                         "a discarded element would corrupt the count",
                         "sinkcheck divergence discarded-value (3.11.2 writes [#i\\x02 and one element)");
    dc.options = "use_size";
    dc.divergence = "discarded-value";
}

// ---------------------------------------------------------------------------------------------
// BSON: everything inside a document {"v": ...}

void add_bson(vector_file& f) {
    const char* spec = "bsonspec.org 1.1; nlohmann 3.11.2 (formats.md §6)";
    auto wrap = [](const std::string& v) { return "{\"v\":" + v + "}"; };
    f.section("integers: int32 (10) when it fits, else int64 (12)");
    for (const std::string& lit : integer_catalogue) {
        if (lit[0] != '-' && std::stoull(lit) > 9223372036854775807ULL) {
            f.refuse("refuse/uint-" + lit, wrap(lit), "out_of_range.407",
                     "BSON has no unsigned 64-bit integer above INT64_MAX",
                     "nlohmann 3.11.2 out_of_range.407; bsonspec.org int64");
            continue;
        }
        bool fits32;
        if (lit[0] == '-')
            fits32 = std::stoll(lit) >= INT32_MIN;
        else
            fits32 = std::stoull(lit) <= 2147483647ULL;
        f.add("int/" + lit, wrap(lit), fits32 ? "int32 (0x10)" : "int64 (0x12)", spec);
    }
    add_big_integers(f, "", {}, wrap);
    f.section("floats: always double (01), IEEE bits");
    for (const named& n : float_catalogue)
        f.add("float/" + n.name, wrap(n.input), "double (0x01), little-endian, no compaction", spec);
    f.section("null, booleans");
    f.add("null", wrap("null"), "null (0x0a), no payload", spec);
    f.add("true", wrap("true"), "boolean (0x08) 01", spec);
    f.add("false", wrap("false"), "boolean (0x08) 00", spec);
    f.section("strings: int32 length including the trailing NUL");
    for (const string_case& s : string_catalogue()) {
        f.add("string/" + s.name, wrap(s.input),
              "string (0x02) of " + std::to_string(s.length) + " bytes; NUL inside a string value is allowed", spec);
    }
    f.section("binary (05): int32 length, subtype byte (0 when none)");
    for (const binary_case& b : binary_catalogue()) {
        f.add("binary/" + b.name, wrap(b.input),
              "binary of " + std::to_string(b.length) + " bytes, subtype byte " +
                  std::to_string(b.has_subtype ? b.subtype : 0),
              spec);
    }
    f.section("documents and arrays (arrays are documents keyed \"0\", \"1\", ...)");
    for (const container_case& c : array_catalogue()) {
        if (c.name.rfind("count-", 0) == 0 && std::stoul(c.name.substr(6)) > 256) continue;
        if (c.name == "depth-1000") continue;
        f.add("array/" + c.name, wrap(c.input), c.rule + ": an array document (0x04)", spec);
    }
    for (const container_case& c : object_catalogue()) {
        entry& e = f.add("document/" + c.name, wrap(c.input),
                         c.rule + ": an embedded document (0x03), keys in bytewise order", spec);
        if (c.name.rfind("count-", 0) == 0) {
            const std::size_t n = std::stoul(c.name.substr(6));
            const int w = key_digits(n);
            const std::size_t member = 1 + 1 + static_cast<std::size_t>(w) + 1 + 4;  // type, "k", digits, NUL, int32
            const std::size_t inner = 4 + n * member + 1;
            const std::size_t outer = 4 + 1 + 2 + inner + 1;
            e.hand = le(outer, 4) + "037600" + le(inner, 4) + " (106b{" + std::to_string(w) + "}0000000000)*" +
                     std::to_string(n) + " 0000";
        }
    }
    f.section("top level documents");
    f.add("top/empty", "{}", "the empty document is 05000000 00", spec);
    f.add("top/two-members", "{\"a\":1,\"b\":\"c\"}", "two members in key order", spec);
    f.add("top/key-order", "{\"b\":1,\"aa\":2}", "keys in bytewise order (aa before b)", spec);
    f.section("refused");
    f.refuse("refuse/top-null", "null", "type_error.317", "the top level must be a document",
             "nlohmann 3.11.2 type_error.317; bsonspec.org document");
    f.refuse("refuse/top-integer", "1", "type_error.317", "the top level must be a document",
             "nlohmann 3.11.2 type_error.317; bsonspec.org document");
    f.refuse("refuse/top-string", "\"a\"", "type_error.317", "the top level must be a document",
             "nlohmann 3.11.2 type_error.317; bsonspec.org document");
    f.refuse("refuse/top-array", "[1,2]", "type_error.317", "the top level must be a document, not an array",
             "nlohmann 3.11.2 type_error.317; bsonspec.org document");
    f.refuse("refuse/top-binary", "h'01'", "type_error.317", "the top level must be a document",
             "nlohmann 3.11.2 type_error.317; bsonspec.org document");
    f.refuse("refuse/key-nul", "{\"a\\u0000b\":1}", "out_of_range.409", "a key is a C string: no NUL inside",
             "nlohmann 3.11.2 out_of_range.409; bsonspec.org e_name cstring");
    f.refuse("refuse/nested-key-nul", "{\"v\":{\"\\u0000\":1}}", "out_of_range.409", "a nested key is a C string too",
             "nlohmann 3.11.2 out_of_range.409; bsonspec.org e_name cstring");
    for (std::uint64_t s : wide_subtypes) {
        f.refuse("refuse/subtype-" + std::to_string(s), wrap("h'0102'#" + std::to_string(s)), "out_of_range.902",
                 "the binary subtype is one byte",
                 "sinkcheck divergence: 3.11.2 writes the low 8 bits; bsonspec.org binary subtype")
            .divergence = "bson-binary-subtype-truncated";
    }
    f.refuse("refuse/binary-old-without-count", wrap("h'0102'#2"), "type_error.904",
             "subtype 2 (Binary, old) data must start with the int32 count of the bytes after it",
             "sinkcheck divergence bson-binary-old-layout (3.11.2 writes invalid BSON); bsonspec.org binary subtype 2")
        .divergence = "bson-binary-old-layout";
    f.add("binary/old-with-count", wrap("h'020000000102'#2"),
          "subtype 2 data that carry their own int32 count are written as they are",
          "bsonspec.org binary subtype 2; nlohmann 3.11.2");
    f.refuse("refuse/invalid-utf8-string", wrap("\"\\xff\""), "type_error.316", "a string must be valid UTF-8",
             "sinkcheck divergence invalid-utf8; bsonspec.org string (UTF-8)")
        .divergence = "invalid-utf8";
    f.refuse("refuse/invalid-utf8-key", "{\"\\xff\":1}", "type_error.316", "a key must be valid UTF-8",
             "sinkcheck divergence invalid-utf8; bsonspec.org e_name")
        .divergence = "invalid-utf8";
    f.refuse("refuse/discarded", wrap("discarded"), "type_error.901", "a discarded value has no encoding",
             "sinkcheck divergence discarded-value (3.11.2 asserts)")
        .divergence = "discarded-value";
}

// ---------------------------------------------------------------------------------------------
// BON8: bytes from the spec model, with the spec's own examples written by hand.

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

std::string header(format f) {
    std::string h = "# sinkcheck conformance vectors: " + std::string(sinkcheck::format_name(f)) + "\n";
    h += "# Generated by corpus/conformance/generator/generate.cpp; schema in corpus/conformance/README.md.\n";
    h += "# Do not edit by hand: change the generator and run `cmake --build BUILD --target conformance-corpus`.\n";
    return h;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: sinkcheck-corpus-gen OUTDIR\n";
        return 2;
    }
    const std::string dir = argv[1];
    {
        vector_file f(format::cbor);
        add_cbor(f);
        f.write(dir, header(format::cbor));
    }
    {
        vector_file f(format::msgpack);
        add_msgpack(f);
        f.write(dir, header(format::msgpack));
    }
    {
        vector_file f(format::ubjson);
        add_ubjson_family(f, false);
        f.write(dir, header(format::ubjson));
    }
    {
        vector_file f(format::bjdata);
        add_ubjson_family(f, true);
        f.write(dir, header(format::bjdata));
    }
    {
        vector_file f(format::bson);
        add_bson(f);
        f.write(dir, header(format::bson));
    }
    {
        vector_file f(format::bon8);
        add_bon8(f);
        f.write(dir, header(format::bon8));
    }
    return 0;
}
