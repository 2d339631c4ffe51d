// conform_judge.cpp — the runner's "same value" verdict on pairs of encodings, for the judge's
// differential test (judge_differential_test.py), which asks third-party decoders the same.
//
// Reads lines "FORMAT HEX_A HEX_B" from stdin and answers each with one line: "equal" or
// "unequal" (decode_value of A, then decodes_to of B: the question classify() asks of an
// encoder's bytes), or "undecodable A|B: why" when the runner cannot decode a side. A line it
// cannot parse stops it with exit status 2, naming the line.
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/decode.hpp"

namespace {

using sinkcheck::format;
using sinkcheck::conform::decode_value;
using sinkcheck::conform::decoded_value;
using sinkcheck::conform::decodes_to;

std::string verdict(format f, const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
    const decoded_value da = decode_value(f, a);
    if (!da.ok) return "undecodable A: " + da.how;
    const decoded_value db = decode_value(f, b);
    if (!db.ok) return "undecodable B: " + db.how;
    return decodes_to(f, b, da.value) ? "equal" : "unequal";
}

}  // namespace

int main() {
    std::string line;
    std::size_t number = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        std::istringstream fields(line);
        std::string name, hex_a, hex_b;
        const bool three_fields = static_cast<bool>(fields >> name >> hex_a >> hex_b);
        const std::optional<format> f = sinkcheck::parse_format(name);
        if (!three_fields || !f) {
            std::fprintf(stderr, "conform_judge: stdin line %zu: expected \"FORMAT HEX_A HEX_B\"\n", number);
            return 2;
        }
        try {
            std::cout << verdict(*f, sinkcheck::conform::parse_hex(hex_a), sinkcheck::conform::parse_hex(hex_b))
                      << '\n';
        } catch (const std::exception& e) {
            std::fprintf(stderr, "conform_judge: stdin line %zu: %s\n", number, e.what());
            return 2;
        }
    }
    std::cout.flush();
    return 0;
}
