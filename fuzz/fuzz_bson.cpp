// fuzz_bson.cpp — the BSON encoder, every sink and nlohmann 3.11.2 must agree.
//
// Values from the input (JSON text, or built op by op from the bytes; lengths computed first or
// patched through a seekable sink) are encoded by the reference BSON encoder; nlohmann's to_bson
// (recorded divergences excepted) and every sink at every window size must write the same bytes
// or refuse with the same error (317, 407, 409), and from_bson must read the value back.
#include <cstddef>
#include <cstdint>

#include "support/differential.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sinkcheck::fuzz::run_differential(sinkcheck::format::bson, data, size);
}
