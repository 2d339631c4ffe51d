// conform_kit_encoder.cpp — sinkcheck's reference encoder described by the test kit's encoder
// traits, so the kit's conformance main and encoder fuzzer are built and run in sinkcheck's own
// tree (docs/testkit.md, "Check your own encoder"): every format at level exact must conform.
#include <cstdint>
#include <vector>

#include "sinkcheck/conform/check_encoder.hpp"
#include "sinkcheck/encode.hpp"

namespace {

struct reference_encoder {
    static constexpr const char* name = "kit-reference";
    static constexpr const char* description = "sinkcheck's reference encoders through the kit's encoder traits";
    static constexpr auto& formats = sinkcheck::all_formats;
    static std::vector<std::uint8_t> encode(sinkcheck::format f, const nlohmann::json& value,
                                            const sinkcheck::encode_options& options) {
        return sinkcheck::encode_to_vector(f, value, options);
    }
};

}  // namespace

SINKCHECK_ENCODER(reference_encoder);
