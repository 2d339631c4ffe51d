// fuzz_decode.cpp — decoders on arbitrary bytes: an answer or a decode_error, nothing else.
//
// The input is handed to sinkcheck's BON8 decoder as a message. It must return a value or
// throw decode_error whose offset lies within the input; any other exception, a crash, a hang or
// a sanitizer report is a finding. A value it accepts must survive encode_bon8 (which writes the
// canonical form) and decode again to the same value.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/error.hpp"
#include "sinkcheck/format/bon8.hpp"
#include "sinkcheck/format/bon8_decoder.hpp"
#include "sinkcheck/sink/memory_writer.hpp"
#include "sinkcheck/testkit/fuzz_report.hpp"
#include "sinkcheck/testkit/same_value.hpp"

namespace {

using sinkcheck::fuzz::mismatch;
using sinkcheck::fuzz::target;
using json = nlohmann::json;

[[noreturn]] void finding(mismatch kind, std::size_t site, const std::string& who, const std::string& text) {
    sinkcheck::fuzz::print_finding_header(kind, "bon8 decoder", who, "its contract");
    sinkcheck::fuzz::print_note(who, text);
    sinkcheck::fuzz::crash<target::decode>(kind, site);
}

void check_bon8(const std::uint8_t* data, std::size_t size) {
    json value;
    try {
        value = sinkcheck::decode_bon8<json>(data, size);
    } catch (const sinkcheck::decode_error& e) {
        if (e.offset() > size) {
            finding(mismatch::decoder, 0, "decode_bon8",
                    "error offset " + std::to_string(e.offset()) + " beyond the input's " + std::to_string(size) +
                        " bytes: " + e.what());
        }
        return;
    } catch (const std::exception& e) {
        finding(mismatch::unexpected_error, 0, "decode_bon8", e.what());
    }

    std::vector<std::uint8_t> canonical;
    try {
        sinkcheck::memory_writer w;
        sinkcheck::encode_bon8(value, w);
        canonical = w.take();
    } catch (const std::exception& e) {
        finding(mismatch::unexpected_error, 1, "encode_bon8 of an accepted message", e.what());
    }
    json again;
    try {
        again = sinkcheck::decode_bon8<json>(canonical);
    } catch (const std::exception& e) {
        finding(mismatch::round_trip, 1, "decode_bon8 of encode_bon8's output", e.what());
    }
    using sinkcheck::testkit::first_value_difference;
    if (const auto where =
            first_value_difference(sinkcheck::testkit::policy_of(sinkcheck::format::bon8), value, again)) {
        finding(mismatch::round_trip, 2, "decode(encode(decode(input)))",
                "differs from decode(input) at '" + where->pointer + "'");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    check_bon8(data, size);
    return 0;
}
