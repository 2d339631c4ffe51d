// Qt 5's QCborStreamWriter as a sinkcheck conformance encoder, in batch (or per-vector) mode,
// reading the JSON notation:
//
//   g++ -std=c++17 -O2 -fPIC qt_cbor_encoder.cpp $(pkg-config --cflags --libs Qt5Core) -o qt_cbor_encoder
//   sinkcheck conform --format cbor --level equivalent --mode batch --notation json --encoder ./qt_cbor_encoder
//
// (scripts/lib/encoders.sh, build_qt_encoder, builds it so.) Every item is written with the
// stream writer's own calls, as a Qt program that streams CBOR writes it: startArray(n) and
// startMap(n) with the count, endArray()/endMap(); append(qint64) for integers that fit it,
// append(quint64) for the larger non-negative ones, append(QCborNegativeInteger) for -2^63-1 ..
// -2^64; append(double) for every double (it always writes binary64: the writer leaves the
// choice of a narrower float, qfloat16 or float, to its caller); append(bool), append(nullptr);
// append(QCborTag) in front of append(QByteArray) for a binary subtype; text through
// append(QLatin1String) when every code point is at most U+00FF (the writer converts Latin-1
// to UTF-8 itself) and through append(QStringView) of a QString otherwise. QCborValue, the
// same library's value type with its own toCbor(), is a different API and is not graded here.
// No value here needs append(QCborSimpleType) beyond false, true and null.
//
// What a Qt program cannot hand the writer is declared unsupported: the discarded value (Qt has
// none) and text whose bytes are no sequence of code points (an invalid byte, an overlong or
// truncated form, a surrogate pair spelled as two three-byte sequences, which a QString cannot
// tell from the character the pair makes). A lone surrogate can sit in a QString as one UTF-16
// unit, so it reaches the writer. Integers beyond 64 bits have no call of their own: they are
// written as RFC 8949 §3.4.3 bignums, tag 2 or 3 through append(QCborKnownTags) in front of the
// magnitude's bytes, as the Qt documentation of QCborKnownTags::PositiveBignum describes. The
// writer has no error path, so nothing is refused.
#include <QtCore/QByteArray>
#include <QtCore/QCborStreamWriter>
#include <QtCore/QString>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "qt_text.hpp"
#include "sinkcheck_protocol.hpp"

namespace {

using sinkcheck_protocol::value;

// Text as a Qt program holds it (qt_text.hpp); bytes no QString holds are unsupported.
void append_text(QCborStreamWriter& w, const std::string& bytes, const char* what, const std::string& at) {
    std::size_t bad = 0;
    const std::optional<std::u32string> text = qt_text::code_points(bytes, bad);
    if (!text)
        throw sinkcheck_protocol::unsupported(std::string(what) + " at \"" + at + "\" is not UTF-8 from byte " +
                                              std::to_string(bad) + ": no QString holds it");
    qt_text::append(w, *text);
}

// The big-endian bytes of a decimal magnitude, no leading zero byte.
std::string magnitude_bytes(std::string digits) {
    std::string out;
    while (digits != "0") {
        std::string quotient;
        unsigned rest = 0;
        for (char d : digits) {
            rest = rest * 10 + unsigned(d - '0');
            if (!quotient.empty() || rest >= 256) quotient += char('0' + rest / 256);
            rest %= 256;
        }
        out.insert(out.begin(), char(rest));
        digits = quotient.empty() ? "0" : quotient;
    }
    return out;
}

bool fits(const std::string& digits, const char* limit) {
    const std::size_t n = std::char_traits<char>::length(limit);
    return digits.size() < n || (digits.size() == n && digits <= limit);
}

void append_integer(QCborStreamWriter& w, const value& v) {
    if (!v.negative && fits(v.magnitude, "9223372036854775807")) {
        w.append(qint64(std::stoll(v.magnitude)));
    } else if (!v.negative && fits(v.magnitude, "18446744073709551615")) {
        w.append(quint64(std::stoull(v.magnitude)));
    } else if (v.negative && fits(v.magnitude, "9223372036854775808")) {
        // -2^63 itself: its magnitude does not fit qint64, its value does.
        const quint64 m = std::stoull(v.magnitude);
        w.append(qint64(-static_cast<qint64>(m - 1) - 1));
    } else if (v.negative && fits(v.magnitude, "18446744073709551616")) {
        // QCborNegativeInteger holds the magnitude; 0 stands for 2^64 (Qt's documentation).
        const quint64 m = v.magnitude == "18446744073709551616" ? 0 : std::stoull(v.magnitude);
        w.append(QCborNegativeInteger(m));
    } else {
        // RFC 8949 §3.4.3: tag 2 over n, tag 3 over -1-n, both as big-endian byte strings.
        std::string bytes = magnitude_bytes(v.magnitude);
        if (v.negative) {
            std::size_t k = bytes.size();
            while (k > 0 && bytes[k - 1] == '\0') bytes[--k] = char(0xFF);
            --bytes[k - 1];
            if (bytes[0] == '\0') bytes.erase(0, 1);
        }
        w.append(v.negative ? QCborKnownTags::NegativeBignum : QCborKnownTags::PositiveBignum);
        w.append(QByteArray(bytes.data(), int(bytes.size())));
    }
}

// A key as a JSON pointer token (RFC 6901 §3: ~ as ~0, / as ~1), its bytes outside printable
// ASCII as \xHH, so that a message naming a key that is not UTF-8 is still text.
std::string pointer_token(const std::string& key) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (const char c : key) {
        const auto b = static_cast<unsigned char>(c);
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else if (b < 0x20 || b >= 0x7F || c == '\\') {
            out += "\\x";
            out += digits[b >> 4];
            out += digits[b & 0xF];
        } else {
            out += c;
        }
    }
    return out;
}

// One container being written: the nodes of its members and how many are done.
struct frame {
    bool map = false;
    std::vector<std::size_t> items;
    std::vector<std::string> keys;
    std::size_t next = 0;
    std::string at;
};

std::string encode(const sinkcheck_protocol::request& r) {
    if (r.fields.at("format") != "cbor")
        throw sinkcheck_protocol::unsupported("QCborStreamWriter writes CBOR only, not " + r.fields.at("format"));
    QByteArray out;
    QCborStreamWriter w(&out);
    // Iterative: values nest up to 100,000 deep, deeper than a stack frame per level allows.
    std::vector<frame> stack;
    std::size_t node = 0;
    std::string at;
    for (;;) {
        const value v = sinkcheck_protocol::read_value(r.value, node, at);
        switch (v.type) {
            case value::kind::null: w.append(nullptr); break;
            case value::kind::boolean: w.append(v.truth); break;
            case value::kind::integer: append_integer(w, v); break;
            case value::kind::floating: w.append(v.number); break;
            case value::kind::string: append_text(w, v.bytes, "the text", at); break;
            case value::kind::binary:
                if (v.has_subtype) w.append(QCborTag(v.subtype));
                w.append(QByteArray(v.bytes.data(), int(v.bytes.size())));
                break;
            case value::kind::discarded: throw sinkcheck_protocol::unsupported("Qt has no discarded value");
            case value::kind::array:
            case value::kind::object: {
                const bool map = v.type == value::kind::object;
                if (map)
                    w.startMap(v.items.size());
                else
                    w.startArray(v.items.size());
                stack.push_back({map, v.items, v.keys, 0, at});
                break;
            }
        }
        // The next member to write, closing the containers that are complete.
        for (;;) {
            if (stack.empty()) return std::string(out.constData(), std::size_t(out.size()));
            frame& top = stack.back();
            if (top.next < top.items.size()) {
                const std::size_t k = top.next++;
                node = top.items[k];
                if (top.map) {
                    at = top.at + "/" + pointer_token(top.keys[k]);
                    append_text(w, top.keys[k], "the key", at);
                } else {
                    at = top.at + "/" + std::to_string(k);
                }
                break;
            }
            const bool closed = top.map ? w.endMap() : w.endArray();
            if (!closed)
                throw std::logic_error("QCborStreamWriter counted another number of items than announced at \"" +
                                       top.at + "\"");
            stack.pop_back();
        }
    }
}

}  // namespace

int main() { return sinkcheck_protocol::serve(encode); }
