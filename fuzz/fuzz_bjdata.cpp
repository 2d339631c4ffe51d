// fuzz_bjdata.cpp — the BJData encoder, every sink and nlohmann 3.11.2 must agree.
//
// Values from the input (JSON text with one of the use_size/use_type option sets, or built op
// by op from the bytes) are encoded by the reference BJData encoder; nlohmann's to_bjdata
// (recorded divergences excepted) and every sink at every window size must write the same bytes,
// and from_bjdata must read the value back. Edges: u/m/M markers, ND-array objects, '#'/'$'.
#include <cstddef>
#include <cstdint>

#include "support/differential.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sinkcheck::fuzz::run_differential(sinkcheck::format::bjdata, data, size);
}
