// sinkcheck/testkit/value_shrink.hpp — shrinking a failing value as a value, not as the choices
// that built it.
//
// Shrinking the choice bytes (Hypothesis' way, conform --generate's first pass) stops where a
// smaller choice sequence would build a value of another shape: a CBOR counterexample kept the
// BJData ND-array keys its choices happened to draw. This second pass edits the value itself,
// one node at a time: a container replaced by one of its children, halved or without one
// member; an integer set to zero, to the smallest value of its bit length and sign, halved or
// moved one toward zero; a double set to zero or truncated; a string or byte string emptied,
// halved or a code point shorter, its ASCII made 'a'; any scalar made null. A candidate is kept
// only when it is smaller under value_cost's order, so the pass always ends.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace sinkcheck::testkit {

/// What makes one value larger than another, most important first: nodes, then bytes of
/// strings, keys and binary, then the bit lengths of its integers, then its non-null scalars,
/// then how far its numbers are from zero and from being whole. Every edit value_candidates
/// makes lowers one of these without raising an earlier one, except where the notation's
/// length breaks the tie (compared by the caller).
struct value_cost {
    std::size_t nodes = 0;
    std::size_t bytes = 0;
    std::size_t integer_bits = 0;
    std::size_t scalars = 0;
    long double magnitude = 0;
    std::size_t fractions = 0;  // doubles that are not whole, NaN or infinite

    friend bool operator<(const value_cost& a, const value_cost& b) {
        return std::tie(a.nodes, a.bytes, a.integer_bits, a.scalars, a.magnitude, a.fractions) <
               std::tie(b.nodes, b.bytes, b.integer_bits, b.scalars, b.magnitude, b.fractions);
    }
    friend bool operator==(const value_cost& a, const value_cost& b) { return !(a < b) && !(b < a); }
};

namespace detail_shrink {

inline std::size_t bit_length(std::uint64_t v) {
    std::size_t n = 0;
    for (; v != 0; v >>= 1) ++n;
    return n;
}

inline std::uint64_t magnitude_of(std::int64_t v) {
    return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

/// The byte length of the UTF-8 sequence starting with lead (1 for a byte that starts none).
inline std::size_t sequence_length(unsigned char lead) {
    return lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
}

/// Where s's last code point starts (s not empty).
inline std::size_t last_code_point(const std::string& s) {
    std::size_t i = s.size() - 1;
    while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
    return i;
}

/// The code point boundary at or after n bytes.
inline std::size_t boundary_after(const std::string& s, std::size_t n) {
    while (n < s.size() && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) ++n;
    return n;
}

}  // namespace detail_shrink

template <class Json>
value_cost cost_of(const Json& root) {
    value_cost c;
    std::vector<const Json*> stack{&root};
    while (!stack.empty()) {
        const Json& j = *stack.back();
        stack.pop_back();
        ++c.nodes;
        switch (j.type()) {
            case Json::value_t::array:
                for (const auto& e : j) stack.push_back(&e);
                break;
            case Json::value_t::object:
                for (auto it = j.begin(); it != j.end(); ++it) {
                    c.bytes += it.key().size();
                    stack.push_back(&it.value());
                }
                break;
            case Json::value_t::string:
                ++c.scalars;
                c.bytes += j.template get_ref<const typename Json::string_t&>().size();
                break;
            case Json::value_t::binary:
                ++c.scalars;
                c.bytes += j.get_binary().size() + (j.get_binary().has_subtype() ? 1 : 0);
                break;
            case Json::value_t::number_unsigned: {
                const auto v = j.template get<std::uint64_t>();
                ++c.scalars;
                c.integer_bits += detail_shrink::bit_length(v);
                c.magnitude += static_cast<long double>(v);
                break;
            }
            case Json::value_t::number_integer: {
                const auto v = detail_shrink::magnitude_of(j.template get<std::int64_t>());
                ++c.scalars;
                c.integer_bits += detail_shrink::bit_length(v);
                c.magnitude += static_cast<long double>(v);
                break;
            }
            case Json::value_t::number_float: {
                const double d = j.template get<double>();
                ++c.scalars;
                if (std::isfinite(d)) {
                    c.magnitude += std::fabs(static_cast<long double>(d));
                    if (d != std::trunc(d)) ++c.fractions;
                } else {
                    ++c.fractions;
                }
                break;
            }
            case Json::value_t::boolean: ++c.scalars; break;
            default: break;  // null, discarded
        }
    }
    return c;
}

/// Smaller replacements for one node, most drastic first (see the header comment).
template <class Json>
std::vector<Json> node_candidates(const Json& j) {
    std::vector<Json> out;
    if (!j.is_null()) out.emplace_back(nullptr);
    switch (j.type()) {
        case Json::value_t::array:
        case Json::value_t::object: {
            const std::size_t n = j.size();
            for (const auto& child : j) out.push_back(child);
            if (n >= 2) {
                Json first = j.is_array() ? Json::array() : Json::object();
                Json second = first;
                std::size_t i = 0;
                for (auto it = j.begin(); it != j.end(); ++it, ++i) {
                    Json& half = i < n / 2 ? first : second;
                    if (j.is_array()) {
                        half.push_back(*it);
                    } else {
                        half[it.key()] = it.value();
                    }
                }
                out.push_back(std::move(first));
                out.push_back(std::move(second));
            }
            for (std::size_t drop = 0; drop < n; ++drop) {
                Json less = j.is_array() ? Json::array() : Json::object();
                std::size_t i = 0;
                for (auto it = j.begin(); it != j.end(); ++it, ++i) {
                    if (i == drop) continue;
                    if (j.is_array()) {
                        less.push_back(*it);
                    } else {
                        less[it.key()] = it.value();
                    }
                }
                out.push_back(std::move(less));
            }
            break;
        }
        case Json::value_t::number_unsigned:
        case Json::value_t::number_integer: {
            // is_number_integer() holds for unsigned too, and 2^63 and above read as int64 are negative
            const bool negative = !j.is_number_unsigned() && j.template get<std::int64_t>() < 0;
            const std::uint64_t m = negative ? detail_shrink::magnitude_of(j.template get<std::int64_t>())
                                             : j.template get<std::uint64_t>();
            if (m == 0) break;
            const std::uint64_t lowest = std::uint64_t{1} << (detail_shrink::bit_length(m) - 1);
            const auto make = [&](std::uint64_t v) {
                if (!negative) {
                    out.push_back(j.is_number_unsigned() ? Json(v) : Json(static_cast<std::int64_t>(v)));
                } else {
                    out.push_back(Json(-static_cast<std::int64_t>(v - 1) - 1));
                }
            };
            make(0);
            if (lowest != m) make(lowest);
            if (m / 2 != 0 && m / 2 != lowest) make(m / 2);
            if (m - 1 != 0 && m - 1 != lowest && m - 1 != m / 2) make(m - 1);
            break;
        }
        case Json::value_t::number_float: {
            const double d = j.template get<double>();
            if (!(d == 0.0 && !std::signbit(d))) out.emplace_back(0.0);
            if (std::isfinite(d) && std::trunc(d) != d) out.emplace_back(std::trunc(d));
            break;
        }
        case Json::value_t::string: {
            const auto& s = j.template get_ref<const typename Json::string_t&>();
            if (s.empty()) break;
            out.emplace_back(std::string());
            const std::size_t half = detail_shrink::boundary_after(s, s.size() / 2);
            if (half > 0 && half < s.size()) out.emplace_back(s.substr(0, half));
            out.emplace_back(s.substr(0, detail_shrink::last_code_point(s)));
            const std::size_t first = detail_shrink::sequence_length(static_cast<unsigned char>(s[0]));
            if (first < s.size()) out.emplace_back(s.substr(first));
            std::string plain = s;
            for (char& c : plain) {
                if (static_cast<unsigned char>(c) < 0x80) c = 'a';
            }
            if (plain != s) out.emplace_back(std::move(plain));
            break;
        }
        case Json::value_t::binary: {
            const auto& b = j.get_binary();
            using container = typename Json::binary_t::container_type;
            if (b.has_subtype()) out.push_back(Json::binary(container(b.begin(), b.end())));
            if (b.empty()) break;
            const auto keep = [&](container c) {
                out.push_back(b.has_subtype() ? Json::binary(std::move(c), b.subtype()) : Json::binary(std::move(c)));
            };
            keep(container());
            if (b.size() >= 2) keep(container(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(b.size() / 2)));
            keep(container(b.begin(), b.end() - 1));
            container zeros(b.size(), 0);
            if (zeros != container(b.begin(), b.end())) keep(std::move(zeros));
            break;
        }
        default: break;
    }
    return out;
}

/// Every value that differs from root by one node replaced with one of its node_candidates,
/// root first, then in pre-order. Calls visit(candidate) for each until it returns true;
/// returns whether one did.
template <class Json, class Visit>
bool for_each_value_candidate(const Json& root, Visit&& visit) {
    std::vector<typename Json::json_pointer> paths{typename Json::json_pointer()};
    for (std::size_t k = 0; k < paths.size(); ++k) {
        const Json& node = root.at(paths[k]);
        for (Json& replacement : node_candidates(node)) {
            Json candidate = root;
            candidate.at(paths[k]) = std::move(replacement);
            if (visit(candidate)) return true;
        }
        if (node.is_array()) {
            for (std::size_t i = 0; i < node.size(); ++i) paths.push_back(paths[k] / i);
        } else if (node.is_object()) {
            for (auto it = node.begin(); it != node.end(); ++it) paths.push_back(paths[k] / it.key());
        }
    }
    return false;
}

}  // namespace sinkcheck::testkit
