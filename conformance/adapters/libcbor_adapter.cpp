// libcbor_adapter.cpp — libcbor 0.8 (Debian libcbor-dev) as a linked encoder, CBOR only.
//
// libcbor leaves every width to its caller (docs/formats.md#cbor), so this adapter is what a
// typical streaming caller writes: cbor_encode_uint / cbor_encode_negint (shortest heads),
// cbor_encode_double for every float, cbor_encode_tag for a binary subtype, definite lengths,
// keys in the value's (std::map) order. A discarded value has no libcbor counterpart.
#include <cbor.h>

#include <cstring>

#include "sinkcheck/conform/encoder.hpp"
#include "sinkcheck/detail/walk.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;
using frame = detail::frame<json>;

class writing {
public:
    std::vector<std::uint8_t> out;

    std::size_t position() const { return out.size(); }

    /// Runs one libcbor encode call into room at the end of out (a head is at most 9 bytes).
    template <class F>
    void head(F encode_fn) {
        const std::size_t at = out.size();
        out.resize(at + 16);
        const std::size_t n = encode_fn(out.data() + at, std::size_t{16});
        if (n == 0) throw std::runtime_error("libcbor wrote nothing");
        out.resize(at + n);
    }
    void bytes(const void* p, std::size_t n) {
        const auto* b = static_cast<const std::uint8_t*>(p);
        out.insert(out.end(), b, b + n);
    }

    void value(const json& j, frame*) {
        switch (j.type()) {
            case json::value_t::null:
                return head([](unsigned char* b, std::size_t n) { return cbor_encode_null(b, n); });
            case json::value_t::boolean: {
                const bool v = j.get<bool>();
                return head([v](unsigned char* b, std::size_t n) { return cbor_encode_bool(v, b, n); });
            }
            case json::value_t::number_unsigned: {
                const std::uint64_t v = j.get<std::uint64_t>();
                return head([v](unsigned char* b, std::size_t n) { return cbor_encode_uint(v, b, n); });
            }
            case json::value_t::number_integer: {
                const std::int64_t v = j.get<std::int64_t>();
                if (v >= 0)
                    return head([v](unsigned char* b, std::size_t n) {
                        return cbor_encode_uint(static_cast<std::uint64_t>(v), b, n);
                    });
                const auto arg = static_cast<std::uint64_t>(-1 - v);
                return head([arg](unsigned char* b, std::size_t n) { return cbor_encode_negint(arg, b, n); });
            }
            case json::value_t::number_float: {
                const double v = j.get<double>();
                return head([v](unsigned char* b, std::size_t n) { return cbor_encode_double(v, b, n); });
            }
            case json::value_t::string: {
                const auto& s = j.get_ref<const std::string&>();
                head([&s](unsigned char* b, std::size_t n) { return cbor_encode_string_start(s.size(), b, n); });
                return bytes(s.data(), s.size());
            }
            case json::value_t::binary: {
                const auto& bin = j.get_binary();
                if (bin.has_subtype()) {
                    const std::uint64_t tag = bin.subtype();
                    head([tag](unsigned char* b, std::size_t n) { return cbor_encode_tag(tag, b, n); });
                }
                head(
                    [&bin](unsigned char* b, std::size_t n) { return cbor_encode_bytestring_start(bin.size(), b, n); });
                return bytes(bin.data(), bin.size());
            }
            default: throw unsupported("a discarded value has no libcbor counterpart");
        }
    }
    bool open(const json& j, frame&, frame*) {
        const std::size_t size = j.size();
        if (j.is_array())
            head([size](unsigned char* b, std::size_t n) { return cbor_encode_array_start(size, b, n); });
        else
            head([size](unsigned char* b, std::size_t n) { return cbor_encode_map_start(size, b, n); });
        return true;
    }
    void member(frame& f, const json&) {
        if (f.key == nullptr) return;
        const std::string& k = *f.key;
        head([&k](unsigned char* b, std::size_t n) { return cbor_encode_string_start(k.size(), b, n); });
        bytes(k.data(), k.size());
    }
    void close(frame&) {}
};

class libcbor_encoder : public linked_encoder {
public:
    std::vector<std::uint8_t> encode(format, const json& value, const std::string&, const encode_options&) override {
        writing w;
        detail::walker<json> walk;
        walk.run(value, w);
        return std::move(w.out);
    }
};

const bool registered = [] {
    linked_encoder_info libcbor{"libcbor",
                                "libcbor " + std::to_string(CBOR_MAJOR_VERSION) + "." +
                                    std::to_string(CBOR_MINOR_VERSION) + "." + std::to_string(CBOR_PATCH_VERSION) +
                                    " streaming encoders",
                                {format::cbor},
                                [] { return std::make_unique<libcbor_encoder>(); }};
    // cbor_encode_string_start writes a head; the caller's bytes follow unchecked (libcbor
    // leaves text validity to its caller), so invalid UTF-8 goes out as it came.
    libcbor.declared.writes_invalid_utf8 = true;
    register_linked_encoder(std::move(libcbor));
    return true;
}();

}  // namespace
}  // namespace sinkcheck::conform
