// bench/utf8_bench.cpp — row 13: the encoders' UTF-8 check alone, against the scalar scan it
// replaced (detail/utf8.hpp; the encoder on text documents is row 14, in encoders_bench.cpp).
//
//  13  utf8_invalid_at (the widest check this CPU has) vs all_ascii + the scalar scan, on text
//      in each script of documents.hpp: one 256 KiB string (the check's own speed, in the L2
//      cache) and 8,000 strings of 5-60 characters (what a document's values cost, call and
//      all); GB/s of the new check                        goal >= 4 GB/s on CJK (3-byte) text
//      and, reported, each vector implementation alone vs the scalar scan.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "sinkcheck/detail/utf8.hpp"

#include "documents.hpp"
#include "paired.hpp"

namespace sb = sinkcheck::bench;
namespace sd = sinkcheck::detail;

namespace {

/// The check as it was before the vector checks: ASCII a word at a time, then byte by byte.
std::size_t scalar_check(const std::string& s) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
    return sd::all_ascii(p, s.size()) ? sd::utf8_valid : sd::utf8_scan_scalar(p, s.size());
}

struct corpus {
    std::string name;
    std::vector<std::string> strings;
    std::size_t bytes = 0;
};

std::vector<corpus> corpora() {
    std::vector<corpus> out;
    for (sb::script s : sb::all_scripts) {
        std::uint64_t x = 0x9E3779B97F4A7C15ULL;
        corpus one{std::string(sb::script_name(s)) + " 256 KiB string", {}, 0};
        std::string text;
        while (text.size() < 256 * 1024) {
            text += sb::script_text(s, 1000, x);
        }
        text.resize(256 * 1024);
        while (sd::utf8_invalid_at(text.data(), text.size()) != sd::utf8_valid) {
            text.pop_back();  // the cut may have split a character
        }
        one.strings.push_back(std::move(text));
        corpus many{std::string(sb::script_name(s)) + " 8,000 strings of 5-60 characters", {}, 0};
        for (std::size_t i = 0; i < 8000; ++i) {
            many.strings.push_back(sb::script_text(s, 5 + x % 56, x));
        }
        for (corpus* c : {&one, &many}) {
            for (const std::string& str : c->strings) {
                c->bytes += str.size();
            }
            out.push_back(std::move(*c));
        }
    }
    return out;
}

template <class Check>
void check_all(const corpus& c, Check&& check) {
    std::size_t invalid = 0;
    for (const std::string& s : c.strings) {
        invalid += check(s) != sd::utf8_valid ? std::size_t{1} : std::size_t{0};
    }
    sb::keep(invalid);
}

void row13(const sb::run_settings& settings) {
    for (const corpus& c : corpora()) {
        for (const std::string& s : c.strings) {
            if (scalar_check(s) != sd::utf8_valid || sd::utf8_invalid_at(s.data(), s.size()) != sd::utf8_valid) {
                std::fprintf(stderr, "bench_utf8: %s holds invalid text\n", c.name.c_str());
                std::exit(1);
            }
        }
        const auto r = sb::compare(
            c.name + ": utf8_invalid_at vs all_ascii + scalar scan",
            [&] { check_all(c, [](const std::string& s) { return sd::utf8_invalid_at(s.data(), s.size()); }); },
            [&] { check_all(c, scalar_check); }, settings.repetitions, settings.min_seconds);
        const double bytes = static_cast<double>(c.bytes);
        sb::emit_ratio(settings, "13", r, bytes);
        const double gbps = bytes / r.a_seconds / 1e9;
        char measured[32];
        std::snprintf(measured, sizeof measured, "%.2f GB/s", gbps);
        const bool gated = c.name.rfind("cjk 256", 0) == 0;
        sb::emit_value(settings, "13", c.name + ": utf8_invalid_at", measured, gated ? ">= 4.00 GB/s" : "-",
                       gated ? (gbps >= 4.0 ? "met" : "missed") : "reported");
        for (const sd::utf8_implementation& impl : sd::utf8_implementations) {
            if (impl.scan == sd::utf8_scan_scalar || !impl.supported()) {
                continue;
            }
            const auto alone = sb::compare(
                c.name + ": " + impl.name + " alone vs scalar scan alone",
                [&] {
                    check_all(c, [&impl](const std::string& s) {
                        return impl.scan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
                    });
                },
                [&] {
                    check_all(c, [](const std::string& s) {
                        return sd::utf8_scan_scalar(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
                    });
                },
                settings.repetitions, settings.min_seconds);
            sb::emit_ratio(settings, "13", alone, bytes);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    const sb::run_settings s = sb::parse_settings(argc, argv);
    if (s.wants("13")) row13(s);
    return 0;
}
