// sinkcheck/sink/string_sink.hpp — a caller's std::string grown exactly out of its short buffer (seed 002).
//
// Contract: writes that fit the short (SSO) buffer allocate nothing; the write that leaves it
// allocates exactly the bytes needed (plus the terminator: 30 bytes -> one allocation of 31);
// after that the capacity grows like vector_sink's, to max(needed, 2 * capacity), with no 64-byte
// floor; only `window` bytes ahead of the cursor are resize()d (zero-filled); the destructor trims
// the string to the bytes written — also while unwinding — and never allocates; a throw leaves
// exactly the bytes of the writes that completed.
//
// Like vector_sink it appends after the string's existing contents, and position() counts only
// what it wrote.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "sinkcheck/sink/detail/container_sink.hpp"

namespace sinkcheck {
namespace detail {

struct string_growth {
    template <class String>
    static std::size_t reserve(String& s, std::size_t written, std::size_t needed) {
        const std::size_t capacity = s.capacity();
        if (needed <= capacity) {
            return capacity;
        }
        if (capacity == String(s.get_allocator()).capacity()) {
            // Leaving the short buffer. libstdc++'s reserve() rounds a request below twice the old
            // capacity up to it (16..29 bytes would allocate 31), but the counted constructor
            // allocates exactly: seed 002 wants exactly `needed`.
            String exact(needed, typename String::value_type(), s.get_allocator());
            String::traits_type::copy(&exact[0], s.data(), written);
            s.swap(exact);
        } else {
            s.reserve(geometric_capacity(capacity, needed, 0));
        }
        return s.capacity();
    }
};

}  // namespace detail

template <class CharT = char, class Traits = std::char_traits<CharT>, class Alloc = std::allocator<CharT>>
using basic_string_sink = detail::basic_container_sink<std::basic_string<CharT, Traits, Alloc>, detail::string_growth>;

using string_sink = basic_string_sink<>;

template <class CharT, class Traits, class Alloc>
basic_string_sink<CharT, Traits, Alloc> make_string_sink(std::basic_string<CharT, Traits, Alloc>& s,
                                                         std::size_t window = default_window,
                                                         growth_observer* observer = nullptr) {
    return basic_string_sink<CharT, Traits, Alloc>(s, window, observer);
}

}  // namespace sinkcheck
