// differential.cpp — the differential targets' checks (differential.hpp says what they are),
// compiled once for all six formats: the format is the target's argument, not a template one.
#include "support/differential.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/format/bon8_decoder.hpp"
#include "sinkcheck/testkit/any_sink.hpp"
#include "sinkcheck/testkit/bon8_canonical.hpp"
#include "sinkcheck/testkit/divergences.hpp"
#include "sinkcheck/testkit/fuzz_report.hpp"
#include "sinkcheck/testkit/oracle.hpp"
#include "sinkcheck/testkit/refusals.hpp"
#include "sinkcheck/testkit/same_value.hpp"
#include "sinkcheck/testkit/utf8_oracle.hpp"
#include "sinkcheck/testkit/value_from_bytes.hpp"
#include "support/sinks.hpp"

namespace sinkcheck::fuzz {
namespace {

/// What one encoding attempt produced: bytes, or the error that stopped it.
struct outcome {
    std::vector<std::uint8_t> bytes;
    bool failed = false;
    std::string error;  // "type_error.316", "out_of_range.407", ...
    std::string what;
    std::optional<testkit::refusal> refused;  // the reference's refusal: its id and JSON pointer

    std::string describe() const {
        return failed ? "threw " + error + ": " + what : std::to_string(bytes.size()) + " bytes";
    }
};

template <class F>
outcome capture(F&& encode) {
    outcome out;
    try {
        out.bytes = encode();
    } catch (const encode_error& e) {
        out.failed = true;
        out.error = std::string(e.category()) + "." + std::to_string(e.id());
        out.what = e.what();
        out.refused = testkit::refusal{out.error, e.pointer()};
    } catch (const nlohmann::json::exception& e) {
        // nlohmann's what() starts with "[json.exception.<category>.<id>] "
        const std::string w = e.what();
        const std::size_t from = w.find("exception.");
        const std::size_t to = w.find(']');
        out.failed = true;
        out.error = from != std::string::npos && to != std::string::npos ? w.substr(from + 10, to - from - 10)
                                                                         : "nlohmann." + std::to_string(e.id);
        out.what = w;
    }
    return out;
}

class differential {
public:
    using json = nlohmann::json;

    explicit differential(format f) : target_(target_of(f)), fmt_(f) {}

    /// Runs every check on the value the input describes: the input parsed as JSON text when it
    /// is JSON, else the value built from its bytes (most mutations of a JSON seed are not JSON,
    /// so both kinds come up all the time; one value per input keeps a run cheap).
    void run(const std::uint8_t* data, std::size_t size) {
        json parsed = json::parse(data, data + size, nullptr, false);
        if (!parsed.is_discarded()) {
            window_pick_ = size;
            const std::vector<encode_options> all = text_options();
            check(parsed, all[size % all.size()], "input as JSON text");
            return;
        }
        FuzzedDataProvider in(data, size);
        const encode_options o = options_from_bits(in.ConsumeIntegral<std::uint8_t>());
        window_pick_ = in.ConsumeIntegral<std::uint8_t>();
        const json built = value_from_bytes<json>(in);
        check(built, o, "value built from the input bytes");
    }

private:
    /// write(sink): encodes j into sink with this target's format, through the encoders compiled
    /// once in the kit (any_sink.hpp) whatever the sink.
    auto encoder(const json& j, const encode_options& o) const {
        return [&j, o, f = fmt_](auto& sink) { testkit::encode_any(f, j, sink, o); };
    }

    std::vector<encode_options> text_options() const {
        std::vector<encode_options> all;
        for (const option_shape& s : option_shapes(fmt_, true)) all.push_back(s.options);
        return all;
    }

    void check(const json& j, const encode_options& o, const char* origin) {
        value_ = &j;
        options_ = o;
        origin_ = origin;
        depth_ = depth_of(j);

        const outcome ours = reference(j, o);
        check_text_verdict(ours);
        check_refusal(ours);
        const char* divergence = known_divergence(fmt_, j, o);
        const bool oracle_usable = oracle_has(fmt_) && divergence == nullptr && depth_ <= oracle_depth;
        if (oracle_usable) {
            compare_with_oracle(ours);
        }
        if (divergence != nullptr && oracle_has(fmt_) && depth_ <= oracle_depth) {
            check_divergence(ours, divergence);
        }
        compare_sinks(ours);
        if (fmt_ == format::bon8 && !ours.failed) {
            check_canonical_form(ours);
        }
        if (!ours.failed && depth_ <= oracle_depth && (divergence == nullptr || fmt_ == format::bon8)) {
            check_round_trip(ours);
        }
    }

    /// The reference output every other side is compared with.
    outcome reference(const json& j, const encode_options& o) {
        try {
            return capture([&] { return reference_bytes(encoder(j, o), o.bson_patch_lengths); });
        } catch (const std::exception& e) {
            report_error_only(mismatch::unexpected_error, 0, "reference encoder", e.what());
        }
    }

    void check_text_verdict(const outcome& ours) {
        const std::string bad = testkit::invalid_utf8_in(*value_);
        const std::size_t dot = ours.error.rfind('.');
        const bool not_utf8 =
            dot != std::string::npos && ours.error.substr(dot + 1) == std::to_string(error_id::invalid_utf8);
        if (!bad.empty() && !ours.failed) {
            report_error_only(mismatch::text_verdict, 0, "reference encoder",
                              "wrote text that is not UTF-8 (" + bad + ", by the kit's own validator)");
        }
        if (bad.empty() && ours.failed && not_utf8) {
            report_error_only(mismatch::text_verdict, 0, "reference encoder",
                              "refused text as not UTF-8 (" + ours.what +
                                  "), but the kit's own validator finds every string and key well-formed");
        }
    }

    /// The reference refuses exactly the first value the kit's own walk finds (refusals.hpp),
    /// naming it with the same id and JSON pointer; 3.11.2's id alone cannot tell the place.
    void check_refusal(const outcome& ours) {
        const std::optional<testkit::refusal> expected = testkit::first_refusal(fmt_, *value_, options_);
        if (expected != ours.refused) {
            report_error_only(
                mismatch::refusal, 0, "reference encoder",
                (ours.failed ? "threw " + ours.what : "wrote " + std::to_string(ours.bytes.size()) + " bytes") +
                    ", but by the kit's own walk the first value to refuse is " +
                    (expected ? expected->describe() : std::string("none")));
        }
    }

    /// A recorded divergence must be the difference its record describes (divergences.hpp).
    void check_divergence(const outcome& ours, const char* id) {
        const std::string wrong = testkit::divergence_mismatch(fmt_, *value_, options_, id, {ours.bytes, ours.refused});
        if (!wrong.empty()) {
            report_error_only(mismatch::divergence, 0, "reference encoder", wrong);
        }
    }

    void compare_with_oracle(const outcome& ours) {
        outcome theirs;
        try {
            theirs = capture([&] { return oracle_encode(fmt_, *value_, options_); });
        } catch (const std::exception& e) {
            report_error_only(mismatch::unexpected_error, 0, "nlohmann 3.11.2", e.what());
        }
        if (ours.failed != theirs.failed) {
            report(mismatch::oracle_error, 0, "reference", ours, "nlohmann 3.11.2", theirs);
        }
        if (ours.failed && ours.error != theirs.error) {
            report(mismatch::error_id, 0, "reference", ours, "nlohmann 3.11.2", theirs);
        }
        if (!ours.failed && ours.bytes != theirs.bytes) {
            report(mismatch::oracle_bytes, 0, "reference", ours, "nlohmann 3.11.2", theirs);
        }
        // known_divergence() asks the encoders' own code: where the kit's reading of the records
        // finds a divergence it missed, the value as recorded decides the bytes
        if (!ours.failed) {
            if (const auto recorded = testkit::bytes_as_recorded(fmt_, *value_, options_)) {
                if (*recorded != ours.bytes) {
                    outcome as_recorded;
                    as_recorded.bytes = *recorded;
                    report(mismatch::divergence, 0, "reference", ours, "3.11.2 (the value as recorded)", as_recorded);
                }
            }
        }
    }

    void compare_sinks(const outcome& ours) {
        for_each_sink_run(
            fmt_, *value_, options_, encoder(*value_, options_), window_pick_, [&](const sink_result& run) {
                outcome theirs;
                theirs.bytes = run.bytes;
                theirs.failed = run.failed;
                theirs.error = run.error;
                theirs.what = run.what;
                if (run.unexpected) {
                    report_error_only(mismatch::unexpected_error, run.site, run.label, run.what);
                }
                if (run.failed != ours.failed || run.error != ours.error) {
                    report(mismatch::sink_error, run.site, "memory_writer", ours, run.label, theirs);
                }
                if (run.size_only ? run.size != ours.bytes.size() : run.bytes != ours.bytes) {
                    if (run.size_only) {
                        report_error_only(mismatch::sink_bytes, run.site, run.label,
                                          "counted " + std::to_string(run.size) + " bytes, reference wrote " +
                                              std::to_string(ours.bytes.size()));
                    }
                    report(mismatch::sink_bytes, run.site, "memory_writer", ours, run.label, theirs);
                }
                if (!run.problem.empty()) {
                    report_error_only(run.problem_kind, run.site, run.label, run.problem);
                }
            });
    }

    /// sinkcheck's BON8 decoder reads longer forms too, so the round trip cannot see an encoder
    /// that stops writing the shortest one; a checker of its own reading of the spec can.
    void check_canonical_form(const outcome& ours) {
        if (const auto flaw = testkit::bon8_canonical_flaw(ours.bytes, true)) {
            print_finding_header(mismatch::canonical_form, format_name(fmt_), "reference encoder",
                                 "BON8's canonical form");
            print_note("reference encoder", flaw->describe());
            print_note("bytes", testkit::hex_window(ours.bytes, flaw->offset));
            print_context();
            crash(target_, mismatch::canonical_form, 0);
        }
    }

    void check_round_trip(const outcome& ours) {
        outcome decoded_as;
        json back;
        try {
            if (fmt_ == format::bon8) {
                back = decode_bon8<json>(ours.bytes);
            } else {
                back = oracle_decode<json>(fmt_, ours.bytes);
            }
        } catch (const std::exception& e) {
            report_error_only(mismatch::round_trip, 0, "decoder", e.what());
        }
        if (const auto where = testkit::first_value_difference(testkit::policy_of(fmt_), *value_, back)) {
            std::string text = "decoded value differs at '" + where->pointer + "'";
            if (depth_of(back) <= oracle_depth) {
                text += ": " + back.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 300);
            }
            report_error_only(mismatch::round_trip, 0, "decoder", text);
        }
    }

    void print_context() const {
        print_note("value from", origin_);
        std::string opts = "use_size=" + std::to_string(options_.use_size) +
                           " use_type=" + std::to_string(options_.use_type) +
                           " bson_patch_lengths=" + std::to_string(options_.bson_patch_lengths);
        print_note("options", opts);
        print_note("depth", std::to_string(depth_));
        if (depth_ <= oracle_depth) {
            std::string text = value_->dump(-1, ' ', false, json::error_handler_t::replace);
            if (text.size() > 400) {
                text = text.substr(0, 400) + "...";
            }
            print_note("value", text);
        }
    }

    /// The JSON pointer of the value whose encoding covers byte `at` of the reference output.
    std::string pointer_at(std::size_t at) const {
        std::vector<value_mark> marks;
        encode_options o = options_;
        o.marks = &marks;
        try {
            (void)reference_bytes(encoder(*value_, o), o.bson_patch_lengths);
        } catch (const std::exception&) {
            // marks up to the error are still there
        }
        std::string pointer = "(none)";
        for (const value_mark& m : marks) {
            if (m.offset <= at) {
                pointer = "'" + m.pointer + "'";
            }
        }
        return pointer;
    }

    [[noreturn]] void report(mismatch kind, std::size_t site, std::string_view name_a, const outcome& a,
                             std::string_view name_b, const outcome& b) const {
        print_finding_header(kind, format_name(fmt_), name_a, name_b);
        if (a.failed || b.failed) {
            print_note(name_a, a.describe());
            print_note(name_b, b.describe());
        }
        if (!a.failed || !b.failed) {
            print_byte_difference(name_a, a.bytes, name_b, b.bytes);
            print_note("JSON pointer being written there", pointer_at(testkit::first_difference(a.bytes, b.bytes)));
        }
        print_context();
        crash(target_, kind, site);
    }

    [[noreturn]] void report_error_only(mismatch kind, std::size_t site, std::string_view who,
                                        std::string_view text) const {
        print_finding_header(kind, format_name(fmt_), who, "its contract");
        print_note(who, text);
        print_context();
        crash(target_, kind, site);
    }

    target target_;
    format fmt_;
    const json* value_ = nullptr;
    encode_options options_;
    const char* origin_ = "";
    std::size_t depth_ = 0;
    std::size_t window_pick_ = 0;
};

}  // namespace

int run_differential(format f, const std::uint8_t* data, std::size_t size) {
    differential d(f);
    d.run(data, size);
    return 0;
}

}  // namespace sinkcheck::fuzz
