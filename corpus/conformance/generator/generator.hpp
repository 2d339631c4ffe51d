// generator.hpp — what the parts of the conformance vector generator share (generate.cpp): the
// vector list of one format file, the helpers for writing inputs and hex, the value catalogue
// every format draws from, the vectors every format gets, and one entry point per format
// (cbor.cpp, msgpack.cpp, ubjson.cpp for UBJSON and BJData, bson.cpp, bon8.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/options.hpp"

namespace corpus_gen {

using nlohmann::json;
using sinkcheck::format;
using bytes = std::vector<std::uint8_t>;

/// Prints the message on stderr and exits 1.
[[noreturn]] void die(const std::string& message);

// ---------------------------------------------------------------------------------------------
// The vector list of one format file.

struct entry {
    std::string id;
    std::string input;
    std::string options;
    std::string level = "exact";
    std::string hand;  // hex written by hand; empty: the oracle's bytes (or the model's)
    std::vector<std::string> alts;
    std::string error;
    std::string rule;
    std::string source;
    std::string divergence;
    bool from_model = false;  // hand holds a spec model's bytes (no oracle for them)
    std::string section;      // starts a new "# --- section" block when it changes
};

class vector_file {
public:
    explicit vector_file(format f) : f_(f) {}

    format fmt() const { return f_; }
    void section(const std::string& title) { section_ = title; }

    entry& add(const std::string& id, const std::string& input, const std::string& rule, const std::string& source) {
        entry e;
        e.id = std::string(sinkcheck::format_name(f_)) + "/" + id;
        e.input = input;
        e.rule = rule;
        e.source = source;
        e.section = section_;
        entries_.push_back(std::move(e));
        return entries_.back();
    }

    entry& refuse(const std::string& id, const std::string& input, const std::string& error, const std::string& rule,
                  const std::string& source) {
        entry& e = add(id, input, rule, source);
        e.error = error;
        return e;
    }

    std::vector<entry>& entries() { return entries_; }

    /// Resolves every entry's bytes and writes the file.
    void write(const std::string& dir, const std::string& header);

private:
    std::string resolve(const entry& e) const;
    /// Hand hex is kept as written when it uses the group notation, otherwise re-spaced.
    static std::string normal_hex(const std::string& hand);

    format f_;
    std::string section_;
    std::vector<entry> entries_;
};

// ---------------------------------------------------------------------------------------------
// Small helpers for writing inputs and hex (generate.cpp).

std::string hexs(const bytes& b);
/// v as n bytes of hex, big-endian / little-endian.
std::string be(std::uint64_t v, int n);
std::string le(std::uint64_t v, int n);
std::string nested(const std::string& open, const std::string& close, int depth, const std::string& inner = "");
std::uint64_t bits_of(double d);
std::uint32_t bits_of(float f);
/// True when d survives a round trip through binary32 (infinities do, NaN never counts).
bool float32_exact(double d);
json parse(const std::string& text);
/// Keys of "{\"k\":0}*n": "k" + the index zero-padded to the digits of n-1.
int key_digits(std::size_t n);

// ---------------------------------------------------------------------------------------------
// The shared value catalogue: every format gets these, each with its own rule text.

extern const std::vector<std::string> integer_catalogue;

struct named {
    std::string name;
    std::string input;
};
extern const std::vector<named> float_catalogue;

struct string_case {
    std::string name;
    std::string input;
    std::size_t length;  // bytes
};
std::vector<string_case> string_catalogue();

struct binary_case {
    std::string name;
    std::string input;
    std::size_t length;
    bool has_subtype;
    std::uint64_t subtype;
};
std::vector<binary_case> binary_catalogue();

/// Subtypes above 255: CBOR writes them (tag heads), MessagePack and BSON must refuse.
extern const std::vector<std::uint64_t> wide_subtypes;

struct container_case {
    std::string name;
    std::string input;
    std::string rule;
};
std::vector<container_case> array_catalogue();
std::vector<container_case> object_catalogue();

// ---------------------------------------------------------------------------------------------
// Vectors every format gets.

/// The integers beyond 64 bits, as nlohmann's model holds them (the nearest double, from the
/// oracle); wrap puts each into the container the format needs at the top (BSON's document).
void add_big_integers(vector_file& f, const std::string& extra_source = "",
                      const std::map<std::string, std::string>& alternatives = {},
                      const std::function<std::string(const std::string&)>& wrap = {});

/// The refusals every format shares: text that is not UTF-8 (as a value and as a key) and the
/// discarded value (alone, in an array, in an object); inputs vary per format so that each
/// file tests other invalid sequences, and the sources say what 3.11.2 writes instead.
struct shared_refusals {
    std::string invalid_string, invalid_key, discarded_array, discarded_object;
    std::string utf8_source, discarded_array_source;
    std::string discarded_source = "sinkcheck divergence discarded-value (3.11.2 writes nothing)";
};

void add_shared_refusals(vector_file& f, const shared_refusals& r);

/// Hex of "{\"k\":0}*n" in CBOR or MessagePack: the map head, then n keys "k" + index and 0.
std::string counted_map_hex(const std::string& head, std::size_t n, unsigned text_head_base);

// ---------------------------------------------------------------------------------------------
// One format file's vectors, one source each.

void add_cbor(vector_file& f);
void add_msgpack(vector_file& f);
/// UBJSON, or with bjdata BJData: one list of vectors for the family.
void add_ubjson_family(vector_file& f, bool bjdata);
void add_bson(vector_file& f);
void add_bon8(vector_file& f);

}  // namespace corpus_gen
