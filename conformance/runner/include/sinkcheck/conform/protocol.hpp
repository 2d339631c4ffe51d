// sinkcheck/conform/protocol.hpp — the encoder protocol's constants and frames (docs/conformance.md).
//
// Shared by the runner and by sinkcheck-encoder (the reference speaking the protocol), so both
// sides of every test use one definition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sinkcheck/options.hpp"

namespace sinkcheck::conform::protocol {

// Environment of every encoder process.
inline constexpr const char* env_mode = "SINKCHECK_MODE";            // "per-vector" or "batch"
inline constexpr const char* env_format = "SINKCHECK_FORMAT";        // cbor msgpack ubjson bjdata bson bon8
inline constexpr const char* env_use_size = "SINKCHECK_USE_SIZE";    // "0" or "1" (per-vector mode)
inline constexpr const char* env_use_type = "SINKCHECK_USE_TYPE";    // "0" or "1" (per-vector mode)
inline constexpr const char* env_vector_id = "SINKCHECK_VECTOR_ID";  // per-vector mode
inline constexpr const char* env_plain = "SINKCHECK_INPUT_PLAIN";    // "1": the input is RFC 8259 JSON
inline constexpr const char* env_notation = "SINKCHECK_NOTATION";    // "token" or "json": the input's notation

/// Per-vector mode: this exit status declares the vector unsupported (as in automake's SKIP).
inline constexpr int exit_unsupported = 77;
/// Per-vector mode: this exit status refuses the value (sysexits' EX_DATAERR). A refusal must
/// be deliberate: 1 is what Python, Java or Node exit with when an exception escapes, and an
/// encoder dying of an error must not be credited with refusing a value it should refuse.
inline constexpr int exit_refused = 65;

/// Batch mode answer frames: one status byte, the request's sequence number echoed (4 bytes,
/// big-endian), the payload's length (4 bytes, big-endian), the payload. The echo is what tells
/// an extra frame from the next answer: without it, one stray frame shifts every later answer
/// onto the wrong vector.
inline constexpr std::size_t answer_head = 9;
inline constexpr std::uint8_t status_encoded = 0;      // payload: the encoding
inline constexpr std::uint8_t status_refused = 1;      // payload: the reason (UTF-8)
inline constexpr std::uint8_t status_unsupported = 2;  // payload: the reason (UTF-8)

/// A batch request: "id=...\nseq=1\nformat=...\nuse_size=0\nuse_type=0\nplain=1\n\n" then the
/// value text, the whole framed by a 4-byte big-endian length. seq counts the requests to one
/// process from 1.
struct request {
    std::string id;
    std::uint32_t seq = 0;
    format fmt = format::cbor;
    bool use_size = false;
    bool use_type = false;
    bool plain = false;
    std::string value_text;
};

std::string encode_request(const request& r);
/// encode_request(r) appended to out: a window of requests is one string.
void append_request(std::string& out, const request& r);
/// An answer frame (status, r.seq echoed, length, payload).
std::string encode_answer(std::uint8_t status, std::uint32_t seq, const std::string& payload);
/// Parses a request payload (without its length prefix); false with message when malformed.
bool decode_request(std::string_view payload, request& r, std::string& message);

inline void put_u32(std::string& out, std::uint32_t n) {
    for (int i = 3; i >= 0; --i) out += static_cast<char>((n >> (8 * i)) & 0xff);
}
inline std::uint32_t get_u32(const unsigned char* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}

}  // namespace sinkcheck::conform::protocol
