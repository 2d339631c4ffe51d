// fuzz_vectors.cpp — the conformance vector-file reader on arbitrary text.
//
// A user points the conformance runner at their own .vectors files, so the reader
// (conformance/runner: parse_vectors) must turn any text into either vectors or a corpus_error
// that names the file and a line inside the text ("FILE:LINE: message"); any other exception,
// a crash, a hang or a sanitizer report is a finding. The file name, which selects the format,
// follows the first "id: <format>/" in the text, else the input length picks one. Text that
// starts with '{' goes to the reader of exported corpora instead (parse_corpus_json).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/options.hpp"
#include "sinkcheck/testkit/fuzz_report.hpp"

namespace {

using sinkcheck::fuzz::mismatch;

[[noreturn]] void finding(mismatch kind, std::size_t site, const std::string& text) {
    sinkcheck::fuzz::print_finding_header(kind, "vector file reader", "parse_vectors", "its contract");
    sinkcheck::fuzz::print_note("parse_vectors", text);
    sinkcheck::fuzz::crash<sinkcheck::fuzz::target::decode>(kind, site);
}

/// "<format>.vectors" for the format of the first vector id, so seeds load as they would.
std::string file_name(std::string_view text) {
    sinkcheck::format f = sinkcheck::all_formats[text.size() % sinkcheck::all_formats.size()];
    const std::size_t id = text.find("id: ");
    if (id != std::string_view::npos) {
        const std::size_t slash = text.find('/', id);
        if (slash != std::string_view::npos) {
            if (const auto named = sinkcheck::parse_format(text.substr(id + 4, slash - id - 4))) {
                f = *named;
            }
        }
    }
    return std::string(sinkcheck::format_name(f)) + ".vectors";
}

/// Text starting with '{' is read as an exported corpus (parse_corpus_json): it must give
/// vectors or a corpus_error naming the file (and the vector, "export.json#/vectors/N"), and
/// what it gives must export and read back to the same export.
void exported(std::string_view text) {
    std::vector<sinkcheck::conform::test_vector> vectors;
    try {
        vectors = sinkcheck::conform::parse_corpus_json("export.json", text);
    } catch (const sinkcheck::conform::corpus_error& e) {
        const std::string what = e.what();
        if (what.compare(0, 11, "export.json") != 0) {
            finding(mismatch::decoder, 4, "error does not name the export: " + what);
        }
        return;
    } catch (const std::exception& e) {
        finding(mismatch::unexpected_error, 4, std::string("not a corpus_error: ") + e.what());
    }
    try {
        const std::string once = sinkcheck::conform::export_corpus_json(vectors, "fuzz");
        const std::string twice =
            sinkcheck::conform::export_corpus_json(sinkcheck::conform::parse_corpus_json("again.json", once), "fuzz");
        if (once != twice) {
            finding(mismatch::round_trip, 5, "export, read back, export again differs:\n" + once + "\n" + twice);
        }
    } catch (const std::exception& e) {
        finding(mismatch::unexpected_error, 5, std::string("an export that does not read back: ") + e.what());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (!text.empty() && text.front() == '{') {
        exported(text);
        return 0;
    }
    const std::string file = file_name(text);
    try {
        (void)sinkcheck::conform::parse_vectors(file, text);
    } catch (const sinkcheck::conform::corpus_error& e) {
        // "FILE:LINE: message" with LINE a line of the text (or the one after its end)
        const std::string what = e.what();
        const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
        const bool named = what.compare(0, file.size() + 1, file + ":") == 0;
        const std::size_t line = named ? std::strtoull(what.c_str() + file.size() + 1, nullptr, 10) : 0;
        if (!named || line == 0 || line > lines + 1) {
            finding(mismatch::decoder, 3,
                    "error does not name a line of the input (" + std::to_string(lines) + " lines): " + what);
        }
    } catch (const std::exception& e) {
        finding(mismatch::unexpected_error, 3, std::string("not a corpus_error: ") + e.what());
    }
    return 0;
}
