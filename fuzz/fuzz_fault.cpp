// fuzz_fault.cpp — a failure at any allocation or write leaves a prefix and leaks nothing.
//
// The input picks a format, a sink from the catalogue, a window, a fault (the k-th allocation of
// the output buffer throws std::bad_alloc, or the k-th write call throws injected_fault) and a
// value. The encoding through that sink must then surface exactly that exception, the target
// must hold the full output's bytes up to a write boundary (exactly up to the k-th write for a
// write fault: seed 000's "trims to the bytes written, also when a write throws"), and every
// allocation must be freed once the sink and its target are gone.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/testkit/any_sink.hpp"
#include "sinkcheck/testkit/fuzz_report.hpp"
#include "sinkcheck/testkit/instrument/fault_sink.hpp"
#include "sinkcheck/testkit/registry.hpp"
#include "sinkcheck/testkit/value_from_bytes.hpp"
#include "support/differential.hpp"
#include "support/sinks.hpp"

namespace {

using namespace sinkcheck;
using fuzz::mismatch;
using json = nlohmann::json;

/// Records where each write call ends: the only places a trimmed output may end.
class boundary_sink {
public:
    void write(std::uint8_t) { note(1); }
    void write(const std::uint8_t*, std::size_t n) { note(n); }
    std::size_t position() const noexcept { return position_; }
    const std::vector<std::size_t>& ends() const noexcept { return ends_; }

private:
    void note(std::size_t n) {
        position_ += n;
        ends_.push_back(position_);
    }
    std::size_t position_ = 0;
    std::vector<std::size_t> ends_;
};

struct scenario {
    format fmt;
    encode_options options;
    const sink_info* sink;
    std::size_t sink_index;
    std::size_t window;
    sink_faults faults;
};

[[noreturn]] void finding(mismatch kind, const scenario& s, const json& j, const std::string& text) {
    const std::string who = std::string(s.sink->name) + "/w=" + testkit::window_name(s.window);
    fuzz::print_finding_header(kind, format_name(s.fmt), who, "the fault contract");
    fuzz::print_note(who, text);
    fuzz::print_note("fault", s.faults.allocation != 0 ? "allocation #" + std::to_string(s.faults.allocation)
                                                       : "write call #" + std::to_string(s.faults.write));
    if (fuzz::depth_of(j) <= fuzz::oracle_depth) {
        fuzz::print_note("value", j.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 400));
    }
    fuzz::crash<fuzz::target::fault>(kind, s.sink_index);
}

/// What the armed run threw must be the armed fault (or nothing, when the fault lay beyond the
/// last allocation or write).
void check_error(const scenario& s, const json& j, const sink_run& run) {
    if (!run.error) {
        return;
    }
    try {
        std::rethrow_exception(run.error);
    } catch (const std::bad_alloc&) {
        if (s.faults.allocation == 0) {
            finding(mismatch::unexpected_error, s, j, "std::bad_alloc with only a write fault armed");
        }
    } catch (const injected_fault&) {
        if (s.faults.write == 0) {
            finding(mismatch::unexpected_error, s, j, "injected_fault with only an allocation fault armed");
        }
    } catch (const std::exception& e) {
        finding(mismatch::unexpected_error, s, j, std::string("the fault surfaced as: ") + e.what());
    }
}

void check_prefix(const scenario& s, const json& j, const sink_run& run, const std::vector<std::uint8_t>& full,
                  const std::vector<std::size_t>& ends) {
    const bool counting = !s.sink->stores;
    const std::size_t size = counting ? run.size : run.bytes.size();
    if (!run.error) {
        if (size != full.size() || (!counting && run.bytes != full)) {
            fuzz::print_byte_difference("full output", full, s.sink->name, run.bytes);
            finding(mismatch::prefix, s, j, "the fault did not fire, yet the output differs");
        }
        return;
    }
    if (s.faults.write != 0) {
        // exactly the writes before the k-th call
        const std::size_t k = s.faults.write;
        const std::size_t expected = k >= 2 && k - 2 < ends.size() ? ends[k - 2] : 0;
        if (size != expected) {
            finding(mismatch::prefix, s, j,
                    "holds " + std::to_string(size) + " bytes after a fault at write #" + std::to_string(k) +
                        "; the writes before it end at byte " + std::to_string(expected));
        }
    } else if (size != 0 && !std::binary_search(ends.begin(), ends.end(), size)) {
        finding(mismatch::prefix, s, j, "holds " + std::to_string(size) + " bytes, which is not the end of any write");
    }
    if (!counting && !std::equal(run.bytes.begin(), run.bytes.end(), full.begin(),
                                 full.begin() + static_cast<std::ptrdiff_t>(std::min(size, full.size())))) {
        fuzz::print_byte_difference("full output", full, s.sink->name, run.bytes);
        finding(mismatch::prefix, s, j, "what the target holds is not a prefix of the full output");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    scenario s{};
    s.fmt = all_formats[in.ConsumeIntegralInRange<std::size_t>(0, all_formats.size() - 1)];
    s.options = fuzz::options_from_bits(in.ConsumeIntegral<std::uint8_t>());
    s.options.bson_patch_lengths = false;  // a patched length is rewritten later: no prefix to check
    s.sink_index = in.ConsumeIntegralInRange<std::size_t>(0, all_sinks().size() - 1);
    s.sink = &all_sinks()[s.sink_index];
    s.window = fuzz::window_for(in.ConsumeIntegral<std::uint8_t>());
    const std::size_t k = in.ConsumeIntegralInRange<std::size_t>(1, 48);
    if (in.ConsumeBool()) {
        s.faults.allocation = k;
    } else {
        s.faults.write = k;
    }
    fuzz::build_limits limits;
    limits.max_nodes = 512;
    limits.max_bytes = 1 << 17;
    const json j = fuzz::value_from_bytes<json>(in, limits);

    std::vector<std::uint8_t> full;
    boundary_sink boundaries;
    try {
        full = fuzz::reference_bytes([&](auto& sink) { encode(s.fmt, j, sink, s.options); }, false);
        testkit::encode_any(s.fmt, j, boundaries, s.options);  // compiled once, in the kit
    } catch (const encode_error&) {
        return 0;  // refused values are the differential targets' business
    }
    sink_run run;
    try {
        run = run_sink(s.sink->name, s.window, s.fmt, j, s.options, s.faults);
    } catch (const std::exception& e) {
        finding(mismatch::unexpected_error, s, j, std::string("escaped the armed run: ") + e.what());
    }
    check_error(s, j, run);
    check_prefix(s, j, run, full, boundaries.ends());
    if (!run.leaks.empty()) {
        finding(mismatch::leak, s, j, run.leaks);
    }
    return 0;
}
