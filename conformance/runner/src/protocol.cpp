// protocol.cpp — the frames of the batch protocol (protocol.hpp) and the notations a value is sent
// in, as both the runner and an encoder written in C++ (serve.hpp) read and write them.
#include <cstdint>
#include <string>
#include <string_view>

#include "sinkcheck/conform/encoder.hpp"
#include "sinkcheck/conform/protocol.hpp"

namespace sinkcheck::conform {

const char* notation_name(wire_notation n) noexcept {
    switch (n) {
        case wire_notation::token: return "token";
        case wire_notation::json: return "json";
        case wire_notation::json_decimal: return "json-decimal";
    }
    return "?";
}

namespace protocol {

std::string encode_answer(std::uint8_t status, std::uint32_t seq, const std::string& payload) {
    std::string frame(1, static_cast<char>(status));
    put_u32(frame, seq);
    put_u32(frame, static_cast<std::uint32_t>(payload.size()));
    return frame + payload;
}

void append_request(std::string& out, const request& r) {
    const std::size_t length_at = out.size();
    put_u32(out, 0);  // the length, known at the end
    out += "id=";
    out += r.id;
    out += "\nseq=";
    out += std::to_string(r.seq);
    out += "\nformat=";
    out += format_name(r.fmt);
    out += r.use_size ? "\nuse_size=1" : "\nuse_size=0";
    out += r.use_type ? "\nuse_type=1" : "\nuse_type=0";
    out += r.plain ? "\nplain=1\n\n" : "\nplain=0\n\n";
    out += r.value_text;
    std::string length;
    put_u32(length, static_cast<std::uint32_t>(out.size() - length_at - 4));
    out.replace(length_at, 4, length);
}

std::string encode_request(const request& r) {
    std::string frame;
    append_request(frame, r);
    return frame;
}

bool decode_request(std::string_view payload, request& r, std::string& message) {
    const std::size_t split = payload.find("\n\n");
    if (split == std::string_view::npos) {
        message = "request without the blank line that ends its header";
        return false;
    }
    r = request();
    std::string_view head = payload.substr(0, split + 1);
    bool have_format = false;
    while (!head.empty()) {
        const std::size_t eol = head.find('\n');
        const std::string_view line = head.substr(0, eol);
        head.remove_prefix(eol + 1);
        const std::size_t eq = line.find('=');
        if (eq == std::string_view::npos) {
            message = "header line without '=': " + std::string(line);
            return false;
        }
        const std::string_view key = line.substr(0, eq);
        const std::string_view value = line.substr(eq + 1);
        if (key == "id") {
            r.id = std::string(value);
        } else if (key == "seq") {
            r.seq = static_cast<std::uint32_t>(std::strtoul(std::string(value).c_str(), nullptr, 10));
        } else if (key == "format") {
            const auto f = parse_format(value);
            if (!f) {
                message = "unknown format '" + std::string(value) + "'";
                return false;
            }
            r.fmt = *f;
            have_format = true;
        } else if (key == "use_size") {
            r.use_size = value == "1";
        } else if (key == "use_type") {
            r.use_type = value == "1";
        } else if (key == "plain") {
            r.plain = value == "1";
        }  // unknown keys are ignored: later protocol versions may add some
    }
    if (!have_format) {
        message = "request without format=";
        return false;
    }
    r.value_text = std::string(payload.substr(split + 2));
    return true;
}

}  // namespace protocol
}  // namespace sinkcheck::conform
