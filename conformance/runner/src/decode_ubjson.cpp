// decode_ubjson.cpp — the annotated UBJSON (Draft 12, big-endian) and BJData (Draft 2,
// little-endian) decoder: one decoder, the byte order and BJData's extra markers chosen by a flag.
#include <cstdio>

#include "decoder_base.hpp"

namespace sinkcheck::conform::decoding {
namespace {

class ubjson_decoder : decoder_base {
public:
    ubjson_decoder(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out, bool bjdata)
        : decoder_base(p, n, limits, out), bj_(bjdata) {}

    void run() {
        struct frame {
            bool object;
            std::uint64_t remaining;  // unknown_count: ended by ']' / '}'
            std::uint8_t type;        // 0: every value has its marker
            bool want_key;
        };
        std::vector<frame> stack;
        bool done = false;
        while (!done) {
            std::uint8_t type = 0;
            if (!stack.empty()) {
                frame& f = stack.back();
                if (f.remaining == unknown_count) {
                    skip_noops();
                    const std::uint8_t end = f.object ? '}' : ']';
                    if ((!f.object || f.want_key) && peek() == end) {
                        const std::size_t at = pos_++;
                        note_end(at, std::string(1, static_cast<char>(end)) + " end");
                        f.remaining = 0;
                    }
                }
                if (f.remaining == 0) {
                    done = close_innermost(stack);
                    continue;
                }
                if (f.object && f.want_key) {
                    const std::size_t at = pos_;
                    const std::uint64_t len = length(at);
                    std::string k = text(static_cast<std::size_t>(len), at);
                    note_key(at, "key (" + std::to_string(len) + ") " + shown(k), k);
                    build_.key(std::move(k));
                    f.want_key = false;
                    continue;
                }
                if (f.remaining != unknown_count) --f.remaining;
                if (f.object) f.want_key = true;
                type = f.type;
            }
            const std::size_t at = pos_;
            std::uint8_t marker = type;
            if (marker == 0) {
                skip_noops();
                marker = byte();
            }
            if (marker == '[' || marker == '{') {
                std::uint8_t t = 0;
                std::uint64_t count = unknown_count;
                bool nd = false;
                header(marker == '{', t, count, nd, at);
                if (nd) {
                    done = stack.empty();
                    continue;
                }
                open(marker == '{', at);
                enter(marker == '{');
                stack.push_back({marker == '{', count, t, marker == '{'});
                continue;
            }
            value(marker, at, type != 0);
            done = stack.empty();
        }
        finish();
    }

private:
    void skip_noops() {
        while (pos_ < n_ && p_[pos_] == 'N') {
            note_filler(pos_, "N no-op");
            ++pos_;
        }
    }

    /// After '[' or '{': optional '$' type (then '#' is required), optional '#' count; BJData
    /// '#[' dimensions make an ND-array, decoded whole here.
    void header(bool object, std::uint8_t& type, std::uint64_t& count, bool& nd, std::size_t at) {
        std::string t = object ? "{ object" : "[ array";
        if (pos_ < n_ && p_[pos_] == '$') {
            ++pos_;
            type = byte();
            if (bj_ && (type == 'S' || type == 'H' || type == 'T' || type == 'F' || type == 'N' || type == 'Z' ||
                        type == '[' || type == '{')) {
                fail(pos_ - 1, std::string("BJData allows only fixed-size types after '$', not '") +
                                   static_cast<char>(type) + "'");
            }
            t += std::string(" $") + static_cast<char>(type);
            if (pos_ >= n_ || p_[pos_] != '#') fail(pos_, "'$' type must be followed by a '#' count");
        }
        if (pos_ < n_ && p_[pos_] == '#') {
            ++pos_;
            if (bj_ && pos_ < n_ && p_[pos_] == '[') {
                if (type == 0 || object) fail(pos_, "ND-array dimensions need an array with a '$' type");
                nd_array(type, at);
                nd = true;
                return;
            }
            count = length(pos_);
            std::size_t min = 1;
            if (type != 0) min = payload_size(type);
            if (object) min += 1;
            check_count(count, min, at);
            t += " #" + std::to_string(count);
        }
        note(at, t);
    }

    std::size_t payload_size(std::uint8_t type) const {
        switch (type) {
            case 'Z':
            case 'T':
            case 'F':
            case 'N': return 0;
            case 'i':
            case 'U':
            case 'C': return 1;
            case 'I':
            case 'u':
            case 'h': return 2;
            case 'l':
            case 'm':
            case 'd': return 4;
            case 'L':
            case 'M':
            case 'D': return 8;
            default: return 1;
        }
    }

    void nd_array(std::uint8_t type, std::size_t at) {
        // Dimensions: an array of integers (itself possibly optimized), decoded without a builder.
        const std::size_t dims_at = pos_;
        ++pos_;
        std::uint8_t dt = 0;
        std::uint64_t dn = unknown_count;
        if (pos_ < n_ && p_[pos_] == '$') {
            ++pos_;
            dt = byte();
            if (byte() != '#') fail(pos_ - 1, "'$' type must be followed by a '#' count");
            dn = length(pos_);
        } else if (pos_ < n_ && p_[pos_] == '#') {
            ++pos_;
            dn = length(pos_);
        }
        std::vector<std::uint64_t> dims;
        for (;;) {
            if (dn == unknown_count) {
                if (peek() == ']') {
                    ++pos_;
                    break;
                }
            } else if (dims.size() == dn) {
                break;
            }
            if (dims.size() > 64) fail(pos_, "more than 64 ND-array dimensions");
            const std::size_t v_at = pos_;
            const std::uint8_t m = dt != 0 ? dt : byte();
            std::int64_t d = 0;
            if (!integer(m, d) || d < 0) fail(v_at, "an ND-array dimension must be a non-negative integer");
            dims.push_back(static_cast<std::uint64_t>(d));
        }
        std::uint64_t total = 1;
        for (std::uint64_t d : dims) {
            if (d != 0 && total > unknown_count / d) fail(dims_at, "ND-array size overflows");
            total *= d;
        }
        if (dims.empty()) total = 0;
        check_count(total, payload_size(type), at);
        std::string shape;
        for (std::uint64_t d : dims) shape += (shape.empty() ? "" : "x") + std::to_string(d);
        note(at, std::string("[ ND-array $") + static_cast<char>(type) + " #[" + shape + "]");
        // As nlohmann 3.11.2 reads it: a row vector (one dimension, or 1xN) or an empty one is a
        // plain array; anything else the annotated _ArrayType_/_ArraySize_/_ArrayData_ object.
        if (total == 0 || dims.size() == 1 || (dims.size() == 2 && dims[0] == 1)) {
            open(false, at);
            enter(false);
            for (std::uint64_t k = 0; k < total; ++k) value(type, pos_, true);
            leave();
            build_.close();
            return;
        }
        static const std::pair<char, const char*> names[] = {
            {'U', "uint8"},  {'i', "int8"},  {'u', "uint16"}, {'I', "int16"},  {'m', "uint32"}, {'l', "int32"},
            {'M', "uint64"}, {'L', "int64"}, {'d', "single"}, {'D', "double"}, {'C', "char"}};
        const char* name = nullptr;
        for (const auto& nm : names) {
            if (nm.first == static_cast<char>(type)) name = nm.second;
        }
        if (name == nullptr) fail(at, std::string("no ND-array type for '") + static_cast<char>(type) + "'");
        open(true, at);
        build_.key("_ArrayType_");
        scalar(json(name), at);
        build_.key("_ArraySize_");
        open(false, at);
        for (std::uint64_t d : dims) scalar(json(d), at);
        build_.close();
        build_.key("_ArrayData_");
        open(false, at);
        enter(false);
        for (std::uint64_t k = 0; k < total; ++k) value(type == 'C' ? 'U' : type, pos_, true);
        leave();
        build_.close();
        build_.close();
    }

    std::uint64_t fixed(std::size_t k) { return bj_ ? le(k) : be(k); }

    /// Reads the integer payload of marker m; false when m is not an integer marker.
    bool integer(std::uint8_t m, std::int64_t& out) {
        switch (m) {
            case 'i':
                // NOLINTNEXTLINE(bugprone-signed-char-misuse): the sign extension is the point
                out = static_cast<std::int8_t>(fixed(1));
                return true;
            case 'U': out = static_cast<std::int64_t>(fixed(1)); return true;
            case 'I': out = static_cast<std::int16_t>(fixed(2)); return true;
            case 'l': out = static_cast<std::int32_t>(fixed(4)); return true;
            case 'L': {
                const std::uint64_t u = fixed(8);
                std::memcpy(&out, &u, 8);
                return true;
            }
            case 'u':
                if (!bj_) return false;
                out = static_cast<std::int64_t>(fixed(2));
                return true;
            case 'm':
                if (!bj_) return false;
                out = static_cast<std::int64_t>(fixed(4));
                return true;
            default: return false;
        }
    }

    /// A length or count: an integer with its own marker, never negative.
    std::uint64_t length(std::size_t at) {
        const std::uint8_t m = byte();
        if (bj_ && m == 'M') return fixed(8);
        std::int64_t v = 0;
        if (!integer(m, v)) fail(at, std::string("a length needs an integer marker, found '") + printable(m) + "'");
        if (v < 0) fail(at, "negative length " + std::to_string(v));
        return static_cast<std::uint64_t>(v);
    }

    static std::string printable(std::uint8_t m) {
        if (m >= 0x20 && m < 0x7f) return std::string(1, static_cast<char>(m));
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", m);
        return buf;
    }

    void value(std::uint8_t m, std::size_t at, bool typed) {
        const std::string prefix = typed ? std::string("($") + static_cast<char>(m) + ") " : std::string();
        std::int64_t v = 0;
        if (integer(m, v)) {
            note(at, prefix + static_cast<char>(m) + " " + std::to_string(v));
            if (v >= 0) return scalar(json(static_cast<std::uint64_t>(v)), at);
            return scalar(json(v), at);
        }
        switch (m) {
            case 'Z': note(at, prefix + "Z null"); return scalar(json(nullptr), at);
            case 'T': note(at, prefix + "T true"); return scalar(json(true), at);
            case 'F': note(at, prefix + "F false"); return scalar(json(false), at);
            case 'M':
                if (bj_) {
                    const std::uint64_t u = fixed(8);
                    note(at, prefix + "M " + std::to_string(u));
                    return scalar(json(u), at);
                }
                break;
            case 'd': return floating(float_from_bits(static_cast<std::uint32_t>(fixed(4))), at, prefix + "d float32");
            case 'D': return floating(double_from_bits(fixed(8)), at, prefix + "D float64");
            case 'h':
                if (bj_)
                    return floating(half_to_double(static_cast<std::uint16_t>(fixed(2))), at, prefix + "h float16");
                break;
            case 'C': {
                const std::uint8_t c = byte();
                if (c > 0x7f) fail(at, "a char 'C' must be ASCII");
                note(at, prefix + "C '" + printable(c) + "'");
                return scalar(json(std::string(1, static_cast<char>(c))), at);
            }
            case 'S': {
                const std::uint64_t len = length(pos_);
                std::string s = text(static_cast<std::size_t>(len), at);
                note(at, prefix + "S (" + std::to_string(len) + ") " + shown(s));
                return scalar(json(std::move(s)), at);
            }
            case 'H': {
                const std::uint64_t len = length(pos_);
                std::string s = text(static_cast<std::size_t>(len), at);
                json number;
                try {
                    parse_limits lim;
                    lim.allow_repeat = false;
                    number = parse_value(s, lim).value;
                } catch (const notation_error&) {}
                if (!number.is_number()) fail(at, "high-precision 'H' is not a JSON number: " + shown(s));
                note(at, prefix + "H (" + std::to_string(len) + ") " + s);
                return scalar(std::move(number), at);
            }
            default: break;
        }
        fail(at, "unknown marker '" + printable(m) + "'");
    }

    bool bj_;
};

}  // namespace

void decode_annotated_ubjson(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out,
                             bool bjdata) {
    ubjson_decoder(p, n, limits, out, bjdata).run();
}

}  // namespace sinkcheck::conform::decoding
