// Qt 5's QCborStreamWriter under the test kit's encoder check (docs/testkit.md, "Check your own
// encoder"): the same calls as the process adapter (qt_cbor_encoder.cpp), on the value the kit
// hands an encoder, nlohmann's model. That model has sorted keys and holds integers beyond 64
// bits as doubles, so this check sees less than the process adapter does (key order, bignums);
// it shows what a Qt project gets from the kit with one traits struct. Built and run in this
// tree when Qt5Core is found (conform_kit_qt_conform_cbor).
#include <QtCore/QByteArray>
#include <QtCore/QCborStreamWriter>

#include <cstdint>
#include <string>
#include <vector>

#include "qt_text.hpp"
#include "sinkcheck/conform/check_encoder.hpp"

namespace {

using json = nlohmann::json;

void append_scalar(QCborStreamWriter& w, const json& j) {
    switch (j.type()) {
        case json::value_t::null: w.append(nullptr); return;
        case json::value_t::boolean: w.append(j.get<bool>()); return;
        case json::value_t::number_integer: w.append(qint64(j.get<std::int64_t>())); return;
        case json::value_t::number_unsigned: w.append(quint64(j.get<std::uint64_t>())); return;
        case json::value_t::number_float: w.append(j.get<double>()); return;
        case json::value_t::string: {
            std::size_t bad = 0;
            const auto text = qt_text::code_points(j.get_ref<const std::string&>(), bad);
            if (!text) throw sinkcheck::conform::unsupported("text that is not UTF-8: no QString holds it");
            qt_text::append(w, *text);
            return;
        }
        case json::value_t::binary: {
            const auto& b = j.get_binary();
            if (b.has_subtype()) w.append(QCborTag(b.subtype()));
            w.append(QByteArray(reinterpret_cast<const char*>(b.data()), int(b.size())));
            return;
        }
        case json::value_t::discarded: throw sinkcheck::conform::unsupported("Qt has no discarded value");
        case json::value_t::array:
        case json::value_t::object: break;
    }
}

struct qt_cbor {
    static constexpr const char* name = "qt-cbor";
    static constexpr const char* description = "Qt " QT_VERSION_STR " QCborStreamWriter";
    static constexpr sinkcheck::format formats[] = {sinkcheck::format::cbor};
    static std::vector<std::uint8_t> encode(sinkcheck::format, const json& value, const sinkcheck::encode_options&) {
        QByteArray out;
        QCborStreamWriter w(&out);
        // Iterative, as in the process adapter: the corpus nests 1,000 deep.
        struct frame {
            const json* container;
            json::const_iterator next;
        };
        std::vector<frame> stack;
        const json* j = &value;
        for (;;) {
            if (j->is_array() || j->is_object()) {
                if (j->is_array())
                    w.startArray(j->size());
                else
                    w.startMap(j->size());
                stack.push_back({j, j->cbegin()});
            } else {
                append_scalar(w, *j);
            }
            j = nullptr;
            while (j == nullptr && !stack.empty()) {
                frame& top = stack.back();
                if (top.next == top.container->cend()) {
                    if (top.container->is_array() ? !w.endArray() : !w.endMap())
                        throw std::logic_error("QCborStreamWriter counted another number of items than announced");
                    stack.pop_back();
                    continue;
                }
                if (top.container->is_object()) {
                    std::size_t bad = 0;
                    const auto key = qt_text::code_points(top.next.key(), bad);
                    if (!key) throw sinkcheck::conform::unsupported("a key that is not UTF-8: no QString holds it");
                    qt_text::append(w, *key);
                }
                j = &*top.next;
                ++top.next;
            }
            if (j == nullptr) return {out.begin(), out.end()};
        }
    }
};

}  // namespace

SINKCHECK_ENCODER(qt_cbor);
