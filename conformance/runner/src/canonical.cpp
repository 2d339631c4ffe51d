// canonical.cpp — RFC 8949 §4.2.1 core deterministic CBOR, written from §3, §4.1, §4.2.1 and
// §4.2.2 only.
#include "sinkcheck/conform/canonical.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;
using bytes = std::vector<std::uint8_t>;

void put_big_endian(bytes& out, std::uint64_t v, int width) {
    for (int i = width - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

/// §3 with §4.2.1's shortest argument.
void head(bytes& out, int major, std::uint64_t n) {
    const auto m = static_cast<std::uint8_t>(major << 5);
    if (n < 24) {
        out.push_back(static_cast<std::uint8_t>(m | n));
    } else if (n <= 0xff) {
        out.push_back(m | 24);
        put_big_endian(out, n, 1);
    } else if (n <= 0xffff) {
        out.push_back(m | 25);
        put_big_endian(out, n, 2);
    } else if (n <= 0xffffffffULL) {
        out.push_back(m | 26);
        put_big_endian(out, n, 4);
    } else {
        out.push_back(m | 27);
        put_big_endian(out, n, 8);
    }
}

/// The binary16 bits of d when d is exactly a binary16 value (infinities and signed zeros
/// included), else nothing. NaN is the caller's.
std::optional<std::uint16_t> exact_half(double d) {
    const std::uint16_t sign = std::signbit(d) ? 0x8000 : 0;
    const double a = std::fabs(d);
    if (std::isinf(a)) return static_cast<std::uint16_t>(sign | 0x7c00);
    if (a < 0x1p-14) {  // zero and the subnormals: k * 2^-24, k < 1024
        const double k = a * 0x1p24;
        if (k != std::trunc(k)) return std::nullopt;
        return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(k));
    }
    int e = 0;
    const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    const int biased = e - 1 + 15;       // a = (2m) * 2^(e-1)
    if (biased > 30) return std::nullopt;
    const double fraction = (2 * m - 1) * 1024;
    if (fraction != std::trunc(fraction)) return std::nullopt;
    return static_cast<std::uint16_t>(sign | (biased << 10) | static_cast<std::uint16_t>(fraction));
}

/// §4.2.1 preferred serialization of a float: the shortest of binary16/32/64 that keeps it.
void write_float(bytes& out, double d) {
    if (std::isnan(d)) {
        out.insert(out.end(), {0xf9, 0x7e, 0x00});  // §4.2.2: one NaN
        return;
    }
    if (const auto half = exact_half(d)) {
        out.push_back(0xf9);
        put_big_endian(out, *half, 2);
        return;
    }
    // a double beyond float's range is no float (and converting it would be undefined)
    const bool in_range = std::fabs(d) <= static_cast<double>(std::numeric_limits<float>::max());
    const float single = in_range ? static_cast<float>(d) : 0.0F;
    if (in_range && static_cast<double>(single) == d) {
        std::uint32_t b = 0;
        std::memcpy(&b, &single, sizeof b);
        out.push_back(0xfa);
        put_big_endian(out, b, 4);
        return;
    }
    std::uint64_t b = 0;
    std::memcpy(&b, &d, sizeof b);
    out.push_back(0xfb);
    put_big_endian(out, b, 8);
}

void write_text(bytes& out, const std::string& s) {
    head(out, 3, s.size());
    out.insert(out.end(), s.begin(), s.end());
}

}  // namespace

bytes canonical_cbor(const json& value) {
    bytes out;
    // Each work item is a value to write or, for an object's member, its key first. Keys are
    // text strings, whose encodings order bytewise as (length, bytes): the shortest head grows
    // with the length, so sorting by that pair is §4.2.1's order without encoding the keys.
    struct item {
        const std::string* key;
        const json* value;
    };
    std::vector<item> todo{{nullptr, &value}};
    std::vector<item> members;
    while (!todo.empty()) {
        const item it = todo.back();
        todo.pop_back();
        if (it.key != nullptr) write_text(out, *it.key);
        const json& j = *it.value;
        switch (j.type()) {
            case json::value_t::null: out.push_back(0xf6); break;
            case json::value_t::boolean: out.push_back(j.get<bool>() ? 0xf5 : 0xf4); break;
            case json::value_t::number_unsigned: head(out, 0, j.get<std::uint64_t>()); break;
            case json::value_t::number_integer: {
                const std::int64_t v = j.get<std::int64_t>();
                if (v >= 0)
                    head(out, 0, static_cast<std::uint64_t>(v));
                else
                    head(out, 1, static_cast<std::uint64_t>(-1 - v));
                break;
            }
            case json::value_t::number_float: write_float(out, j.get<double>()); break;
            case json::value_t::string: write_text(out, j.get_ref<const std::string&>()); break;
            case json::value_t::binary: {
                const auto& b = j.get_binary();
                if (b.has_subtype()) head(out, 6, b.subtype());
                head(out, 2, b.size());
                out.insert(out.end(), b.begin(), b.end());
                break;
            }
            case json::value_t::array:
                head(out, 4, j.size());
                for (auto e = j.rbegin(); e != j.rend(); ++e) todo.push_back({nullptr, &*e});
                break;
            case json::value_t::object:
                head(out, 5, j.size());
                members.clear();
                for (auto m = j.begin(); m != j.end(); ++m) members.push_back({&m.key(), &m.value()});
                std::sort(members.begin(), members.end(), [](const item& a, const item& b) {
                    return a.key->size() != b.key->size() ? a.key->size() < b.key->size() : *a.key < *b.key;
                });
                todo.insert(todo.end(), members.rbegin(), members.rend());
                break;
            case json::value_t::discarded:
            default: throw std::invalid_argument("a discarded value has no CBOR encoding");
        }
    }
    return out;
}

// Switches without a default: a new format is a -Wswitch error until it says whether it has a
// canonical form and what it is.
bool has_canonical_encoding(format f) noexcept {
    switch (f) {
        case format::cbor:
        case format::bon8: return true;
        case format::msgpack:
        case format::ubjson:
        case format::bjdata:
        case format::bson: return false;
    }
    return false;
}

std::optional<bytes> canonical_bytes(format f, const json& value, const bytes& exact) {
    switch (f) {
        case format::cbor: return canonical_cbor(value);
        case format::bon8: return exact;
        case format::msgpack:
        case format::ubjson:
        case format::bjdata:
        case format::bson: return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace sinkcheck::conform
