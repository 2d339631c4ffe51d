// `sinkcheck conform --merge REPORT...` (run.hpp): the shards of one `--generate N --shard I/N`
// run, graded side by side (a CI matrix, a batch system), joined into one verdict.
//
// Each shard's JSON report carries its counts, its listed values and its findings; counts add
// up, listed values are put back in index order, and a class found in several shards keeps the
// smallest representative (the shortest input). The verdict is worked out again from the sums,
// as one run would have: --max-unsupported is a share or a count of the whole run.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sinkcheck/conform/run.hpp"

namespace sinkcheck::conform {
namespace {

using nlohmann::json;

json read_report(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw conform_error(file + ": cannot read the report");
    std::ostringstream text;
    text << in.rdbuf();
    json doc;
    try {
        doc = json::parse(text.str());
    } catch (const json::exception& e) {
        throw conform_error(file + ": not a JSON report (" + e.what() + ")");
    }
    if (!doc.is_object() || !doc.contains("generated") || !doc["generated"].is_object() ||
        !doc["generated"].contains("shard")) {
        throw conform_error(file + ": not the JSON report of a --generate run (--report json, with --shard I/N)");
    }
    return doc;
}

/// doc[a][b]... as T, or a conform_error naming the file and the field.
template <class T>
T field(const json& doc, const std::string& file, std::initializer_list<const char*> path) {
    const json* at = &doc;
    std::string name;
    for (const char* key : path) {
        name += std::string(name.empty() ? "" : ".") + key;
        if (!at->is_object() || !at->contains(key)) throw conform_error(file + ": no field " + name);
        at = &(*at)[key];
    }
    try {
        return at->get<T>();
    } catch (const json::exception&) {
        throw conform_error(file + ": field " + name + " has the wrong type");
    }
}

/// Adds every number of b's object into a's.
void add_counts(json& a, const json& b) {
    for (auto it = b.begin(); it != b.end(); ++it) {
        if (!it.value().is_number_unsigned()) continue;
        a[it.key()] = a.value(it.key(), std::uint64_t{0}) + it.value().get<std::uint64_t>();
    }
}

/// The value index in a generated id ".../generated/SEED/INDEX".
std::uint64_t index_of_id(const std::string& id) {
    const std::size_t slash = id.rfind('/');
    try {
        return std::stoull(id.substr(slash == std::string::npos ? 0 : slash + 1));
    } catch (const std::exception&) {
        return 0;
    }
}

}  // namespace

int merge_reports(const std::vector<std::string>& files, report_kind kind, const std::string& output) {
    try {
        std::vector<json> docs;
        docs.reserve(files.size());
        for (const std::string& f : files) docs.push_back(read_report(f));
        // One run: the same format, level, encoder, values, seed, profile, budget and shard count.
        const json& first = docs.front();
        const auto shard_of = [&](std::size_t k) {
            const std::string shard = field<std::string>(docs[k], files[k], {"generated", "shard"});
            const std::size_t slash = shard.find('/');
            if (slash == std::string::npos) throw conform_error(files[k] + ": generated.shard is not I/N");
            return std::make_pair(std::stoull(shard.substr(0, slash)), std::stoull(shard.substr(slash + 1)));
        };
        const std::uint64_t shards = shard_of(0).second;
        std::set<std::uint64_t> seen;
        for (std::size_t k = 0; k < docs.size(); ++k) {
            for (const char* key : {"format", "level", "encoder", "max_unsupported"}) {
                if (field<std::string>(docs[k], files[k], {key}) != field<std::string>(first, files[0], {key})) {
                    throw conform_error(files[k] + ": " + key + " differs from " + files[0] +
                                        "'s: not a shard of the same run");
                }
            }
            if (docs[k].value("declared", json::array()) != first.value("declared", json::array())) {
                throw conform_error(files[k] + ": declared differs from " + files[0] +
                                    "'s: not a shard of the same run");
            }
            for (const char* key : {"values", "seed", "profile"}) {
                if (docs[k]["generated"].value(key, json()) != first["generated"].value(key, json())) {
                    throw conform_error(files[k] + ": generated." + key + " differs from " + files[0] +
                                        "'s: not a shard of the same run");
                }
            }
            const auto [i, n] = shard_of(k);
            if (n != shards)
                throw conform_error(files[k] + ": shard " + std::to_string(i) + "/" + std::to_string(n) +
                                    ", the others are of " + std::to_string(shards));
            if (!seen.insert(i).second) throw conform_error(files[k] + ": shard " + std::to_string(i) + " given twice");
        }
        for (std::uint64_t i = 1; i <= shards; ++i) {
            if (seen.count(i) == 0) {
                throw conform_error("shard " + std::to_string(i) + "/" + std::to_string(shards) +
                                    " is missing: a merged verdict needs every shard");
            }
        }

        json merged = json::object();
        merged["generated"] = json::object();
        for (const char* key : {"format", "level", "encoder", "max_unsupported"}) merged[key] = first[key];
        merged["declared"] = first.value("declared", json::array());
        merged["corpus"] = std::to_string(first["generated"].value("values", std::uint64_t{0})) +
                           " generated values, merged from " + std::to_string(shards) + " shards";
        json sums = json::object();
        json counts = json::object(), failing = json::object(), diffs_failing = json::object(),
             diffs_allowed = json::object();
        double seconds = 0, encode_seconds = 0, shrink_seconds = 0;
        std::map<std::string, json> findings;  // by class
        std::vector<std::string> order;        // classes in the order of their smallest value
        json vectors = json::array();
        for (std::size_t k = 0; k < docs.size(); ++k) {
            const json& d = docs[k];
            for (const char* key : {"total", "graded", "listed", "failures", "expected_failures", "declared_failures",
                                    "unexpected_passes", "unsupported", "unsupported_listed"}) {
                sums[key] = sums.value(key, std::uint64_t{0}) + d.value(key, std::uint64_t{0});
            }
            add_counts(counts, d.value("counts", json::object()));
            add_counts(failing, d.value("failing", json::object()));
            add_counts(diffs_failing, d.value("differences_failing", json::object()));
            add_counts(diffs_allowed, d.value("differences_allowed", json::object()));
            seconds = std::max(seconds, d.value("seconds", 0.0));
            encode_seconds = std::max(encode_seconds, d.value("encode_seconds", 0.0));
            shrink_seconds += d["generated"].value("shrink_seconds", 0.0);
            for (const char* key : {"redrawn", "nondeterministic"}) {
                merged["generated"][key] =
                    merged["generated"].value(key, std::uint64_t{0}) + d["generated"].value(key, std::uint64_t{0});
            }
            for (const json& f : d["generated"].value("findings", json::array())) {
                const std::string cls = f.value("difference", std::string());
                auto it = findings.find(cls);
                if (it == findings.end()) {
                    findings[cls] = f;
                    continue;
                }
                json& m = it->second;
                const bool smaller = f.value("input", std::string()).size() < m.value("input", std::string()).size();
                json keep = smaller ? f : m;
                keep["values"] = m.value("values", std::uint64_t{0}) + f.value("values", std::uint64_t{0});
                keep["values_shrunk"] =
                    m.value("values_shrunk", std::uint64_t{0}) + f.value("values_shrunk", std::uint64_t{0});
                m = std::move(keep);
            }
            for (const json& v : d.value("vectors", json::array())) vectors.push_back(v);
        }
        std::sort(vectors.begin(), vectors.end(), [](const json& a, const json& b) {
            return index_of_id(a.value("id", std::string())) < index_of_id(b.value("id", std::string()));
        });
        std::vector<std::pair<std::uint64_t, std::string>> classes;
        classes.reserve(findings.size());
        for (const auto& [cls, f] : findings) classes.emplace_back(index_of_id(f.value("id", std::string())), cls);
        std::sort(classes.begin(), classes.end());
        json merged_findings = json::array();
        for (const auto& c : classes) merged_findings.push_back(findings[c.second]);

        // The verdict of one run of all the values.
        const std::uint64_t total = sums["total"];
        const std::uint64_t unsupported = sums["unsupported"];
        const std::uint64_t listed_unsupported = sums["unsupported_listed"];
        const unsupported_budget budget =
            parse_unsupported_budget("max_unsupported", field<std::string>(first, files[0], {"max_unsupported"}));
        const std::uint64_t allowed = budget.allowed(total);
        const std::uint64_t unlisted = unsupported - listed_unsupported;
        const std::uint64_t undeclared = unlisted <= allowed ? 0 : unlisted;
        const std::uint64_t graded = total - unsupported;
        const std::uint64_t failures = sums["failures"];
        const bool conforms = failures == 0 && sums["unexpected_passes"] == 0 && undeclared == 0 && graded > 0;
        const std::string level = merged["level"];
        std::string verdict = std::string(conforms      ? "CONFORMS"
                                          : graded == 0 ? "NOTHING GRADED"
                                                        : "DOES NOT CONFORM") +
                              " at level " + level + ": " + std::to_string(graded) + " of " + std::to_string(total) +
                              " graded (" + std::to_string(unsupported) + " unsupported";
        if (undeclared != 0) {
            verdict += ", " + std::to_string(undeclared) + " not declared: --max-unsupported " + budget.text +
                       " allows " + std::to_string(allowed);
        }
        verdict += "); " + std::to_string(failures) + " failing; merged from " + std::to_string(shards) + " shards";

        merged["seconds"] = seconds;
        merged["encode_seconds"] = encode_seconds;
        merged["counts"] = counts;
        merged["failing"] = failing;
        merged["differences_failing"] = diffs_failing;
        merged["differences_allowed"] = diffs_allowed;
        for (const auto& [key, value] : sums.items()) merged[key] = value;
        merged["unsupported_allowed"] = allowed;
        merged["unsupported_undeclared"] = undeclared;
        merged["unsupported_tolerated"] = undeclared == 0 ? unlisted : 0;
        merged["unsupported_declared"] = listed_unsupported + (undeclared == 0 ? unlisted : 0);
        merged["conforms"] = conforms;
        merged["verdict"] = verdict;
        merged["generated"]["values"] = first["generated"]["values"];
        merged["generated"]["seed"] = first["generated"]["seed"];
        merged["generated"]["profile"] = first["generated"]["profile"];
        merged["generated"]["shards"] = shards;
        merged["generated"]["shrink_seconds"] = shrink_seconds;
        merged["generated"]["findings"] = merged_findings;
        merged["vectors"] = vectors;

        std::string out;
        if (kind == report_kind::json) {
            out = merged.dump(2) + "\n";
        } else {
            out = "sinkcheck conform --merge: " + merged["format"].get<std::string>() + ", level " + level +
                  "\nencoder: " + merged["encoder"].get<std::string>() +
                  "\nvalues: " + merged["corpus"].get<std::string>() + "\n";
            for (const json& f : merged_findings) {
                out += "finding: " + f.value("difference", std::string()) + ": " +
                       std::to_string(f.value("values", std::uint64_t{0})) + " values; smallest " +
                       f.value("id", std::string()) + ": " + f.value("input", std::string()) + "\n";
            }
            out += verdict + "\n";
        }
        if (output.empty()) {
            std::fwrite(out.data(), 1, out.size(), stdout);
        } else {
            std::ofstream file(output, std::ios::binary);
            file << out;
            file.close();
            if (!file) throw conform_error(output + ": cannot write the merged report");
            std::fprintf(stderr, "%s: %s\n", output.c_str(), verdict.c_str());
        }
        return conforms ? 0 : 1;
    } catch (const conform_error& e) {
        std::fprintf(stderr, "sinkcheck conform: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {  // a field of the wrong shape deeper in a report
        std::fprintf(stderr, "sinkcheck conform: --merge: a report is malformed: %s\n", e.what());
        return 2;
    }
}

}  // namespace sinkcheck::conform
