// bson.cpp — the BSON vectors: everything inside a document {"v": ...}.
#include <cstdint>
#include <string>
#include <vector>

#include "generator.hpp"

namespace corpus_gen {

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

}  // namespace corpus_gen
