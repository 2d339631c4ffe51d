// fuzz_fault.cpp — a failure at any allocation or write leaves a prefix and leaks nothing.
//
// The input picks a format, a sink from the catalogue, a window, a fault (the k-th allocation of
// the output buffer throws std::bad_alloc, or the k-th write call throws injected_fault) and a
// value. The run is judged by the sink's promises (testkit/promises.hpp, through the registry):
// the encoding through that sink must surface exactly that exception, the target must hold
// exactly the bytes of the writes that returned (seed 000's "trims to the bytes written, also when
// a write throws"), a prefix of the full output, and every allocation must be freed once the sink
// and its target are gone.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/testkit/fuzz_report.hpp"
#include "sinkcheck/testkit/registry.hpp"
#include "sinkcheck/testkit/value_from_bytes.hpp"
#include "support/differential.hpp"
#include "support/sinks.hpp"

namespace {

using namespace sinkcheck;
using fuzz::mismatch;
using json = nlohmann::json;

struct scenario {
    format fmt = format::cbor;
    encode_options options;
    const sink_info* sink = nullptr;
    std::size_t sink_index = 0;
    std::size_t window = 0;
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
    try {
        full = fuzz::reference_bytes([&](auto& sink) { encode(s.fmt, j, sink, s.options); }, false);
    } catch (const encode_error&) {
        return 0;  // refused values are the differential targets' business
    }
    s.faults.full_output = &full;
    sink_run run;
    try {
        run = run_sink(s.sink->name, s.window, s.fmt, j, s.options, s.faults);
    } catch (const std::exception& e) {
        finding(mismatch::unexpected_error, s, j, std::string("escaped the armed run: ") + e.what());
    }
    // the promises one run can show broken (testkit/promises.hpp), judged by the registry: the
    // armed fault and nothing else reached the caller, the target holds exactly the writes that
    // returned, a prefix of the full output, nothing leaked
    if (!run.broken.empty()) {
        finding(run.broken_kind, s, j, run.broken);
    }
    if (!run.error && (run.size != full.size() || (s.sink->stores && run.bytes != full))) {
        fuzz::print_byte_difference("full output", full, s.sink->name, run.bytes);
        finding(mismatch::prefix, s, j, "the fault did not fire, yet the output differs");
    }
    return 0;
}
