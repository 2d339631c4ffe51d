// replay_main.cpp — runs a fuzz target over files without libFuzzer.
//
// Linked into every target when SINKCHECK_FUZZ is off, so the targets build with any compiler
// and their seed corpora (and saved crash files) run as ordinary CTest tests. Arguments are
// files or directories (read recursively, in sorted order so runs are reproducible); arguments
// that start with '-' are libFuzzer flags and are ignored, so the same command line works for
// both builds. Exit status: 0 when every input ran, 2 when an input could not be read or there
// was no input at all (a replay that checks nothing must not pass).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

bool read_file(const fs::path& path, std::vector<std::uint8_t>& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return false;
    }
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

bool collect(const fs::path& arg, std::vector<fs::path>& files) {
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
        for (fs::recursive_directory_iterator it(arg, ec), end; !ec && it != end; it.increment(ec)) {
            if (it->is_regular_file(ec)) {
                files.push_back(it->path());
            }
        }
        if (ec) {
            std::fprintf(stderr, "replay: cannot list %s: %s\n", arg.string().c_str(), ec.message().c_str());
            return false;
        }
        return true;
    }
    if (fs::is_regular_file(arg, ec)) {
        files.push_back(arg);
        return true;
    }
    std::fprintf(stderr, "replay: no such file or directory: %s\n", arg.string().c_str());
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<fs::path> files;
    bool ok = true;
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-') {
            continue;
        }
        ok = collect(argv[i], files) && ok;
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "replay: no input files (usage: %s FILE|DIR...)\n", argv[0]);
        return 2;
    }
    std::vector<std::uint8_t> data;
    std::size_t ran = 0;
    for (const fs::path& path : files) {
        if (!read_file(path, data)) {
            std::fprintf(stderr, "replay: cannot read %s\n", path.string().c_str());
            ok = false;
            continue;
        }
        // a crash or abort below leaves this line as the last one printed: the culprit
        std::fprintf(stderr, "replay: %s (%zu bytes)\n", path.string().c_str(), data.size());
        // an empty vector's data() may be null; libFuzzer never passes null
        static const std::uint8_t empty = 0;
        LLVMFuzzerTestOneInput(data.empty() ? &empty : data.data(), data.size());
        ++ran;
    }
    std::printf("replay: ran %zu of %zu inputs\n", ran, files.size());
    return ok ? 0 : 2;
}
