// ubjson.cpp — the UBJSON and BJData vectors: one list for the family (bjdata picks the byte order
// and BJData's extra markers), containers in each of nlohmann's three option sets.
#include <cstdint>
#include <string>
#include <vector>

#include "generator.hpp"

namespace corpus_gen {

namespace {

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

struct option_set {
    const char* suffix;
    const char* options;
    const char* rule;
};
const option_set option_sets[] = {{"", "", "no options: end markers"},
                                  {"/use_size", "use_size", "use_size: '#' count, no end marker"},
                                  {"/use_size-use_type", "use_size use_type",
                                   "use_size use_type: '$' when every element has the first one's marker"}};

}  // namespace

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

}  // namespace corpus_gen
