// arguments.cpp — the command-line grammar (sinkcheck/conform/arguments.hpp).
//
// One small parser instead of getopt: getopt_long would accept abbreviations and permute
// silently; here every spelling is exact and every mistake is named.
#include "sinkcheck/conform/arguments.hpp"

#include <algorithm>

namespace sinkcheck::conform {

arguments::arguments(const std::vector<std::string>& args, const std::vector<option>& known) {
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
        if (!spec->repeatable && has(name)) {
            throw usage_error("option '" + name + "' is given twice");
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
    for (const auto& g : given_) {
        if (g.first == name) {
            return g.second;
        }
    }
    return std::nullopt;
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

}  // namespace sinkcheck::conform
