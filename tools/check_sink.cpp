// tools/check_sink.cpp — `sinkcheck check-sink`: a sink in another process, in any language, under
// the sink protocol (docs/sink-protocol.md; the judge is conformance/runner's sink_protocol).
#include <string>

#include "commands.hpp"
#include "sinkcheck/conform/sink_protocol.hpp"

namespace sinkcheck::cli {
namespace {

constexpr std::string_view usage =
    "usage: sinkcheck check-sink [--values N] [--programs N] [--seed S] [--timeout SECONDS]\n"
    "                            [--show N] -- COMMAND [ARG...]\n"
    "\n"
    "Starts COMMAND, a process that owns a sink in any language and speaks the sink protocol\n"
    "(docs/sink-protocol.md; helpers for Python, Go and Rust are installed with the test kit), and\n"
    "sends it write programs: the calls the reference encoders make while they encode generated\n"
    "values in every format and option shape, then random programs. Each answer (the position and\n"
    "capacity after every call, the bytes the target holds) is judged against a byte array and the\n"
    "growth rule the sink declares. Prints what was checked, what was not, and each finding.\n"
    "\n"
    "options:\n"
    "  --values N        generated values, each encoded in every format and shape (default 200)\n"
    "  --programs N      random write programs (default 400)\n"
    "  --seed S          the seed of values and programs (default 1)\n"
    "  --timeout SECONDS how long the process may take to answer a batch of 16 programs (default 30)\n"
    "  --show N          findings printed in full (default 5; the rest are counted)\n"
    "\n"
    "exit status: 0 every answer matched; 1 an answer did not; 2 usage error, or COMMAND could not\n"
    "be run or broke the protocol (a malformed greeting or answer, a timeout, an exit before the\n"
    "end of its input, a non-zero exit status)\n";

std::uint64_t whole_number(const arguments& args, std::string_view name, std::uint64_t fallback, std::uint64_t least) {
    const auto text = args.value(name);
    if (!text) return fallback;
    const bool digits = !text->empty() && text->find_first_not_of("0123456789") == std::string::npos;
    if (!digits || text->size() > 19 || std::stoull(*text) < least) {
        throw usage_error(std::string(name) + " needs a whole number from " + std::to_string(least) + " up; got '" +
                          *text + "'");
    }
    return std::stoull(*text);
}

int run(const std::vector<std::string>& args_in) {
    const arguments args(
        args_in, {{"--values", true}, {"--programs", true}, {"--seed", true}, {"--timeout", true}, {"--show", true}});
    conform::sink_protocol::check_options o;
    o.command = args.operands();
    if (o.command.empty()) throw usage_error("no COMMAND: give the sink's process after --");
    o.values = whole_number(args, "--values", o.values, 0);
    o.programs = whole_number(args, "--programs", o.programs, 0);
    o.seed = whole_number(args, "--seed", o.seed, 0);
    o.timeout_seconds = static_cast<double>(whole_number(args, "--timeout", 30, 1));
    o.show = static_cast<std::size_t>(whole_number(args, "--show", o.show, 0));
    return conform::sink_protocol::run_check_sink(o);
}

}  // namespace

const command check_sink_command = {"check-sink", "check a sink in another process, in any language (sink protocol)",
                                    usage, &run};

}  // namespace sinkcheck::cli
