// tools/conform.cpp — `sinkcheck conform`: the conformance runner as a subcommand of the tool.
#include "commands.hpp"
#include "sinkcheck/conform/run.hpp"

namespace sinkcheck::cli {

const command conform_command = {"conform", "grade an encoder (any language) against the conformance corpus",
                                 conform::conform_usage, &conform::run_conform_command};

}  // namespace sinkcheck::cli
