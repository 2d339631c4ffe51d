// tools/input.cpp — reading the value a command works on, from JSON text or any of
// the six binary formats, with the place of every error.
//
// nlohmann's readers are driven through a SAX handler of our own rather than parse()/from_*():
// the handler stops at max_input_depth (the readers of 3.11.2 recurse once per level) and at a
// value count no honest input of that size needs (a UBJSON `[$Z#L...` holds 2^63 nulls in 13
// bytes), and it records the reader's byte position, which is turned into line and column here.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "commands.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/format/bon8_decoder.hpp"

namespace sinkcheck::cli {

input read_input(const std::optional<std::string>& file) {
    input in;
    in.name = file ? *file : "<stdin>";
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(nullptr, std::fclose);
    std::FILE* f = stdin;
    if (file) {
        owned.reset(std::fopen(file->c_str(), "rb"));
        if (!owned) {
            throw input_error(in.name + ": cannot open: " + std::strerror(errno));
        }
        f = owned.get();
    }
    std::uint8_t chunk[65536];
    for (;;) {
        const std::size_t n = std::fread(chunk, 1, sizeof chunk, f);
        in.bytes.insert(in.bytes.end(), chunk, chunk + n);
        if (n < sizeof chunk) {
            break;
        }
    }
    if (std::ferror(f)) {
        throw input_error(in.name + ": cannot read: " + std::strerror(errno));
    }
    return in;
}

namespace {

/// Builds a json from SAX events without recursion, within a depth and a value budget.
class value_builder {
public:
    value_builder(std::size_t max_depth, std::size_t max_values) : max_depth_(max_depth), max_values_(max_values) {}

    bool null() { return put(json(nullptr)); }
    bool boolean(bool b) { return put(json(b)); }
    bool number_integer(json::number_integer_t v) { return put(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
    bool number_float(json::number_float_t v, const std::string& /*text*/) { return put(json(v)); }
    bool string(json::string_t& s) { return put(json(std::move(s))); }
    bool binary(json::binary_t& b) {
        json v = json::binary({});
        v.get_binary() = std::move(b);
        return put(std::move(v));
    }
    bool start_object(std::size_t /*count*/) { return open(json::object()); }
    bool key(json::string_t& k) {
        notation_keys_ = notation_keys_ || (!k.empty() && k[0] == '$');
        key_ = std::move(k);
        return true;
    }
    bool end_object() {
        stack_.pop_back();
        return true;
    }
    bool start_array(std::size_t /*count*/) { return open(json::array()); }
    bool end_array() {
        stack_.pop_back();
        return true;
    }
    bool parse_error(std::size_t position, const std::string& /*token*/, const nlohmann::detail::exception& e) {
        error_position_ = position;
        error_ = reader_message(e.what());
        return false;
    }

    json& result() noexcept { return root_; }
    /// Whether a key started with '$': only then can the value hold the text notation.
    bool notation_keys() const noexcept { return notation_keys_; }
    /// What stopped the reader: its message (error_position() set) or our own limit.
    const std::string& error() const noexcept { return error_; }
    std::optional<std::size_t> error_position() const noexcept { return error_position_; }

private:
    /// nlohmann's what() minus the "[json.exception.parse_error.101] parse error at line 1,
    /// column 2: " prefix: the place is computed by the caller, in the caller's terms.
    static std::string reader_message(std::string what) {
        if (!what.empty() && what[0] == '[') {
            const std::size_t close = what.find("] ");
            if (close != std::string::npos) {
                what.erase(0, close + 2);
            }
        }
        if (what.rfind("parse error", 0) == 0) {
            const std::size_t colon = what.find(": ");
            if (colon != std::string::npos) {
                what.erase(0, colon + 2);
            }
        }
        return what;
    }

    bool count() {
        if (++values_ > max_values_) {
            error_ = "more than " + std::to_string(max_values_) +
                     " values: a count in the input claims more elements than an input of this "
                     "size can hold";
            return false;
        }
        return true;
    }

    bool put(json&& v) {
        if (!count()) {
            return false;
        }
        place(std::move(v));
        return true;
    }

    bool open(json&& container) {
        if (!count()) {
            return false;
        }
        if (stack_.size() >= max_depth_) {
            error_ = "nesting deeper than " + std::to_string(max_depth_) + " levels";
            return false;
        }
        stack_.push_back(&place(std::move(container)));
        return true;
    }

    // Only the innermost open container changes, so pointers to the outer ones stay valid.
    json& place(json&& v) {
        if (stack_.empty()) {
            root_ = std::move(v);
            return root_;
        }
        json& parent = *stack_.back();
        if (parent.is_array()) {
            auto& a = parent.get_ref<json::array_t&>();
            a.push_back(std::move(v));
            return a.back();
        }
        // a repeated key keeps the last value, as nlohmann does
        return parent.get_ref<json::object_t&>().insert_or_assign(std::move(key_), std::move(v)).first->second;
    }

    std::size_t max_depth_;
    std::size_t max_values_;
    std::size_t values_ = 0;
    json root_;
    std::vector<json*> stack_;
    json::string_t key_;
    bool notation_keys_ = false;
    std::string error_;
    std::optional<std::size_t> error_position_;
};

/// 1-based line and column (in characters, i.e. UTF-8 lead bytes) of the byte at offset.
std::pair<std::size_t, std::size_t> line_and_column(const std::vector<std::uint8_t>& text, std::size_t offset) {
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((text[i] & 0xC0) != 0x80) {
            ++column;
        }
    }
    return {line, column};
}

nlohmann::detail::input_format_t reader_format(format f) {
    using nlohmann::detail::input_format_t;
    switch (f) {
        case format::cbor: return input_format_t::cbor;
        case format::msgpack: return input_format_t::msgpack;
        case format::ubjson: return input_format_t::ubjson;
        case format::bjdata: return input_format_t::bjdata;
        case format::bson: return input_format_t::bson;
        case format::bon8: break;
    }
    return input_format_t::json;
}

json decode_text(const input& in, value_builder& builder) {
    const char* begin = reinterpret_cast<const char*>(in.bytes.data());
    if (!json::sax_parse(begin, begin + in.bytes.size(), &builder)) {
        if (builder.error_position()) {
            // nlohmann counts the offending character as read
            const std::size_t at = *builder.error_position() > 0 ? *builder.error_position() - 1 : 0;
            const auto [line, column] = line_and_column(in.bytes, at);
            throw input_error(in.name + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                              builder.error());
        }
        throw input_error(in.name + ": " + builder.error());
    }
    json value = std::move(builder.result());
    // Every notation object has a key starting with '$'; without one the document is plain JSON,
    // which the notation's reader would give back unchanged (nlohmann's number types, the
    // shortest digits of a double, UTF-8 strings, sorted keys) at twice the cost of reading it.
    if (builder.notation_keys()) {
        resolve_text_notation(value, in.name);
    }
    return value;
}

json decode_binary(const input& in, format f, value_builder& builder) {
    if (f == format::bon8) {
        json value;
        try {
            value = decode_bon8<json>(in.bytes.data(), in.bytes.size());
        } catch (const decode_error& e) {
            throw input_error(in.name + ": byte " + std::to_string(e.offset()) + ": " + e.message());
        }
        // the BON8 decoder does not recurse and has no limit; the oracle and check do recurse
        if (nesting_depth(value) > max_input_depth) {
            throw input_error(in.name + ": nesting deeper than " + std::to_string(max_input_depth) + " levels");
        }
        return value;
    }
    // the reader is used directly because only it takes the CBOR tag handler through SAX
    auto adapter = nlohmann::detail::input_adapter(in.bytes.data(), in.bytes.data() + in.bytes.size());
    // the constructor takes an rvalue reference, so the move is needed although it copies
    nlohmann::detail::binary_reader<json, decltype(adapter), value_builder> reader(
        std::move(adapter), reader_format(f));  // NOLINT(performance-move-const-arg)
    if (!reader.sax_parse(reader_format(f), &builder, true, json::cbor_tag_handler_t::store)) {
        if (builder.error_position()) {
            // nlohmann counts the byte it failed on (or the missing one at the end) as read
            const std::size_t at = *builder.error_position() > 0 ? *builder.error_position() - 1 : 0;
            throw input_error(in.name + ": byte " + std::to_string(at) + ": " + builder.error());
        }
        throw input_error(in.name + ": " + builder.error());
    }
    return std::move(builder.result());
}

}  // namespace

std::size_t nesting_depth(const json& v) {
    std::size_t deepest = 0;
    std::vector<std::pair<const json*, std::size_t>> todo{{&v, 0}};
    while (!todo.empty()) {
        const auto [node, depth] = todo.back();
        todo.pop_back();
        if (node->is_array() || node->is_object()) {
            deepest = std::max(deepest, depth + 1);
            for (const json& child : *node) {
                todo.emplace_back(&child, depth + 1);
            }
        }
    }
    return deepest;
}

json decode_input(const input& in, std::optional<format> from) {
    // every value costs at least one byte except in UBJSON's marker-only typed arrays
    const std::size_t max_values = 1000000 + 64 * in.bytes.size();
    value_builder builder(max_input_depth, max_values);
    return from ? decode_binary(in, *from, builder) : decode_text(in, builder);
}

}  // namespace sinkcheck::cli
