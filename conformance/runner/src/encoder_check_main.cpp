// encoder_check_main.cpp — `sinkcheck conform` with the encoders of this program's
// SINKCHECK_ENCODER lines linked in (sinkcheck_add_encoder_check() builds it).
//
// Takes every option of `sinkcheck conform` (docs/conformance.md) and reports the same way.
// Without --encoder it grades the one registered encoder; without --format, every format that
// encoder declares, one run after another (exit status: the worst of the runs).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "sinkcheck/conform/check_encoder.hpp"
#include "sinkcheck/conform/run.hpp"

namespace {

bool given(const std::vector<std::string>& args, const std::string& option) {
    return std::any_of(args.begin(), args.end(),
                       [&](const std::string& a) { return a == option || a.rfind(option + "=", 0) == 0; });
}

}  // namespace

int main(int argc, char** argv) {
    const auto& encoders = sinkcheck::conform::linked_encoders();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (given(args, "--help") || given(args, "-h") || given(args, "--list-linked") || given(args, "--encoder")) {
        return sinkcheck::conform::run_conform_command(args);
    }
    if (encoders.size() != 1) {
        std::fprintf(stderr,
                     "%s: %zu encoders are registered (SINKCHECK_ENCODER); name one with --encoder linked:NAME\n",
                     argv[0], encoders.size());
        return 2;
    }
    const sinkcheck::conform::linked_encoder_info& e = encoders.front();
    args.insert(args.begin(), {"--encoder", "linked:" + e.name});
    if (given(args, "--format")) return sinkcheck::conform::run_conform_command(args);
    if (e.formats.size() > 1) {
        for (const char* per_format : {"--output", "--expected-failures", "--write-expected-failures", "--save"}) {
            if (given(args, per_format)) {
                std::fprintf(stderr, "%s: %s belongs to one format: give --format too\n", argv[0], per_format);
                return 2;
            }
        }
    }
    int worst = 0;
    for (const sinkcheck::format f : e.formats) {
        std::vector<std::string> run = args;
        run.insert(run.end(), {"--format", std::string(sinkcheck::format_name(f))});
        worst = std::max(worst, sinkcheck::conform::run_conform_command(run));
    }
    return worst;
}
