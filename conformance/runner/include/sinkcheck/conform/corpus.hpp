// sinkcheck/conform/corpus.hpp — loading the conformance vectors (corpus/conformance/*.vectors).
//
// The schema is documented in corpus/conformance/README.md. Loading is strict: an unknown field,
// a missing one, a bad value or hex string, a duplicate id all stop the load with
// "FILE:LINE: message" (the runner exits 2), because a vector that silently loads wrong would
// pass or fail for the wrong reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/options.hpp"
#include "sinkcheck/testkit/hex.hpp"

namespace sinkcheck::conform {

/// The levels a vector's bytes are required at (a bit set).
enum level_bit : unsigned {
    level_exact = 1,      // the reference profile: nlohmann 3.11.2 + BON8 + recorded divergences
    level_canonical = 2,  // the format's canonical encoding (RFC 8949 §4.2.1 for CBOR)
    level_equivalent = 4  // any encoding that decodes to an equal value
};

enum class run_level { exact, canonical, equivalent };
const char* level_name(run_level l) noexcept;
bool parse_level(std::string_view name, run_level& out) noexcept;
/// The level's bit in a vector's set of levels.
unsigned level_bit_of(run_level l) noexcept;
/// The names of a set of levels, in level order: {"exact", "canonical"}.
std::vector<const char*> level_names(unsigned levels);

struct test_vector {
    std::string id;
    format fmt = format::cbor;
    std::string file;
    std::size_t line = 0;  // first line of the record
    std::string input_text;
    parsed_value input;
    bool use_size = false;
    bool use_type = false;
    unsigned levels = 0;               // positive vectors
    std::vector<std::uint8_t> expect;  // positive vectors
    std::vector<std::vector<std::uint8_t>> alternatives;
    std::string error;  // negative vectors: "type_error.316"
    std::string rule;
    std::string source;
    std::string divergence;  // KNOWN_DIVERGENCES id, if any

    bool negative() const noexcept { return !error.empty(); }
    /// Where the vector was read: "FILE:LINE" for a .vectors file, "FILE#/vectors/N" (line 0)
    /// for an exported corpus.
    std::string location() const { return line == 0 ? file : file + ":" + std::to_string(line); }
    encode_options options() const {
        encode_options o;
        o.use_size = use_size;
        o.use_type = use_type;
        return o;
    }
};

/// A malformed corpus file. what() is "FILE:LINE: message", or "FILE: message" for line 0 (a
/// problem with the file as a whole: missing, a directory, too large).
class corpus_error : public std::runtime_error {
public:
    corpus_error(const std::string& file, std::size_t line, const std::string& message)
        : std::runtime_error(file + (line == 0 ? std::string() : ":" + std::to_string(line)) + ": " + message) {}
};

/// The most one vector file (or expected-failures list) may hold: the largest corpus file is
/// 2.3 MB, and a path such as /dev/zero must not be read without end.
inline constexpr std::size_t max_vector_file_bytes = std::size_t{64} << 20;

/// Reads a regular file of at most max_bytes; what names it in messages ("a vector file").
/// Throws corpus_error (line 0) when the path is missing, not a regular file, or too large.
std::string read_small_file(const std::string& path, const char* what, std::size_t max_bytes = max_vector_file_bytes);

/// Loads one .vectors file, an exported corpus (a .json file, parse_corpus_json), or every
/// .vectors file of a directory (sorted by name); with only, just that format's vectors (a
/// single .vectors file is loaded whole). Ids must be unique across everything loaded.
std::vector<test_vector> load_corpus(const std::string& path, std::optional<format> only = std::nullopt);

/// Parses the vectors in text as if read from file (name gives the format, see README).
std::vector<test_vector> parse_vectors(const std::string& file, std::string_view text);

/// The same for records of a known format; file only names the text in messages.
std::vector<test_vector> parse_vector_records(const std::string& file, format fmt, std::string_view text);

// ---- the portable corpus (docs/conformance.md, "The corpus as JSON") -------------------------

/// The version of the export's layout, written as "schema_version"; a reader refuses others.
inline constexpr int export_schema_version = 1;

/// The vectors as one JSON document (corpus/conformance/export.schema.json), one vector per
/// line, values in the JSON notation (to_json_notation). corpus_version identifies the
/// vectors: "<sinkcheck version>+<16 hex digits of a digest of the vector lines>".
std::string export_corpus_json(const std::vector<test_vector>& vectors, std::string_view sinkcheck_version);

/// Reads an export back into vectors, as strictly as a .vectors file: each vector gets
/// file = "FILE#/vectors/N" (a JSON pointer) and line 0. Throws corpus_error naming the file
/// and the vector. only: keep one format's vectors.
std::vector<test_vector> parse_corpus_json(const std::string& file, std::string_view text,
                                           std::optional<format> only = std::nullopt);

/// The most an exported corpus file may hold (the whole corpus exports to about N MB).
inline constexpr std::size_t max_export_file_bytes = std::size_t{512} << 20;

/// Hex notation of expected bytes: pairs of hex digits, blanks ignored, "(...)*N" repeats a
/// group N times, and "{W}" inside a group stands for the group's repetition index written as
/// W ASCII decimal digits. Throws notation_error.
std::vector<std::uint8_t> parse_hex(std::string_view text);

/// Plain lowercase hex, no separators.
using testkit::to_hex;

/// Hex with long runs of a repeated unit folded into "(unit)*N" (what the generator writes).
std::string compact_hex(const std::vector<std::uint8_t>& v);

/// FNV-1a, 64 bits, of a byte string: tells outputs or corpora apart (no defence against forgery).
std::uint64_t fnv1a64(std::string_view bytes) noexcept;

/// The format a vector file holds, from its name: "<format>.vectors" or "<format>-<part>.vectors".
bool format_of_file(const std::string& path, format& out);

}  // namespace sinkcheck::conform
