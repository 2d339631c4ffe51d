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

/// xorshift64, the benchmarks' fixed and portable sequence.
inline std::uint64_t next_random(std::uint64_t& x) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

/// A GeoJSON FeatureCollection shaped like a country's borders (nativejson-benchmark's
/// canada.json): `features` polygons, each a few rings of [longitude, latitude] pairs walking
/// along a coastline, doubles of 14-16 significant digits; about 110,000 pairs by default.
inline nlohmann::json geojson_document(std::size_t features = 40) {
    std::uint64_t x = 0x9E3779B97F4A7C15ULL;
    nlohmann::json feats = nlohmann::json::array();
    for (std::size_t f = 0; f < features; ++f) {
        nlohmann::json rings = nlohmann::json::array();
        const std::size_t ring_count = 1 + next_random(x) % 5;
        for (std::size_t r = 0; r < ring_count; ++r) {
            double lon = -141.0 + static_cast<double>(next_random(x) % 8800) / 100.0;
            double lat = 41.0 + static_cast<double>(next_random(x) % 4200) / 100.0;
            nlohmann::json ring = nlohmann::json::array();
            const std::size_t points = 100 + next_random(x) % 1000;
            for (std::size_t k = 0; k < points; ++k) {
                lon += (static_cast<double>(next_random(x) % 20001) - 10000.0) * 1.3e-7;
                lat += (static_cast<double>(next_random(x) % 20001) - 10000.0) * 0.9e-7;
                ring.push_back(nlohmann::json::array({lon, lat}));
            }
            ring.push_back(ring.front());  // a ring closes on its first point
            rings.push_back(std::move(ring));
        }
        feats.push_back({{"type", "Feature"},
                         {"properties", {{"name", "region " + std::to_string(f)}}},
                         {"geometry", {{"type", "Polygon"}, {"coordinates", std::move(rings)}}}});
    }
    return {{"type", "FeatureCollection"}, {"features", std::move(feats)}};
}

/// A catalogue shaped like nativejson-benchmark's citm_catalog.json: maps from id strings to
/// names, events keyed by their id with lists of topic ids and null logos and descriptions, and
/// performances whose prices list amounts by seat and audience category.
inline nlohmann::json catalog_document(std::size_t events = 2000) {
    std::uint64_t x = 0xD1B54A32D192ED03ULL;
    nlohmann::json doc;
    nlohmann::json area_names = nlohmann::json::object();
    for (int a = 0; a < 60; ++a) {
        area_names[std::to_string(205705993 + a)] = "Area " + std::to_string(a) + " - Parterre";
    }
    doc["areaNames"] = std::move(area_names);
    nlohmann::json seat_names = nlohmann::json::object();
    for (int c = 0; c < 60; ++c) {
        seat_names[std::to_string(338937235 + c)] = "Category " + std::to_string(c % 8 + 1);
    }
    doc["seatCategoryNames"] = std::move(seat_names);
    nlohmann::json event_map = nlohmann::json::object();
    nlohmann::json performances = nlohmann::json::array();
    for (std::size_t e = 0; e < events; ++e) {
        const std::uint64_t id = 138586341 + e * 7;
        nlohmann::json topics = nlohmann::json::array();
        for (std::uint64_t t = 0; t < 1 + next_random(x) % 4; ++t) {
            topics.push_back(337184262 + next_random(x) % 400);
        }
        event_map[std::to_string(id)] = {
            {"description", nullptr},
            {"id", id},
            {"logo",
             next_random(x) % 3 == 0 ? nlohmann::json("/images/UE0AAAAACEKo6QAAAAZDSVRN") : nlohmann::json(nullptr)},
            {"name", "Concert " + std::to_string(e)},
            {"subTopicIds", topics},
            {"subjectCode", nullptr},
            {"subtitle", nullptr},
            {"topicIds", topics}};
        nlohmann::json prices = nlohmann::json::array();
        for (std::uint64_t p = 0; p < 2 + next_random(x) % 6; ++p) {
            prices.push_back({{"amount", 9000 + 500 * (next_random(x) % 40)},
                              {"audienceSubCategoryId", 337100890},
                              {"seatCategoryId", 338937235 + next_random(x) % 60}});
        }
        performances.push_back({{"eventId", id},
                                {"id", 339887544 + e},
                                {"logo", nullptr},
                                {"name", nullptr},
                                {"prices", std::move(prices)},
                                {"seatCategories", nlohmann::json::array({{{"areas", {{{"areaId", 205705999}}}}}})},
                                {"seatMapImage", nullptr},
                                {"start", 1372701600000 + 86400000 * e},
                                {"venueCode", "PLEYEL_PLEYEL"}});
    }
    doc["events"] = std::move(event_map);
    doc["performances"] = std::move(performances);
    return doc;
}

/// A social-media timeline shaped like nativejson-benchmark's twitter.json: statuses with 64-bit
/// ids (and their decimal strings), text of 20-140 characters in mixed scripts with emoji, a
/// user object, entities, counts, flags and nulls.
inline nlohmann::json timeline_document(std::size_t statuses = 1000) {
    std::uint64_t x = 0xA0761D6478BD642FULL;
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t i = 0; i < statuses; ++i) {
        const std::uint64_t id = 505874924095815681ULL + next_random(x) % 1000000000ULL;
        const std::uint64_t user_id = next_random(x) % 3000000000ULL;
        const auto text_script = static_cast<script>(next_random(x) % 6);
        nlohmann::json hashtags = nlohmann::json::array();
        for (std::uint64_t h = 0; h < next_random(x) % 3; ++h) {
            hashtags.push_back({{"text", script_text(script::latin, 4 + next_random(x) % 8, x)},
                                {"indices", {next_random(x) % 100, 100 + next_random(x) % 40}}});
        }
        list.push_back(
            {{"created_at", "Sun Aug 31 00:29:15 +0000 2014"},
             {"id", id},
             {"id_str", std::to_string(id)},
             {"text", script_text(text_script, 20 + next_random(x) % 121, x)},
             {"source", "<a href=\"https://mobile.example.com\" rel=\"nofollow\">Mobile Web</a>"},
             {"truncated", false},
             {"in_reply_to_status_id", next_random(x) % 4 == 0 ? nlohmann::json(id - 12345) : nlohmann::json(nullptr)},
             {"user",
              {{"id", user_id},
               {"id_str", std::to_string(user_id)},
               {"name", script_text(text_script, 3 + next_random(x) % 12, x)},
               {"screen_name", "user" + std::to_string(user_id % 100000)},
               {"location", next_random(x) % 2 == 0 ? script_text(script::latin, 8, x) : std::string()},
               {"description", script_text(text_script, next_random(x) % 100, x)},
               {"followers_count", next_random(x) % 100000},
               {"friends_count", next_random(x) % 5000},
               {"verified", next_random(x) % 20 == 0},
               {"profile_background_color", "C0DEED"}}},
             {"geo", nullptr},
             {"retweet_count", next_random(x) % 1000},
             {"favorite_count", next_random(x) % 1000},
             {"entities", {{"hashtags", std::move(hashtags)}, {"urls", nlohmann::json::array()}}},
             {"favorited", false},
             {"retweeted", false},
             {"lang", script_name(text_script)}});
    }
    return {{"statuses", std::move(list)},
            {"search_metadata", {{"completed_in", 0.087}, {"max_id", 505874924095815681ULL}, {"count", statuses}}}};
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
    docs.push_back(named_document("geojson", geojson_document()));
    docs.push_back(named_document("catalog", catalog_document()));
    docs.push_back(named_document("timeline", timeline_document()));
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

/// A depth-first walk that visits every node and reads every number's bits, and hands every key
/// and string to `text`; the sum it returns keeps the compiler from dropping any of it.
template <class Text>
std::uint64_t walk_dom(const nlohmann::json& j, const Text& text) {
    using json = nlohmann::json;
    switch (j.type()) {
        case json::value_t::object: {
            std::uint64_t sum = 1;
            for (const auto& kv : j.get_ref<const json::object_t&>()) {
                sum += text(kv.first) + walk_dom(kv.second, text);
            }
            return sum;
        }
        case json::value_t::array: {
            std::uint64_t sum = 2;
            for (const auto& v : j.get_ref<const json::array_t&>()) {
                sum += walk_dom(v, text);
            }
            return sum;
        }
        case json::value_t::string: return text(j.get_ref<const json::string_t&>());
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

/// The floor of any encoder of a nlohmann::json: the walk, reading of each key and string only
/// its length and first byte.
inline std::uint64_t dom_walk(const nlohmann::json& j) {
    return walk_dom(j, [](const std::string& s) -> std::uint64_t {
        return s.size() + (s.empty() ? 0 : static_cast<unsigned char>(s[0]));
    });
}

/// The floor of an encoder that refuses invalid UTF-8, as the reference does: the walk, and the
/// reference's own check (detail/utf8.hpp) of every key and string. On text documents an encoder
/// that does not check (nlohmann) can be faster than this floor: then no checking encoder can be
/// as fast as it, and row 11 says by how much.
inline std::uint64_t checked_walk(const nlohmann::json& j) {
    return walk_dom(j, [](const std::string& s) -> std::uint64_t {
        return s.size() + sinkcheck::detail::utf8_invalid_at(s.data(), s.size());
    });
}

}  // namespace sinkcheck::bench
