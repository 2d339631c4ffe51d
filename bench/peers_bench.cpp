// bench/peers_bench.cpp — row 12: the reference encoder against the C and C++ encoders it sits
// beside, each writing the same format from the same documents (documents.hpp):
//
//   msgpack-cxx 4.1.3  msgpack::pack of a msgpack::object into a msgpack::sbuffer
//   libcbor 0.8        the streaming encoder (cbor_encode_*) into a caller's buffer
//   libbson 1.23       the bson_t appenders (bson_append_*), nested documents begun and ended
//
// Each library's input is made once, outside the timing: msgpack-cxx packs a msgpack::object
// tree built in a zone (strings point into the json); libcbor's and libbson's calls take plain
// values, so their side walks the json itself, as the reference does. A is the reference, so a
// ratio above 1 means the reference is faster. Every pair is run twice: into fresh output (a new
// vector / sbuffer / bson_t per call) and into output kept from call to call (a span over a
// buffer / a cleared sbuffer / a reinitialised bson_t; libcbor has only this setting). Before
// timing, each peer's bytes are compared with the reference's and the verdict is printed.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <bson/bson.h>
#include <cbor.h>
#include <msgpack.hpp>
#include <nlohmann/json.hpp>

#include "sinkcheck/detail/bytes.hpp"
#include "sinkcheck/encode.hpp"
#include "sinkcheck/sink/span_sink.hpp"
#include "sinkcheck/sink/vector_sink.hpp"

#include "documents.hpp"
#include "paired.hpp"

namespace sb = sinkcheck::bench;
using nlohmann::json;
using sinkcheck::format;

namespace {

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "bench_peers: %s\n", what.c_str());
    std::exit(1);
}

// ---------------------------------------------------------------------------------------------
// msgpack-cxx: the json as a msgpack::object tree, built once in a zone.

msgpack::object to_msgpack_object(const json& j, msgpack::zone& zone) {
    msgpack::object o;
    switch (j.type()) {
        case json::value_t::null:
        case json::value_t::discarded: o.type = msgpack::type::NIL; break;
        case json::value_t::boolean:
            o.type = msgpack::type::BOOLEAN;
            o.via.boolean = *j.get_ptr<const json::boolean_t*>();
            break;
        case json::value_t::number_unsigned:
            o.type = msgpack::type::POSITIVE_INTEGER;
            o.via.u64 = *j.get_ptr<const json::number_unsigned_t*>();
            break;
        case json::value_t::number_integer: {
            const std::int64_t i = *j.get_ptr<const json::number_integer_t*>();
            o.type = i >= 0 ? msgpack::type::POSITIVE_INTEGER : msgpack::type::NEGATIVE_INTEGER;
            o.via.i64 = i;
            break;
        }
        case json::value_t::number_float: {
            // float 32 where it is exact, as nlohmann 3.11.2 and the reference write it
            const double d = *j.get_ptr<const json::number_float_t*>();
            o.type = sinkcheck::detail::fits_float32(d) ? msgpack::type::FLOAT32 : msgpack::type::FLOAT64;
            o.via.f64 = d;
            break;
        }
        case json::value_t::string: {
            const auto& s = j.get_ref<const json::string_t&>();
            o.type = msgpack::type::STR;
            o.via.str.ptr = s.data();
            o.via.str.size = static_cast<std::uint32_t>(s.size());
            break;
        }
        case json::value_t::binary: {
            const auto& b = j.get_binary();
            o.type = msgpack::type::BIN;
            o.via.bin.ptr = reinterpret_cast<const char*>(b.data());
            o.via.bin.size = static_cast<std::uint32_t>(b.size());
            break;
        }
        case json::value_t::array: {
            const auto& a = j.get_ref<const json::array_t&>();
            auto* items = static_cast<msgpack::object*>(
                zone.allocate_align(sizeof(msgpack::object) * a.size(), alignof(msgpack::object)));
            for (std::size_t i = 0; i < a.size(); ++i) {
                items[i] = to_msgpack_object(a[i], zone);
            }
            o.type = msgpack::type::ARRAY;
            o.via.array.ptr = items;
            o.via.array.size = static_cast<std::uint32_t>(a.size());
            break;
        }
        case json::value_t::object: {
            const auto& m = j.get_ref<const json::object_t&>();
            auto* items = static_cast<msgpack::object_kv*>(
                zone.allocate_align(sizeof(msgpack::object_kv) * m.size(), alignof(msgpack::object_kv)));
            std::size_t i = 0;
            for (const auto& kv : m) {
                items[i].key.type = msgpack::type::STR;
                items[i].key.via.str.ptr = kv.first.data();
                items[i].key.via.str.size = static_cast<std::uint32_t>(kv.first.size());
                items[i].val = to_msgpack_object(kv.second, zone);
                ++i;
            }
            o.type = msgpack::type::MAP;
            o.via.map.ptr = items;
            o.via.map.size = static_cast<std::uint32_t>(m.size());
            break;
        }
    }
    return o;
}

// ---------------------------------------------------------------------------------------------
// libcbor: the streaming encoder, called from a walk of the json, into [out, end).

class cbor_stream {
public:
    cbor_stream(unsigned char* out, std::size_t size) : p_(out), end_(out + size) {}

    std::size_t written(const unsigned char* start) const { return static_cast<std::size_t>(p_ - start); }

    void value(const json& j) {
        switch (j.type()) {
            case json::value_t::null:
            case json::value_t::discarded: step(cbor_encode_null(p_, room())); return;
            case json::value_t::boolean:
                step(cbor_encode_bool(*j.get_ptr<const json::boolean_t*>(), p_, room()));
                return;
            case json::value_t::number_unsigned:
                step(cbor_encode_uint(*j.get_ptr<const json::number_unsigned_t*>(), p_, room()));
                return;
            case json::value_t::number_integer: {
                const std::int64_t i = *j.get_ptr<const json::number_integer_t*>();
                step(i >= 0 ? cbor_encode_uint(static_cast<std::uint64_t>(i), p_, room())
                            : cbor_encode_negint(static_cast<std::uint64_t>(-(i + 1)), p_, room()));
                return;
            }
            case json::value_t::number_float: {
                const double d = *j.get_ptr<const json::number_float_t*>();
                step(sinkcheck::detail::fits_float32(d) ? cbor_encode_single(static_cast<float>(d), p_, room())
                                                        : cbor_encode_double(d, p_, room()));
                return;
            }
            case json::value_t::string: text(j.get_ref<const json::string_t&>()); return;
            case json::value_t::binary: {
                const auto& b = j.get_binary();
                step(cbor_encode_bytestring_start(b.size(), p_, room()));
                bytes(b.data(), b.size());
                return;
            }
            case json::value_t::array: {
                const auto& a = j.get_ref<const json::array_t&>();
                step(cbor_encode_array_start(a.size(), p_, room()));
                for (const json& v : a) {
                    value(v);
                }
                return;
            }
            case json::value_t::object: {
                const auto& m = j.get_ref<const json::object_t&>();
                step(cbor_encode_map_start(m.size(), p_, room()));
                for (const auto& kv : m) {
                    text(kv.first);
                    value(kv.second);
                }
                return;
            }
        }
    }

private:
    std::size_t room() const { return static_cast<std::size_t>(end_ - p_); }
    void step(std::size_t n) {
        if (n == 0) {
            fail("libcbor: output buffer too small");
        }
        p_ += n;
    }
    void bytes(const void* data, std::size_t n) {
        if (n > room()) {
            fail("libcbor: output buffer too small");
        }
        std::memcpy(p_, data, n);
        p_ += n;
    }
    void text(const std::string& s) {
        step(cbor_encode_string_start(s.size(), p_, room()));
        bytes(s.data(), s.size());
    }

    unsigned char* p_;
    unsigned char* end_;
};

// ---------------------------------------------------------------------------------------------
// libbson: the appenders, called from a walk of the json.

void bson_member(bson_t* b, const char* key, int key_length, const json& v);

void bson_members(bson_t* b, const json& j) {
    if (j.is_object()) {
        for (const auto& kv : j.get_ref<const json::object_t&>()) {
            bson_member(b, kv.first.data(), static_cast<int>(kv.first.size()), kv.second);
        }
        return;
    }
    std::uint32_t index = 0;
    for (const json& v : j.get_ref<const json::array_t&>()) {
        char buf[16];
        const char* key = nullptr;
        const std::size_t n = bson_uint32_to_string(index++, &key, buf, sizeof buf);
        bson_member(b, key, static_cast<int>(n), v);
    }
}

void bson_member(bson_t* b, const char* key, int key_length, const json& v) {
    bool ok = true;
    switch (v.type()) {
        case json::value_t::null:
        case json::value_t::discarded: ok = bson_append_null(b, key, key_length); break;
        case json::value_t::boolean:
            ok = bson_append_bool(b, key, key_length, *v.get_ptr<const json::boolean_t*>());
            break;
        case json::value_t::number_integer: {
            const std::int64_t i = *v.get_ptr<const json::number_integer_t*>();
            ok = i >= INT32_MIN && i <= INT32_MAX ? bson_append_int32(b, key, key_length, static_cast<std::int32_t>(i))
                                                  : bson_append_int64(b, key, key_length, i);
            break;
        }
        case json::value_t::number_unsigned: {
            const std::uint64_t u = *v.get_ptr<const json::number_unsigned_t*>();
            ok = u <= INT32_MAX ? bson_append_int32(b, key, key_length, static_cast<std::int32_t>(u))
                                : bson_append_int64(b, key, key_length, static_cast<std::int64_t>(u));
            break;
        }
        case json::value_t::number_float:
            ok = bson_append_double(b, key, key_length, *v.get_ptr<const json::number_float_t*>());
            break;
        case json::value_t::string: {
            const auto& s = v.get_ref<const json::string_t&>();
            ok = bson_append_utf8(b, key, key_length, s.data(), static_cast<int>(s.size()));
            break;
        }
        case json::value_t::binary: {
            const auto& bin = v.get_binary();
            ok = bson_append_binary(b, key, key_length, BSON_SUBTYPE_BINARY, bin.data(),
                                    static_cast<std::uint32_t>(bin.size()));
            break;
        }
        case json::value_t::array:
        case json::value_t::object: {
            bson_t child;
            ok = v.is_object() ? bson_append_document_begin(b, key, key_length, &child)
                               : bson_append_array_begin(b, key, key_length, &child);
            if (ok) {
                bson_members(&child, v);
                ok = v.is_object() ? bson_append_document_end(b, &child) : bson_append_array_end(b, &child);
            }
            break;
        }
    }
    if (!ok) {
        fail(std::string("libbson: appending \"") + key + "\" failed");
    }
}

// ---------------------------------------------------------------------------------------------

std::vector<std::uint8_t> reference_bytes(format f, const json& j) {
    std::vector<std::uint8_t> v;
    {
        sinkcheck::vector_sink sink(v);
        sinkcheck::encode(f, j, sink);
    }
    return v;
}

std::size_t reference_fresh(format f, const json& j) {
    const std::vector<std::uint8_t> v = reference_bytes(f, j);
    sb::keep(v);
    return v.size();
}

/// One peer on one document: its calls into fresh output and into kept output (either may be
/// empty: that setting is not run), and what it wrote, to compare with the reference.
struct peer_side {
    std::string name;
    std::function<void()> fresh, kept;
    std::vector<std::uint8_t> bytes;
};

void run_pair(const sb::run_settings& s, format f, const sb::document& d, const json& j, const peer_side& peer) {
    const std::vector<std::uint8_t> ours = reference_bytes(f, j);
    const std::string base = std::string(sinkcheck::format_name(f)) + " " + d.name + ": reference vs " + peer.name;
    sb::emit_value(s, "12", base + ", bytes written (reference " + std::to_string(ours.size()) + ")",
                   std::to_string(peer.bytes.size()), "-", peer.bytes == ours ? "identical" : "different");
    const double n = static_cast<double>(ours.size());
    if (peer.fresh) {
        const auto r = sb::compare(
            base + ", fresh output", [&] { reference_fresh(f, j); }, peer.fresh, s.repetitions, s.min_seconds);
        sb::emit_ratio(s, "12", r, n, 1.0);
    }
    if (peer.kept) {
        std::vector<std::uint8_t> buffer(ours.size());
        const auto r = sb::compare(
            base + ", output reused",
            [&] {
                sinkcheck::span_sink sink(buffer.data(), buffer.size());
                sinkcheck::encode(f, j, sink);
                sb::keep(buffer);
            },
            peer.kept, s.repetitions, s.min_seconds);
        sb::emit_ratio(s, "12", r, n, 1.0);
    }
}

void msgpack_cxx(const sb::run_settings& s, const sb::document& d) {
    const json& j = d.input(false);
    msgpack::zone zone;
    const msgpack::object tree = to_msgpack_object(j, zone);
    msgpack::sbuffer kept;
    peer_side peer;
    peer.name = "msgpack-cxx pack into sbuffer";
    peer.fresh = [&tree] {
        msgpack::sbuffer out;
        msgpack::pack(out, tree);
        sb::keep(*out.data());
    };
    peer.kept = [&tree, &kept] {
        kept.clear();
        msgpack::pack(kept, tree);
        sb::keep(*kept.data());
    };
    msgpack::sbuffer out;
    msgpack::pack(out, tree);
    peer.bytes.assign(reinterpret_cast<const std::uint8_t*>(out.data()),
                      reinterpret_cast<const std::uint8_t*>(out.data()) + out.size());
    run_pair(s, format::msgpack, d, j, peer);
}

void libcbor(const sb::run_settings& s, const sb::document& d) {
    const json& j = d.input(false);
    std::vector<unsigned char> buffer(reference_bytes(format::cbor, j).size());
    peer_side peer;
    peer.name = "libcbor streaming encoder";
    peer.kept = [&] {
        cbor_stream out(buffer.data(), buffer.size());
        out.value(j);
        sb::keep(buffer);
    };
    cbor_stream out(buffer.data(), buffer.size());
    out.value(j);
    peer.bytes.assign(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(out.written(buffer.data())));
    run_pair(s, format::cbor, d, j, peer);
}

void libbson(const sb::run_settings& s, const sb::document& d) {
    const json& j = d.input(true);
    bson_t kept;
    bson_init(&kept);
    peer_side peer;
    peer.name = "libbson bson_t appenders";
    peer.fresh = [&j] {
        bson_t b;
        bson_init(&b);
        bson_members(&b, j);
        sb::keep(*bson_get_data(&b));
        bson_destroy(&b);
    };
    peer.kept = [&j, &kept] {
        bson_reinit(&kept);
        bson_members(&kept, j);
        sb::keep(*bson_get_data(&kept));
    };
    bson_t b;
    bson_init(&b);
    bson_members(&b, j);
    peer.bytes.assign(bson_get_data(&b), bson_get_data(&b) + b.len);
    bson_destroy(&b);
    run_pair(s, format::bson, d, j, peer);
    bson_destroy(&kept);
}

}  // namespace

int main(int argc, char** argv) {
    const sb::run_settings s = sb::parse_settings(argc, argv);
    if (!s.wants("12")) {
        return 0;
    }
    for (const sb::document& d : sb::encoder_documents()) {
        msgpack_cxx(s, d);
        libcbor(s, d);
        libbson(s, d);
    }
    return 0;
}
