// broken_sink.hpp — a deliberately wrong sink, run only to prove the targets have teeth.
//
// With SINKCHECK_FUZZ_BROKEN_SINK=1 in the environment the differential targets also run this
// sink (a run-time switch, so the teeth test needs no second build of each target): a windowed
// memory writer with the classic off-by-one of seed 000's change, losing the last byte of a write
// that ends exactly on a window edge (a multiple of 64 bytes). Small documents never notice;
// the fuzzer has to find a value whose encoding puts a multi-byte write across that edge. The
// teeth test (fuzz/test/teeth.cmake) runs the targets this way and requires each one to report
// a sink-bytes mismatch within a bounded number of runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "sinkcheck/sink/memory_writer.hpp"

namespace sinkcheck::fuzz {

/// True when the environment asks for the broken sink; read once.
inline bool broken_sink_enabled() {
    static const bool on = [] {
        const char* v = std::getenv("SINKCHECK_FUZZ_BROKEN_SINK");
        return v != nullptr && std::string(v) == "1";
    }();
    return on;
}

class edge_dropping_sink {
public:
    static constexpr std::size_t edge = 64;

    void write(std::uint8_t b) { inner_.write(b); }
    void write(const std::uint8_t* p, std::size_t n) {
        const std::size_t end = inner_.position() + n;
        inner_.write(p, n > 1 && end % edge == 0 ? n - 1 : n);
    }
    std::size_t position() const noexcept { return inner_.position(); }
    std::vector<std::uint8_t> take() { return inner_.take(); }

private:
    memory_writer inner_;
};

}  // namespace sinkcheck::fuzz
