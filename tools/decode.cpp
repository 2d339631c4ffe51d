// tools/decode.cpp — `sinkcheck decode`: any format in, JSON text out.
//
// Binary values and non-finite numbers come out in the text notation (docs/cli.md), so that
// `encode` can read the text back to the same value.
#include <string>

#include "commands.hpp"

namespace sinkcheck::cli {
namespace {

constexpr std::string_view usage =
    "usage: sinkcheck decode --from FORMAT [--indent N] [FILE]\n"
    "\n"
    "Reads one value in FORMAT ({formats}, or json) from FILE or\n"
    "standard input and prints it as JSON text followed by a newline. Binary values and NaN/Inf\n"
    "are printed as {\"$binary\": \"hex\", \"$subtype\": n} and {\"$float\": \"nan\"} (docs/cli.md),\n"
    "which `sinkcheck encode` reads back. CBOR tags are kept as binary subtypes.\n"
    "\n"
    "options:\n"
    "  --from FORMAT   format of the input (required)\n"
    "  --indent N      pretty-print with N spaces (default: compact, one line)\n"
    "\n"
    "exit status: 0 printed; 2 usage error, malformed input (FILE: byte N: message), or a\n"
    "string that is not valid UTF-8 (JSON text cannot hold it)\n";

int parse_indent(const std::string& text) {
    if (text.empty() || text.size() > 2 || text.find_first_not_of("0123456789") != std::string::npos) {
        throw usage_error("--indent needs a number from 0 to 99, got '" + text + "'");
    }
    return std::stoi(text);
}

int run(const std::vector<std::string>& argv) {
    const arguments args(argv, {{"--from", true}, {"--indent", true}});
    const auto from_name = args.value("--from");
    if (!from_name) {
        throw usage_error("--from FORMAT is required");
    }
    const std::optional<format> from = parse_source_format(*from_name);
    const int indent = args.value("--indent") ? parse_indent(*args.value("--indent")) : -1;
    const input in = read_input(args.file());
    const json value = decode_input(in, from);
    write_stdout(to_text(value, indent, in.name) + "\n");
    return exit_ok;
}

}  // namespace

const command decode_command{"decode", "print a value in any format as JSON text", usage, run};

}  // namespace sinkcheck::cli
