// tools/arguments.cpp — what the subcommands read from their arguments alike: formats and the
// encoder's options (the grammar itself is sinkcheck/conform/arguments.hpp's).
#include <string>

#include "commands.hpp"

namespace sinkcheck::cli {

std::optional<format> parse_source_format(const std::string& name) {
    if (name == "json") {
        return std::nullopt;
    }
    if (auto f = parse_format(name)) {
        return f;
    }
    throw usage_error("unknown format '" + name + "' (known: json, " + format_names() + ")");
}

format parse_target_format(const std::string& name) {
    if (auto f = parse_format(name)) {
        return *f;
    }
    throw usage_error("unknown format '" + name + "' (known: " + format_names() + ")");
}

encode_options encoder_options(const arguments& args) {
    encode_options o;
    o.use_size = args.has("--use-size");
    o.use_type = args.has("--use-type");
    // nlohmann 3.11.2 asserts use_size when use_type is set (formats.md §4): not a combination
    if (o.use_type && !o.use_size) {
        throw usage_error("--use-type needs --use-size");
    }
    return o;
}

}  // namespace sinkcheck::cli
