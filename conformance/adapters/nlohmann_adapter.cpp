// nlohmann_adapter.cpp — nlohmann_json 3.11.2 (Debian nlohmann-json3-dev) as a linked encoder,
// and sinkcheck's reference encoders beside it.
//
// `--encoder linked:nlohmann` grades 3.11.2 itself: it passes every vector except the recorded
// divergences (KNOWN_DIVERGENCES.md), which is how those divergences show up in
// docs/conformance-results.md. `linked:reference` grades the reference without a process.
#include "sinkcheck/conform/encoder.hpp"
#include "sinkcheck/detail/walk.hpp"
#include "sinkcheck/encode.hpp"
#include "sinkcheck/oracle.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;

class nlohmann_encoder : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format f, const json& value, const std::string&,
                                     const encode_options& o) override {
        if (!oracle_has(f)) throw unsupported("nlohmann 3.11.2 has no BON8 writer");
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
    register_linked_encoder({"nlohmann",
                             "nlohmann_json " + std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                 std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                 std::to_string(NLOHMANN_JSON_VERSION_PATCH) +
                                 " to_cbor/to_msgpack/to_ubjson/to_bjdata/to_bson",
                             [] { return std::make_unique<nlohmann_encoder>(); }});
    register_linked_encoder(
        {"reference", "sinkcheck reference encoders", [] { return std::make_unique<reference_encoder>(); }});
    return true;
}();

}  // namespace
}  // namespace sinkcheck::conform
