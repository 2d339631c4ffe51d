// fuzz_msgpack.cpp — the MessagePack encoder, every sink and nlohmann 3.11.2 must agree.
//
// Values from the input (JSON text, or built op by op from the bytes) are encoded by the
// reference MessagePack encoder; nlohmann's to_msgpack (recorded divergences excepted) and every
// sink at every window size must write the same bytes, and from_msgpack must read the value
// back. Edges: fixint/fixstr/fixarray limits, the 8/16/32-bit families, ext types from subtypes.
#include <cstddef>
#include <cstdint>

#include "support/differential.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sinkcheck::fuzz::run_differential(sinkcheck::format::msgpack, data, size);
}
