// nlohmann_adapter.cpp — nlohmann_json 3.11.2 (Debian nlohmann-json3-dev) as a linked encoder,
// and sinkcheck's reference encoders beside it.
//
// `--encoder linked:nlohmann` grades 3.11.2 itself: it passes every vector except the recorded
// divergences (KNOWN_DIVERGENCES.md), which is how those divergences show up in
// docs/conformance-results.md. `linked:reference` grades the reference without a process.
#include "sinkcheck/conform/encoder.hpp"
#include "sinkcheck/detail/walk.hpp"
#include "sinkcheck/encode.hpp"
#include "sinkcheck/testkit/oracle.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;

class nlohmann_encoder : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format f, const json& value, const std::string&,
                                     const encode_options& o) override {
        if (f == format::bson &&
            detail::any_node(value, [](const json& j, const std::string*) { return j.is_discarded(); })) {
            // 3.11.2 runs into an assertion (undefined behaviour without NDEBUG checks) here; in
            // process that would take the runner down, so it is declared instead of run.
            throw unsupported("nlohmann 3.11.2 asserts on a discarded value in BSON");
        }
        return oracle_encode(f, value, o);
    }
};

class reference_encoder : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format f, const json& value, const std::string&,
                                     const encode_options& o) override {
        return encode_to_vector(f, value, o);
    }
};

const bool registered = [] {
    linked_encoder_info nlohmann{"nlohmann",
                                 "nlohmann_json " + std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                     std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                     std::to_string(NLOHMANN_JSON_VERSION_PATCH),
                                 {},
                                 [] { return std::make_unique<nlohmann_encoder>(); }};
    std::string writers;
    for (const format f : all_formats) {
        if (!oracle_has(f)) continue;  // not BON8: 3.11.2 has no writer
        nlohmann.formats.push_back(f);
        writers += (writers.empty() ? " to_" : "/to_") + std::string(format_name(f));
    }
    nlohmann.description += writers;
    // Where the reference does otherwise on purpose, KNOWN_DIVERGENCES.md records it (invalid
    // UTF-8 among them) and known_divergence() names the entry for a value.
    nlohmann.recorded_difference = &known_divergence<json>;
    register_linked_encoder(std::move(nlohmann));
    register_linked_encoder({"reference", "sinkcheck reference encoders",
                             std::vector<format>(all_formats.begin(), all_formats.end()),
                             [] { return std::make_unique<reference_encoder>(); }});
    return true;
}();

}  // namespace
}  // namespace sinkcheck::conform
