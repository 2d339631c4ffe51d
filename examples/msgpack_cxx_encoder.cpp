// msgpack-cxx's packer (msgpack_cxx_pack.hpp) as an encoder graded by the sinkcheck test kit.
#include <sinkcheck/conform/check_encoder.hpp>

#include "msgpack_cxx_pack.hpp"

struct msgpack_cxx {
    static constexpr const char* name = "msgpack-cxx";
    static constexpr const char* description = "msgpack-cxx " MSGPACK_VERSION " packer";
    static constexpr sinkcheck::format formats[] = {sinkcheck::format::msgpack};
    static std::vector<std::uint8_t> encode(sinkcheck::format, const nlohmann::json& j,
                                            const sinkcheck::encode_options&) {
        msgpack::sbuffer out;
        msgpack::packer<msgpack::sbuffer> packer(out);
        pack(packer, j);
        return {out.data(), out.data() + out.size()};
    }
    // what the fuzzer accepts as its own behaviour, not a difference from the reference
    static constexpr bool whole_floats_as_integers = true;
    static constexpr bool writes_invalid_utf8 = true;
};

SINKCHECK_ENCODER(msgpack_cxx);
