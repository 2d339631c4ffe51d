// sinkcheck/options.hpp — the format names and the options every encoder takes.
//
// One options struct for all formats keeps the dispatching code (CLI, fuzzers, properties)
// free of per-format branches; each encoder reads only the fields that concern it.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sinkcheck {

enum class format { cbor, msgpack, ubjson, bjdata, bson, bon8 };

inline constexpr std::array<format, 6> all_formats = {format::cbor,   format::msgpack, format::ubjson,
                                                      format::bjdata, format::bson,    format::bon8};

inline constexpr std::string_view format_name(format f) noexcept {
    switch (f) {  // every format (-Wswitch), which makes the check below cover all_formats
        case format::cbor: return "cbor";
        case format::msgpack: return "msgpack";
        case format::ubjson: return "ubjson";
        case format::bjdata: return "bjdata";
        case format::bson: return "bson";
        case format::bon8: return "bon8";
    }
    return "?";
}

// all_formats lists every format: a format added to the enum (and so, by -Wswitch, to
// format_name) but not to all_formats fails to compile here.
static_assert(format_name(static_cast<format>(all_formats.size())) == "?" &&
                  all_formats.back() == static_cast<format>(all_formats.size() - 1),
              "all_formats must list every sinkcheck::format, in order");

/// Whether the container options (encode_options::use_size, use_type) mean anything to the
/// format: UBJSON's and BJData's counted and typed containers; every other encoder ignores them.
inline constexpr bool takes_container_shape(format f) noexcept {
    switch (f) {
        case format::ubjson:
        case format::bjdata: return true;
        case format::cbor:
        case format::msgpack:
        case format::bson:
        case format::bon8: return false;
    }
    return false;
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

}  // namespace sinkcheck
