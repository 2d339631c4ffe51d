// The encoder side of the protocol (serve.hpp, docs/conformance.md).
#include "sinkcheck/conform/serve.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/encode.hpp"

namespace sinkcheck::conform {
namespace {

/// Bytes asked of each read() in batch mode.
constexpr std::size_t read_chunk = 65536;

bool write_all(int fd, const char* p, std::size_t n) {
    while (n > 0) {
        const ssize_t k = ::write(fd, p, n);
        if (k > 0) {
            p += k;
            n -= static_cast<std::size_t>(k);
        } else if (k < 0 && errno != EINTR) {
            return false;
        }
    }
    return true;
}

bool env_flag(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && std::strcmp(v, "1") == 0;
}

/// Batch mode. Requests are read in large chunks and the answers collected, then written in
/// one go before the next read that could block: a runner that pipelines its requests gets
/// one read and one write per window instead of three system calls per value, and a runner
/// that sends one request at a time still gets each answer before the encoder waits.
int serve_batch(const serve_function& encode) {
    std::string in;  // bytes read, from `at` on not yet served
    std::size_t at = 0;
    std::string answers;  // answer frames not yet written
    bool eof = false;
    for (;;) {
        if (in.size() - at >= 4) {
            const std::uint32_t n = protocol::get_u32(reinterpret_cast<const unsigned char*>(in.data() + at));
            if (in.size() - at - 4 >= n) {
                protocol::request r;
                std::string message;
                served s;
                if (!protocol::decode_request(std::string_view(in).substr(at + 4, n), r, message)) {
                    s.what = served::kind::refused;
                    s.message = "malformed request: " + message;
                } else {
                    s = encode(r);
                }
                // the answer frame (encode_answer's), written in place: no copy of the payload
                answers += static_cast<char>(answer_status(s));
                protocol::put_u32(answers, r.seq);
                if (s.what == served::kind::encoded) {
                    protocol::put_u32(answers, static_cast<std::uint32_t>(s.bytes.size()));
                    answers.append(reinterpret_cast<const char*>(s.bytes.data()), s.bytes.size());
                } else {
                    protocol::put_u32(answers, static_cast<std::uint32_t>(s.message.size()));
                    answers += s.message;
                }
                at += 4 + std::size_t{n};
                continue;
            }
        }
        // No whole request left: answer what was asked before waiting for more.
        if (!answers.empty()) {
            if (!write_all(1, answers.data(), answers.size())) return 2;
            answers.clear();
        }
        if (eof) {
            if (at == in.size()) return 0;
            std::fputs("sinkcheck-encoder: truncated request frame\n", stderr);
            return 2;
        }
        in.erase(0, at);
        at = 0;
        char chunk[read_chunk];
        const ssize_t k = ::read(0, chunk, sizeof chunk);
        if (k > 0) in.append(chunk, static_cast<std::size_t>(k));
        if (k == 0) eof = true;
        if (k < 0 && errno != EINTR) return 2;
    }
}

int serve_one(const serve_function& encode) {
    protocol::request r;
    const char* f = std::getenv(protocol::env_format);
    const auto fmt = f != nullptr ? parse_format(f) : std::nullopt;
    if (!fmt) {
        std::fprintf(stderr, "sinkcheck-encoder: %s must name a format\n", protocol::env_format);
        return 2;
    }
    r.fmt = *fmt;
    r.use_size = env_flag(protocol::env_use_size);
    r.use_type = env_flag(protocol::env_use_type);
    r.plain = env_flag(protocol::env_plain);
    if (const char* id = std::getenv(protocol::env_vector_id)) r.id = id;
    char buf[65536];
    for (;;) {
        const ssize_t k = ::read(0, buf, sizeof buf);
        if (k > 0)
            r.value_text.append(buf, static_cast<std::size_t>(k));
        else if (k == 0 || errno != EINTR)
            break;
    }
    const served s = encode(r);
    switch (s.what) {
        case served::kind::encoded:
            return write_all(1, reinterpret_cast<const char*>(s.bytes.data()), s.bytes.size()) ? 0 : 2;
        case served::kind::refused: std::fprintf(stderr, "%s\n", s.message.c_str()); return protocol::exit_refused;
        case served::kind::unsupported:
            std::fprintf(stderr, "%s\n", s.message.c_str());
            return protocol::exit_unsupported;
    }
    return 2;
}

}  // namespace

std::uint8_t answer_status(const served& s) {
    switch (s.what) {
        case served::kind::encoded: return protocol::status_encoded;
        case served::kind::refused: return protocol::status_refused;
        case served::kind::unsupported: return protocol::status_unsupported;
    }
    return protocol::status_refused;
}

std::string answer_payload(const served& s) {
    return s.what == served::kind::encoded ? std::string(s.bytes.begin(), s.bytes.end()) : s.message;
}

int serve(const serve_function& encode) {
    const char* mode = std::getenv(protocol::env_mode);
    if (mode != nullptr && std::strcmp(mode, "batch") == 0) return serve_batch(encode);
    return serve_one(encode);
}

served serve_reference(const protocol::request& r) {
    served s;
    parse_limits limits;
    limits.allow_repeat = false;
    limits.want_wire = false;
    nlohmann::json value;
    const char* notation = std::getenv(protocol::env_notation);
    try {
        if (notation != nullptr && std::strcmp(notation, "json") == 0) {
            value = parse_value(from_json_notation(nlohmann::json::parse(r.value_text)), limits).value;
        } else {
            value = parse_value(r.value_text, limits).value;
        }
    } catch (const notation_error& e) {
        s.what = served::kind::refused;
        s.message = "input byte " + std::to_string(e.offset()) + ": " + e.what();
        return s;
    } catch (const nlohmann::json::exception& e) {
        s.what = served::kind::refused;
        s.message = std::string("input: ") + e.what();
        return s;
    }
    encode_options o;
    o.use_size = r.use_size;
    o.use_type = r.use_type;
    try {
        s.bytes = encode_to_vector(r.fmt, value, o);
    } catch (const encode_error& e) {
        s.what = served::kind::refused;
        s.message = e.what();
    } catch (const std::invalid_argument& e) {
        // Options the reference refuses before looking at the value (use_type without use_size).
        s.what = served::kind::refused;
        s.message = std::string("invalid_argument: ") + e.what();
    }
    return s;
}

}  // namespace sinkcheck::conform
