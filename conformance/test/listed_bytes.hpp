// listed_bytes.hpp — a linked CBOR encoder that writes, for each value, the bytes a test lists
// for its wire text: how conform_decode_test and conform_selftest_test put given output through
// the whole run (classify, reports) without a process.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/encoder.hpp"

namespace sinkcheck::conform::test {

class listed_bytes : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format, const nlohmann::json&, const std::string& wire,
                                     const encode_options&) override {
        return parse_hex(answers().at(wire));
    }
    static std::map<std::string, std::string>& answers() {
        static std::map<std::string, std::string> by_wire;
        return by_wire;
    }
};

/// Registers it as linked:listed-bytes (once per program) and returns its registration.
inline const linked_encoder_info& listed_bytes_encoder() {
    static const bool registered = [] {
        register_linked_encoder({"listed-bytes", "the bytes a test lists for each value", {format::cbor}, [] {
                                     return std::make_unique<listed_bytes>();
                                 }});
        return true;
    }();
    (void)registered;
    for (const linked_encoder_info& e : linked_encoders()) {
        if (e.name == "listed-bytes") return e;
    }
    throw std::logic_error("linked:listed-bytes is not registered");
}

}  // namespace sinkcheck::conform::test
