// sinkcheck/conform/encoder.hpp — what the runner talks to: an encoder under test.
//
// Two kinds: an encoder *process* in any language, spoken to through the protocol of
// docs/conformance.md (one process per vector, or one process exchanging frames), and a
// *linked* C++ encoder implementing the small abstract class below (the adapters in
// conformance/adapters/ do, for nlohmann_json, msgpack-cxx, libcbor and libbson). The runner opens one
// session per worker thread and sends it the vectors one at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/options.hpp"

namespace sinkcheck::conform {

/// What happened when an encoder was given one vector.
struct encode_outcome {
    enum class kind {
        output,          // it wrote bytes and reported success
        refused,         // it reported that it refuses the value (message says why)
        unsupported,     // it declared that it does not support the value, option or format
        crashed,         // it died (signal, or a batch process quitting mid-exchange)
        timed_out,       // killed at the timeout
        output_limit,    // killed after writing more than --max-output bytes
        protocol_error,  // it answered, but not in the protocol (batch frames)
        harness_error    // the runner could not run it at all
    };
    kind what = kind::harness_error;
    std::vector<std::uint8_t> bytes;  // output (and partial output otherwise)
    std::string message;              // refusal, reason, or what went wrong
    std::string stderr_text;          // the encoder's stderr (capped), processes only
    int exit_status = -1;             // processes: exit code, or -1
    int signal = 0;                   // processes: the signal that ended it, or 0
    double seconds = 0;
    /// Batch mode: bytes arrived after the session's previous answer, before this request (an
    /// extra frame); the previous vector is the one that broke the protocol. Empty otherwise.
    std::string previous_violation;
};

/// Thrown by a session when the run cannot go on: the encoder cannot be started at all, or it
/// plainly does not speak the mode it was started in. The runner stops at once and exits 2
/// with the message instead of grading every vector the same way.
class run_stopped : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

const char* outcome_name(encode_outcome::kind k) noexcept;

class encoder_session {
public:
    virtual ~encoder_session() = default;
    virtual encode_outcome encode(const test_vector& v) = 0;
    /// Several vectors, answered in order, each outcome as encode() gives it. A batch process
    /// is sent every frame before its answers are read (one round trip for all, not one each);
    /// the default sends them one at a time.
    virtual std::vector<encode_outcome> encode_all(const std::vector<const test_vector*>& vectors) {
        std::vector<encode_outcome> out;
        out.reserve(vectors.size());
        for (const test_vector* v : vectors) out.push_back(encode(*v));
        return out;
    }
    /// After the last vector: a protocol violation of that vector noticed only now (batch: bytes
    /// after its answer, before end of file), or empty.
    virtual std::string finish() { return {}; }
};

/// Creates one session per worker; describe() names the encoder in reports.
class encoder_factory {
public:
    virtual ~encoder_factory() = default;
    virtual std::string describe() const = 0;
    virtual std::unique_ptr<encoder_session> open() = 0;
};

// ---- linked (in-process) C++ encoders -------------------------------------------------------

/// Thrown by a linked encoder that does not support a value, option or format (result
/// "unsupported"). Any other exception is a refusal; its what() should name the error
/// category when there is one ("type_error.316 ...", as sinkcheck's and nlohmann's do).
class unsupported : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The in-process interface: implement encode(); one instance serves one worker thread.
class linked_encoder {
public:
    virtual ~linked_encoder() = default;
    /// value is in nlohmann's model (objects sorted by key); wire is the vector's input in the
    /// value notation, keys in the order the vector wrote them, for encoders that care.
    virtual std::vector<std::uint8_t> encode(format f, const nlohmann::json& value, const std::string& wire,
                                             const encode_options& options) = 0;
};

/// What an encoder does differently from the reference on purpose, declared once: in a linked
/// encoder's registration (the test kit's traits members of the same names) or with --declare
/// for a process. The runner grades an answer that a declaration explains as an expected failure
/// whose reason names it, and the encoder fuzzer does not report it: both ask explained_by().
struct declared_behaviour {
    /// A whole double (and -0.0) may be written as an integer.
    bool whole_floats_as_integers = false;
    /// Strings are written as bytes, valid UTF-8 or not (the reference refuses invalid UTF-8).
    bool writes_invalid_utf8 = false;
};

/// Each declaration and its name: the member's, which --declare and the reports use too.
struct declaration {
    bool declared_behaviour::*member;
    const char* name;
};
inline constexpr declaration all_declarations[] = {
    {&declared_behaviour::whole_floats_as_integers, "whole_floats_as_integers"},
    {&declared_behaviour::writes_invalid_utf8, "writes_invalid_utf8"}};

/// The names of what d declares, comma-separated ("" for nothing).
std::string declaration_names(const declared_behaviour& d);

/// The declaration that explains an answer the reference's differs from, or nullptr. `expected`
/// is what the reference writes, or nullptr where it refuses the value; `refusal_for_invalid_utf8`
/// says that refusal is the one for invalid UTF-8 (type_error.316). Explained: a value the reference
/// refuses for invalid UTF-8 written anyway (writes_invalid_utf8; the bytes written are not
/// judged), or bytes that decode to another value than the expected one, and to the same value once
/// every whole double on both sides is read as the integer of the same value
/// (whole_floats_as_integers; so not a float's width, which differs in bytes but not in value).
const char* explained_by(const declared_behaviour& declared, format f, const std::vector<std::uint8_t>* expected,
                         bool refusal_for_invalid_utf8, const std::vector<std::uint8_t>& actual);

/// A linked encoder as it registers: what the runner and the encoder fuzzer
/// (conformance/runner/src/encoder_fuzzer.cpp) know of it. The last two members say where it differs from
/// the reference on purpose.
struct linked_encoder_info {
    std::string name;             // as given to --encoder linked:NAME
    std::string description;      // for reports: library and version
    std::vector<format> formats;  // what it writes (at least one); any other format is "unsupported"
    std::function<std::unique_ptr<linked_encoder>()> make;
    declared_behaviour declared = {};
    /// For a value on which the encoder's differences are recorded elsewhere (nlohmann 3.11.2:
    /// reference/KNOWN_DIVERGENCES.md), the record's id; nullptr otherwise or when not given.
    const char* (*recorded_difference)(format, const nlohmann::json&, const encode_options&) = nullptr;
};

/// The linked encoders this program knows (filled by register_linked_encoder, e.g. from the
/// adapters library's static registrations or the test kit's SINKCHECK_ENCODER lines).
std::vector<linked_encoder_info>& linked_encoders();
void register_linked_encoder(linked_encoder_info info);

std::unique_ptr<encoder_factory> make_linked_factory(const linked_encoder_info& info);

// ---- encoder processes ------------------------------------------------------------------------

enum class process_mode { per_vector, batch };

/// The notation a value is sent in (docs/conformance.md, "The protocol"): the corpus's token
/// notation, or the JSON notation of docs/cli.md, which any stock JSON parser reads whole —
/// with every double as its bits (json), or in decimal where that is readable (json_decimal).
enum class wire_notation { token, json, json_decimal };
/// As --notation spells it: token, json, json-decimal.
const char* notation_name(wire_notation n) noexcept;

struct process_limits {
    double timeout_seconds = 10;
    /// The runner holds up to this much of one answer; the largest encoding in the corpus is
    /// 786,445 bytes (bson/document/count-65536), so 16 MiB is ample and keeps a runner whose
    /// encoder floods every vector under 50 MB.
    std::size_t max_output = std::size_t{16} << 20;
    std::size_t max_stderr = std::size_t{64} << 10;
};

/// command is split into words like a POSIX shell would (quotes and backslashes, no
/// expansions); the first word is looked up in PATH. Throws std::invalid_argument when the
/// command is empty or its quotes do not close.
std::unique_ptr<encoder_factory> make_process_factory(const std::string& command, process_mode mode,
                                                      const process_limits& limits,
                                                      wire_notation notation = wire_notation::token);

std::vector<std::string> split_command(const std::string& command);

}  // namespace sinkcheck::conform
