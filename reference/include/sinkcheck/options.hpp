// sinkcheck/options.hpp — the format names and the options every encoder takes.
//
// One options struct for all formats keeps the dispatching code (CLI, fuzzers, properties)
// free of per-format branches; each encoder reads only the fields that concern it.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sinkcheck {

enum class format { cbor, msgpack, ubjson, bjdata, bson, bon8 };

/// What sinkcheck knows of a format, one row each in format_table below. Everything that lists
/// the formats or asks what a format is reads that table: the C++ through the functions under it,
/// CMake through cmake/Formats.cmake, the scripts and shell tests through scripts/lib/formats.py, which
/// parse its rows; the parts of a format that are files (encoder header, vectors, fuzz target,
/// dictionary, seeds, documentation) are checked by the test formats_complete
/// (scripts/check-formats.py). docs/testkit.md, "Adding a format to sinkcheck", lists the rest.
struct format_descriptor {
    format id;
    /// On command lines and in file names: corpus/conformance/NAME.vectors, fuzz/fuzz_NAME.cpp.
    std::string_view name;
    /// In prose and help texts, and the heading of the format's section of docs/formats.md.
    std::string_view title;
    /// nlohmann 3.11.2 writes and reads it (to_NAME, from_NAME): the oracle applies.
    bool oracle;
    /// encode_options::use_size and use_type mean something (UBJSON's counted and typed
    /// containers); every other encoder ignores them.
    bool container_shape;
    /// Only an object can be the root (a BSON document).
    bool root_object;
    /// encode_options::bson_patch_lengths applies: lengths written as placeholders and patched by
    /// seeking back, for a sink that can seek.
    bool patches_lengths;
};

// One row per line, in enum order: the build and the scripts read these lines (see above).
// clang-format off
inline constexpr std::array<format_descriptor, 6> format_table = {{
    //  id               name       title          oracle container_shape root_object patches_lengths
    {format::cbor,    "cbor",    "CBOR",        true,  false,          false,      false},
    {format::msgpack, "msgpack", "MessagePack", true,  false,          false,      false},
    {format::ubjson,  "ubjson",  "UBJSON",      true,  true,           false,      false},
    {format::bjdata,  "bjdata",  "BJData",      true,  true,           false,      false},
    {format::bson,    "bson",    "BSON",        true,  false,          true,       true},
    {format::bon8,    "bon8",    "BON8",        false, false,          false,      false},
}};
// clang-format on

namespace detail {
/// True for every member of the enum: a switch over every format (-Wswitch, an error under
/// SINKCHECK_WERROR), so a format added to the enum fails to compile here until it is listed, and
/// the assertion below until its row is in format_table.
constexpr bool in_enum(format f) noexcept {
    switch (f) {
        case format::cbor:
        case format::msgpack:
        case format::ubjson:
        case format::bjdata:
        case format::bson:
        case format::bon8: return true;
    }
    return false;
}

/// format_table's rows, checked and listed at compile time (members, not functions: nothing here
/// runs, so nothing here is code that coverage could find unrun).
template <class Rows>
struct table_rows;
template <std::size_t... I>
struct table_rows<std::index_sequence<I...>> {
    static constexpr bool in_enum_order = ((format_table[I].id == static_cast<format>(I)) && ...);
    static constexpr std::array<format, sizeof...(I)> ids = {format_table[I].id...};
};
using rows = table_rows<std::make_index_sequence<format_table.size()>>;
}  // namespace detail

static_assert(detail::rows::in_enum_order && !detail::in_enum(static_cast<format>(format_table.size())),
              "format_table must hold every sinkcheck::format, one row each, in enum order");

/// What describe() answers for a value outside the enum (a cast from bad data): named "?", and
/// nothing applies to it.
inline constexpr format_descriptor unknown_format_row = {static_cast<format>(-1), "?", "?", false, false, false, false};

/// The row of f; unknown_format_row when f is not one of the enum's members.
inline constexpr const format_descriptor& describe(format f) noexcept {
    return detail::in_enum(f) ? format_table[static_cast<std::size_t>(f)] : unknown_format_row;
}

/// Every format, in enum order: what everything that covers all formats iterates.
inline constexpr std::array<format, format_table.size()> all_formats = detail::rows::ids;

inline constexpr std::string_view format_name(format f) noexcept { return describe(f).name; }

inline constexpr bool takes_container_shape(format f) noexcept { return describe(f).container_shape; }

namespace detail {

/// name(item) for each of items, separator between them and, when last is given, last before the
/// final one ("a, b and c"): the lists in help and error texts.
template <class Items, class Name>
std::string joined(const Items& items, Name name, std::string_view separator, std::string_view last = {}) {
    std::string out;
    std::size_t i = 0;
    for (const auto& item : items) {
        if (i != 0) out += i + 1 == std::size(items) && !last.empty() ? last : separator;
        out += name(item);
        ++i;
    }
    return out;
}

}  // namespace detail

/// The names of every format, separated by separator ("cbor, msgpack, ..."), for help and error
/// texts; with last, the final separator is last instead ("cbor, ... or bon8").
inline std::string format_names(std::string_view separator = ", ", std::string_view last = {}) {
    return detail::joined(all_formats, format_name, separator, last);
}

/// A placeholder of a help or error text ("{windows}") and what replaces it.
using placeholder = std::pair<std::string_view, std::string>;

/// text with every "{formats}" replaced by the formats' names ("cbor, msgpack, ..., bon8"),
/// "{formats-or}" by the same ending "... bson or bon8", "{titles}" by their titles ("CBOR,
/// MessagePack, ... and BON8"), and each of more by its value: the help and error texts name the
/// formats from format_table.
inline std::string with_format_names(std::string_view text, std::initializer_list<placeholder> more = {}) {
    const placeholder names[] = {
        {"{formats}", format_names()},
        {"{formats-or}", format_names(", ", " or ")},
        {"{titles}", detail::joined(
                         all_formats, [](format f) { return describe(f).title; }, ", ", " and ")}};
    std::string out(text);
    const auto fill = [&out](const placeholder& p) {
        for (std::size_t at = out.find(p.first); at != std::string::npos; at = out.find(p.first, at)) {
            out.replace(at, p.first.size(), p.second);
            at += p.second.size();
        }
    };
    for (const placeholder& p : names) fill(p);
    for (const placeholder& p : more) fill(p);
    return out;
}

inline std::optional<format> parse_format(std::string_view name) noexcept {
    for (format f : all_formats) {
        if (format_name(f) == name) {
            return f;
        }
    }
    return std::nullopt;
}

/// Where a value's encoding starts: filled in when encode_options::marks is set, so a
/// mismatch at byte N can be traced back to the JSON pointer being written there.
struct value_mark {
    std::size_t offset;
    std::string pointer;
};

struct encode_options {
    /// UBJSON/BJData: write container counts ('#') and no end markers (nlohmann use_size).
    bool use_size = false;
    /// UBJSON/BJData: write a '$' type marker when all elements share one (nlohmann use_type);
    /// only meaningful together with use_size, as in nlohmann 3.11.2.
    bool use_type = false;
    /// BSON: write a placeholder length and patch it when the document ends; the sink must
    /// offer seek(). Default: lengths computed in a first pass, as nlohmann does.
    bool bson_patch_lengths = false;
    /// Diagnostics only: when set, every value's start offset and pointer is appended.
    std::vector<value_mark>* marks = nullptr;
};

/// One way of encoding a format's values that changes its bytes, and how a report names it.
struct option_shape {
    std::string_view name;
    encode_options options;
};

/// The option shapes of f (format_table's columns): the defaults; UBJSON's and BJData's counted
/// and counted-and-typed containers; BSON's lengths patched by seeking, when the sink can seek.
inline std::vector<option_shape> option_shapes(format f, bool seekable) {
    std::vector<option_shape> out = {{"", {}}};
    if (describe(f).container_shape) {
        encode_options sized;
        sized.use_size = true;
        encode_options typed = sized;
        typed.use_type = true;
        out.push_back({"use_size", sized});
        out.push_back({"use_size, use_type", typed});
    }
    if (describe(f).patches_lengths && seekable) {
        encode_options patched;
        patched.bson_patch_lengths = true;
        out.push_back({"lengths patched by seeking", patched});
    }
    return out;
}

}  // namespace sinkcheck
