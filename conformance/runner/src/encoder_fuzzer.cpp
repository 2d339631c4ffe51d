// encoder_fuzzer.cpp — this program's linked encoders (a user's SINKCHECK_ENCODER lines, or the one
// adapter the target names) against sinkcheck's reference encoder (sinkcheck_add_encoder_fuzzer()
// builds it).
//
// The input picks an encoder, one of its formats and the options, then builds a value from its
// bytes (value_from_bytes.hpp). Both encoders must agree at the level the target was built for:
// exact, the same bytes; equivalent, bytes that decode to the same value. Both may refuse a
// value; a value one writes and the other refuses is a finding too. What the encoder declares as
// its own behaviour (conform::declared_behaviour: whole_floats_as_integers, writes_invalid_utf8,
// a recorded_difference for the value) is not. A finding prints the value, both byte strings and
// the first difference, then aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/decode.hpp"
#include "sinkcheck/conform/encoder.hpp"
#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/encode.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/sink/seekable_memory_writer.hpp"
#include "sinkcheck/testkit/fuzz_report.hpp"
#include "sinkcheck/testkit/value_from_bytes.hpp"

// The target's level and, for a target of one adapter, its encoder's name ("" for every linked
// encoder of the program). sinkcheck_add_encoder_fuzzer() compiles them into this file with
// SINKCHECK_ENCODER_FUZZ_LEVEL (exact or equivalent) and SINKCHECK_ENCODER_FUZZ_NAME. Without
// them the two arrays come from another source of the target: then targets that differ only in
// level and encoder link one compiled copy of this file (sinkcheck's own linked targets do), as it
// is the costliest unit of the fuzz build.
#ifdef SINKCHECK_ENCODER_FUZZ_LEVEL
#define SINKCHECK_ENCODER_FUZZ_TEXT(x) #x
#define SINKCHECK_ENCODER_FUZZ_STRING(x) SINKCHECK_ENCODER_FUZZ_TEXT(x)
extern "C" const char sinkcheck_encoder_fuzz_level[] = SINKCHECK_ENCODER_FUZZ_STRING(SINKCHECK_ENCODER_FUZZ_LEVEL);
#ifdef SINKCHECK_ENCODER_FUZZ_NAME
extern "C" const char sinkcheck_encoder_fuzz_name[] = SINKCHECK_ENCODER_FUZZ_NAME;
#else
extern "C" const char sinkcheck_encoder_fuzz_name[] = "";
#endif
#else
extern "C" const char sinkcheck_encoder_fuzz_level[];
extern "C" const char sinkcheck_encoder_fuzz_name[];
#endif

namespace {

using nlohmann::json;
using sinkcheck::format;
namespace conform = sinkcheck::conform;

conform::run_level level_of_target() {
    const std::string l = sinkcheck_encoder_fuzz_level;
    if (l == "exact") return conform::run_level::exact;
    if (l == "equivalent") return conform::run_level::equivalent;
    std::fprintf(stderr, "this target's level is '%s': the encoder fuzzer compares at exact or equivalent\n",
                 l.c_str());
    std::abort();
}

const conform::run_level level = level_of_target();

struct side {
    bool wrote = false;
    bool unsupported = false;
    bool invalid_utf8 = false;  // the reference refused invalid UTF-8
    std::vector<std::uint8_t> bytes;
    std::string error;
};

template <class Encode>
side run(Encode&& encode) {
    side s;
    try {
        s.bytes = encode();
        s.wrote = true;
    } catch (const conform::unsupported& e) {
        s.unsupported = true;
        s.error = e.what();
    } catch (const sinkcheck::encode_error& e) {
        s.invalid_utf8 = e.id() == sinkcheck::error_id::invalid_utf8;
        s.error = e.what();
    } catch (const std::exception& e) {
        s.error = e.what();
    }
    return s;
}

[[noreturn]] void finding(const conform::linked_encoder_info& e, format f, const sinkcheck::encode_options& o,
                          const json& value, const side& reference, const side& mine, const char* what) {
    std::fprintf(stderr, "\n==sinkcheck== MISMATCH %s: %s vs sinkcheck's reference, %.*s at level %s\n", what,
                 e.name.c_str(), static_cast<int>(sinkcheck::format_name(f).size()), sinkcheck::format_name(f).data(),
                 conform::level_name(level));
    sinkcheck::fuzz::print_note("value", conform::render_value(value, 4096));
    sinkcheck::fuzz::print_note("options", "use_size=" + std::to_string(o.use_size) +
                                               " use_type=" + std::to_string(o.use_type) +
                                               " bson_patch_lengths=" + std::to_string(o.bson_patch_lengths));
    for (const auto& [name, s] : {std::pair<const char*, const side&>{"reference", reference}, {"encoder", mine}}) {
        sinkcheck::fuzz::print_note(name,
                                    s.wrote ? conform::to_hex(s.bytes.data(), s.bytes.size()) : "refused: " + s.error);
    }
    if (reference.wrote && mine.wrote)
        sinkcheck::fuzz::print_byte_difference("reference", reference.bytes, "encoder", mine.bytes);
    std::abort();
}

/// How the encoder's answer differs from the reference's beyond what it declares, or nullptr.
/// What it declares is judged as the runner judges it (conform::explained_by), at either level.
const char* difference(const conform::linked_encoder_info& e, format f, const side& reference, const side& mine) {
    if (!reference.wrote) {
        if (!mine.wrote) return nullptr;
        return conform::explained_by(e.declared, f, nullptr, reference.invalid_utf8, mine.bytes) != nullptr
                   ? nullptr
                   : "writes a value the reference refuses";
    }
    if (!mine.wrote) return "refuses a value the reference writes";
    if (reference.bytes == mine.bytes) return nullptr;
    const auto declared = [&] {
        return conform::explained_by(e.declared, f, &reference.bytes, false, mine.bytes) != nullptr;
    };
    if (level == conform::run_level::exact) return declared() ? nullptr : "different bytes";

    const conform::decoded_value expected = conform::decode_value(f, reference.bytes);
    const conform::decoded_value actual = conform::decode_value(f, mine.bytes);
    if (!expected.ok) return "the reference's bytes do not decode";
    if (!actual.ok) return "its bytes do not decode";
    return conform::same_value(expected.value, actual.value) || declared() ? nullptr
                                                                           : "bytes that decode to a different value";
}

/// The encoders under test: the linked encoder SINKCHECK_ENCODER_FUZZ_NAME names (a target for
/// one of sinkcheck's adapters), or every linked encoder of the program (a user's target).
std::vector<const conform::linked_encoder_info*> encoders_under_test() {
    std::vector<const conform::linked_encoder_info*> chosen;
    std::string linked;
    const std::string wanted = sinkcheck_encoder_fuzz_name;
    for (const conform::linked_encoder_info& e : conform::linked_encoders()) {
        linked += " " + e.name;
        if (!wanted.empty() && e.name != wanted) continue;
        if (e.formats.empty()) {
            std::fprintf(stderr, "linked encoder %s declares no format it writes (linked_encoder_info::formats)\n",
                         e.name.c_str());
            std::abort();
        }
        chosen.push_back(&e);
    }
    if (chosen.empty()) {
        if (wanted.empty()) {
            std::fputs("no encoder registered: the sources need a SINKCHECK_ENCODER(traits) line\n", stderr);
        } else {
            std::fprintf(stderr, "no linked encoder named %s in this program (linked:%s)\n", wanted.c_str(),
                         linked.empty() ? " none" : linked.c_str());
        }
        std::abort();
    }
    return chosen;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<const conform::linked_encoder_info*> encoders = encoders_under_test();
    FuzzedDataProvider in(data, size);
    // The choice bytes are read even when there is one encoder or one format, so that every
    // target built from this file reads an input the same way and seeds carry over.
    const conform::linked_encoder_info& e = *encoders[in.ConsumeIntegral<std::uint8_t>() % encoders.size()];
    const format f = e.formats[in.ConsumeIntegral<std::uint8_t>() % e.formats.size()];
    const sinkcheck::encode_options o = sinkcheck::fuzz::options_from_bits(in.ConsumeIntegral<std::uint8_t>());
    const json value = sinkcheck::fuzz::value_from_bytes<json>(in);

    const side reference = run([&] {
        // seekable, so that the BSON lengths are patched when the options say so (same bytes)
        sinkcheck::seekable_memory_writer w;
        sinkcheck::encode(f, value, w, o);
        return w.take();
    });
    const auto encoder = e.make();
    const side mine = run([&] { return encoder->encode(f, value, std::string(), o); });
    if (mine.unsupported) return 0;
    const char* what = difference(e, f, reference, mine);
    if (what == nullptr) return 0;
    if (e.recorded_difference != nullptr && e.recorded_difference(f, value, o) != nullptr) return 0;
    finding(e, f, o, value, reference, mine, what);
}
