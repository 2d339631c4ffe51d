// sinkcheck/conform/arguments.hpp — the command-line grammar of `sinkcheck` and its subcommands,
// `sinkcheck conform` among them (tools/ builds on the runner, so the one parser lives here).
//
// Long options only, `--opt value` or `--opt=value`, operands anywhere, `--` ends the options.
// Anything it does not know, an option given twice that is not repeatable, or a value missing or
// given to a flag is a usage_error (exit 2), never something silently ignored or overridden.
#pragma once

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sinkcheck::conform {

/// A bad command line: the caller prints the message (and its usage) and exits 2.
class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The parsed command line of one command.
class arguments {
public:
    struct option {
        std::string_view name;  // with the dashes: "--to"
        bool takes_value;
        bool repeatable = false;  // given more than once: every value kept (values())
    };

    /// Parses args (without the program and command names) against the known options.
    /// Throws usage_error.
    arguments(const std::vector<std::string>& args, const std::vector<option>& known);
    arguments(const std::vector<std::string>& args, std::initializer_list<option> known)
        : arguments(args, std::vector<option>(known)) {}

    bool has(std::string_view name) const;
    /// The value given for name, or nullopt.
    std::optional<std::string> value(std::string_view name) const;
    /// Every value given for name, in order.
    std::vector<std::string> values(std::string_view name) const;
    /// The options given, in order, each with its value ("" for a flag).
    const std::vector<std::pair<std::string, std::string>>& given() const noexcept { return given_; }
    const std::vector<std::string>& operands() const noexcept { return operands_; }
    /// The single optional FILE operand ("-" or absent: stdin). Throws usage_error on more.
    std::optional<std::string> file() const;
    /// Throws usage_error when any operand was given (commands that read no input).
    void expect_no_operands() const;

private:
    std::vector<std::pair<std::string, std::string>> given_;
    std::vector<std::string> operands_;
};

}  // namespace sinkcheck::conform
