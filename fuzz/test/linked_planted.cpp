// linked_planted.cpp — a linked encoder with a planted bug, for the teeth test of the linked
// fuzz targets (fuzz_linked_teeth in fuzz/CMakeLists.txt): the reference, except that in CBOR the
// integer 24 is written as the head 0x18 without its argument byte (planted_bug.hpp).
#include "planted_bug.hpp"
#include "sinkcheck/conform/encoder.hpp"

namespace {

namespace conform = sinkcheck::conform;

class planted_24 : public conform::linked_encoder {
public:
    std::vector<std::uint8_t> encode(sinkcheck::format f, const nlohmann::json& value, const std::string&,
                                     const sinkcheck::encode_options& o) override {
        return conform::test::encode_with_short_24(f, value, o);
    }
};

const bool registered = [] {
    conform::register_linked_encoder(
        {"planted-24", "the reference, writing CBOR 24 as 0x18 without its argument", {sinkcheck::format::cbor}, [] {
             return std::make_unique<planted_24>();
         }});
    return true;
}();

}  // namespace
