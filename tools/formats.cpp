// tools/formats.cpp — `sinkcheck formats`: the format names --to and --from accept.
#include <string>

#include "commands.hpp"

namespace sinkcheck::cli {
namespace {

constexpr std::string_view usage =
    "usage: sinkcheck formats\n"
    "\n"
    "Prints the binary formats sinkcheck encodes, one name per line: the names `--to` and\n"
    "`--from` accept (`--from` also takes `json`, the default of `encode`).\n"
    "\n"
    "exit status: 0; 2 on any argument\n";

int run(const std::vector<std::string>& argv) {
    arguments(argv, {}).expect_no_operands();
    std::string out;
    for (format f : all_formats) {
        out += std::string(format_name(f)) + "\n";
    }
    write_stdout(out);
    return exit_ok;
}

}  // namespace

const command formats_command{"formats", "list the binary formats, one name per line", usage, run};

}  // namespace sinkcheck::cli
