// Loading .vectors files (schema: corpus/conformance/README.md).
#include "sinkcheck/conform/corpus.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

namespace sinkcheck::conform {
namespace {

bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) noexcept {
    while (!s.empty() && (is_blank(s.front()) || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (is_blank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_blank(s[i])) ++i;
        const std::size_t b = i;
        while (i < s.size() && !is_blank(s[i])) ++i;
        if (i > b) out.emplace_back(s.substr(b, i - b));
    }
    return out;
}

/// Recursive descent over the hex notation; groups nest at most max_depth deep.
class hex_parser {
public:
    explicit hex_parser(std::string_view s) : s_(s) {}

    std::vector<std::uint8_t> run() {
        std::vector<std::uint8_t> out;
        const std::size_t end = sequence(0, s_.size(), 0, nullptr, out);
        if (end != s_.size()) {
            throw notation_error("unbalanced ')' in hex", end);
        }
        return out;
    }

private:
    static constexpr int max_depth = 8;
    static constexpr std::size_t max_bytes = std::size_t{1} << 24;

    /// Parses [i, limit) into out until limit or a ')' at this level; returns where it stopped.
    std::size_t sequence(std::size_t i, std::size_t limit, int depth, const std::uint64_t* index,
                         std::vector<std::uint8_t>& out) {
        int high = -1;
        std::size_t high_at = 0;
        while (i < limit) {
            const char c = s_[i];
            if (is_blank(c)) {
                ++i;
                continue;
            }
            if (c == ')') {
                break;
            }
            if (high >= 0 && (c == '(' || c == '{')) {
                throw notation_error("odd number of hex digits before a group", high_at);
            }
            if (c == '(') {
                i = group(i, limit, depth, out);
                continue;
            }
            if (c == '{') {
                i = counter(i, limit, index, out);
                continue;
            }
            const int d = hex_digit(c);
            if (d < 0) {
                throw notation_error(std::string("not a hex digit: '") + c + "'", i);
            }
            if (high < 0) {
                high = d;
                high_at = i;
            } else {
                out.push_back(static_cast<std::uint8_t>(high * 16 + d));
                high = -1;
            }
            ++i;
        }
        if (high >= 0) {
            throw notation_error("odd number of hex digits", high_at);
        }
        if (out.size() > max_bytes) {
            throw notation_error("hex expands beyond 16 MiB", i);
        }
        return i;
    }

    std::size_t group(std::size_t open, std::size_t limit, int depth, std::vector<std::uint8_t>& out) {
        if (depth >= max_depth) {
            throw notation_error("hex groups nest too deep", open);
        }
        // Find the matching ')' to learn N, then expand the body once per index.
        std::vector<std::uint8_t> probe;
        const std::uint64_t zero = 0;
        const std::size_t close = sequence(open + 1, limit, depth + 1, &zero, probe);
        if (close >= limit || s_[close] != ')') {
            throw notation_error("'(' without ')' in hex", open);
        }
        std::size_t i = close + 1;
        if (i >= limit || s_[i] != '*') {
            throw notation_error("a hex group must be followed by '*N'", i);
        }
        ++i;
        const std::size_t count_at = i;
        std::uint64_t n = 0;
        while (i < limit && s_[i] >= '0' && s_[i] <= '9') {
            n = n * 10 + static_cast<std::uint64_t>(s_[i] - '0');
            if (n > (std::uint64_t{1} << 32)) {
                throw notation_error("repetition count too large", count_at);
            }
            ++i;
        }
        if (i == count_at) {
            throw notation_error("expected a repetition count after '*'", i);
        }
        if (probe.size() * n > max_bytes) {
            throw notation_error("hex expands beyond 16 MiB", count_at);
        }
        const bool counted = s_.substr(open + 1, close - open - 1).find('{') != std::string_view::npos;
        out.reserve(out.size() + probe.size() * n);
        for (std::uint64_t k = 0; k < n; ++k) {
            if (k == 0 || !counted) {
                out.insert(out.end(), probe.begin(), probe.end());
            } else {
                sequence(open + 1, close, depth + 1, &k, out);
            }
        }
        return i;
    }

    std::size_t counter(std::size_t open, std::size_t limit, const std::uint64_t* index,
                        std::vector<std::uint8_t>& out) {
        if (index == nullptr) {
            throw notation_error("'{W}' is only allowed inside a group", open);
        }
        std::size_t i = open + 1;
        unsigned width = 0;
        while (i < limit && s_[i] >= '0' && s_[i] <= '9' && width < 100) {
            width = width * 10 + static_cast<unsigned>(s_[i] - '0');
            ++i;
        }
        if (i >= limit || s_[i] != '}' || width == 0 || width > 20) {
            throw notation_error("expected '{W}' with a width from 1 to 20", open);
        }
        std::string digits = std::to_string(*index);
        if (digits.size() > width) {
            throw notation_error("the repetition index does not fit " + std::to_string(width) + " digits", open);
        }
        digits.insert(0, width - digits.size(), '0');
        out.insert(out.end(), digits.begin(), digits.end());
        return i + 1;
    }

    std::string_view s_;
};

[[noreturn]] void throw_bad_file_name(const std::string& file) {
    throw corpus_error(
        file, 1, "a vector file is named <format>.vectors or <format>-<part>.vectors, format one of " + format_names());
}

struct record_builder {
    test_vector v;
    bool has_input = false;
    bool has_level = false;
    bool has_expect = false;
    std::size_t input_line = 0;
    std::set<std::string> seen;
};

}  // namespace

const char* level_name(run_level l) noexcept {
    switch (l) {
        case run_level::exact: return "exact";
        case run_level::canonical: return "canonical";
        case run_level::equivalent: return "equivalent";
    }
    return "?";
}

unsigned level_bit_of(run_level l) noexcept {
    switch (l) {
        case run_level::exact: return level_exact;
        case run_level::canonical: return level_canonical;
        case run_level::equivalent: return level_equivalent;
    }
    return 0;
}

std::vector<const char*> level_names(unsigned levels) {
    std::vector<const char*> names;
    for (run_level l : {run_level::exact, run_level::canonical, run_level::equivalent}) {
        if ((levels & level_bit_of(l)) != 0) names.push_back(level_name(l));
    }
    return names;
}

bool parse_level(std::string_view name, run_level& out) noexcept {
    for (run_level l : {run_level::exact, run_level::canonical, run_level::equivalent}) {
        if (name == level_name(l)) {
            out = l;
            return true;
        }
    }
    return false;
}

std::vector<std::uint8_t> parse_hex(std::string_view text) { return hex_parser(text).run(); }

std::string compact_hex(const std::vector<std::uint8_t>& v) {
    std::string out;
    std::size_t i = 0;
    while (i < v.size()) {
        // The unit (up to 16 bytes) whose back-to-back repetition covers the most bytes here.
        std::size_t best_unit = 0;
        std::size_t best_count = 0;
        for (std::size_t unit = 1; unit <= 16 && i + unit <= v.size(); ++unit) {
            std::size_t count = 1;
            while (i + (count + 1) * unit <= v.size() &&
                   std::equal(v.begin() + static_cast<std::ptrdiff_t>(i),
                              v.begin() + static_cast<std::ptrdiff_t>(i + unit),
                              v.begin() + static_cast<std::ptrdiff_t>(i + count * unit))) {
                ++count;
            }
            if (count * unit > best_count * best_unit) {
                best_unit = unit;
                best_count = count;
            }
        }
        if (best_count >= 4 && best_unit * best_count >= 32) {
            if (!out.empty() && out.back() != ' ') out += ' ';
            out += '(';
            out += to_hex(v.data() + i, best_unit);
            out += ")*";
            out += std::to_string(best_count);
            out += ' ';
            i += best_unit * best_count;
        } else {
            out += to_hex(v.data() + i, 1);
            ++i;
        }
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

std::uint64_t fnv1a64(std::string_view bytes) noexcept {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

bool format_of_file(const std::string& path, format& out) {
    const std::filesystem::path p(path);
    if (p.extension() != ".vectors") {
        return false;
    }
    std::string stem = p.stem().string();
    const std::size_t dash = stem.find('-');
    if (dash != std::string::npos) {
        stem.resize(dash);
    }
    const auto f = parse_format(stem);
    if (!f) {
        return false;
    }
    out = *f;
    return true;
}

std::vector<test_vector> parse_vectors(const std::string& file, std::string_view text) {
    format fmt;
    if (!format_of_file(file, fmt)) throw_bad_file_name(file);
    return parse_vector_records(file, fmt, text);
}

std::vector<test_vector> parse_vector_records(const std::string& file, format fmt, std::string_view text) {
    std::vector<test_vector> out;
    record_builder r;
    bool open = false;
    std::size_t line_no = 0;

    auto finish = [&]() {
        if (!open) return;
        test_vector& v = r.v;
        auto need = [&](bool ok, const char* what) {
            if (!ok) throw corpus_error(file, v.line, std::string("vector '") + v.id + "': " + what);
        };
        need(r.has_input, "missing 'input'");
        need(!v.rule.empty(), "missing 'rule'");
        need(!v.source.empty(), "missing 'source'");
        if (v.negative()) {
            need(!r.has_expect && v.alternatives.empty(), "a negative vector ('error') takes no 'expect' or 'alt'");
            need(!r.has_level, "a negative vector ('error') applies at every level and takes no 'level'");
        } else {
            need(r.has_expect, "missing 'expect' (or 'error' for a value that must be refused)");
            need(r.has_level, "missing 'level'");
        }
        out.push_back(std::move(v));
        r = record_builder();
        open = false;
    };

    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) eol = text.size();
        const std::string_view line = trim(text.substr(pos, eol - pos));
        ++line_no;
        pos = eol + 1;
        if (line.empty()) {
            finish();
            continue;
        }
        if (line.front() == '#') {
            continue;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
            throw corpus_error(file, line_no, "expected 'field: value'");
        }
        const std::string key(trim(line.substr(0, colon)));
        const std::string_view value = trim(line.substr(colon + 1));
        auto bad = [&](const std::string& message) { throw corpus_error(file, line_no, message); };

        if (!open) {
            if (key != "id") bad("a vector starts with 'id:' (found '" + key + "')");
            open = true;
            r.v.line = line_no;
            r.v.file = file;
            r.v.fmt = fmt;
        }
        if (key != "alt" && !r.seen.insert(key).second) {
            bad("field '" + key + "' given twice in one vector");
        }
        if (value.empty()) {
            bad("field '" + key + "' is empty");
        }
        test_vector& v = r.v;
        if (key == "id") {
            v.id = std::string(value);
            if (v.id.find_first_of(" \t#") != std::string::npos) bad("an id has no blanks and no '#'");
            const std::string prefix = std::string(format_name(fmt)) + "/";
            if (v.id.compare(0, prefix.size(), prefix) != 0) bad("an id in this file starts with '" + prefix + "'");
        } else if (key == "input") {
            v.input_text = std::string(value);
            try {
                v.input = parse_value(value);
            } catch (const notation_error& e) {
                bad(std::string("input: ") + e.what() + " (at byte " + std::to_string(e.offset()) + " of the value)");
            }
            r.has_input = true;
        } else if (key == "options") {
            for (const std::string& w : words(value)) {
                if (w == "use_size")
                    v.use_size = true;
                else if (w == "use_type")
                    v.use_type = true;
                else
                    bad("unknown option '" + w + "' (use_size, use_type)");
            }
        } else if (key == "level") {
            for (const std::string& w : words(value)) {
                run_level l = run_level::exact;
                if (!parse_level(w, l)) bad("unknown level '" + w + "' (exact, canonical, equivalent)");
                v.levels |= level_bit_of(l);
            }
            r.has_level = true;
        } else if (key == "expect" || key == "alt") {
            std::vector<std::uint8_t> bytes;
            try {
                bytes = parse_hex(value);
            } catch (const notation_error& e) {
                bad(key + ": " + e.what() + " (at byte " + std::to_string(e.offset()) + " of the hex)");
            }
            if (key == "expect") {
                v.expect = std::move(bytes);
                r.has_expect = true;
            } else {
                v.alternatives.push_back(std::move(bytes));
            }
        } else if (key == "error") {
            const std::string e(value);
            const std::size_t dot = e.find('.');
            const std::string cat = e.substr(0, dot);
            const bool digits = dot != std::string::npos && dot + 1 < e.size() &&
                                e.find_first_not_of("0123456789", dot + 1) == std::string::npos;
            if (e != "invalid_argument" && ((cat != "type_error" && cat != "out_of_range") || !digits)) {
                bad("error is '<type_error|out_of_range>.<id>' (e.g. type_error.316) or invalid_argument");
            }
            v.error = e;
        } else if (key == "rule") {
            v.rule = std::string(value);
        } else if (key == "source") {
            v.source = std::string(value);
        } else if (key == "divergence") {
            v.divergence = std::string(value);
        } else {
            bad("unknown field '" + key + "' (id input options level expect alt error rule source divergence)");
        }
    }
    finish();
    return out;
}

std::string read_small_file(const std::string& path, const char* what, std::size_t max_bytes) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    auto refuse = [&](const std::string& why) { throw corpus_error(path.empty() ? "''" : path, 0, why); };
    if (!fs::exists(st)) refuse(std::string("no such file (") + what + ")");
    if (fs::is_directory(st)) refuse(std::string("is a directory, not ") + what);
    if (!fs::is_regular_file(st)) refuse(std::string("is not a regular file, so not ") + what);
    const std::uintmax_t size = fs::file_size(path, ec);
    const std::string too_large = "more than " + std::to_string(max_bytes) + " bytes, too large for " + what;
    if (ec || size > max_bytes) refuse(too_large);
    std::ifstream in(path, std::ios::binary);
    if (!in) refuse(std::string("cannot open ") + what);
    // Read at most one byte more than allowed: the file may have grown since its size was taken.
    std::string text(static_cast<std::size_t>(std::min<std::uintmax_t>(size, max_bytes)) + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) refuse(too_large);
    return text;
}

std::vector<test_vector> load_corpus(const std::string& path, std::optional<format> only) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    std::error_code ec;
    if (path.empty()) {
        throw corpus_error("''", 0, "an empty path names no corpus (--corpus or SINKCHECK_CORPUS)");
    }
    if (!fs::exists(path, ec)) {
        throw corpus_error(path, 0,
                           "no such corpus: neither a .vectors file, an exported .json corpus nor a directory of "
                           ".vectors files");
    }
    if (fs::is_directory(path, ec)) {
        for (const auto& entry : fs::directory_iterator(path, ec)) {
            format f;
            if (entry.path().extension() == ".vectors" &&
                (!only || (format_of_file(entry.path().string(), f) && f == *only))) {
                files.push_back(entry.path().string());
            }
        }
        std::sort(files.begin(), files.end());
        if (files.empty()) {
            throw corpus_error(path, 0, "no .vectors file in this directory");
        }
    } else {
        files.push_back(path);
    }
    std::vector<test_vector> all;
    std::set<std::string> ids;
    for (const std::string& f : files) {
        if (std::filesystem::path(f).extension() == ".json") {
            const std::string text = read_small_file(f, "an exported corpus", max_export_file_bytes);
            for (test_vector& v : parse_corpus_json(f, text, only)) {
                if (!ids.insert(v.id).second) throw corpus_error(v.file, 0, "duplicate id '" + v.id + "'");
                all.push_back(std::move(v));
            }
            continue;
        }
        // The name says the format: check it before reading a byte.
        format named;
        if (!format_of_file(f, named)) throw_bad_file_name(f);
        const std::string text = read_small_file(f, "a vector file");
        std::vector<test_vector> vectors = parse_vectors(f, text);
        if (vectors.empty()) {
            throw corpus_error(f, 0, "holds no vector (only blank lines and comments)");
        }
        for (test_vector& v : vectors) {
            if (!ids.insert(v.id).second) {
                throw corpus_error(f, v.line, "duplicate id '" + v.id + "'");
            }
            all.push_back(std::move(v));
        }
    }
    return all;
}

}  // namespace sinkcheck::conform
