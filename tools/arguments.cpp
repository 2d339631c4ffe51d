// tools/arguments.cpp — the command-line grammar every subcommand shares.
//
// One small parser instead of getopt: long options only, `--opt value` or `--opt=value`,
// operands anywhere, `--` ends the options. Anything it does not know is a usage error (exit 2)
// rather than something silently ignored.
#include <algorithm>
#include <string>

#include "commands.hpp"

namespace sinkcheck::cli {

arguments::arguments(const std::vector<std::string>& args, std::initializer_list<option> known) {
    bool options_ended = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (options_ended || a == "-" || a.size() < 2 || a[0] != '-') {
            operands_.push_back(a);
            continue;
        }
        if (a == "--") {
            options_ended = true;
            continue;
        }
        const std::size_t eq = a.find('=');
        const std::string name = a.substr(0, eq);
        const auto spec = std::find_if(known.begin(), known.end(), [&](const option& o) { return o.name == name; });
        if (spec == known.end()) {
            throw usage_error("unknown option '" + name + "'");
        }
        if (!spec->takes_value) {
            if (eq != std::string::npos) {
                throw usage_error("option '" + name + "' takes no value");
            }
            given_.emplace_back(name, std::string());
        } else if (eq != std::string::npos) {
            given_.emplace_back(name, a.substr(eq + 1));
        } else if (i + 1 < args.size()) {
            given_.emplace_back(name, args[++i]);
        } else {
            throw usage_error("option '" + name + "' needs a value");
        }
    }
}

bool arguments::has(std::string_view name) const {
    return std::any_of(given_.begin(), given_.end(), [&](const auto& g) { return g.first == name; });
}

std::optional<std::string> arguments::value(std::string_view name) const {
    std::optional<std::string> last;
    for (const auto& g : given_) {
        if (g.first == name) {
            last = g.second;
        }
    }
    return last;
}

std::vector<std::string> arguments::values(std::string_view name) const {
    std::vector<std::string> out;
    for (const auto& g : given_) {
        if (g.first == name) {
            out.push_back(g.second);
        }
    }
    return out;
}

std::optional<std::string> arguments::file() const {
    if (operands_.size() > 1) {
        throw usage_error("expected at most one FILE, got " + std::to_string(operands_.size()) + " operands");
    }
    if (operands_.empty() || operands_[0] == "-") {
        return std::nullopt;
    }
    return operands_[0];
}

void arguments::expect_no_operands() const {
    if (!operands_.empty()) {
        throw usage_error("unexpected operand '" + operands_[0] + "'");
    }
}

namespace {
std::string format_list() {
    std::string names;
    for (format f : all_formats) {
        names += (names.empty() ? "" : ", ") + std::string(format_name(f));
    }
    return names;
}
}  // namespace

std::optional<format> parse_source_format(const std::string& name) {
    if (name == "json") {
        return std::nullopt;
    }
    if (auto f = parse_format(name)) {
        return f;
    }
    throw usage_error("unknown format '" + name + "' (known: json, " + format_list() + ")");
}

format parse_target_format(const std::string& name) {
    if (auto f = parse_format(name)) {
        return *f;
    }
    throw usage_error("unknown format '" + name + "' (known: " + format_list() + ")");
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
