// sinkcheck/conform/sink_protocol.hpp — a sink in another process, written in any language,
// under sinkcheck's checks (docs/sink-protocol.md).
//
// sinkcheck sends the process write programs — the calls the reference encoders make on a sink,
// recorded once, and random programs — and the process plays each on a new sink of its own and
// answers with the position and capacity after every call and the bytes its target holds. The
// judge holds the model (what a byte array holds after the same calls) and the growth rule the
// sink declared in its greeting, and compares. Only the process is in another language: the
// programs, the model and the rule are here, once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/options.hpp"

namespace sinkcheck::conform::sink_protocol {

/// One call of a write program.
struct call {
    enum class kind : std::uint8_t { byte, block, seek };
    kind what = kind::byte;
    /// byte, block: where its bytes start in program::data; seek: the offset sought
    std::uint64_t at = 0;
    /// block: how many bytes (a byte: 1; a seek: 0)
    std::uint32_t length = 0;
};

/// A sequence of calls on one new sink, and how the writer leaves it.
struct program {
    std::vector<call> calls;
    std::vector<std::uint8_t> data;
    /// true: ends with `A` (the writer stopped half-way, the sink is dropped unfinished);
    /// false: with `F` (finished)
    bool abandon = false;
    /// where it came from, for reports: "value 12 in ubjson (use_size)", "random program 7"
    std::string origin;
};

/// The calls the reference encoder makes on a sink while it encodes `value`: through a sink
/// that seeks when `seekable` (BSON then patches its lengths by seeking). A refusal of the
/// encoder (invalid UTF-8, a value the format cannot hold) ends the program there, abandoned.
program record_encoding(format f, const nlohmann::json& value, const encode_options& options, bool seekable,
                        std::string origin);

/// The index-th generated value of a seed (the test kit's value builder: every integer and
/// length-class edge, floats of every class, invalid UTF-8, binary, deep nesting).
nlohmann::json generated_value(std::uint64_t seed, std::uint64_t index);

/// A random write program (single bytes, blocks of the lengths where sinks change behaviour,
/// seeks back and past the end when `seekable`), some of them abandoned part-way; the same
/// (seed, index) gives the same program.
program random_program(std::uint64_t seed, std::uint64_t index, bool seekable);

/// A growth expression of a greeting (docs/sink-protocol.md, "Growth expressions").
class rule_expression {
public:
    struct inputs {
        std::uint64_t capacity = 0;
        std::uint64_t size = 0;
        std::uint64_t position = 0;
        std::uint64_t length = 0;
        std::uint64_t needed = 0;
    };

    /// Throws std::invalid_argument naming the character where the text stops making sense.
    static rule_expression parse(std::string_view text);
    /// Throws std::domain_error on a subtraction below zero or a division by zero.
    std::uint64_t evaluate(const inputs& in) const;
    const std::string& text() const noexcept { return text_; }

    /// One node of the parsed expression: a number, a name, or an operator over earlier nodes.
    struct node {
        enum class kind : std::uint8_t {
            number,
            capacity,
            size,
            position,
            length,
            needed,
            add,
            subtract,
            multiply,
            divide,
            remainder,
            shift_left,
            shift_right,
            less,
            less_equal,
            greater,
            greater_equal,
            equal,
            not_equal,
            logical_and,
            logical_or,
            logical_not,
            choose,
            max,
            min
        };
        kind what = kind::number;
        std::uint64_t value = 0;
        std::size_t operand[3] = {0, 0, 0};
    };

private:
    std::vector<node> nodes_;
    std::size_t root_ = 0;
    std::string text_;
};

/// What a process says of its sink before the first program.
struct greeting {
    std::string name;
    bool seeks = false;
    bool capacity_reported = false;
    std::optional<rule_expression> growth;
    std::optional<rule_expression> grows_when;
    std::uint64_t initial = 0;
    std::uint64_t buffers = 0;
};

/// Parses the greeting's lines (up to, not including, the empty line that ends it). Returns an
/// empty string, or what is wrong with the line that is.
std::string parse_greeting(std::string_view text, greeting& g);

/// Appends a program as it goes on the wire.
void append_program(std::string& wire, const program& p);

/// What the process answered to one program.
struct answer {
    std::uint32_t done = 0;
    std::vector<std::uint64_t> positions;
    std::vector<std::uint64_t> capacities;
    std::string error;
    std::vector<std::uint8_t> held;
};

/// Reads one answer from the front of [p, p + n): the bytes it took, or 0 when the answer is not
/// complete yet. Throws std::runtime_error when the bytes are not an answer to `calls` calls
/// (naming the offset in the answer), or when it would hold more than max_held bytes.
std::size_t read_answer(const std::uint8_t* p, std::size_t n, std::size_t calls, std::uint64_t max_held, answer& a);

/// What the judged answers covered, for the report.
struct tally {
    std::uint64_t programs = 0;
    std::uint64_t abandoned = 0;
    std::uint64_t calls = 0;
    std::uint64_t seeks = 0;
    std::uint64_t bytes = 0;
    /// writes whose capacity the growth rule was asked about, and those where it said "grows"
    std::uint64_t rule_writes = 0;
    std::uint64_t rule_growths = 0;
    /// writes after a seek past the end, not judged against the rule
    std::uint64_t gap_writes = 0;
};

/// One thing an answer got wrong.
struct finding {
    /// the call it concerns, or no_call (what the target holds at the end, a failed finish)
    std::size_t call = 0;
    /// one line: the program, the call and what differs
    std::string text;
};
inline constexpr std::size_t no_call = static_cast<std::size_t>(-1);

/// Judges one answer against the model of `p`; returns what did not match (empty: all did), in
/// the order of the calls.
std::vector<finding> judge(const greeting& g, const program& p, const answer& a, tally& t);

/// One line per call from `first` to `last` (inclusive, clipped), for a report.
std::string describe_calls(const program& p, std::size_t first, std::size_t last);

/// `sinkcheck check-sink`'s settings (tools/check_sink.cpp reads them from the command line).
struct check_options {
    std::vector<std::string> command;
    std::uint64_t values = 200;
    std::uint64_t programs = 400;
    std::uint64_t seed = 1;
    double timeout_seconds = 30;
    /// findings printed in full; the rest are counted
    std::size_t show = 5;
};

/// Runs the check; prints the report to stdout and problems to stderr. Returns 0 (every answer
/// matched), 1 (an answer did not) or 2 (the process broke the protocol or could not be run).
int run_check_sink(const check_options& options);

}  // namespace sinkcheck::conform::sink_protocol
