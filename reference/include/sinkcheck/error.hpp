// sinkcheck/error.hpp — the exceptions the reference library throws.
//
// Encoder errors mirror nlohmann 3.11.2's categories (type_error, out_of_range) and reuse its
// id numbers where 3.11.2 has one for the same condition; ids from 900 up are sinkcheck's own,
// for conditions where 3.11.2 writes corrupt output instead of throwing (KNOWN_DIVERGENCES.md).
// Every encoder error names the JSON pointer of the offending value. Sink errors and decode
// errors are separate families: a fault injected into a sink must never look like an encoder
// refusal.
#pragma once

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

namespace sinkcheck {

/// An encoder refused a value. what() reads "[sinkcheck.type_error.317] message (at /a/0)".
class encode_error : public std::exception {
public:
    const char* what() const noexcept override { return what_.c_str(); }
    /// "type_error" or "out_of_range".
    const char* category() const noexcept { return category_; }
    int id() const noexcept { return id_; }
    const std::string& message() const noexcept { return message_; }
    /// JSON pointer (RFC 6901) of the value being written; "" is the root.
    const std::string& pointer() const noexcept { return pointer_; }
    bool has_pointer() const noexcept { return has_pointer_; }

    void set_pointer(std::string pointer) {
        pointer_ = std::move(pointer);
        has_pointer_ = true;
        compose();
    }

protected:
    encode_error(const char* category, int id, std::string message)
        : category_(category), id_(id), message_(std::move(message)) {
        compose();
    }

private:
    void compose() {
        what_ = "[sinkcheck." + std::string(category_) + "." + std::to_string(id_) + "] " + message_;
        if (has_pointer_) {
            what_ += " (at '" + pointer_ + "')";
        }
    }

    const char* category_;
    int id_;
    std::string message_;
    std::string pointer_;
    bool has_pointer_ = false;
    std::string what_;
};

/// The value has a type or shape the format cannot hold.
class type_error : public encode_error {
public:
    type_error(int id, std::string message) : encode_error("type_error", id, std::move(message)) {}
};

/// A number, length or subtype is outside what the format can hold.
class out_of_range : public encode_error {
public:
    out_of_range(int id, std::string message) : encode_error("out_of_range", id, std::move(message)) {}
};

/// Error ids that sinkcheck adds where nlohmann 3.11.2 has none (it writes corrupt bytes).
namespace error_id {
inline constexpr int invalid_utf8 = 316;        // same id as 3.11.2's dump() uses
inline constexpr int bson_top_level = 317;      // 3.11.2
inline constexpr int unsigned_too_large = 407;  // 3.11.2 (BSON), PR #2998 (BON8)
inline constexpr int bson_key_nul = 409;        // 3.11.2
inline constexpr int discarded_value = 901;     // sinkcheck: discarded has no encoding
inline constexpr int subtype_too_large = 902;   // sinkcheck: binary subtype does not fit
inline constexpr int length_too_large = 903;    // sinkcheck: length field would overflow
inline constexpr int bson_old_binary = 904;     // sinkcheck: BSON subtype 2 data lacks its int32 length
}  // namespace error_id

/// A sink could not take a write (fixed span full, stream failed, injected fault).
class sink_error : public std::runtime_error {
public:
    sink_error(const std::string& message, std::size_t position) : std::runtime_error(message), position_(position) {}
    /// Bytes successfully written before the failing write.
    std::size_t position() const noexcept { return position_; }

private:
    std::size_t position_;
};

/// A fixed-size sink (span_sink) cannot take a write; nothing of that write was stored.
class sink_overflow : public sink_error {
public:
    sink_overflow(std::size_t position, std::size_t capacity, std::size_t requested)
        : sink_error("sink overflow: a write of " + std::to_string(requested) + " bytes at byte " +
                         std::to_string(position) + " does not fit a capacity of " + std::to_string(capacity) +
                         " bytes",
                     position),
          capacity_(capacity),
          requested_(requested) {}
    std::size_t capacity() const noexcept { return capacity_; }
    std::size_t requested() const noexcept { return requested_; }

private:
    std::size_t capacity_;
    std::size_t requested_;
};

/// Malformed input to a sinkcheck decoder; offset is the byte where the problem was found.
class decode_error : public std::runtime_error {
public:
    decode_error(const std::string& message, std::size_t offset)
        : std::runtime_error("byte " + std::to_string(offset) + ": " + message), offset_(offset), message_(message) {}
    std::size_t offset() const noexcept { return offset_; }
    const std::string& message() const noexcept { return message_; }

private:
    std::size_t offset_;
    std::string message_;
};

}  // namespace sinkcheck
