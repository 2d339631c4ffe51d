// fuzz_bon8.cpp — the BON8 encoder through every sink, checked by its own decoder.
//
// No nlohmann release writes BON8, so values from the input (JSON text, or built op by op from
// the bytes) are encoded by the reference BON8 encoder and every sink at every window size must
// write the same bytes, and sinkcheck's BON8 decoder must read them back to the value. Edges:
// string termination across containers, the offset integer classes, float specials (revision C).
#include <cstddef>
#include <cstdint>

#include "support/differential.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sinkcheck::fuzz::run_differential(sinkcheck::format::bon8, data, size);
}
