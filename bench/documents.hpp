// bench/documents.hpp — the deterministic documents every benchmark row uses.
#pragma once

#include <cstdint>
#include <string>

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

}  // namespace sinkcheck::bench
