// property/suts.hpp — sinkcheck's own sinks as sinks under test, and the groups properties take.
//
// Derived from the one list of sinks (testkit::builtin_sinks); suts.cpp instantiates every
// encoder over every sink once for all the property executables.
#pragma once

#include <string_view>
#include <vector>

#include "sinkcheck/testkit/harness.hpp"
#include "sinkcheck/testkit/sinks.hpp"

namespace sinkcheck::testkit {

/// The built-in sink called `name` (std::invalid_argument when there is none).
const sut_entry& builtin_entry(std::string_view name);
/// Every built-in sink, the baseline first.
const std::vector<sut_entry>& all_real_sinks();
/// The sinks that grow by seed 000's rule, the baseline first.
const std::vector<sut_entry>& vector_rule_sinks();
/// The sinks with a zero-fill window, the baseline first.
const std::vector<sut_entry>& windowed_sinks();

}  // namespace sinkcheck::testkit
