// tools/commands.hpp — the `sinkcheck` command table and what the subcommands share.
//
// Every subcommand is a `command` object defined in its own .cpp; adding one is one line in
// SINKCHECK_CLI_COMMANDS below. The helpers here keep the user-facing contract in one place:
// how input is read and decoded (with the place of any error), how values that JSON text cannot
// hold are written as text, and which exit code each kind of failure gets (docs/cli.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/conform/arguments.hpp"
#include "sinkcheck/options.hpp"
#include "sinkcheck/testkit/hex.hpp"

namespace sinkcheck::cli {

using json = nlohmann::json;

/// Exit codes (docs/cli.md): a user can tell "the encoder or the check said no" from "I called
/// it wrongly or gave it unreadable input".
inline constexpr int exit_ok = 0;
inline constexpr int exit_failed = 1;  // a check failed, an encoder refused the value, a sink failed
inline constexpr int exit_usage = 2;   // bad command line, malformed input, unwritable output

/// Bad command line: main prints the message and the command's usage, exits 2.
using usage_error = conform::usage_error;

/// Unreadable or malformed input; the message already names the input and the place
/// (`FILE:line:column: ...`, `FILE: byte N: ...`, `FILE: at '/pointer': ...`). Exit 2.
class input_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The parsed command line of one subcommand (sinkcheck/conform/arguments.hpp: the grammar
/// `sinkcheck conform` shares).
using conform::arguments;

struct command {
    std::string_view name;
    std::string_view summary;  // one line for `sinkcheck --help`
    std::string_view usage;    // the full text printed by `sinkcheck NAME --help`
    /// Runs with the arguments after the subcommand name (main has already answered --help).
    int (*run)(const std::vector<std::string>& args);
};

// ---- the command table ----------------------------------------------------------------------
// One X(name) per subcommand, in `sinkcheck --help` order; adding a subcommand is one line here
// plus the object `const command name_command` in namespace sinkcheck::cli, in its own source.
#define SINKCHECK_CLI_COMMANDS(X) \
    X(encode)                     \
    X(decode)                     \
    X(check)                      \
    X(check_sink)                 \
    X(formats)                    \
    X(sinks)                      \
    X(conform)                    \
    X(corpus)

#define SINKCHECK_CLI_DECLARE(name) extern const command name##_command;
SINKCHECK_CLI_COMMANDS(SINKCHECK_CLI_DECLARE)
#undef SINKCHECK_CLI_DECLARE

#define SINKCHECK_CLI_ROW(name) &name##_command,
inline const command* const command_table[] = {SINKCHECK_CLI_COMMANDS(SINKCHECK_CLI_ROW)};
#undef SINKCHECK_CLI_ROW

// ---- input -----------------------------------------------------------------------------------

/// Deeper nesting is refused as an input error: every encoder handles any depth, but the
/// oracle (nlohmann 3.11.2) reads, writes and prints recursively; the tool runs on a stack
/// large enough for this many levels.
inline constexpr std::size_t max_input_depth = 100000;

struct input {
    std::string name;  // the file name as given, or "<stdin>"
    std::vector<std::uint8_t> bytes;
};

/// Reads FILE, or stdin when file is empty or "-". Throws input_error.
input read_input(const std::optional<std::string>& file);

/// The value of `--from`: nullopt for JSON text, else a binary format. Throws usage_error.
std::optional<format> parse_source_format(const std::string& name);

/// A binary format name (`--to`). Throws usage_error.
format parse_target_format(const std::string& name);

/// Decodes in as JSON text (from == nullopt; the text notation of docs/cli.md applies) or as a
/// binary format: nlohmann 3.11.2 reads CBOR (tags kept as binary subtypes), MessagePack,
/// UBJSON, BJData and BSON, sinkcheck's own decoder reads BON8. Throws input_error naming the
/// place: `NAME:line:column: ...` for text, `NAME: byte N: ...` (N from 0) for binary.
json decode_input(const input& in, std::optional<format> from);

/// Levels of nesting in v (a scalar: 0), without recursion.
std::size_t nesting_depth(const json& v);

/// --use-size / --use-type from the command line; use_type alone is a usage error.
encode_options encoder_options(const arguments& args);

// ---- text notation (docs/cli.md, "Values JSON text cannot hold") ------------------------------

/// Replaces {"$binary": ...}, {"$float": ...} and {"$object": ...} by what they stand for.
/// Throws input_error naming input_name and the JSON pointer of a malformed notation object.
void resolve_text_notation(json& value, const std::string& input_name);

/// JSON text of value, binary and non-finite numbers in the notation; indent < 0: compact.
/// Throws input_error (naming input_name) when a string is not valid UTF-8.
std::string to_text(const json& value, int indent, const std::string& input_name);

// ---- output ----------------------------------------------------------------------------------

/// Writes all of data to stdout and flushes; throws input_error when stdout refuses.
void write_stdout(std::string_view data);

/// Lowercase hex, two digits a byte, no separators.
using testkit::to_hex;

}  // namespace sinkcheck::cli
