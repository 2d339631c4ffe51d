// bench/perf_gate.hpp — the reference side of each gated format, one translation unit each
// (perf_gate_side.cpp).
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

namespace sinkcheck::bench {

std::size_t gate_reference_cbor(const nlohmann::json& doc);
std::size_t gate_reference_msgpack(const nlohmann::json& doc);
std::size_t gate_reference_ubjson(const nlohmann::json& doc);
std::size_t gate_reference_bjdata(const nlohmann::json& doc);
std::size_t gate_reference_bson(const nlohmann::json& doc);

}  // namespace sinkcheck::bench
