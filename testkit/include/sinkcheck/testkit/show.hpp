// sinkcheck/testkit/show.hpp — how a counterexample is printed.
//
// RapidCheck prints a failing case with operator<<, which for a basic_json is dump(): that
// throws on invalid UTF-8, prints NaN as null, hides which integer kind a number has and
// recurses. show_json() prints what matters to an encoder instead (5u unsigned, 5 signed,
// NaN bits, -0.0, raw invalid bytes as \xNN, binary with its subtype, <discarded>), without
// recursion, and abbreviates long strings and containers so a shrunk case stays readable.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <rapidcheck.h>
#include <nlohmann/json.hpp>

#include "generators.hpp"
#include "hex.hpp"
#include "sinkcheck/options.hpp"

namespace sinkcheck::testkit {

inline void show_bytes(const std::uint8_t* p, std::size_t n, std::ostream& os) {
    const std::size_t shown = n > 48 ? 32 : n;
    os << to_hex(p, shown);
    if (shown < n) {
        os << "...(" << n << " bytes)";
    }
}

inline std::string hex_of(const std::vector<std::uint8_t>& bytes) {
    std::ostringstream os;
    show_bytes(bytes.data(), bytes.size(), os);
    return os.str();
}

inline void show_double(double d, std::ostream& os) {
    if (std::isnan(d)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "NaN(0x%016llx)", static_cast<unsigned long long>(bits_of(d)));
        os << buf;
        return;
    }
    if (std::isinf(d)) {
        os << (d < 0 ? "-Infinity" : "Infinity");
        return;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    os << buf;
    if (std::strpbrk(buf, ".eE") == nullptr) {
        os << ".0";
    }
}

inline void show_string(const std::string& s, std::ostream& os) {
    const std::size_t shown = s.size() > 48 ? 32 : s.size();
    os << '"';
    for (std::size_t i = 0; i < shown; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            os << '\\' << s[i];
        } else if (c < 0x20 || c == 0x7F) {
            os << "\\u00" << sinkcheck::detail::hex_digit(c >> 4U) << sinkcheck::detail::hex_digit(c);
        } else if (c < 0x80) {
            os << s[i];
        } else {
            // bytes of a valid sequence print as themselves, anything else as \xNN
            std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            bool valid = len > 1 && c >= 0xC2 && c <= 0xF4 && i + len <= s.size();
            for (std::size_t k = 1; valid && k < len; ++k) {
                valid = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
            }
            if (valid) {
                os.write(s.data() + i, static_cast<std::streamsize>(len));
                i += len - 1;
            } else {
                os << "\\x" << sinkcheck::detail::hex_digit(c >> 4U) << sinkcheck::detail::hex_digit(c);
            }
        }
    }
    os << '"';
    if (shown < s.size()) {
        os << "...(" << s.size() << " bytes)";
    }
}

template <class Json>
void show_scalar(const Json& j, std::ostream& os) {
    switch (j.type()) {
        case Json::value_t::null: os << "null"; break;
        case Json::value_t::boolean: os << (j.template get<bool>() ? "true" : "false"); break;
        case Json::value_t::number_unsigned: os << j.template get<std::uint64_t>() << 'u'; break;
        case Json::value_t::number_integer: os << j.template get<std::int64_t>(); break;
        case Json::value_t::number_float: show_double(j.template get<double>(), os); break;
        case Json::value_t::string: show_string(j.template get_ref<const std::string&>(), os); break;
        case Json::value_t::binary: {
            const auto& b = j.get_binary();
            os << "b\"";
            show_bytes(b.data(), b.size(), os);
            os << '"';
            if (b.has_subtype()) {
                os << '#' << b.subtype();
            }
            break;
        }
        case Json::value_t::discarded: os << "<discarded>"; break;
        default: os << "<?>"; break;
    }
}

/// Prints j on one line; at most max_children children per container are shown.
template <class Json>
void show_json(const Json& j, std::ostream& os, std::size_t max_children = 24) {
    struct level {
        const Json* node;
        typename Json::const_iterator it;
        std::size_t index;
    };
    std::vector<level> stack;
    const Json* next = &j;
    for (;;) {
        if (next != nullptr) {
            if (next->is_array() || next->is_object()) {
                os << (next->is_array() ? '[' : '{');
                stack.push_back({next, next->cbegin(), 0});
            } else {
                show_scalar(*next, os);
            }
            next = nullptr;
        }
        if (stack.empty()) {
            return;
        }
        level& top = stack.back();
        if (top.it == top.node->cend() || top.index == max_children) {
            if (top.it != top.node->cend()) {
                os << ", ...(" << top.node->size() << " in all)";
            }
            os << (top.node->is_array() ? ']' : '}');
            stack.pop_back();
            continue;
        }
        if (top.index > 0) {
            os << ", ";
        }
        if (top.node->is_object()) {
            show_string(top.it.key(), os);
            os << ": ";
        }
        next = &*top.it;
        ++top.it;
        ++top.index;
    }
}

template <class Json>
std::string describe(const Json& j) {
    std::ostringstream os;
    show_json(j, os);
    return os.str();
}

inline void showValue(const write_op& op, std::ostream& os) {
    switch (op.what) {
        case write_op::kind::byte: os << "byte(" << static_cast<int>(op.salt) << ')'; break;
        case write_op::kind::block: os << "block(" << op.length << ')'; break;
        case write_op::kind::seek: os << "seek(" << op.target << ')'; break;
    }
}

inline void showValue(const write_program& prog, std::ostream& os) {
    os << '[';
    for (std::size_t i = 0; i < prog.ops.size(); ++i) {
        if (i > 0) {
            os << ", ";
        }
        if (i == prog.fault_at) {
            os << "FAULT>";
        }
        showValue(prog.ops[i], os);
    }
    os << ']';
    if (prog.fault_at < prog.ops.size()) {
        os << " fault at op " << prog.fault_at;
    }
}

}  // namespace sinkcheck::testkit

namespace sinkcheck {
inline void showValue(format f, std::ostream& os) { os << format_name(f); }
}  // namespace sinkcheck

// Short type names in counterexamples instead of demangled template names.
namespace rc {
template <>
struct ShowType<nlohmann::json> {
    static void showType(std::ostream& os) { os << "json"; }
};
template <>
struct ShowType<nlohmann::ordered_json> {
    static void showType(std::ostream& os) { os << "ordered_json"; }
};
template <>
struct ShowType<sinkcheck::format> {
    static void showType(std::ostream& os) { os << "format"; }
};
template <>
struct ShowType<sinkcheck::testkit::write_program> {
    static void showType(std::ostream& os) { os << "write program"; }
};
}  // namespace rc

// RapidCheck finds showValue by argument-dependent lookup; basic_json lives in nlohmann's
// (inline) ABI namespace, whose enclosing namespace nlohmann is searched as well.
namespace nlohmann {
inline void showValue(const json& j, std::ostream& os) { sinkcheck::testkit::show_json(j, os); }
inline void showValue(const ordered_json& j, std::ostream& os) { sinkcheck::testkit::show_json(j, os); }
}  // namespace nlohmann
