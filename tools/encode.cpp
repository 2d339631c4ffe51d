// tools/encode.cpp — `sinkcheck encode`: a value in, its encoding out.
//
// The whole encoding is made before the first byte reaches stdout, so a refusal halfway through
// a document leaves stdout empty instead of holding a truncated encoding that looks valid.
#include <limits>
#include <string>

#include "commands.hpp"
#include "sinkcheck/encode.hpp"
#include "sinkcheck/testkit/registry.hpp"

namespace sinkcheck::cli {
namespace {

constexpr std::string_view usage =
    "usage: sinkcheck encode --to FORMAT [--from FORMAT] [--use-size] [--use-type]\n"
    "                        [--sink NAME [--window BYTES]] [--hex] [FILE]\n"
    "\n"
    "Reads one value from FILE or standard input (JSON text, or --from FORMAT) and writes its\n"
    "FORMAT encoding by the sinkcheck reference encoder to standard output, binary-safe.\n"
    "JSON text may hold binary values and NaN/Inf as {\"$binary\": \"hex\", \"$subtype\": n} and\n"
    "{\"$float\": \"nan\"} (docs/cli.md). Nothing is written to standard output when encoding fails.\n"
    "\n"
    "options:\n"
    "  --to FORMAT     {formats-or} (required)\n"
    "  --from FORMAT   format of the input: json (default) or one of the above\n"
    "  --use-size      UBJSON/BJData: write container counts (nlohmann use_size)\n"
    "  --use-type      UBJSON/BJData: write '$' element types; needs --use-size (use_type)\n"
    "  --sink NAME     encode through this sink (`sinkcheck sinks`); default: memory writer;\n"
    "                  `counting` stores no bytes, so its output is the byte count as text\n"
    "  --window BYTES  window of a windowed sink: 1 or more, or `unlimited` (default 65536)\n"
    "  --hex           write lowercase hex and a newline instead of raw bytes\n"
    "\n"
    "exit status: 0 written; 1 the encoder refused the value ([sinkcheck.type_error.N] message\n"
    "(at 'pointer')) or the sink failed; 2 usage error or malformed input\n";

std::size_t parse_window(const std::string& text) {
    if (text == "unlimited") {
        return unlimited_window;
    }
    const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    if (digits && text.size() <= 19 && std::stoull(text) > 0) {
        return static_cast<std::size_t>(std::stoull(text));
    }
    throw usage_error("--window needs a byte count from 1 up, or 'unlimited'; got '" + text + "'");
}

/// The --sink entry, checked against --window.
const sink_info* chosen_sink(const arguments& args) {
    const auto name = args.value("--sink");
    if (!name) {
        if (args.has("--window")) {
            throw usage_error("--window needs --sink (the default memory writer takes none)");
        }
        return nullptr;
    }
    const sink_info* sink = find_sink(*name);
    if (sink == nullptr) {
        std::string names;
        for (const sink_info& s : all_sinks()) {
            names += (names.empty() ? "" : ", ") + std::string(s.name);
        }
        throw usage_error("unknown sink '" + *name + "' (known: " + names + ")");
    }
    if (args.has("--window") && !sink->windowed) {
        throw usage_error("sink '" + *name + "' has no window (windowed sinks: see `sinkcheck sinks`)");
    }
    return sink;
}

int run(const std::vector<std::string>& argv) {
    const arguments args(argv, {{"--to", true},
                                {"--from", true},
                                {"--use-size", false},
                                {"--use-type", false},
                                {"--sink", true},
                                {"--window", true},
                                {"--hex", false}});
    const auto to = args.value("--to");
    if (!to) {
        throw usage_error("--to FORMAT is required");
    }
    const format target = parse_target_format(*to);
    const std::optional<format> source =
        args.value("--from") ? parse_source_format(*args.value("--from")) : std::nullopt;
    const encode_options options = encoder_options(args);
    const sink_info* sink = chosen_sink(args);
    const std::size_t window = args.value("--window") ? parse_window(*args.value("--window")) : 0;
    const auto file = args.file();

    const json value = decode_input(read_input(file), source);
    std::vector<std::uint8_t> bytes;
    if (sink == nullptr) {
        bytes = encode_to_vector(target, value, options);
    } else {
        sink_run result = run_sink(sink->name, window, target, value, options);
        if (!sink->stores) {
            write_stdout(std::to_string(result.size) + "\n");
            return exit_ok;
        }
        bytes = std::move(result.bytes);
    }
    if (args.has("--hex")) {
        write_stdout(to_hex(bytes) + "\n");
    } else {
        write_stdout(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    }
    return exit_ok;
}

}  // namespace

const command encode_command{"encode", "encode a value (JSON text or any format) into a format", usage, run};

}  // namespace sinkcheck::cli
