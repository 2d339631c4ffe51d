// bench/documents.hpp — the deterministic documents every benchmark row uses.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sinkcheck::bench {

/// num1M: n numbers alternating (i * 0x9E3779B97F4A7C15) >> 1 (unsigned, mostly 8-byte heads)
/// and i / 7.0 (doubles, mostly not float32-exact).
inline nlohmann::json numbers_document(std::size_t n = 1000000) {
    nlohmann::json doc = nlohmann::json::array();
    auto& a = doc.get_ref<nlohmann::json::array_t&>();
    a.reserve(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        if (i % 2 == 0) {
            a.emplace_back((i * 0x9E3779B97F4A7C15ULL) >> 1);
        } else {
            a.emplace_back(static_cast<double>(i) / 7.0);
        }
    }
    return doc;
}

/// An object-heavy document: `records` nested objects with string keys (about 166 bytes of
/// CBOR and 12.5 keys each; 30,000 records make about 5 MB of CBOR).
inline nlohmann::json objects_document(std::size_t records = 30000) {
    static const char* const cities[] = {"Lisbon", "Oslo", "Kyoto", "Quito", "Perth", "Accra"};
    static const char* const tags[] = {"alpha", "beta", "gamma", "delta", "epsilon"};
    nlohmann::json doc = nlohmann::json::array();
    std::uint64_t x = 88172645463325252ULL;  // xorshift64: fixed, portable sequence
    auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    for (std::size_t i = 0; i < records; ++i) {
        nlohmann::json r;
        r["id"] = i;
        r["name"] = "user_" + std::to_string(next() % 1000000);
        r["email"] = "u" + std::to_string(i) + "@example.org";
        r["active"] = next() % 2 == 0;
        r["balance"] = static_cast<double>(next() % 1000000) / 100.0;
        r["address"] = {{"street", std::to_string(next() % 999) + " Main Street"},
                        {"city", cities[next() % 6]},
                        {"zip", std::to_string(10000 + next() % 89999)}};
        nlohmann::json t = nlohmann::json::array();
        for (std::size_t k = 0; k < 1 + next() % 4; ++k) {
            t.push_back(tags[next() % 5]);
        }
        r["tags"] = std::move(t);
        r["scores"] = {{"math", next() % 100}, {"art", next() % 100}};
        doc.push_back(std::move(r));
    }
    return doc;
}

/// The documents every encoder row runs on, by name. BSON writes only objects, so for BSON each
/// document is the value of the key "doc" (bson_value).
struct document {
    std::string name;
    nlohmann::json value;
    nlohmann::json bson_value;  // {"doc": value}

    const nlohmann::json& input(bool bson) const { return bson ? bson_value : value; }
};

inline std::vector<document> encoder_documents() {
    std::vector<document> docs(2);
    docs[0].name = "num1M";
    docs[0].value = numbers_document();
    docs[1].name = "objects";
    docs[1].value = objects_document();
    for (document& d : docs) {
        d.bson_value = nlohmann::json::object();
        d.bson_value["doc"] = d.value;
    }
    return docs;
}

/// The floor of any encoder of a nlohmann::json: a depth-first walk that visits every node and
/// reads every key's and string's length and first byte and every number's bits, and nothing
/// else. The sum it returns keeps the compiler from dropping any of it.
inline std::uint64_t dom_walk(const nlohmann::json& j) {
    using json = nlohmann::json;
    const auto touch = [](const std::string& s) -> std::uint64_t {
        return s.size() + (s.empty() ? 0 : static_cast<unsigned char>(s[0]));
    };
    switch (j.type()) {
        case json::value_t::object: {
            std::uint64_t sum = 1;
            for (const auto& kv : j.get_ref<const json::object_t&>()) {
                sum += touch(kv.first) + dom_walk(kv.second);
            }
            return sum;
        }
        case json::value_t::array: {
            std::uint64_t sum = 2;
            for (const auto& v : j.get_ref<const json::array_t&>()) {
                sum += dom_walk(v);
            }
            return sum;
        }
        case json::value_t::string: return touch(j.get_ref<const json::string_t&>());
        case json::value_t::boolean: return *j.get_ptr<const json::boolean_t*>() ? 3 : 4;
        case json::value_t::number_integer:
            return static_cast<std::uint64_t>(*j.get_ptr<const json::number_integer_t*>());
        case json::value_t::number_unsigned: return *j.get_ptr<const json::number_unsigned_t*>();
        case json::value_t::number_float: {
            std::uint64_t bits = 0;
            std::memcpy(&bits, j.get_ptr<const json::number_float_t*>(), sizeof bits);
            return bits;
        }
        case json::value_t::binary: return j.get_binary().size();
        case json::value_t::null:
        case json::value_t::discarded: break;
    }
    return 5;
}

}  // namespace sinkcheck::bench
