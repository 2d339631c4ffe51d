// bench/tool_bench.cpp — row 15: `sinkcheck encode` against nlohmann's parse + encode of the
// same JSON file, each a process of its own.
//
//  15  A: this program run as `bench_tool --nlohmann FORMAT FILE` (read the file, json::parse,
//      to_<format>, write the bytes to standard output); B: `sinkcheck encode --to FORMAT FILE`,
//      both writing to /dev/null; time(B)/time(A) is the tool's cost against what a user of
//      nlohmann would otherwise run. Documents: documents.hpp's (numbers, objects, text in six
//      scripts, short and long strings) written as JSON text, each to CBOR, and the objects to
//      every format nlohmann writes (reading the text is the same work whatever the format; row 1
//      compares the encoders). Times are the children's CPU time (user and system, from
//      getrusage(RUSAGE_CHILDREN)), process start included on both sides.
//                                                   goal: the tool within 1.2x (<= 1.20)
//
//   bench_tool --sinkcheck PATH [--quick] [--reps N] [--only 15] [--compiler NAME]
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/testkit/oracle.hpp"

#include "documents.hpp"
#include "paired.hpp"

namespace sb = sinkcheck::bench;

namespace {

/// Child mode: what a program using nlohmann 3.11.2 does for the same job.
int nlohmann_encode(const std::string& format, const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
        std::fprintf(stderr, "bench_tool: cannot read %s\n", file.c_str());
        return 2;
    }
    const std::optional<sinkcheck::format> f = sinkcheck::parse_format(format);
    if (!f || !sinkcheck::oracle_has(*f)) {
        std::fprintf(stderr, "bench_tool: no nlohmann encoder for %s\n", format.c_str());
        return 2;
    }
    const nlohmann::json j = nlohmann::json::parse(text);
    const std::vector<std::uint8_t> out = sinkcheck::oracle_encode(*f, j);
    return std::fwrite(out.data(), 1, out.size(), stdout) == out.size() ? 0 : 1;
}

/// Runs argv with standard output on /dev/null and waits for it; its CPU time is then in
/// RUSAGE_CHILDREN, which sb::now_seconds() adds (children_clock). A failure ends the run.
void run_child(const std::vector<std::string>& argv) {
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const std::string& a : argv) {
        args.push_back(const_cast<char*>(a.c_str()));  // posix_spawn's signature; not written to
    }
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int failed = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failed != 0) {
        throw std::runtime_error("cannot start " + argv[0]);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        throw std::runtime_error(argv[0] + " " + argv[1] + " ... failed (status " + std::to_string(status) + ")");
    }
}

std::string self_path() {
    std::vector<char> buf(4096);
    const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0) {
        throw std::runtime_error("cannot read /proc/self/exe");
    }
    return std::string(buf.data(), static_cast<std::size_t>(n));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--nlohmann") {
        return nlohmann_encode(argv[2], argv[3]);
    }
    std::string sinkcheck;
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--sinkcheck" && i + 1 < argc) {
            sinkcheck = argv[++i];
        } else {
            rest.push_back(argv[i]);
        }
    }
    if (sinkcheck.empty()) {
        std::fprintf(stderr, "usage: %s --sinkcheck PATH [--quick] [--reps N] [--only 15] [--compiler NAME]\n",
                     argv[0]);
        return 2;
    }
    const sb::run_settings s = sb::parse_settings(static_cast<int>(rest.size()), rest.data());
    if (!s.wants("15")) {
        return 0;
    }
    sb::children_clock() = true;
    const std::string self = self_path();
    char dir_template[] = "/tmp/bench_tool.XXXXXX";
    const char* dir = mkdtemp(dir_template);
    if (dir == nullptr) {
        std::perror("bench_tool: mkdtemp");
        return 2;
    }
    std::vector<sb::document> docs = sb::encoder_documents();
    for (sb::document& d : sb::text_documents()) {
        docs.push_back(std::move(d));
    }
    int status = 0;
    try {
        for (const sb::document& d : docs) {
            // the input path is the same for every format: every format on one document, CBOR on the rest
            const std::vector<sinkcheck::format> formats =
                d.name == "objects" ? sinkcheck::oracle_formats()
                                    : std::vector<sinkcheck::format>{sinkcheck::format::cbor};
            for (const sinkcheck::format f : formats) {
                const std::string format(sinkcheck::format_name(f));
                const bool bson = sinkcheck::describe(f).root_object;
                const std::string file = std::string(dir) + "/doc.json";
                const std::string text = d.input(bson).dump();
                std::ofstream(file, std::ios::binary) << text;
                const sb::paired_result r = sb::compare(
                    d.name + ", " + format + ": sinkcheck encode vs nlohmann parse + to_" + format,
                    [&] {
                        run_child({self, "--nlohmann", format, file});
                    },
                    [&] {
                        run_child({sinkcheck, "encode", "--to", format, file});
                    },
                    s.repetitions, s.min_seconds);
                sb::emit_ratio(s, "15", r, static_cast<double>(text.size()), 1.20, sb::goal_kind::at_most);
                std::remove(file.c_str());
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_tool: %s\n", e.what());
        status = 1;
    }
    rmdir(dir);
    return status;
}
