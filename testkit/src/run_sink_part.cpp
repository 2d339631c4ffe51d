// run_sink_part.cpp — one part of run_sink (every sink x the formats of that part, see
// run_sink_parts in sinkcheck/testkit/registry.hpp) compiled for json. The build compiles this
// file once per part, with SINKCHECK_RUN_SINK_PART set; the targets linking
// sinkcheck_testkit_run_sink see the parts declared extern (SINKCHECK_PREBUILT_RUN_SINK).
#include "sinkcheck/testkit/registry.hpp"

#ifndef SINKCHECK_RUN_SINK_PART
#error "SINKCHECK_RUN_SINK_PART must name the part this object compiles"
#endif
static_assert(SINKCHECK_RUN_SINK_PART < sinkcheck::run_sink_parts, "a part beyond run_sink_parts");

namespace sinkcheck {

template sink_run detail::run_sink_part<SINKCHECK_RUN_SINK_PART, nlohmann::json>(std::string_view, std::size_t, format,
                                                                                 const nlohmann::json&,
                                                                                 const encode_options&,
                                                                                 const sink_faults&);

}  // namespace sinkcheck
