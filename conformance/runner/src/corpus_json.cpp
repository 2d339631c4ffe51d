// The corpus as one JSON document (schema: corpus/conformance/export.schema.json), both ways.
// Reading goes through the .vectors record parser, so an exported vector is checked exactly as
// strictly as the record it came from.
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sinkcheck/conform/corpus.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;

/// A text field as a JSON string; the field must be UTF-8.
std::string text_field(const test_vector& v, const char* field, const std::string& text) {
    try {
        return json(text).dump();
    } catch (const json::exception&) {
        throw corpus_error(v.file, v.line, "vector '" + v.id + "': " + field + " is not valid UTF-8");
    }
}

std::string record(const test_vector& v) {
    std::string out =
        "{\"id\":" + text_field(v, "id", v.id) + ",\"format\":\"" + std::string(format_name(v.fmt)) + "\"";
    try {
        out += ",\"input\":" + to_json_notation(v.input.wire);
    } catch (const notation_error& e) {
        throw corpus_error(v.file, v.line, "vector '" + v.id + "': input: " + e.what());
    }
    if (v.use_size || v.use_type) {
        out += ",\"options\":[";
        out += v.use_size ? "\"use_size\"" : "";
        out += v.use_size && v.use_type ? "," : "";
        out += v.use_type ? "\"use_type\"" : "";
        out += ']';
    }
    if (v.negative()) {
        out += ",\"error\":" + text_field(v, "error", v.error);
    } else {
        out += ",\"levels\":[";
        const char* sep = "";
        for (const char* name : level_names(v.levels)) {
            out += sep;
            out += '"';
            out += name;
            out += '"';
            sep = ",";
        }
        out += "],\"expect\":\"" + to_hex(v.expect) + "\"";
        if (!v.alternatives.empty()) {
            out += ",\"alternatives\":[";
            for (std::size_t i = 0; i < v.alternatives.size(); ++i) {
                out += (i == 0 ? "\"" : ",\"") + to_hex(v.alternatives[i]) + "\"";
            }
            out += ']';
        }
    }
    out += ",\"rule\":" + text_field(v, "rule", v.rule);
    out += ",\"source\":" + text_field(v, "source", v.source);
    if (!v.divergence.empty()) out += ",\"divergence\":" + text_field(v, "divergence", v.divergence);
    out += '}';
    return out;
}

/// Builds the .vectors record of one exported vector; throws a plain message.
class record_text {
public:
    explicit record_text(const json& v) : v_(v) {}

    std::string run(format& fmt) {
        if (!v_.is_object()) throw std::runtime_error("a vector is a JSON object");
        static const std::set<std::string> known = {"id",           "format", "input", "options", "levels",    "expect",
                                                    "alternatives", "error",  "rule",  "source",  "divergence"};
        for (const auto& [key, value] : v_.get_ref<const json::object_t&>()) {
            if (known.count(key) == 0) {
                throw std::runtime_error("unknown member \"" + key +
                                         "\" (id format input options levels expect alternatives error rule "
                                         "source divergence)");
            }
        }
        const std::string format_text = text("format", true);
        const auto f = parse_format(format_text);
        if (!f) throw std::runtime_error("\"format\" is one of " + format_names());
        fmt = *f;
        line("id", text("id", true));
        if (!v_.contains("input")) throw std::runtime_error("missing \"input\"");
        try {
            line("input", from_json_notation(v_.at("input")));
        } catch (const notation_error& e) {
            throw std::runtime_error(std::string("input: ") + e.what());
        }
        line("options", words("options"));
        line("level", words("levels"));
        line("expect", text("expect", false));
        if (const auto alt = v_.find("alternatives"); alt != v_.end()) {
            if (!alt->is_array()) throw std::runtime_error("\"alternatives\" is an array of hex strings");
            for (const json& a : *alt) {
                if (!a.is_string()) throw std::runtime_error("\"alternatives\" is an array of hex strings");
                line("alt", a.get<std::string>());
            }
        }
        for (const char* field : {"error", "rule", "source", "divergence"}) line(field, text(field, false));
        return out_;
    }

private:
    std::string text(const char* field, bool required) {
        const auto it = v_.find(field);
        if (it == v_.end()) {
            if (required) throw std::runtime_error(std::string("missing \"") + field + "\"");
            return {};
        }
        if (!it->is_string()) throw std::runtime_error(std::string("\"") + field + "\" is a string");
        std::string s = it->get<std::string>();
        if (s.find_first_of("\r\n") != std::string::npos) {
            throw std::runtime_error(std::string("\"") + field + "\" is one line (no line break)");
        }
        return s;
    }

    std::string words(const char* field) {
        const auto it = v_.find(field);
        if (it == v_.end()) return {};
        std::string out;
        if (!it->is_array()) throw std::runtime_error(std::string("\"") + field + "\" is an array of names");
        for (const json& w : *it) {
            if (!w.is_string() || w.get<std::string>().find_first_of(" \t\r\n") != std::string::npos) {
                throw std::runtime_error(std::string("\"") + field + "\" is an array of names");
            }
            out += (out.empty() ? "" : " ") + w.get<std::string>();
        }
        if (out.empty()) throw std::runtime_error(std::string("\"") + field + "\" is empty");
        return out;
    }

    void line(const char* field, const std::string& value) {
        if (value.empty()) return;
        out_ += field;
        out_ += ": ";
        out_ += value;
        out_ += '\n';
    }

    const json& v_;
    std::string out_;
};

/// e.what() of a record parsed under label, without the "label:LINE: " it starts with.
std::string without_label(const std::string& what, const std::string& label) {
    if (what.compare(0, label.size(), label) != 0) return what;
    const std::size_t sep = what.find(": ", label.size());
    return sep == std::string::npos ? what : what.substr(sep + 2);
}

}  // namespace

std::string export_corpus_json(const std::vector<test_vector>& vectors, std::string_view sinkcheck_version) {
    std::string lines;
    for (const test_vector& v : vectors) {
        if (!lines.empty()) lines += ",\n";
        lines += record(v);
    }
    char digest[17];
    std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(fnv1a64(lines)));
    std::string out = "{\"schema_version\":" + std::to_string(export_schema_version) +
                      ",\"corpus_version\":" + json(std::string(sinkcheck_version) + "+" + digest).dump() +
                      ",\"vectors\":[\n";
    out += lines;
    out += "\n]}\n";
    return out;
}

std::vector<test_vector> parse_corpus_json(const std::string& file, std::string_view text, std::optional<format> only) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        throw corpus_error(file, 0, std::string("not JSON text: ") + e.what());
    } catch (const json::exception& e) {
        // a number beyond what a double holds (out_of_range.406, "number overflow parsing")
        throw corpus_error(file, 0, std::string("JSON text this reader cannot hold: ") + e.what());
    }
    if (!doc.is_object()) throw corpus_error(file, 0, "an exported corpus is a JSON object");
    for (const auto& [key, value] : doc.get_ref<const json::object_t&>()) {
        if (key != "schema_version" && key != "corpus_version" && key != "vectors" && key != "$schema") {
            throw corpus_error(file, 0, "unknown member \"" + key + "\" (schema_version corpus_version vectors)");
        }
    }
    const auto version = doc.find("schema_version");
    if (version == doc.end() || !version->is_number_integer() || *version != export_schema_version) {
        throw corpus_error(file, 0,
                           "\"schema_version\" must be " + std::to_string(export_schema_version) +
                               " (this sinkcheck reads that layout only)");
    }
    const auto corpus_version = doc.find("corpus_version");
    if (corpus_version == doc.end() || !corpus_version->is_string()) {
        throw corpus_error(file, 0, "\"corpus_version\" is a string");
    }
    const auto list = doc.find("vectors");
    if (list == doc.end() || !list->is_array()) throw corpus_error(file, 0, "\"vectors\" is an array");

    std::vector<test_vector> out;
    std::set<std::string> ids;
    for (std::size_t k = 0; k < list->size(); ++k) {
        const std::string where = file + "#/vectors/" + std::to_string(k);
        format fmt = format::cbor;
        std::string rec;
        try {
            rec = record_text((*list)[k]).run(fmt);
        } catch (const std::runtime_error& e) {
            throw corpus_error(where, 0, e.what());
        }
        std::vector<test_vector> parsed;
        try {
            parsed = parse_vector_records(where, fmt, rec);
        } catch (const corpus_error& e) {
            throw corpus_error(where, 0, without_label(e.what(), where));
        }
        if (parsed.size() != 1) throw corpus_error(where, 0, "holds no vector");
        test_vector& v = parsed.front();
        v.file = where;
        v.line = 0;
        if (!ids.insert(v.id).second) throw corpus_error(where, 0, "duplicate id '" + v.id + "'");
        if (!only || v.fmt == *only) out.push_back(std::move(v));
    }
    if (list->empty()) throw corpus_error(file, 0, "holds no vector");
    return out;
}

}  // namespace sinkcheck::conform
