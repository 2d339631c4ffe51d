// msgpack_cxx_pack.hpp — a MessagePack encoder of nlohmann::json values written with msgpack-cxx's
// packer, as a program holding these C++ types would write one: the library picks every width
// (pack(double) writes a whole double as an integer, docs/formats.md#messagepack). Binary and
// discarded values have no counterpart here and are declared unsupported, and so is nesting
// deeper than max_depth: pack() recurses, and the encoder fuzzer's deep values overflowed the
// stack (AddressSanitizer, stack-overflow inside pack_array) before this limit.
#pragma once
#define MSGPACK_NO_BOOST 1
#include <cstddef>
#include <cstdint>
#include <string>

#include <msgpack.hpp>
#include <nlohmann/json.hpp>
#include <sinkcheck/conform/encoder.hpp>

inline constexpr std::size_t max_depth = 4096;  // the corpus nests 1000 deep at most

inline void pack(msgpack::packer<msgpack::sbuffer>& p, const nlohmann::json& j, std::size_t depth = 0) {
    using value_t = nlohmann::json::value_t;
    if (depth > max_depth) throw sinkcheck::conform::unsupported("nesting deeper than 4096 levels (pack() recurses)");
    switch (j.type()) {
        case value_t::null: p.pack_nil(); return;
        case value_t::boolean: p.pack(j.get<bool>()); return;
        case value_t::number_unsigned: p.pack(j.get<std::uint64_t>()); return;
        case value_t::number_integer: p.pack(j.get<std::int64_t>()); return;
        case value_t::number_float:
            // msgpack-cxx 4.1.3 converts 2^64 to uint64_t here (undefined behaviour): not run
            if (j.get<double>() == 18446744073709551616.0) throw sinkcheck::conform::unsupported("2^64 as a double");
            p.pack(j.get<double>());
            return;
        case value_t::string: p.pack(j.get_ref<const std::string&>()); return;
        case value_t::array:
            p.pack_array(static_cast<std::uint32_t>(j.size()));
            for (const nlohmann::json& element : j) pack(p, element, depth + 1);
            return;
        case value_t::object:
            p.pack_map(static_cast<std::uint32_t>(j.size()));
            for (const auto& [key, value] : j.items()) {
                p.pack(key);
                pack(p, value, depth + 1);
            }
            return;
        default: throw sinkcheck::conform::unsupported("binary and discarded values are not packed here");
    }
}
