// sinkcheck/testkit/fuzz_report.hpp — how a fuzz target says what went wrong, and where it stops.
//
// A finding prints the two sides that disagree, the first differing byte offset, a hex window
// of both outputs and the JSON pointer being written there, then stops the process at a crash
// site of its own for each (target, kind of mismatch, sink): every site is a separate template
// instantiation that executes a trap inside itself, so the top stack frame names all three and
// OSS-Fuzz / ClusterFuzzLite file separate bugs for separate causes instead of folding every
// mismatch into one "abort in report()".
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sinkcheck/options.hpp"
#include "sinkcheck/testkit/hex.hpp"

namespace sinkcheck::fuzz {

/// What disagreed. The numeric value is part of the crash site: append, never reorder.
enum class mismatch : unsigned {
    sink_bytes,        // a sink wrote other bytes than the reference memory writer
    sink_error,        // a sink threw where the reference did not, or the other way round
    oracle_bytes,      // the reference encoder and nlohmann 3.11.2 wrote different bytes
    oracle_error,      // one of the reference encoder and nlohmann 3.11.2 threw, the other not
    error_id,          // both refused the value, with different error ids
    round_trip,        // decoding the output did not give the value back
    capacity_trace,    // a vector sink's capacities depend on its window, or break the rule
    zero_fill,         // more bytes zero-filled ahead of the cursor than the window allows
    model,             // a sink disagrees with the write-program model
    prefix,            // after a fault the target does not hold a prefix of the full output
    leak,              // allocations outlived the encoding
    unexpected_error,  // an exception no sinkcheck component may throw here
    decoder,           // a decoder broke its contract (accepted garbage, wrong offset, ...)
    text_verdict,      // the reference and the kit's own UTF-8 validator disagree about the value's text
    canonical_form,    // BON8 output that is not in the canonical form (bon8_canonical.hpp)
    refusal,           // a refusal whose id or JSON pointer is not the kit's own finding (refusals.hpp)
    divergence,        // a recorded divergence whose difference is not the one its record describes
};
/// The last kind above + 1: a kind added after it must move this too, and then needs its name.
inline constexpr std::size_t mismatch_kinds = static_cast<std::size_t>(mismatch::divergence) + 1;

inline const char* mismatch_name(mismatch m) noexcept {
    static constexpr const char* names[] = {
        "sink-bytes",     "sink-error",   "oracle-bytes",   "oracle-error", "error-id",  "round-trip",
        "capacity-trace", "zero-fill",    "model",          "prefix",       "leak",      "unexpected-error",
        "decoder",        "text-verdict", "canonical-form", "refusal",      "divergence"};
    static_assert(sizeof(names) / sizeof(names[0]) == mismatch_kinds, "a mismatch kind without its name");
    const auto i = static_cast<std::size_t>(m);
    return i < mismatch_kinds ? names[i] : "?";
}

/// Targets, for the crash sites: one per format, numbered as sinkcheck::format (target_of; the
/// formats are format_table's, not listed again here), then these.
enum class target : unsigned { sink = all_formats.size(), fault, decode };

/// How many targets there are: the formats', then sink, fault and decode.
inline constexpr std::size_t target_count = static_cast<std::size_t>(target::decode) + 1;

/// The differential target of format f.
constexpr target target_of(format f) noexcept { return static_cast<target>(f); }

/// Sites per (target, kind): the sink's index in the catalogue (0 when no sink is involved);
/// indices beyond the last share the last site.
inline constexpr std::size_t crash_sites = 24;

#if defined(__GNUC__) || defined(__clang__)
#define SINKCHECK_FUZZ_NOINLINE __attribute__((noinline))
#else
#define SINKCHECK_FUZZ_NOINLINE
#endif

template <target T, std::size_t Kind, std::size_t Site>
[[noreturn]] SINKCHECK_FUZZ_NOINLINE void crash_site() {
    // the trap executes inside this instantiation, so it is the top frame of the report
    std::fflush(nullptr);
    __builtin_trap();
}

namespace detail {
template <target T, std::size_t... I>
constexpr auto crash_table(std::index_sequence<I...>) {
    return std::array<void (*)(), sizeof...(I)>{&crash_site<T, I / crash_sites, I % crash_sites>...};
}
}  // namespace detail

/// Stops the process at the crash site of (T, kind, site).
template <target T>
[[noreturn]] void crash(mismatch kind, std::size_t site) {
    static constexpr auto table = detail::crash_table<T>(std::make_index_sequence<mismatch_kinds * crash_sites>{});
    const std::size_t k = std::min(static_cast<std::size_t>(kind), mismatch_kinds - 1);
    table[k * crash_sites + std::min(site, crash_sites - 1)]();
    __builtin_trap();  // not reached: every site traps
}

namespace detail {
template <std::size_t... T>
[[noreturn]] void crash_at_run_time(target t, mismatch kind, std::size_t site, std::index_sequence<T...> /*all*/) {
    using crash_fn = void (*)(mismatch, std::size_t);
    static constexpr crash_fn table[] = {&crash<static_cast<target>(T)>...};
    table[std::min(static_cast<std::size_t>(t), sizeof...(T) - 1)](kind, site);
    __builtin_trap();  // not reached: every site traps
}
}  // namespace detail

/// The same, for code that knows its target only at run time (the differential targets' checks,
/// compiled once for every format): a table of every target's crash(), so each still traps in a
/// function of its own.
[[noreturn]] inline void crash(target t, mismatch kind, std::size_t site) {
    detail::crash_at_run_time(t, kind, site, std::make_index_sequence<target_count>{});
}

/// The header line every finding starts with; the campaign script greps for "MISMATCH".
inline void print_finding_header(mismatch kind, std::string_view what, std::string_view side_a,
                                 std::string_view side_b) {
    std::fprintf(stderr, "\n==sinkcheck== MISMATCH %s in %.*s: %.*s vs %.*s\n", mismatch_name(kind),
                 static_cast<int>(what.size()), what.data(), static_cast<int>(side_a.size()), side_a.data(),
                 static_cast<int>(side_b.size()), side_b.data());
}

/// Prints where two outputs first differ, with a hex window of each side.
inline void print_byte_difference(std::string_view name_a, const std::vector<std::uint8_t>& a, std::string_view name_b,
                                  const std::vector<std::uint8_t>& b) {
    const std::size_t at = testkit::first_difference(a, b);
    std::fprintf(stderr, "  first difference at byte %zu (lengths %zu and %zu)\n", at, a.size(), b.size());
    const int width = static_cast<int>(std::max(name_a.size(), name_b.size()));
    std::fprintf(stderr, "  %-*.*s %s\n", width, static_cast<int>(name_a.size()), name_a.data(),
                 testkit::hex_window(a, at).c_str());
    std::fprintf(stderr, "  %-*.*s %s\n", width, static_cast<int>(name_b.size()), name_b.data(),
                 testkit::hex_window(b, at).c_str());
}

inline void print_note(std::string_view label, std::string_view text) {
    std::fprintf(stderr, "  %.*s: %.*s\n", static_cast<int>(label.size()), label.data(), static_cast<int>(text.size()),
                 text.data());
}

}  // namespace sinkcheck::fuzz
