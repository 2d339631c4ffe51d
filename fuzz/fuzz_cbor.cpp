// fuzz_cbor.cpp — the CBOR encoder, every sink and nlohmann 3.11.2 must agree.
//
// Values from the input (JSON text, or built op by op from the bytes) are encoded by the
// reference CBOR encoder; nlohmann's to_cbor (recorded divergences excepted) and every sink at
// every window size must write the same bytes, and from_cbor must read the value back. Edges:
// head lengths 23/24/255/256/..., binary subtypes as tags, binary32 only when exact (RFC 8949).
#include <cstddef>
#include <cstdint>

#include "support/differential.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sinkcheck::fuzz::run_differential(sinkcheck::format::cbor, data, size);
}
