// tools/check.cpp — `sinkcheck check`: one value through every sink, window and format.
//
// What must agree (docs/cli.md, `sinkcheck check`; docs/properties.md, "The properties"), for
// each format:
//   - every sink at every window writes the reference bytes (memory writer), or refuses alike,
//     and keeps every promise of its sink that one run can show broken (the registry judges each
//     run: sinkcheck/testkit/promises.hpp);
//   - a windowed sink goes through the same capacities at every window, and the windowed vector
//     through the same ones as the legacy vector (seed 000: "capacity and growth as before");
//   - nlohmann 3.11.2 writes the same bytes or refuses with the same id, unless
//     known_divergence() names a recorded divergence (then the oracle is not run: 3.11.2 may
//     write garbage or assert for such values);
//   - the decoder (nlohmann's, sinkcheck's for BON8) reads the bytes back to the value, as far
//     as the format can hold it (UBJSON, BJData and BON8 have no binary type: an array of bytes;
//     BSON binary always has a subtype, 0 by default).
// Anything else is a failure: exit 1.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "commands.hpp"
#include "sinkcheck/encode.hpp"
#include "sinkcheck/testkit/oracle.hpp"
#include "sinkcheck/testkit/registry.hpp"
#include "sinkcheck/testkit/same_value.hpp"

namespace sinkcheck::cli {
namespace {

constexpr std::string_view usage =
    "usage: sinkcheck check [--to FORMAT]... [--from FORMAT] [--use-size] [--use-type]\n"
    "                       [--corrupt SINK] [FILE]\n"
    "\n"
    "Encodes one value (JSON text, or --from FORMAT) through every sink (`sinkcheck sinks`), each\n"
    "windowed sink with windows {windows}, and with nlohmann 3.11.2, in\n"
    "every format (or each --to FORMAT), and decodes each encoding back. Prints one row a run:\n"
    "format, sink, window, bytes, capacity trace (abbreviated), allocations, result; then a\n"
    "summary. A difference that KNOWN_DIVERGENCES.md records is shown with its id and passes.\n"
    "\n"
    "options:\n"
    "  --to FORMAT     check this format only; repeatable (default: every format)\n"
    "  --from FORMAT   format of the input: json (default), {formats}\n"
    "  --use-size      UBJSON/BJData: container counts (nlohmann use_size)\n"
    "  --use-type      UBJSON/BJData: '$' element types; needs --use-size (use_type)\n"
    "  --corrupt SINK  test the checker itself: append a byte to everything SINK writes, so\n"
    "                  every run of SINK must be reported as a failure\n"
    "\n"
    "exit status: 0 everything agreed; 1 a sink, window, the oracle or the round trip disagreed\n"
    "without a recorded divergence; 2 usage error or malformed input\n";

/// nlohmann 3.11.2's to_bson sizes every sub-document again at each level above it: time grows
/// with the square of the depth (20,000 levels take 11 s). Deeper values skip that oracle run.
constexpr std::size_t bson_oracle_max_depth = 4096;

/// What one encoding produced: bytes, or the refusal of the encoder.
struct outcome {
    std::vector<std::uint8_t> bytes;
    std::size_t size = 0;
    bool refused = false;
    int refusal_id = 0;
    std::string refusal;  // what()
};

struct row {
    explicit row(std::string sink_name) : sink(std::move(sink_name)) {}
    std::string sink;
    std::string window = "-";
    std::string bytes = "-";
    std::string capacities = "-";
    std::string allocations = "-";
    std::string result;
    bool failed = false;
};

/// At most four capacities shown: "64,128,...,8192 (9)".
std::string abbreviate(const std::vector<std::size_t>& caps) {
    if (caps.empty()) {
        return "-";
    }
    std::string out;
    const auto add = [&](std::size_t c) { out += (out.empty() ? "" : ",") + std::to_string(c); };
    if (caps.size() <= 4) {
        for (std::size_t c : caps) {
            add(c);
        }
        return out;
    }
    add(caps[0]);
    add(caps[1]);
    return out + ",...," + std::to_string(caps.back()) + " (" + std::to_string(caps.size()) + ")";
}

/// "" when the two byte strings are equal, else where they part.
std::string byte_difference(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want) {
    std::size_t i = 0;
    while (i < got.size() && i < want.size() && got[i] == want[i]) {
        ++i;
    }
    if (i == got.size() && i == want.size()) {
        return "";
    }
    const auto at = [](const std::vector<std::uint8_t>& v, std::size_t k) {
        return k < v.size() ? to_hex({v[k]}) : std::string("end");
    };
    return "DIFFERS at byte " + std::to_string(i) + ": " + at(got, i) + ", reference " + at(want, i) + " (" +
           std::to_string(got.size()) + " vs " + std::to_string(want.size()) + " bytes)";
}

/// Compares a run with the reference outcome; "" when they agree.
std::string disagreement(const outcome& got, const outcome& want, bool size_only) {
    if (want.refused || got.refused) {
        if (got.refused && want.refused && got.refusal == want.refusal) {
            return "";
        }
        return got.refused ? "refused (" + got.refusal + "), reference did not"
                           : "wrote " + std::to_string(got.size) + " bytes, reference refused";
    }
    if (size_only) {
        return got.size == want.size ? ""
                                     : "size " + std::to_string(got.size) + ", reference " + std::to_string(want.size);
    }
    return byte_difference(got.bytes, want.bytes);
}

// ---- round trip ---------------------------------------------------------------------------------

/// "" when decoded is original as format f holds it (the kit's one value equality), else where and
/// what differs.
std::string first_difference(const json& original, const json& decoded, format f) {
    const auto d = testkit::first_value_difference(testkit::policy_of(f), original, decoded);
    if (!d) {
        return "";
    }
    const auto describe = [](const json& v) {
        return v.is_array() || v.is_object() ? std::string(v.type_name()) + " of " + std::to_string(v.size())
                                             : to_text(v, -1, "");
    };
    const std::string where = "at '" + d->pointer + "': ";
    if (d->decoded == nullptr) {
        return where + "missing from the decoded object, want " + describe(*d->original);
    }
    return where + "decoded " + describe(*d->decoded) + ", want " + describe(*d->original);
}

// ---- one format -----------------------------------------------------------------------------

class format_check {
public:
    /// corrupt: a sink whose output is altered after each run (--corrupt), or empty.
    format_check(format f, const json& value, const encode_options& options, std::string corrupt)
        : f_(f), value_(value), options_(options), corrupt_(std::move(corrupt)) {}

    /// Runs everything for this format; the rows in print order.
    std::vector<row> run() {
        reference_ = encode_reference();
        rows_.push_back(reference_row());
        divergence_ = known_divergence(f_, value_, options_);
        if (oracle_has(f_)) {
            rows_.push_back(oracle_row());
        }
        for (const sink_info& s : all_sinks()) {
            if (s.windowed) {
                for (std::size_t w : testkit::window_sizes()) {
                    rows_.push_back(sink_row(s, w));
                }
            } else {
                rows_.push_back(sink_row(s, 0));
            }
        }
        check_capacities();
        if (!reference_.refused) {
            rows_.push_back(round_trip_row());
        }
        return std::move(rows_);
    }

    const char* divergence() const noexcept { return divergence_; }

private:
    template <class Encode>
    static outcome attempt(Encode&& encode) {
        outcome o;
        try {
            encode(o);
        } catch (const encode_error& e) {
            o.refused = true;
            o.refusal_id = e.id();
            o.refusal = e.what();
        }
        return o;
    }

    outcome encode_reference() const {
        return attempt([&](outcome& o) {
            o.bytes = encode_to_vector(f_, value_, options_);
            o.size = o.bytes.size();
        });
    }

    row reference_row() const {
        row r("reference");
        if (reference_.refused) {
            r.result = "refused: " + reference_.refusal;
        } else {
            r.bytes = std::to_string(reference_.size);
            r.result = "reference (memory writer)";
        }
        return r;
    }

    row oracle_row() const {
        row r("nlohmann 3.11.2");
        if (divergence_ != nullptr) {
            r.result = std::string("recorded divergence: ") + divergence_ + " (not run)";
            return r;
        }
        if (f_ == format::bson && nesting_depth(value_) > bson_oracle_max_depth) {
            r.result = "not run: nesting deeper than " + std::to_string(bson_oracle_max_depth) +
                       " levels takes 3.11.2's to_bson quadratic time";
            return r;
        }
        outcome o;
        try {
            o.bytes = oracle_encode(f_, value_, options_);
            o.size = o.bytes.size();
            r.bytes = std::to_string(o.size);
        } catch (const nlohmann::json::exception& e) {
            o.refused = true;
            o.refusal_id = e.id;
            o.refusal = e.what();
        }
        std::string problem;
        if (o.refused && reference_.refused && o.refusal_id == reference_.refusal_id) {
            r.result = "ok (refuses alike: " + std::to_string(o.refusal_id) + ")";
            return r;
        }
        if (o.refused != reference_.refused) {
            problem = o.refused ? "refused (" + o.refusal + "), reference did not"
                                : "wrote " + r.bytes + " bytes, reference refused";
        } else if (o.refused) {
            problem = "refuses with " + std::to_string(o.refusal_id) + ", reference with " +
                      std::to_string(reference_.refusal_id);
        } else {
            problem = byte_difference(o.bytes, reference_.bytes);
        }
        r.failed = !problem.empty();
        r.result = r.failed ? problem + " (not a recorded divergence)" : "ok";
        return r;
    }

    row sink_row(const sink_info& s, std::size_t window) {
        row r{std::string(s.name)};
        if (s.windowed) {
            r.window = testkit::window_name(window);
        }
        sink_run run;
        outcome o;
        try {
            o = attempt([&](outcome& out) {
                run = run_sink(s.name, window, f_, value_, options_);
                if (s.name == corrupt_) {
                    ++run.size;
                    run.bytes.push_back(0);
                }
                out.bytes = run.bytes;
                out.size = run.size;
            });
        } catch (const std::exception& e) {
            r.result = std::string("threw: ") + e.what();
            r.failed = true;
            return r;
        }
        if (!o.refused) {
            r.bytes = std::to_string(o.size);
            r.capacities = abbreviate(run.capacities);
            r.allocations = std::to_string(run.allocations);
            traces_[{std::string(s.name), window}] = {rows_.size(), run.capacities};
        }
        r.result = disagreement(o, reference_, !s.stores);
        if (r.result.empty() && !run.broken.empty()) {
            r.result = "broke " + run.broken;  // a promise of the sink, judged by the registry
        }
        r.failed = !r.result.empty();
        if (!r.failed) {
            r.result = o.refused ? "ok (refuses alike)" : "ok";
        }
        return r;
    }

    /// Seed 000: the window changes what is zero-filled, never the capacities.
    void check_capacities() {
        const auto baseline = [&](const std::string& sink) -> const std::vector<std::size_t>* {
            auto it = traces_.find({sink, unlimited_window});
            return it == traces_.end() ? nullptr : &it->second.second;
        };
        for (const auto& [key, trace] : traces_) {
            const auto* want = baseline(key.first);
            const char* against = "window unlimited";
            if (key.first == "vector" && window_compared_to_legacy(key.second)) {
                auto legacy = traces_.find({"legacy_vector", 0});
                want = legacy == traces_.end() ? nullptr : &legacy->second.second;
                against = "legacy_vector";
            }
            if (want != nullptr && *want != trace.second && !rows_[trace.first].failed) {
                rows_[trace.first].failed = true;
                rows_[trace.first].result = std::string("capacities differ from ") + against + ": " + abbreviate(*want);
            }
        }
    }

    /// The unlimited-window vector is compared with the legacy vector, every other window with it.
    static bool window_compared_to_legacy(std::size_t window) { return window == unlimited_window; }

    row round_trip_row() const {
        row r("round trip");
        std::string result;
        try {
            const json decoded = decode_input(input{std::string(format_name(f_)) + " encoding", reference_.bytes}, f_);
            result = first_difference(value_, decoded, f_);
        } catch (const input_error& e) {
            result = std::string("decoder refused: ") + e.what();
        }
        r.failed = !result.empty() && divergence_ == nullptr;
        r.result = result.empty() ? "ok (decodes to the value)"
                   : r.failed     ? result
                                  : result + " (recorded divergence: " + divergence_ + ")";
        return r;
    }

    format f_;
    const json& value_;
    encode_options options_;
    std::string corrupt_;
    outcome reference_;
    const char* divergence_ = nullptr;
    std::vector<row> rows_;
    /// (sink, window) -> (row index, capacities)
    std::map<std::pair<std::string, std::size_t>, std::pair<std::size_t, std::vector<std::size_t>>> traces_;
};

std::string table_line(const std::string& fmt, const row& r) {
    char head[160];
    std::snprintf(head, sizeof head, "%-8s %-16s %-9s %8s  %-28s %6s  ", fmt.c_str(), r.sink.c_str(), r.window.c_str(),
                  r.bytes.c_str(), r.capacities.c_str(), r.allocations.c_str());
    return head + r.result + (r.failed ? "  <-- FAIL" : "") + "\n";
}

int run(const std::vector<std::string>& argv) {
    const arguments args(
        argv,
        {{"--to", true, true}, {"--from", true}, {"--use-size", false}, {"--use-type", false}, {"--corrupt", true}});
    const std::string corrupt = args.value("--corrupt").value_or("");
    if (!corrupt.empty() && find_sink(corrupt) == nullptr) {
        throw usage_error("--corrupt needs a sink name (`sinkcheck sinks`), got '" + corrupt + "'");
    }
    std::vector<format> formats;
    for (const std::string& name : args.values("--to")) {
        const format f = parse_target_format(name);
        if (std::find(formats.begin(), formats.end(), f) == formats.end()) {
            formats.push_back(f);
        }
    }
    if (formats.empty()) {
        formats.assign(all_formats.begin(), all_formats.end());
    }
    const std::optional<format> source =
        args.value("--from") ? parse_source_format(*args.value("--from")) : std::nullopt;
    const encode_options options = encoder_options(args);
    const json value = decode_input(read_input(args.file()), source);

    row heading("sink");
    heading.window = "window";
    heading.bytes = "bytes";
    heading.capacities = "capacities";
    heading.allocations = "allocs";
    heading.result = "result";
    write_stdout(table_line("format", heading));
    std::size_t runs = 0;
    std::size_t failures = 0;
    std::string recorded;
    for (format f : formats) {
        format_check check(f, value, options, corrupt);
        std::string out;
        for (const row& r : check.run()) {
            out += table_line(std::string(format_name(f)), r);
            ++runs;
            failures += r.failed ? 1 : 0;
        }
        write_stdout(out);
        if (check.divergence() != nullptr) {
            recorded += std::string(recorded.empty() ? "" : ", ") + check.divergence() + " (" +
                        std::string(format_name(f)) + ")";
        }
    }
    write_stdout(std::to_string(runs) + " rows, " + std::to_string(failures) + " failed" +
                 (recorded.empty() ? "" : "; recorded divergences: " + recorded) + "\n");
    return failures == 0 ? exit_ok : exit_failed;
}

}  // namespace

const command check_command{"check", "encode through every sink, window and format; compare with nlohmann", usage, run};

}  // namespace sinkcheck::cli
