// tools/sinks.cpp — `sinkcheck sinks`: the sink names --sink accepts.
#include <string>

#include "commands.hpp"
#include "sinkcheck/testkit/registry.hpp"

namespace sinkcheck::cli {
namespace {

constexpr std::string_view usage =
    "usage: sinkcheck sinks\n"
    "\n"
    "Prints every output sink, one a line: its name (what `encode --sink` takes), then a\n"
    "one-line description. Sinks marked [windowed] take `encode --window` and are run by\n"
    "`check` with windows {windows}.\n"
    "\n"
    "exit status: 0; 2 on any argument\n";

int run(const std::vector<std::string>& argv) {
    arguments(argv, {}).expect_no_operands();
    std::string out;
    for (const sink_info& s : all_sinks()) {
        std::string name(s.name);
        name.resize(std::max<std::size_t>(name.size() + 1, 17), ' ');
        out += name + std::string(s.description) + (s.windowed ? " [windowed]" : "") + "\n";
    }
    write_stdout(out);
    return exit_ok;
}

}  // namespace

const command sinks_command{"sinks", "list the output sinks: name, then a description", usage, run};

}  // namespace sinkcheck::cli
