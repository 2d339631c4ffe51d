// decode_bson.cpp — the annotated BSON decoder (bsonspec.org 1.1).
#include "decoder_base.hpp"
#include "sinkcheck/testkit/hex.hpp"

namespace sinkcheck::conform::decoding {
namespace {

class bson_decoder : decoder_base {
public:
    using decoder_base::decoder_base;

    void run() {
        struct frame {
            bool array;
            std::size_t end;  // offset of the document's terminating NUL
        };
        std::vector<frame> stack;
        const std::size_t top_at = pos_;
        stack.push_back({false, document(n_, top_at, false)});
        open(true, top_at);
        enter(true);
        while (!stack.empty()) {
            frame& f = stack.back();
            if (pos_ == f.end) {
                ++pos_;
                note_end(f.end, "00 end of document");
                build_.close();
                stack.pop_back();
                leave();
                continue;
            }
            const std::size_t at = pos_;
            const std::size_t limit = f.end;  // f dangles once a nested document is pushed
            const std::uint8_t type = byte();
            const std::string key = cstring(limit);
            if (!f.array) {
                member_key(key);
                build_.key(key);
            }
            const std::string label = "\"" + key + "\": ";
            switch (type) {
                case 0x01: {
                    const double d = double_from_bits(le(8));
                    note(at, label + "double " + float_text(d));
                    scalar(json(d), at);
                    break;
                }
                case 0x02: {
                    const std::uint64_t len = le(4);
                    if (len < 1 || pos_ > limit || len > limit - pos_)
                        fail(at, "string length " + std::to_string(static_cast<std::int32_t>(len)) +
                                     " does not fit the document");
                    std::string s = text(static_cast<std::size_t>(len - 1), at);
                    if (byte() != 0) fail(pos_ - 1, "string not terminated by NUL");
                    note(at, label + "string (" + std::to_string(len - 1) + ") " + shown(s));
                    scalar(json(std::move(s)), at);
                    break;
                }
                case 0x03:
                case 0x04: {
                    const std::size_t end = document(limit, at, type == 0x04);
                    open(type == 0x03, at);
                    enter(type == 0x03);
                    stack.push_back({type == 0x04, end});
                    break;
                }
                case 0x05: {
                    const std::uint64_t len = le(4);
                    if (pos_ > limit || len > limit - pos_) fail(at, "binary length does not fit the document");
                    const std::uint8_t sub = byte();
                    auto v = raw(static_cast<std::size_t>(len));
                    note(at, label + "binary (" + std::to_string(len) + ") subtype " + std::to_string(sub) + " " +
                                 hex_preview(v.data(), v.size()));
                    scalar(json::binary(std::move(v), sub), at);
                    break;
                }
                case 0x08: {
                    const std::uint8_t b = byte();
                    if (b > 1) fail(at, "boolean byte must be 0 or 1");
                    note(at, label + (b ? "true" : "false"));
                    scalar(json(b == 1), at);
                    break;
                }
                case 0x0a:
                    note(at, label + "null");
                    scalar(json(nullptr), at);
                    break;
                case 0x10: {
                    const auto v = static_cast<std::int32_t>(le(4));
                    note(at, label + "int32 " + std::to_string(v));
                    if (v >= 0)
                        scalar(json(static_cast<std::uint64_t>(v)), at);
                    else
                        scalar(json(static_cast<std::int64_t>(v)), at);
                    break;
                }
                case 0x12: {
                    const std::uint64_t u = le(8);
                    std::int64_t v;
                    std::memcpy(&v, &u, 8);
                    note(at, label + "int64 " + std::to_string(v));
                    if (v >= 0)
                        scalar(json(static_cast<std::uint64_t>(v)), at);
                    else
                        scalar(json(v), at);
                    break;
                }
                default: fail(at, "element type 0x" + testkit::to_hex(&type, 1) + " has no JSON-model value");
            }
            if (pos_ > limit) fail(at, "element overruns its document");
        }
        finish();
    }

private:
    /// Reads a document's size; returns the offset of its final NUL.
    std::size_t document(std::size_t limit, std::size_t at, bool array) {
        const std::size_t start = pos_;
        const std::uint64_t size = le(4);
        if (size < 5 || start > limit || size > limit - start) {
            fail(start, "document size " + std::to_string(static_cast<std::int32_t>(size)) + " does not fit the " +
                            std::to_string(limit - start) + " bytes available");
        }
        const std::size_t end = start + static_cast<std::size_t>(size) - 1;
        if (p_[end] != 0) fail(end, "a document must end with 00");
        note(at, std::string(array ? "array document (" : "document (") + std::to_string(size) + " bytes)");
        return end;
    }

    std::string cstring(std::size_t limit) {
        const std::size_t at = pos_;
        while (pos_ < limit && p_[pos_] != 0) ++pos_;
        if (pos_ >= limit) fail(at, "element name not terminated inside the document");
        std::string s(reinterpret_cast<const char*>(p_ + at), pos_ - at);
        ++pos_;
        if (detail::utf8_invalid_at(s.data(), s.size()) != detail::utf8_valid)
            fail(at, "element name is not valid UTF-8");
        return s;
    }
};

}  // namespace

void decode_annotated_bson(const std::uint8_t* p, std::size_t n, const decode_limits& limits, decoded& out) {
    bson_decoder(p, n, limits, out).run();
}

}  // namespace sinkcheck::conform::decoding
