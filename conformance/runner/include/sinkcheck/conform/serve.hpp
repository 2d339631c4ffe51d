// sinkcheck/conform/serve.hpp — the encoder side of the protocol, for C++ encoder programs.
//
// serve() reads requests (per-vector: the environment and stdin; batch: length-prefixed frames)
// and writes answers (per-vector: stdout and the exit status; batch: answer frames), so an
// encoder program is one function. sinkcheck-encoder serves the reference encoders with it;
// the harness self-test serves deliberately broken ones.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sinkcheck/conform/protocol.hpp"

namespace sinkcheck::conform {

struct served {
    enum class kind { encoded, refused, unsupported };
    kind what = kind::encoded;
    std::vector<std::uint8_t> bytes;
    std::string message;
};

using serve_function = std::function<served(const protocol::request&)>;

/// The batch answer's status byte and payload for s.
std::uint8_t answer_status(const served& s);
std::string answer_payload(const served& s);

/// Runs the protocol on stdin/stdout in the mode SINKCHECK_MODE names (per-vector when unset);
/// returns the exit status for main.
int serve(const serve_function& encode);

/// The reference encoders of sinkcheck (encode.hpp) as a serve_function.
served serve_reference(const protocol::request& r);

}  // namespace sinkcheck::conform
