// generate.cpp — writes the conformance vectors (corpus/conformance/*.vectors).
//
// The bytes of every vector come from one of three places, never from the reference encoder:
//   * nlohmann 3.11.2 (the oracle) for the exact level of CBOR, MessagePack, UBJSON, BJData, BSON;
//   * hex written by hand in the format's source (RFC 8949 Appendix A, the BON8 spec examples,
//     every recorded divergence, the big-container templates) — where the oracle applies too, the
//     generator stops unless both agree, so a slip in a hand derivation cannot enter the corpus;
//   * two small spec models (cbor.cpp, bon8.cpp), written from the specification tables only:
//     RFC 8949 §4.2.1 core deterministic CBOR (the canonical level) and BON8 (formats.md §7,
//     revision C rules), since no released oracle exists for either.
// The conformance drift test re-checks every vector against the oracle and the reference, and
// conformance/test/conform_canonical_check.py against cbor2's own deterministic encoder.
//
// This file holds what every format shares and main; each format's vectors are in its own source
// (generator.hpp lists them).
//
// Usage: sinkcheck-corpus-gen OUTDIR   (writes OUTDIR/<format>.vectors)
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "generator.hpp"
#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/testkit/oracle.hpp"

namespace corpus_gen {

namespace conform = sinkcheck::conform;

void die(const std::string& message) {
    std::cerr << "sinkcheck-corpus-gen: " << message << "\n";
    std::exit(1);
}

// ---------------------------------------------------------------------------------------------
// The vector list of one format file.

void vector_file::write(const std::string& dir, const std::string& header) {
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

std::string vector_file::resolve(const entry& e) const {
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

std::string vector_file::normal_hex(const std::string& hand) {
    if (hand.find('(') != std::string::npos) return hand;
    return conform::compact_hex(conform::parse_hex(hand));
}

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

std::string nested(const std::string& open, const std::string& close, int depth, const std::string& inner) {
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

json parse(const std::string& text) { return conform::parse_value(text).value; }

int key_digits(std::size_t n) {
    int w = 1;
    for (std::size_t last = n - 1; last >= 10; last /= 10) ++w;
    return w;
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

namespace {

/// Integer literals beyond 64 bits: nlohmann's model holds them as the nearest double.
const std::vector<std::string> big_integer_catalogue = {"18446744073709551616", "-9223372036854775809",
                                                        "-18446744073709551616", "-18446744073709551617"};

std::string header(format f) {
    std::string h = "# sinkcheck conformance vectors: " + std::string(sinkcheck::format_name(f)) + "\n";
    h += "# Generated by corpus/conformance/generator/generate.cpp; schema in corpus/conformance/README.md.\n";
    h += "# Do not edit by hand: change the generator and run `cmake --build BUILD --target conformance-corpus`.\n";
    return h;
}

/// Every format's vectors (-Wswitch: a format without them does not compile).
void add_vectors(vector_file& f) {
    switch (f.fmt()) {
        case format::cbor: add_cbor(f); break;
        case format::msgpack: add_msgpack(f); break;
        case format::ubjson: add_ubjson_family(f, false); break;
        case format::bjdata: add_ubjson_family(f, true); break;
        case format::bson: add_bson(f); break;
        case format::bon8: add_bon8(f); break;
    }
}

}  // namespace

void add_big_integers(vector_file& f, const std::string& extra_source,
                      const std::map<std::string, std::string>& alternatives,
                      const std::function<std::string(const std::string&)>& wrap) {
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

std::string counted_map_hex(const std::string& head, std::size_t n, unsigned text_head_base) {
    const int w = key_digits(n);
    return head + " (" + be(text_head_base + 1 + static_cast<unsigned>(w), 1) + "6b{" + std::to_string(w) + "}00)*" +
           std::to_string(n);
}

}  // namespace corpus_gen

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: sinkcheck-corpus-gen OUTDIR\n";
        return 2;
    }
    const std::string dir = argv[1];
    for (const sinkcheck::format f : sinkcheck::all_formats) {
        corpus_gen::vector_file file(f);
        corpus_gen::add_vectors(file);
        file.write(dir, corpus_gen::header(f));
    }
    return 0;
}
