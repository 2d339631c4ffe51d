// tools/corpus.cpp — `sinkcheck corpus export`: the conformance vectors as one JSON document
// that any language's stock JSON parser reads (docs/conformance.md, "The corpus as JSON").
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "commands.hpp"
#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/run.hpp"

#ifndef SINKCHECK_VERSION
#define SINKCHECK_VERSION "unknown"
#endif

namespace sinkcheck::cli {
namespace {

constexpr std::string_view usage =
    "usage: sinkcheck corpus export [--json] [--format F]... [--corpus PATH] [--output FILE]\n"
    "\n"
    "Writes the conformance vectors as one JSON document (schema:\n"
    "corpus/conformance/export.schema.json, installed beside the vectors): one vector per line,\n"
    "values in the JSON notation of docs/cli.md, a corpus_version to pin. `sinkcheck conform\n"
    "--corpus FILE.json` grades from an export exactly as from the .vectors files.\n"
    "\n"
    "  --json          the JSON document (the only export form, and the default)\n"
    "  --format F      only this format's vectors (repeatable; default: all six)\n"
    "  --corpus PATH   a .vectors file, a directory of them or an export (default: the installed\n"
    "                  corpus, or SINKCHECK_CORPUS)\n"
    "  --output FILE   write FILE (replaced only once the whole document is written); default stdout\n"
    "\n"
    "exit status: 0 written; 2 usage, a malformed corpus (FILE:LINE: message) or an unwritable output\n";

void write_file(const std::string& path, const std::string& data) {
    const std::string temporary = path + ".partial";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(data.data(), static_cast<std::streamsize>(data.size()));
        out.flush();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            throw input_error(path + ": cannot write the export");
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        throw input_error(path + ": cannot write the export");
    }
}

int run(const std::vector<std::string>& argv) {
    const arguments args(argv, {{"--json", false}, {"--format", true, true}, {"--corpus", true}, {"--output", true}});
    if (args.operands().empty() || args.operands().front() != "export" || args.operands().size() != 1) {
        throw usage_error("expected `sinkcheck corpus export`");
    }
    std::vector<format> formats;
    for (const std::string& name : args.values("--format")) {
        formats.push_back(parse_target_format(name));
    }
    const std::string path = args.value("--corpus").value_or(conform::default_corpus());
    std::vector<conform::test_vector> selected;
    try {
        for (conform::test_vector& v : conform::load_corpus(path)) {
            bool wanted = formats.empty();
            for (format f : formats) wanted = wanted || f == v.fmt;
            if (wanted) selected.push_back(std::move(v));
        }
        if (selected.empty()) throw input_error(path + ": no vector of the formats asked for");
        const std::string doc = conform::export_corpus_json(selected, SINKCHECK_VERSION);
        if (const auto out = args.value("--output")) {
            write_file(*out, doc);
        } else {
            write_stdout(doc);
        }
    } catch (const conform::corpus_error& e) {
        throw input_error(e.what());
    }
    return exit_ok;
}

}  // namespace

const command corpus_command{"corpus", "export the conformance vectors as portable JSON", usage, run};

}  // namespace sinkcheck::cli
