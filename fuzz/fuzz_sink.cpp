// fuzz_sink.cpp — every sink of sinkcheck runs a write program and must match a model of it.
//
// The input is a program: single-byte writes, writes of chosen sizes (0 and the chunk, window and
// capacity edges included), seeks, and a fault (the k-th allocation or the k-th write call
// throws), under a window, chunk bounds and a fixed capacity it also chooses. It runs against
// every sink of testkit::builtin_sinks, the one list of sinks; afterwards the output must equal
// the model's bytes for the writes that completed (trimmed after a fault, also when the sink is
// destroyed while unwinding), the allocations must follow each sink's growth rule (seed 000, 002,
// 003), zero-filling must stay within the window at every growth, and nothing may leak
// (sinkcheck/testkit/sink_fuzzer.hpp has the whole list; a user's sink gets the same target).
#include <cstddef>
#include <cstdint>

#include "sinkcheck/testkit/sink_fuzzer.hpp"
#include "sinkcheck/testkit/sinks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    sinkcheck::testkit::fuzz_sinks(sinkcheck::testkit::builtin_sinks{}, data, size);
    return 0;
}
