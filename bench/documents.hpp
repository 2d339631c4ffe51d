// bench/documents.hpp — the deterministic documents every benchmark row uses.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/detail/utf8.hpp"

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

/// The scripts text documents are written in, by how many bytes their characters take.
enum class script { ascii, latin, cyrillic, cjk, emoji, mixed };

inline constexpr script all_scripts[] = {script::ascii, script::latin, script::cyrillic,
                                         script::cjk,   script::emoji, script::mixed};

inline const char* script_name(script s) {
    switch (s) {
        case script::ascii: return "ascii";        // the control: what the check costs on English
        case script::latin: return "latin";        // ASCII letters, one in five accented (2 bytes)
        case script::cyrillic: return "cyrillic";  // 2 bytes a letter, ASCII spaces
        case script::cjk: return "cjk";            // 3 bytes a character, no spaces
        case script::emoji: return "emoji";        // 4 bytes a character, ASCII spaces
        case script::mixed: return "mixed";        // each word in one of the four before
    }
    return "?";
}

/// Deterministic text of about `chars` characters in script s: words of 2-9 letters separated by
/// spaces (CJK by an ideographic comma now and then, as CJK text is written). `x` is the
/// caller's xorshift64 state, so successive strings differ.
inline std::string script_text(script s, std::size_t chars, std::uint64_t& x) {
    const auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    const auto put = [](std::string& out, std::uint32_t cp) { sinkcheck::detail::append_utf8(out, cp); };
    static constexpr std::uint32_t accented[] = {0xE9, 0xE8, 0xEA, 0xE0, 0xE7, 0xF1, 0xF6, 0xFC, 0xF8, 0xE5, 0xDF};
    std::string out;
    std::size_t n = 0;
    while (n < chars) {
        const script word_script = s == script::mixed ? static_cast<script>(1 + next() % 4) : s;
        const std::size_t letters = 2 + next() % 8;
        for (std::size_t k = 0; k < letters && n < chars; ++k, ++n) {
            const std::uint64_t r = next();
            switch (word_script) {
                case script::ascii: put(out, static_cast<std::uint32_t>('a' + (r >> 8) % 26)); break;
                case script::latin:
                    put(out, r % 5 == 0 ? accented[(r >> 8) % std::size(accented)]
                                        : static_cast<std::uint32_t>('a' + (r >> 8) % 26));
                    break;
                case script::cyrillic: put(out, static_cast<std::uint32_t>(0x430 + (r >> 8) % 32)); break;
                case script::cjk: put(out, static_cast<std::uint32_t>(0x4E00 + (r >> 8) % 0x5200)); break;
                case script::emoji: put(out, static_cast<std::uint32_t>(0x1F300 + (r >> 8) % 0x350)); break;
                case script::mixed: break;
            }
        }
        if (n < chars && (word_script != script::cjk || next() % 3 == 0)) {
            put(out, word_script == script::cjk ? 0x3001 : ' ');  // CJK words mostly run on
            ++n;
        }
    }
    return out;
}

/// A text-heavy document: `records` objects {"id", "lang", "title", "text"} whose title is 5-20
/// characters and text `min_chars` to `max_chars` characters of script s. Short strings (5-60)
/// are what catalogues and timelines hold; long ones (2,000-6,000) are article bodies.
inline nlohmann::json text_document(script s, std::size_t records, std::size_t min_chars, std::size_t max_chars) {
    nlohmann::json doc = nlohmann::json::array();
    std::uint64_t x = 0x2545F4914F6CDD1DULL;
    x += static_cast<unsigned>(s);  // each script its own sequence
    for (std::size_t i = 0; i < records; ++i) {
        nlohmann::json r;
        r["id"] = i;
        r["lang"] = script_name(s);
        r["title"] = script_text(s, 5 + x % 16, x);
        r["text"] = script_text(s, min_chars + x % (max_chars - min_chars + 1), x);
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

inline document named_document(std::string name, nlohmann::json value) {
    document d;
    d.name = std::move(name);
    d.bson_value = nlohmann::json::object();
    d.bson_value["doc"] = value;
    d.value = std::move(value);
    return d;
}

inline std::vector<document> encoder_documents() {
    std::vector<document> docs;
    docs.push_back(named_document("num1M", numbers_document()));
    docs.push_back(named_document("objects", objects_document()));
    return docs;
}

/// The text documents of bench_encoders' row 14, by script: "<script> short", 8,000 records
/// of 5-60 characters, and "<script> long", 120 records of 2,000-6,000 characters.
inline std::vector<document> text_documents() {
    std::vector<document> docs;
    for (script s : all_scripts) {
        docs.push_back(named_document(std::string(script_name(s)) + " short", text_document(s, 8000, 5, 60)));
        docs.push_back(named_document(std::string(script_name(s)) + " long", text_document(s, 120, 2000, 6000)));
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
