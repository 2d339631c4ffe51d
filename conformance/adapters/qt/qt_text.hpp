// Text as a Qt program hands it to QCborStreamWriter, for the process adapter
// (qt_cbor_encoder.cpp) and the test kit's encoder (qt_kit_encoder.cpp): a string of code points
// at most U+00FF through append(QLatin1String) (the writer converts Latin-1 to UTF-8 itself),
// any other through append(QStringView) of a QString.
#ifndef SINKCHECK_ADAPTERS_QT_QT_TEXT_HPP
#define SINKCHECK_ADAPTERS_QT_QT_TEXT_HPP

#include <QtCore/QCborStreamWriter>
#include <QtCore/QString>

#include <cstddef>
#include <optional>
#include <string>

namespace qt_text {

// The code points of UTF-8 bytes, lone surrogates (ED A0..BF xx) allowed: a QString holds them as
// single UTF-16 units. Anything else that is not UTF-8 (RFC 3629 §3) has no QString: nothing,
// and bad is the offset of the sequence. A high surrogate followed by a low one is refused too:
// in UTF-16 the two would become the pair of one character.
inline std::optional<std::u32string> code_points(const std::string& bytes, std::size_t& bad) {
    std::u32string out;
    for (std::size_t k = 0; k < bytes.size();) {
        const auto b = static_cast<unsigned char>(bytes[k]);
        const std::size_t length = b < 0x80                ? 1
                                   : b >= 0xC2 && b < 0xE0 ? 2
                                   : b >= 0xE0 && b < 0xF0 ? 3
                                   : b >= 0xF0 && b < 0xF5 ? 4
                                                           : 0;
        bad = k;
        if (length == 0 || length > bytes.size() - k) return std::nullopt;
        char32_t cp = length == 1 ? b : b & (0x7F >> length);
        for (std::size_t m = 1; m < length; ++m) {
            const auto c = static_cast<unsigned char>(bytes[k + m]);
            if ((c & 0xC0) != 0x80) return std::nullopt;
            cp = cp << 6 | (c & 0x3F);
        }
        static constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < smallest[length] || cp > 0x10FFFF) return std::nullopt;
        if (cp >= 0xDC00 && cp < 0xE000 && !out.empty() && out.back() >= 0xD800 && out.back() < 0xDC00)
            return std::nullopt;
        out.push_back(cp);
        k += length;
    }
    return out;
}

inline void append(QCborStreamWriter& w, const std::u32string& text) {
    bool latin1 = true;
    for (const char32_t cp : text) latin1 = latin1 && cp <= 0xFF;
    if (latin1) {
        const std::string chars(text.begin(), text.end());
        w.append(QLatin1String(chars.data(), int(chars.size())));
        return;
    }
    QString s;
    s.reserve(int(text.size()));
    for (const char32_t cp : text) {
        if (cp >= 0x10000) {
            s.append(QChar(ushort(0xD800 + ((cp - 0x10000) >> 10))));
            s.append(QChar(ushort(0xDC00 + ((cp - 0x10000) & 0x3FF))));
        } else {
            s.append(QChar(ushort(cp)));
        }
    }
    w.append(QStringView(s));
}

}  // namespace qt_text

#endif
