// run_sink_instances.cpp — the one translation unit that compiles run_sink (every sink x every
// format) for json; the targets linking sinkcheck_run_sink see it declared
// extern (SINKCHECK_PREBUILT_RUN_SINK) and skip that work.
#include "sinkcheck/testkit/registry.hpp"

namespace sinkcheck {

template sink_run run_sink<nlohmann::json>(std::string_view, std::size_t, format, const nlohmann::json&,
                                           const encode_options&, const sink_faults&);

}  // namespace sinkcheck
