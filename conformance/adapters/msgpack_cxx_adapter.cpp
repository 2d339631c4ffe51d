// msgpack_cxx_adapter.cpp — msgpack-cxx 4.1.3 (Debian libmsgpack-cxx-dev) as a linked encoder.
//
// Packs the value the way a program holding these C++ types would: msgpack::packer over an
// sbuffer, pack(std::uint64_t / std::int64_t / double / std::string), pack_bin, pack_ext for a
// binary with a subtype, pack_array / pack_map with the keys in std::map order. The library
// decides every width (docs/formats.md#messagepack: pack_double writes whole doubles as integers).
// A subtype above 255 does not fit the int8 ext type and is refused here, as a careful caller
// would; a discarded value has no msgpack-cxx counterpart.
#define MSGPACK_NO_BOOST 1
#include <msgpack.hpp>

#include "sinkcheck/conform/encoder.hpp"
#include "sinkcheck/detail/walk.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;
using frame = detail::frame<json>;

class packing {
public:
    explicit packing(msgpack::packer<msgpack::sbuffer>& p) : p_(p) {}

    std::size_t position() const { return 0; }

    void value(const json& j, frame*) {
        switch (j.type()) {
            case json::value_t::null: p_.pack_nil(); return;
            case json::value_t::boolean: p_.pack(j.get<bool>()); return;
            case json::value_t::number_unsigned: p_.pack(j.get<std::uint64_t>()); return;
            case json::value_t::number_integer: p_.pack(j.get<std::int64_t>()); return;
            case json::value_t::number_float: {
                const double d = j.get<double>();
                // msgpack-cxx 4.1.3 pack_double (v1/pack.hpp:1165) bounds the conversion with
                // double(UINT64_MAX), which rounds up to 2^64, then converts 2^64 itself to
                // uint64_t: undefined behaviour (UBSan aborts). Not run, so the runner survives.
                if (d == 18446744073709551616.0) {
                    throw unsupported(
                        "msgpack-cxx 4.1.3 pack_double converts 2^64 to uint64_t (undefined behaviour, "
                        "v1/pack.hpp:1165)");
                }
                p_.pack(d);
                return;
            }
            case json::value_t::string: p_.pack(j.get_ref<const std::string&>()); return;
            case json::value_t::binary: {
                const auto& b = j.get_binary();
                const auto size = static_cast<std::uint32_t>(b.size());
                if (!b.has_subtype()) {
                    p_.pack_bin(size);
                    p_.pack_bin_body(reinterpret_cast<const char*>(b.data()), size);
                    return;
                }
                if (b.subtype() > 0xff)
                    throw std::out_of_range("subtype " + std::to_string(b.subtype()) +
                                            " does not fit the int8 ext type");
                p_.pack_ext(size, static_cast<std::int8_t>(static_cast<std::uint8_t>(b.subtype())));
                p_.pack_ext_body(reinterpret_cast<const char*>(b.data()), size);
                return;
            }
            default: throw unsupported("a discarded value has no msgpack-cxx counterpart");
        }
    }
    bool open(const json& j, frame&, frame*) {
        if (j.is_array())
            p_.pack_array(static_cast<std::uint32_t>(j.size()));
        else
            p_.pack_map(static_cast<std::uint32_t>(j.size()));
        return true;
    }
    void member(frame& f, const json&) {
        if (f.key != nullptr) p_.pack(*f.key);
    }
    void close(frame&) {}

private:
    msgpack::packer<msgpack::sbuffer>& p_;
};

class msgpack_cxx_encoder : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format, const json& value, const std::string&, const encode_options&) override {
        msgpack::sbuffer buffer;
        msgpack::packer<msgpack::sbuffer> packer(buffer);
        packing handler(packer);
        detail::walker<json> walk;
        walk.run(value, handler);
        return std::vector<std::uint8_t>(buffer.data(), buffer.data() + buffer.size());
    }
};

const bool registered = [] {
    linked_encoder_info packer{"msgpack-cxx", "msgpack-cxx " MSGPACK_VERSION " packer", {format::msgpack}, [] {
                                   return std::make_unique<msgpack_cxx_encoder>();
                               }};
    // pack_double writes a whole double as the shortest integer (docs/formats.md#messagepack),
    // and pack(std::string) copies the bytes as they are, valid UTF-8 or not.
    packer.declared.whole_floats_as_integers = true;
    packer.declared.writes_invalid_utf8 = true;
    register_linked_encoder(std::move(packer));
    return true;
}();

}  // namespace
}  // namespace sinkcheck::conform
