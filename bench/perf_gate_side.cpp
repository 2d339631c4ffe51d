// bench/perf_gate_side.cpp — one format's reference encoder for the perf gate, compiled once per
// format (SINKCHECK_GATE_FORMAT, each of SINKCHECK_ORACLE_FORMATS; see CMakeLists.txt).
//
// One translation unit per format: GCC limits how much inlining may grow a translation unit, so
// with all encoders in one unit, a change to one encoder moves another's inlining and its
// instruction count. Apart, each format's count depends on its own code only.
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/sink/vector_sink.hpp"

#define SINKCHECK_GATE_STR2(x) #x
#define SINKCHECK_GATE_STR(x) SINKCHECK_GATE_STR2(x)
#define SINKCHECK_GATE_CAT2(a, b) a##b
#define SINKCHECK_GATE_CAT(a, b) SINKCHECK_GATE_CAT2(a, b)

// spaces around the slashes would become part of the path
// clang-format off
#include SINKCHECK_GATE_STR(sinkcheck/format/SINKCHECK_GATE_FORMAT.hpp)
// clang-format on

#include "perf_gate.hpp"

namespace sinkcheck::bench {

std::size_t SINKCHECK_GATE_CAT(gate_reference_, SINKCHECK_GATE_FORMAT)(const nlohmann::json& doc) {
    std::vector<std::uint8_t> v;
    {
        vector_sink sink(v);
        SINKCHECK_GATE_CAT(encode_, SINKCHECK_GATE_FORMAT)(doc, sink);
    }
    return v.size();
}

}  // namespace sinkcheck::bench
