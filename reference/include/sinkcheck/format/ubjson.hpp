// sinkcheck/format/ubjson.hpp — UBJSON (Draft 12) encoder, and the writer BJData shares with it.
//
// UBJSON and BJData Draft 2 differ in byte order, three extra integer markers (u m M), the
// markers allowed after '$', and BJData's ND-arrays; everything else is one grammar, so one
// walker handler specialised on a bool writes both (format/bjdata.hpp holds BJData's entry
// points). The output is byte for byte nlohmann 3.11.2's to_ubjson / to_bjdata with their
// use_size / use_type options, quirks included (docs/formats.md#ubjson, #bjdata). Where 3.11.2 writes
// bytes that are invalid or do not decode to the value, this writer throws or writes valid bytes
// instead: reference/KNOWN_DIVERGENCES.md (UBJSON, BJData).
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sinkcheck/detail/bytes.hpp"
#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/detail/walk.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/options.hpp"

namespace sinkcheck {
namespace detail {

/// Calls put(marker, v) with the smallest marker of the integer ladder that holds n and n
/// narrowed to that marker's width (std::uint8_t, 16, 32 or 64): UBJSON i U I l L, then H
/// (high-precision) above INT64_MAX; BJData i U I u l m L M (UBJSON Draft 12 "Numeric": "use the
/// smallest applicable type"). nlohmann 3.11.2 quirk: 0..127 take i although U also fits. The
/// width is a type, not a run-time count, so a writer built on this copies constant sizes only.
template <bool BJData, class Put>
[[gnu::always_inline]] constexpr auto ubjson_unsigned_ladder(std::uint64_t n, Put&& put) {
    if (n <= 0x7f) return put(std::uint8_t{'i'}, static_cast<std::uint8_t>(n));
    if (n <= 0xff) return put(std::uint8_t{'U'}, static_cast<std::uint8_t>(n));
    if (n <= 0x7fff) return put(std::uint8_t{'I'}, static_cast<std::uint16_t>(n));
    if (BJData && n <= 0xffff) return put(std::uint8_t{'u'}, static_cast<std::uint16_t>(n));
    if (n <= 0x7fffffff) return put(std::uint8_t{'l'}, static_cast<std::uint32_t>(n));
    if (BJData && n <= 0xffffffff) return put(std::uint8_t{'m'}, static_cast<std::uint32_t>(n));
    if (n <= 0x7fffffffffffffff) return put(std::uint8_t{'L'}, n);
    return put(BJData ? std::uint8_t{'M'} : std::uint8_t{'H'}, n);
}

/// The same for a signed n; a negative n goes out as its two's-complement low bytes.
template <bool BJData, class Put>
[[gnu::always_inline]] constexpr auto ubjson_signed_ladder(std::int64_t n, Put&& put) {
    if (n >= 0) return ubjson_unsigned_ladder<BJData>(static_cast<std::uint64_t>(n), put);
    const auto bits = static_cast<std::uint64_t>(n);
    if (n >= INT8_MIN) return put(std::uint8_t{'i'}, static_cast<std::uint8_t>(bits));
    if (n >= INT16_MIN) return put(std::uint8_t{'I'}, static_cast<std::uint16_t>(bits));
    if (n >= INT32_MIN) return put(std::uint8_t{'l'}, static_cast<std::uint32_t>(bits));
    return put(std::uint8_t{'L'}, bits);
}

inline constexpr auto ubjson_marker_only = [](std::uint8_t m, auto) { return m; };

template <bool BJData>
constexpr std::uint8_t ubjson_unsigned_marker(std::uint64_t n) noexcept {
    return ubjson_unsigned_ladder<BJData>(n, ubjson_marker_only);
}

template <bool BJData>
constexpr std::uint8_t ubjson_signed_marker(std::int64_t n) noexcept {
    return ubjson_signed_ladder<BJData>(n, ubjson_marker_only);
}

/// Payload width in bytes of integer marker m (C: a char, one byte).
constexpr std::size_t ubjson_width(std::uint8_t m) noexcept {
    switch (m) {
        case 'i':
        case 'U':
        case 'C': return 1;
        case 'I':
        case 'u': return 2;
        case 'l':
        case 'm':
        case 'd': return 4;
        default: return 8;
    }
}

/// The bits of a float or double, zero-extended.
template <class F>
inline std::uint64_t ubjson_float_bits(F f) noexcept {
    static_assert(sizeof(F) == 4 || sizeof(F) == 8);
    std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t> bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
}

/// H: the decimal digits as a length-prefixed string (UBJSON Draft 12 "High-Precision"), what
/// 3.11.2 writes for a number_unsigned above INT64_MAX. At most 22 bytes.
inline std::size_t ubjson_store_digits(std::uint8_t* out, std::uint64_t n) noexcept {
    char digits[20] = {};  // zeroed: GCC 12 -O2 cannot see to_chars fill it (maybe-uninitialized)
    const auto len = static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, n).ptr - digits);
    out[0] = 'i';
    out[1] = static_cast<std::uint8_t>(len);
    std::memcpy(out + 2, digits, len);
    return 2 + len;
}

/// Stores n with its ladder marker (omitted when with_marker is false: the enclosing '$'
/// already says it). At most 23 bytes.
template <bool BJData>
inline std::size_t ubjson_store_unsigned(std::uint8_t* out, std::uint64_t n, bool with_marker) noexcept {
    return ubjson_unsigned_ladder<BJData>(n, [&](std::uint8_t m, auto v) -> std::size_t {
        out[0] = m;
        const std::size_t k = with_marker ? 1 : 0;
        if (!BJData && m == 'H') {
            return k + ubjson_store_digits(out + k, n);
        }
        return k + store_ordered<!BJData>(out + k, v);
    });
}

/// Stores a container header: the opening marker (0: omitted because the parent's '$' says
/// it), '$' and the element type (0: none), '#' and the count when counted. At most 27 bytes.
template <bool BJData>
inline std::size_t ubjson_store_header(std::uint8_t* out, std::uint8_t open, std::uint8_t type, bool counted,
                                       std::uint64_t count) noexcept {
    std::size_t n = 0;
    if (open != 0) {
        out[n++] = open;
    }
    if (type != 0) {
        out[n++] = '$';
        out[n++] = type;
    }
    if (counted) {
        out[n++] = '#';
        n += ubjson_store_unsigned<BJData>(out + n, count, true);
    }
    return n;
}

/// The marker j would be written with: what decides whether a container gets a '$' type
/// (nlohmann 3.11.2 ubjson_prefix). No widening: 1 (i) and 200 (U) differ. UBJSON writes
/// ±Inf and NaN as null (ubjson-nonfinite-as-null), so they count as Z there.
template <bool BJData, class Json>
std::uint8_t ubjson_marker(const Json& j) noexcept {
    switch (j.type()) {
        case Json::value_t::null: return 'Z';
        case Json::value_t::boolean: return *j.template get_ptr<const typename Json::boolean_t*>() ? 'T' : 'F';
        case Json::value_t::number_integer:
            return ubjson_signed_marker<BJData>(*j.template get_ptr<const typename Json::number_integer_t*>());
        case Json::value_t::number_unsigned:
            return ubjson_unsigned_marker<BJData>(*j.template get_ptr<const typename Json::number_unsigned_t*>());
        case Json::value_t::number_float: {
            using float_t = typename Json::number_float_t;
            if (!BJData && !std::isfinite(*j.template get_ptr<const float_t*>())) {
                return 'Z';
            }
            return sizeof(float_t) == 4 ? 'd' : 'D';
        }
        case Json::value_t::string: return 'S';
        case Json::value_t::array:
        case Json::value_t::binary: return '[';
        case Json::value_t::object: return '{';
        case Json::value_t::discarded: break;
    }
    return 'N';
}

/// True when m may follow '$'. UBJSON Draft 12 allows any type, marker-only ones included
/// ("Special case: Marker-only types"). BJData Draft 2 "Type - $" allows only fixed-length
/// non-zero-size types; 3.11.2 refuses [ { S H T F N Z, which leaves exactly those it writes.
template <bool BJData>
constexpr bool ubjson_typable(std::uint8_t m) noexcept {
    if (!BJData) {
        return true;
    }
    switch (m) {
        case '[':
        case '{':
        case 'S':
        case 'H':
        case 'T':
        case 'F':
        case 'N':
        case 'Z': return false;
        default: return true;
    }
}

/// The '$' type of a non-empty array or object (its values; keys are never typed), or 0 when
/// the elements' markers differ or the common one may not follow '$'.
template <bool BJData, class Json>
std::uint8_t ubjson_common_type(const Json& container) noexcept {
    std::uint8_t first = 0;
    bool same = true;
    const auto visit = [&](const Json& v) {
        const std::uint8_t m = ubjson_marker<BJData>(v);
        if (first == 0) {
            first = m;
        } else if (m != first) {
            same = false;
        }
        return same;
    };
    if (const auto* array = container.template get_ptr<const typename Json::array_t*>()) {
        for (const auto& v : *array) {
            if (!visit(v)) break;
        }
    } else if (const auto* object = container.template get_ptr<const typename Json::object_t*>()) {
        for (const auto& kv : *object) {
            if (!visit(kv.second)) break;
        }
    }
    return same && ubjson_typable<BJData>(first) ? first : 0;
}

/// Copies n <= 32 bytes from p to out without a call to memcpy and without a loop: the first and
/// the last 16, 8 or 4 bytes, overlapping in the middle (as all_ascii in detail/utf8.hpp reads),
/// so no access leaves either range.
inline void ubjson_copy_short(std::uint8_t* out, const char* p, std::size_t n) noexcept {
    const auto copy = [out, p](std::size_t at, auto word) {
        std::memcpy(&word, p + at, sizeof word);
        std::memcpy(out + at, &word, sizeof word);
    };
    if (n >= 16) {
        copy(0, std::uint64_t{});
        copy(8, std::uint64_t{});
        copy(n - 16, std::uint64_t{});
        copy(n - 8, std::uint64_t{});
    } else if (n >= 8) {
        copy(0, std::uint64_t{});
        copy(n - 8, std::uint64_t{});
    } else if (n >= 4) {
        copy(0, std::uint32_t{});
        copy(n - 4, std::uint32_t{});
    } else if (n != 0) {
        // 1..3 bytes: the first, middle and last byte cover them all
        copy(0, std::uint8_t{});
        copy(n / 2, std::uint8_t{});
        copy(n - 1, std::uint8_t{});
    }
}

/// Collects small writes and hands them to the sink in chunks: one sink call per chunk
/// instead of one per element for binary as uint8 arrays and ND-array data.
template <class Sink>
class ubjson_chunk {
public:
    // buf_ is written before it is read; zeroing it would cost a memset per container
    explicit ubjson_chunk(Sink& sink) noexcept : sink_(sink) {}  // NOLINT(cppcoreguidelines-pro-type-member-init)
    /// Room for k more bytes (k ≤ capacity), flushing first when needed.
    std::uint8_t* room(std::size_t k) {
        if (n_ + k > sizeof buf_) {
            flush();
        }
        return buf_ + n_;
    }
    void commit(std::size_t k) noexcept { n_ += k; }
    void put(std::uint8_t b) {
        *room(1) = b;
        ++n_;
    }
    void flush() {
        if (n_ != 0) {
            sink_.write(buf_, n_);
            n_ = 0;
        }
    }

private:
    Sink& sink_;
    std::uint8_t buf_[512];
    std::size_t n_ = 0;
};

// ---------------------------------------------------------------------------------------------
// BJData ND-arrays (BJData Draft 2 "Optimized N-dimensional array of uniform type"; JData's
// annotated array {"_ArrayType_", "_ArraySize_", "_ArrayData_"}).

struct bjdata_element_type {
    const char* name;
    std::uint8_t marker;
    bool floating;
    std::int64_t min;
    std::uint64_t max;
};

/// The eleven _ArrayType_ names nlohmann 3.11.2 knows. char is 0..127: BJData Draft 2 "Char"
/// (as UBJSON Draft 12) says it "must not have a decimal value larger than 127".
inline constexpr bjdata_element_type bjdata_element_types[] = {
    {"uint8", 'U', false, 0, 0xff},        {"int8", 'i', false, INT8_MIN, INT8_MAX},
    {"uint16", 'u', false, 0, 0xffff},     {"int16", 'I', false, INT16_MIN, INT16_MAX},
    {"uint32", 'm', false, 0, 0xffffffff}, {"int32", 'l', false, INT32_MIN, INT32_MAX},
    {"uint64", 'M', false, 0, UINT64_MAX}, {"int64", 'L', false, INT64_MIN, INT64_MAX},
    {"single", 'd', true, 0, 0},           {"double", 'D', true, 0, 0},
    {"char", 'C', false, 0, 0x7f},
};

enum class ndarray_verdict {
    not_ndarray,      // written as an ordinary object, as 3.11.2 does
    non_string_type,  // _ArrayType_ is not a string: type_error.302, as 3.11.2
    valid,            // written as an ND-array, byte-identical to 3.11.2
    punned_float,     // ND-array; 3.11.2 writes integer bits as floats (bjdata-ndarray-punned-float)
    invalid,          // ordinary object; 3.11.2 may write garbage (bjdata-ndarray-invalid)
};

template <class Json>
struct ndarray_view {
    ndarray_verdict verdict = ndarray_verdict::not_ndarray;
    const bjdata_element_type* type = nullptr;
    const Json* size = nullptr;
    const Json* data = nullptr;
};

/// The two's-complement bits of an integer of either signedness.
template <class Json>
std::uint64_t bjdata_integer_bits(const Json& v) noexcept {
    return v.is_number_unsigned()
               ? static_cast<std::uint64_t>(*v.template get_ptr<const typename Json::number_unsigned_t*>())
               : static_cast<std::uint64_t>(*v.template get_ptr<const typename Json::number_integer_t*>());
}

template <class Json>
bool bjdata_int_in_range(const Json& v, const bjdata_element_type& t) noexcept {
    if (v.is_number_unsigned()) {
        return *v.template get_ptr<const typename Json::number_unsigned_t*>() <= t.max;
    }
    const std::int64_t i = *v.template get_ptr<const typename Json::number_integer_t*>();
    return i >= t.min && (i < 0 || static_cast<std::uint64_t>(i) <= t.max);
}

/// Classifies an object as nlohmann 3.11.2's to_bjdata sees it: exactly the keys _ArrayType_,
/// _ArraySize_, _ArrayData_ with a known type name make it an ND-array candidate. A candidate is
/// valid when _ArraySize_ is an array of non-negative integers whose product (no overflow; an
/// empty size counts 0, as in 3.11.2) is the length of the array _ArrayData_, and every element
/// is a number the type holds (integer types: an integer in range).
template <class Json>
ndarray_view<Json> bjdata_classify(const Json& obj) {
    ndarray_view<Json> view;
    if (obj.size() != 3) {
        return view;
    }
    // cheap first: the three names are 11 bytes long and start with '_'
    for (const auto& kv : obj.template get_ref<const typename Json::object_t&>()) {
        if (kv.first.size() != 11 || kv.first[0] != '_') {
            return view;
        }
    }
    const auto type_it = obj.find("_ArrayType_");
    const auto size_it = obj.find("_ArraySize_");
    const auto data_it = obj.find("_ArrayData_");
    if (type_it == obj.end() || size_it == obj.end() || data_it == obj.end()) {
        return view;
    }
    if (!type_it->is_string()) {
        view.verdict = ndarray_verdict::non_string_type;
        return view;
    }
    const auto& name = type_it->template get_ref<const typename Json::string_t&>();
    for (const auto& t : bjdata_element_types) {
        if (name == t.name) {
            view.type = &t;
        }
    }
    if (view.type == nullptr) {
        return view;
    }
    view.size = &*size_it;
    view.data = &*data_it;
    view.verdict = ndarray_verdict::invalid;

    if (!size_it->is_array() || !data_it->is_array()) {
        return view;
    }
    const auto& dims = size_it->template get_ref<const typename Json::array_t&>();
    std::uint64_t product = dims.empty() ? 0 : 1;
    bool zero = false;
    bool overflow = false;
    for (const auto& d : dims) {
        const bool negative = d.is_number_integer() && !d.is_number_unsigned() &&
                              *d.template get_ptr<const typename Json::number_integer_t*>() < 0;
        if (!d.is_number_integer() || negative) {
            return view;
        }
        const auto n = d.template get<std::uint64_t>();
        if (n == 0) {
            zero = true;
        } else if (product > UINT64_MAX / n) {
            overflow = true;
        } else {
            product *= n;
        }
    }
    if (zero) {
        product = 0;
    } else if (overflow) {
        return view;
    }
    const auto& data = data_it->template get_ref<const typename Json::array_t&>();
    if (data.size() != product) {
        return view;
    }
    bool punned = false;
    for (const auto& v : data) {
        if (view.type->floating) {
            if (!v.is_number()) {
                return view;
            }
            punned = punned || v.is_number_integer();
        } else if (!v.is_number_integer() || !bjdata_int_in_range(v, *view.type)) {
            return view;
        }
    }
    view.verdict = punned ? ndarray_verdict::punned_float : ndarray_verdict::valid;
    return view;
}

/// For an invalid candidate: true when 3.11.2 deterministically writes the ordinary object too
/// (its element count, computed from the raw number bits of _ArraySize_, misses _ArrayData_'s
/// size), so both outputs agree. Sizes that are not numbers make 3.11.2 read pointers: unknown.
template <class Json>
bool bjdata_3112_writes_object(const ndarray_view<Json>& view) noexcept {
    // the 64 bits 3.11.2 reads as number_unsigned; null's union holds a null pointer
    const auto bits = [](const Json& v, std::uint64_t& out) {
        if (v.is_number_integer()) {
            out = bjdata_integer_bits(v);
        } else if (v.is_number_float() && sizeof(typename Json::number_float_t) == 8) {
            std::memcpy(&out, v.template get_ptr<const typename Json::number_float_t*>(), 8);
        } else if (v.is_null()) {
            out = 0;
        } else {
            return false;
        }
        return true;
    };
    const Json& size = *view.size;
    std::uint64_t len = size.empty() ? 0 : 1;  // 3.11.2: size_t product, wrapping
    std::uint64_t b = 0;
    if (const auto* dims = size.template get_ptr<const typename Json::array_t*>()) {
        for (const auto& d : *dims) {
            if (!bits(d, b)) return false;
            len *= b;
        }
    } else if (const auto* named = size.template get_ptr<const typename Json::object_t*>()) {
        for (const auto& kv : *named) {
            if (!bits(kv.second, b)) return false;
            len *= b;
        }
    } else if (!size.is_null()) {
        if (!bits(size, b)) return false;
        len *= b;
    }
    return view.data->size() != len;
}

// ---------------------------------------------------------------------------------------------

/// The walker handler that writes UBJSON (BJData = false) or BJData; see walk.hpp. A frame's
/// aux holds the '$' type of its elements, 0 when each element carries its own marker. As in
/// format/cbor.hpp, numbers and length headers go out in constant-size writes and the hot
/// functions are inlined by force into the walker's loop (callgrind: a run-time length per value
/// sent every number and string header through memcpy).
template <class Json, class Sink, bool BJData>
class ubjson_writer {
public:
    using frame_type = frame<Json>;
    using string_t = typename Json::string_t;
    using float_t = typename Json::number_float_t;
    static_assert(std::is_same_v<float_t, double> || std::is_same_v<float_t, float>,
                  "UBJSON/BJData floats are binary32 (d) or binary64 (D)");

    ubjson_writer(Sink& sink, const encode_options& options) noexcept
        : sink_(sink), counted_(options.use_size), typed_(options.use_type) {}

    std::size_t position() const { return sink_.position(); }

    [[gnu::always_inline]] void value(const Json& j, frame_type* parent) {
        const bool marked = parent == nullptr || parent->aux == 0;
        switch (j.type()) {
            // marker-only types: under '$' nothing at all (UBJSON Draft 12 "Special case")
            case Json::value_t::null:
                if (marked) {
                    sink_.write(std::uint8_t{'Z'});
                }
                return;
            case Json::value_t::boolean:
                if (marked) {
                    sink_.write(*j.template get_ptr<const typename Json::boolean_t*>() ? std::uint8_t{'T'}
                                                                                       : std::uint8_t{'F'});
                }
                return;
            case Json::value_t::number_integer:
                ubjson_signed_ladder<BJData>(*j.template get_ptr<const typename Json::number_integer_t*>(),
                                             put_number{*this, marked});
                return;
            case Json::value_t::number_unsigned:
                ubjson_unsigned_ladder<BJData>(*j.template get_ptr<const typename Json::number_unsigned_t*>(),
                                               put_number{*this, marked});
                return;
            case Json::value_t::number_float: {
                const float_t d = *j.template get_ptr<const float_t*>();
                if (!BJData && !std::isfinite(d)) {
                    // UBJSON Draft 12 "Numeric": infinity and NaN "are to be encoded as a null";
                    // 3.11.2 writes D and the IEEE bits (ubjson-nonfinite-as-null)
                    if (marked) {
                        sink_.write(std::uint8_t{'Z'});
                    }
                    return;
                }
                number(marked, sizeof(float_t) == 4 ? 'd' : 'D', d);
                return;
            }
            case Json::value_t::string: text(marked, *j.template get_ptr<const string_t*>(), "string"); return;
            case Json::value_t::binary: write_binary(j.get_binary(), marked); return;
            case Json::value_t::discarded:
                // 3.11.2 writes nothing, leaving a counted container one element short
                throw type_error(error_id::discarded_value, BJData ? "a discarded value has no BJData encoding"
                                                                   : "a discarded value has no UBJSON encoding");
            case Json::value_t::array:
            case Json::value_t::object: return;  // the walker calls open() for these
        }
    }

    [[gnu::always_inline]] bool open(const Json& j, frame_type& f, frame_type* parent) {
        const bool marked = parent == nullptr || parent->aux == 0;
        if constexpr (BJData) {
            // only an object of exactly three members can be an ND-array (bjdata_classify);
            // tested here, inline, most objects cost no call
            if (f.is_object() && j.size() == 3 && write_ndarray(j)) {
                return false;
            }
        }
        if (counted_) {
            return open_counted(j, f, marked);
        }
        // no count, hence no '$' either (checked on entry): the opening marker, and the end
        // marker at once when there is nothing in between
        const std::uint8_t open_marker = f.is_object() ? '{' : '[';
        f.aux = 0;
        if (!j.empty()) {
            if (marked) {
                sink_.write(open_marker);
            }
            return true;
        }
        const std::uint8_t close_marker = f.is_object() ? '}' : ']';
        if (marked) {
            put_marker<true>(sink_, open_marker, close_marker);
        } else {
            sink_.write(close_marker);
        }
        return false;
    }

    [[gnu::always_inline]] void member(frame_type& f, const Json&) {
        if (f.key != nullptr) {
            text(false, *f.key, "object key");  // keys carry no S (UBJSON Draft 12 "Object")
        }
    }

    void close(frame_type& f) {
        // a count replaces the end marker (UBJSON Draft 12 "Additional rules")
        if (!counted_) {
            sink_.write(f.is_object() ? std::uint8_t{'}'} : std::uint8_t{']'});
        }
    }

private:
    /// v with its marker m (none when !marked: the enclosing '$' says it) in the format's byte
    /// order (BJData Draft 2 "Integer", "Float": little-endian), in one write of constant size.
    template <class T>
    [[gnu::always_inline]] void number(bool marked, std::uint8_t m, T v) {
        if constexpr (!BJData && sizeof(T) == 8) {
            if (m == 'H') {
                high_precision(static_cast<std::uint64_t>(v), marked);
                return;
            }
        }
        if (marked) {
            put_marker<!BJData>(sink_, m, v);
        } else {
            std::uint8_t buf[sizeof(T)];
            store_ordered<!BJData>(buf, v);
            sink_.write(buf, sizeof buf);
        }
    }

    /// number() as the ladder's callback, inlined by force: out of line (as a lambda's call
    /// operator was), each number paid a call (callgrind).
    struct put_number {
        ubjson_writer& writer;
        bool marked;
        template <class T>
        [[gnu::always_inline]] void operator()(std::uint8_t m, T v) const {
            writer.number(marked, m, v);
        }
    };

    void high_precision(std::uint64_t n, bool marked) {
        std::uint8_t buf[24];
        sink_.write(buf, ubjson_store_unsigned<BJData>(buf, n, marked));
    }

    /// A counted container's header: marker, '$' and type when its elements share one, '#' and
    /// the count. Empty containers never get '$' (3.11.2).
    bool open_counted(const Json& j, frame_type& f, bool marked) {
        const std::size_t count = j.size();
        const std::uint8_t type = typed_ && count != 0 ? ubjson_common_type<BJData>(j) : 0;
        const std::uint8_t open_marker = f.is_object() ? '{' : '[';
        std::uint8_t buf[32];
        sink_.write(buf, ubjson_store_header<BJData>(buf, marked ? open_marker : 0, type, true, count));
        f.aux = type;
        return count != 0;
    }

    // UBJSON Draft 12 and BJData Draft 2 "String": UTF-8 required; 3.11.2 copies any bytes
    // (invalid-utf8). A short string goes out whole in one write: its length takes i (0..127),
    // so the header is a constant composed in a register, and the contents are copied without a
    // call (ubjson_copy_short). A long one goes into the room of a sink that lends it, checked as it
    // is copied (write_text_in_room); otherwise the header in constant-size writes, then the bytes.
    [[gnu::always_inline]] void text(bool with_marker, const string_t& s, const char* what) {
        const std::size_t n = s.size();
        if (n <= short_text) {
            require_utf8(s, what);
            std::uint8_t buf[3 + short_text];
            const std::uint32_t head = with_marker ? 'S' | 'i' << 8 | static_cast<std::uint32_t>(n) << 16
                                                   : 'i' | static_cast<std::uint32_t>(n) << 8;
            const std::size_t h = with_marker ? 3 : 2;
            store_le(buf, head);  // one store; the contents overwrite what is past h
            ubjson_copy_short(buf + h, s.data(), n);
            sink_.write(buf, h + n);
            return;
        }
        if constexpr (lends_room<Sink>::value) {
            if (n >= utf8_copy_from) {
                std::uint8_t h[32];  // 'S', a length marker and at most 8 bytes (UBJSON's H form: digits)
                h[0] = 'S';
                const std::size_t k = with_marker ? 1 : 0;
                const std::size_t length = k + ubjson_store_unsigned<BJData>(h + k, n, true);
                if (write_text_in_room(sink_, h, length, s, what)) {
                    return;
                }
            }
        }
        require_utf8(s, what);
        if (with_marker) {
            sink_.write(std::uint8_t{'S'});
        }
        ubjson_unsigned_ladder<BJData>(n, put_number{*this, true});
        sink_.write(reinterpret_cast<const std::uint8_t*>(s.data()), n);
    }

    /// The longest string text() writes in one piece (most keys and many values).
    static constexpr std::size_t short_text = 32;

    // Binary is an array of uint8 (UBJSON Draft 12 "Data Format" notes; the subtype is lost):
    // [U b U b ...] plainly, [$U#n raw bytes] typed (BJData Draft 2 too; 3.11.2 does not use B).
    void write_binary(const typename Json::binary_t& b, bool marked) {
        ubjson_chunk<Sink> out(sink_);
        const std::uint8_t type = typed_ && !b.empty() ? 'U' : 0;
        out.commit(ubjson_store_header<BJData>(out.room(32), marked ? '[' : 0, type, counted_, b.size()));
        if (typed_) {
            out.flush();
            if (!b.empty()) {
                sink_.write(b.data(), b.size());
            }
        } else {
            for (const std::uint8_t byte : b) {
                std::uint8_t* p = out.room(2);
                p[0] = 'U';
                p[1] = byte;
                out.commit(2);
            }
        }
        if (!counted_) {
            out.put(']');
        }
        out.flush();
    }

    /// Writes j as a BJData ND-array when 3.11.2 would and the data are sound; false when j is
    /// to be written as an ordinary object.
    bool write_ndarray(const Json& j) {
        const ndarray_view<Json> view = bjdata_classify(j);
        switch (view.verdict) {
            case ndarray_verdict::not_ndarray:
            case ndarray_verdict::invalid: return false;
            case ndarray_verdict::non_string_type:
                throw type_error(
                    302, std::string("_ArrayType_ must be a string, but is ") + j.find("_ArrayType_")->type_name());
            case ndarray_verdict::valid:
            case ndarray_verdict::punned_float: break;
        }
        const std::uint8_t elem = view.type->marker;
        ubjson_chunk<Sink> out(sink_);
        std::uint8_t* p = out.room(4);
        p[0] = '[';
        p[1] = '$';
        p[2] = elem;
        p[3] = '#';
        out.commit(4);

        // The dimensions as an ordinary array written with the current options: 3.11.2 quirk,
        // also with use_size off ("#[i\x02i\x03]") and also for one dimension ("#[i\x03]"),
        // both of which BJData Draft 2 admits (Ndim may be any count).
        const auto& dims = view.size->template get_ref<const typename Json::array_t&>();
        const std::uint8_t dim_type = typed_ && !dims.empty() ? ubjson_common_type<BJData>(*view.size) : 0;
        out.commit(ubjson_store_header<BJData>(out.room(32), '[', dim_type, counted_, dims.size()));
        for (const auto& d : dims) {
            const auto n = d.template get<std::uint64_t>();
            out.commit(ubjson_store_unsigned<BJData>(out.room(32), n, dim_type == 0));
        }
        if (!counted_) {
            out.put(']');
        }

        // The elements, little-endian without markers. Floats are converted from whatever number
        // the element holds (3.11.2 reads the double member of an integer: punned-float).
        for (const auto& v : view.data->template get_ref<const typename Json::array_t&>()) {
            std::uint8_t* q = out.room(8);
            const std::uint64_t bits = elem == 'd'   ? ubjson_float_bits(v.template get<float>())
                                       : elem == 'D' ? ubjson_float_bits(v.template get<double>())
                                                     : bjdata_integer_bits(v);
            store_le(q, bits);  // all 8 bytes, one store; only the element's width is kept
            out.commit(ubjson_width(elem));
        }
        out.flush();
        return true;
    }

    Sink& sink_;
    bool counted_;
    bool typed_;
};

/// Both formats' encoder. use_type without use_size is refused before anything is written:
/// UBJSON Draft 12 / BJData Draft 2 "Additional rules": "If a type is specified, a count must
/// also be specified"; 3.11.2 asserts or writes '$' with no '#' (ubjson-type-without-size).
template <bool BJData, class Json, class Sink>
void ubjson_family_encode(const Json& j, Sink& sink, const encode_options& options) {
    if (options.use_type && !options.use_size) {
        throw std::invalid_argument(std::string(BJData ? "BJData" : "UBJSON") +
                                    ": use_type needs use_size (a '$' type must be followed by a '#' count)");
    }
    ubjson_writer<Json, Sink, BJData> writer(sink, options);
    walker<Json> walk;
    walk.run(j, writer, options.marks);
}

/// The divergence id that applies to j; see ubjson_divergence / bjdata_divergence.
template <bool BJData, class Json>
const char* ubjson_family_divergence(const Json& j, const encode_options& options) {
    if (options.use_type && !options.use_size) {
        return "ubjson-type-without-size";
    }
    const char* id = nullptr;
    any_node(j, [&id](const Json& node, const typename Json::string_t* key) {
        const auto invalid_text = [](const typename Json::string_t& s) { return utf8_invalid_at(s) != utf8_valid; };
        if (key != nullptr && invalid_text(*key)) {
            id = "invalid-utf8";
        } else if (node.is_string()) {
            id = invalid_text(node.template get_ref<const typename Json::string_t&>()) ? "invalid-utf8" : nullptr;
        } else if (node.is_discarded()) {
            id = "discarded-value";
        } else if (!BJData && node.is_number_float() &&
                   !std::isfinite(*node.template get_ptr<const typename Json::number_float_t*>())) {
            id = "ubjson-nonfinite-as-null";
        } else if (BJData && node.is_object()) {
            const auto view = bjdata_classify(node);
            if (view.verdict == ndarray_verdict::punned_float) {
                id = "bjdata-ndarray-punned-float";
            } else if (view.verdict == ndarray_verdict::invalid && !bjdata_3112_writes_object(view)) {
                id = "bjdata-ndarray-invalid";
            }
        }
        return id != nullptr;
    });
    return id;
}

}  // namespace detail

/// Writes j as UBJSON (Draft 12) to sink: byte for byte nlohmann 3.11.2's
/// to_ubjson(j, use_size, use_type), except for the divergences ubjson_divergence() names,
/// which throw encode_error (with the pointer) or write valid bytes instead.
/// use_type without use_size throws std::invalid_argument before writing anything.
template <class Json, class Sink>
void encode_ubjson(const Json& j, Sink& sink, const encode_options& options = {}) {
    detail::ubjson_family_encode<false>(j, sink, options);
}

/// The KNOWN_DIVERGENCES id that applies to j in UBJSON with these options ("invalid-utf8",
/// "discarded-value", "ubjson-nonfinite-as-null", "ubjson-type-without-size"), or nullptr when
/// encode_ubjson writes what 3.11.2 writes. When several apply, the first offending node in
/// writing order, a key before its value.
template <class Json>
const char* ubjson_divergence(const Json& j, const encode_options& options = {}) {
    return detail::ubjson_family_divergence<false>(j, options);
}

}  // namespace sinkcheck
