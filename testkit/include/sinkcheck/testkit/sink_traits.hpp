// sinkcheck/testkit/sink_traits.hpp — how the test kit sees a sink: one traits struct per sink.
//
// Every sink the kit checks, sinkcheck's own (sinks.hpp) and a user's, is described by one traits
// struct: its name, how to build its target (with the tracing allocator's log, so allocations can
// be counted and failed on cue) and the sink over it, how to read back what the target holds, and
// what it promises (a window, seeking, a growth rule). Only `name`, `target`, `make` and
// `contents` are required; sink_traits<T> fills in the rest with defaults, so a user's traits
// struct is a few lines. The properties, the fuzz targets, the sink registry and the CLI all
// read sinks through sink_traits<T>, so what a sink promises is written once, here.
//
//   struct my_traits {                                  // the minimal form
//       static constexpr const char* name = "my_buffer";
//       struct target { my_buffer b; };                 // default-constructible, or built from
//                                                       // (const run_setup&, shared_ptr<allocation_log>)
//       static my_adapter make(target& t) { return my_adapter(t.b); }  // has write(), position()
//       static std::vector<std::uint8_t> contents(target& t);          // after the sink is gone
//   };
//
// Optional members: `description`; `windowed` (the run_setup window means something);
// `stores` (false: only position() can be compared); `fixed_capacity` (writes past
// run_setup::span_capacity throw); `appends` (the target can hold bytes before the sink is made:
// its constructor fills it with run_setup::existing, and the sink writes after them); `streams`
// (the sink writes into a stream that its target makes fail at run_setup::stream_limit bytes); `make(target&, const run_setup&, growth_observer*)`; `capture(sink&, target&)` (read owned bytes before the sink
// dies); `ahead(sink&, target&)` (bytes writable past the cursor, measured on the target);
// `using growth = <rule>` (a struct with `description` and `allocations(writes, setup)`, such as
// vector_doubling below); `room(sink&, target&)` (bytes the sink takes without allocating: a write
// that fits must allocate nothing); `check_consistency(sink&, target&)` (a string saying what is
// inconsistent in its state, "" when nothing is; called after every write, as folly's
// checkConsistency); `check_moved_from(const sink&)` (the same for a sink right after it was moved
// from, for a sink that promises something of that state; the C++ default is "valid but
// unspecified", so without one nothing is asked); `allocates` (the sink's target allocates,
// through the tracing allocator or operator new: TrimsToWrittenBytesWhenWritesThrow fails when it
// saw no allocation to fail, instead of only saying so); `finish(sink&, target&)` (the step after
// the last write that hands over what the sink keeps, such as a flush: the kit calls it once the
// writes of a run have returned, and a failure it finds is thrown from it as sink_error);
// `buffers` (a streaming sink keeps up to this many written bytes before they reach its stream,
// so a failure of the stream may surface at a later write, or at finish(), instead of at the write
// that met it; 0, the default, promises the write that met it throws). A sink is seekable when the
// object make() returns has seek(pos), movable when it is move-constructible (the move properties
// run on it).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "sinkcheck/options.hpp"
#include "sinkcheck/sink/detail/container_sink.hpp"  // default_window, unlimited_window
#include "sinkcheck/sink/growth_observer.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"

namespace sinkcheck::testkit {

inline constexpr std::size_t none = static_cast<std::size_t>(-1);

/// The window sizes every windowed sink is run with (the last one: unlimited).
inline const std::vector<std::size_t>& window_sizes() {
    static const std::vector<std::size_t> v = {1, 7, 64, 4096, 65536, unlimited_window};
    return v;
}

inline std::string window_name(std::size_t w) {
    return w == unlimited_window ? std::string("unlimited") : std::to_string(w);
}

/// The parameters of one run: the sink's window and bounds, and the failure to inject.
struct run_setup {
    std::size_t window = default_window;
    /// chunked sinks: first chunk size and cap
    std::size_t first_chunk = 2048;
    std::size_t max_chunk = 65536;
    /// fixed-capacity sinks: the buffer size
    std::size_t span_capacity = std::size_t(1) << 22;
    /// the k-th allocation of the target (1-based) throws std::bad_alloc; 0: none
    std::size_t alloc_fault = 0;
    /// the k-th allocation the sink makes through global operator new (1-based) throws; 0: none
    /// (global_new.hpp: seen only where the kit's replacement is linked)
    std::size_t new_fault = 0;
    /// the k-th write call (1-based) throws injected_fault before reaching the sink; 0: none
    std::size_t write_fault = 0;
    /// appending sinks: what the target already holds when the sink is made over it
    std::vector<std::uint8_t> existing;
    /// stream sinks: the stream fails once it holds this many bytes; none: never
    std::size_t stream_limit = none;
};

/// "[64, 128, ...]": sizes for a report, the first 16 of a long list.
inline std::string list_of(const std::vector<std::size_t>& v) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i > 0) {
            out += ", ";
        }
        if (i == 16 && v.size() > 20) {
            out += "... " + std::to_string(v.size()) + " in all";
            break;
        }
        out += std::to_string(v[i]);
    }
    return out + "]";
}

// ---------------------------------------------------------------------------------------------
// Growth rules: the allocation sizes a sink must make for a sequence of write lengths.

/// The allocation sizes of a buffer that starts with `capacity` bytes (0, or a short buffer)
/// and, whenever a write does not fit, takes next(capacity, size, needed) bytes (plus `extra`,
/// such as a string's terminator): the shape of every contiguous growth rule.
template <class Next>
std::vector<std::size_t> replay_growth(const std::vector<std::size_t>& writes, std::size_t capacity, Next next,
                                       std::size_t extra = 0) {
    std::vector<std::size_t> allocations;
    std::size_t size = 0;
    for (std::size_t n : writes) {
        if (size + n > capacity) {
            capacity = next(capacity, size, size + n);
            allocations.push_back(capacity + extra);
        }
        size += n;
    }
    return allocations;
}

/// 2 x capacity, or `needed` where doubling would overflow.
inline std::size_t doubled(std::size_t capacity, std::size_t needed) {
    return capacity <= std::numeric_limits<std::size_t>::max() / 2 ? 2 * capacity : needed;
}

/// Seed 000: an empty vector grows to max(64, needed), then to max(needed, 2 * capacity)
/// whenever a write does not fit.
struct vector_doubling {
    static constexpr std::string_view description = "seed 000: max(64, needed, 2 x capacity)";
    static std::vector<std::size_t> allocations(const std::vector<std::size_t>& writes, const run_setup&) {
        return replay_growth(writes, 0, [](std::size_t cap, std::size_t, std::size_t needed) {
            return std::max<std::size_t>(64, std::max(needed, doubled(cap, needed)));
        });
    }
};

/// Seed 002: leaving a short buffer of `short_capacity` bytes allocates exactly needed + 1
/// (the terminator); later growths go to max(needed, 2 * capacity).
inline std::vector<std::size_t> string_rule(const std::vector<std::size_t>& writes, std::size_t short_capacity) {
    return replay_growth(
        writes, short_capacity,
        [short_capacity](std::size_t cap, std::size_t, std::size_t needed) {
            return cap == short_capacity ? needed : std::max(needed, doubled(cap, needed));
        },
        1);
}

/// Seed 003: a write that does not fit fills the current chunk and goes on in a new one of the
/// next size (doubled from run_setup::first_chunk up to max_chunk), or the next power-of-two
/// multiple of it that holds the rest.
struct chunk_doubling {
    static constexpr std::string_view description = "seed 003: chunks double from the first up to the cap";
    static std::vector<std::size_t> allocations(const std::vector<std::size_t>& writes, const run_setup& s) {
        std::vector<std::size_t> chunks;
        std::size_t next = s.first_chunk;
        std::size_t room = 0;
        for (std::size_t n : writes) {
            if (n <= room) {
                room -= n;
                continue;
            }
            const std::size_t rest = n - room;
            std::size_t size = next;
            while (size < rest) {
                size *= 2;
            }
            chunks.push_back(size);
            room = size - rest;
            next = next <= s.max_chunk / 2 ? 2 * next : s.max_chunk;
        }
        return chunks;
    }
};

// ---------------------------------------------------------------------------------------------
// Detection of the optional members.

namespace detail {

template <class T, class = void>
struct has_description : std::false_type {};
template <class T>
struct has_description<T, std::void_t<decltype(T::description)>> : std::true_type {};

#define SINKCHECK_TESTKIT_FLAG(member, fallback)                      \
    template <class T, class = void>                                  \
    struct flag_##member : std::integral_constant<bool, fallback> {}; \
    template <class T>                                                \
    struct flag_##member<T, std::void_t<decltype(T::member)>> : std::integral_constant<bool, bool(T::member)> {};
SINKCHECK_TESTKIT_FLAG(windowed, false)
SINKCHECK_TESTKIT_FLAG(stores, true)
SINKCHECK_TESTKIT_FLAG(fixed_capacity, false)
SINKCHECK_TESTKIT_FLAG(appends, false)
SINKCHECK_TESTKIT_FLAG(streams, false)
SINKCHECK_TESTKIT_FLAG(allocates, false)
#undef SINKCHECK_TESTKIT_FLAG

template <class T, class = void>
struct buffered_bytes : std::integral_constant<std::size_t, 0> {};
template <class T>
struct buffered_bytes<T, std::void_t<decltype(T::buffers)>> : std::integral_constant<std::size_t, T::buffers> {};

template <class T, class = void>
struct growth_of {
    using type = void;
};
template <class T>
struct growth_of<T, std::void_t<typename T::growth>> {
    using type = typename T::growth;
};

template <class Sink, class = void>
struct can_seek : std::false_type {};
template <class Sink>
struct can_seek<Sink, std::void_t<decltype(std::declval<Sink&>().seek(std::size_t{}))>> : std::true_type {};

template <class Target, class = void>
struct has_chunks : std::false_type {};
template <class Target>
struct has_chunks<Target, std::void_t<decltype(std::declval<Target&>().chunk_sizes)>> : std::true_type {};

template <class T, class = void>
struct full_make : std::false_type {};
template <class T>
struct full_make<T, std::void_t<decltype(T::make(std::declval<typename T::target&>(), std::declval<const run_setup&>(),
                                                 std::declval<growth_observer*>()))>> : std::true_type {};

template <class T, class Sink, class = void>
struct has_capture : std::false_type {};
template <class T, class Sink>
struct has_capture<T, Sink,
                   std::void_t<decltype(T::capture(std::declval<Sink&>(), std::declval<typename T::target&>()))>>
    : std::true_type {};

template <class T, class Sink, class = void>
struct has_finish : std::false_type {};
template <class T, class Sink>
struct has_finish<T, Sink, std::void_t<decltype(T::finish(std::declval<Sink&>(), std::declval<typename T::target&>()))>>
    : std::true_type {};

template <class T, class Sink, class = void>
struct has_room : std::false_type {};
template <class T, class Sink>
struct has_room<T, Sink, std::void_t<decltype(T::room(std::declval<Sink&>(), std::declval<typename T::target&>()))>>
    : std::true_type {};

template <class T, class Sink, class = void>
struct has_consistency : std::false_type {};
template <class T, class Sink>
struct has_consistency<
    T, Sink, std::void_t<decltype(T::check_consistency(std::declval<Sink&>(), std::declval<typename T::target&>()))>>
    : std::true_type {};

template <class T, class Sink, class = void>
struct has_moved_from_check : std::false_type {};
template <class T, class Sink>
struct has_moved_from_check<T, Sink, std::void_t<decltype(T::check_moved_from(std::declval<const Sink&>()))>>
    : std::true_type {};

template <class T, class Sink, class = void>
struct has_ahead : std::false_type {};
template <class T, class Sink>
struct has_ahead<T, Sink, std::void_t<decltype(T::ahead(std::declval<Sink&>(), std::declval<typename T::target&>()))>>
    : std::true_type {};

}  // namespace detail

/// A traits struct with every optional member filled in (see the top of this file).
template <class T>
struct sink_traits {
    using user = T;
    using target_type = typename T::target;
    using growth = typename detail::growth_of<T>::type;

    static std::string_view name() { return T::name; }
    static constexpr bool windowed = detail::flag_windowed<T>::value;
    static constexpr bool stores = detail::flag_stores<T>::value;
    static constexpr bool fixed_capacity = detail::flag_fixed_capacity<T>::value;
    static constexpr bool appends = detail::flag_appends<T>::value;
    static constexpr bool streams = detail::flag_streams<T>::value;
    static constexpr bool allocates = detail::flag_allocates<T>::value;
    static constexpr std::size_t buffers = detail::buffered_bytes<T>::value;
    static constexpr bool has_growth_rule = !std::is_void_v<growth>;
    static constexpr bool reports_chunks = detail::has_chunks<target_type>::value;

    static std::string_view description() {
        if constexpr (detail::has_description<T>::value) {
            return T::description;
        } else {
            return {};
        }
    }

    static std::string_view growth_description() {
        if constexpr (has_growth_rule) {
            return growth::description;
        } else {
            return {};
        }
    }

    /// The target, built from the run's setup and allocation log when it takes them.
    struct holder {
        target_type t;
        holder(const run_setup& s, std::shared_ptr<allocation_log> log) : t(build(s, std::move(log))) {}
        static target_type build(const run_setup& s, std::shared_ptr<allocation_log> log) {
            if constexpr (std::is_constructible_v<target_type, const run_setup&, std::shared_ptr<allocation_log>>) {
                return target_type(s, std::move(log));
            } else {
                (void)s;
                (void)log;
                return target_type{};
            }
        }
    };

    static decltype(auto) make(target_type& t, const run_setup& s, growth_observer* o) {
        if constexpr (detail::full_make<T>::value) {
            return T::make(t, s, o);
        } else {
            (void)s;
            (void)o;
            return T::make(t);
        }
    }

    using sink_type = std::decay_t<decltype(make(std::declval<target_type&>(), std::declval<const run_setup&>(),
                                                 std::declval<growth_observer*>()))>;
    static constexpr bool seekable = detail::can_seek<sink_type>::value;

    static void capture(sink_type& sink, target_type& t) {
        if constexpr (detail::has_capture<T, sink_type>::value) {
            T::capture(sink, t);
        } else {
            (void)sink;
            (void)t;
        }
    }

    static constexpr bool finishes = detail::has_finish<T, sink_type>::value;

    /// The step after the last write (traits `finish`); nothing without one.
    static void finish(sink_type& sink, target_type& t) {
        if constexpr (finishes) {
            T::finish(sink, t);
        } else {
            (void)sink;
            (void)t;
        }
    }

    static std::vector<std::uint8_t> contents(target_type& t) {
        if constexpr (stores) {
            return T::contents(t);
        } else {
            (void)t;
            return {};
        }
    }

    static std::function<std::size_t()> ahead(sink_type& sink, target_type& t) {
        if constexpr (detail::has_ahead<T, sink_type>::value) {
            return T::ahead(sink, t);
        } else {
            (void)sink;
            (void)t;
            return {};
        }
    }

    /// Bytes the sink can take right now without allocating (traits `room`); empty without one.
    static std::function<std::size_t()> room(sink_type& sink, target_type& t) {
        if constexpr (detail::has_room<T, sink_type>::value) {
            return [&sink, &t] { return static_cast<std::size_t>(T::room(sink, t)); };
        } else {
            (void)sink;
            (void)t;
            return {};
        }
    }

    /// What is inconsistent in the sink's state right now, "" when nothing is (traits
    /// `check_consistency`); empty without one.
    static std::function<std::string()> consistency(sink_type& sink, target_type& t) {
        if constexpr (detail::has_consistency<T, sink_type>::value) {
            return [&sink, &t] { return std::string(T::check_consistency(sink, t)); };
        } else {
            (void)sink;
            (void)t;
            return {};
        }
    }

    /// What a sink just moved from breaks of its promise for that state, "" when nothing (traits
    /// `check_moved_from`; always "" without one).
    static std::string moved_from_problem(const sink_type& sink) {
        if constexpr (detail::has_moved_from_check<T, sink_type>::value) {
            return std::string(T::check_moved_from(sink));
        } else {
            (void)sink;
            return {};
        }
    }

    static constexpr bool move_constructible = std::is_move_constructible_v<sink_type>;
    static constexpr bool move_assignable = std::is_move_assignable_v<sink_type>;

    /// The allocations the growth rule expects for these writes (empty without a rule).
    static std::vector<std::size_t> expected_allocations(const std::vector<std::size_t>& writes, const run_setup& s) {
        if constexpr (has_growth_rule) {
            return growth::allocations(writes, s);
        } else {
            (void)writes;
            (void)s;
            return {};
        }
    }
};

/// A list of sinks' traits; for_each_sink calls f(sink_traits<T>{}) for each, in order.
template <class... T>
struct sink_list {
    static constexpr std::size_t size = sizeof...(T);
};

template <class... T, class F>
void for_each_sink(sink_list<T...>, F&& f) {
    (f(sink_traits<T>{}), ...);
}

/// Both lists, concatenated (sinkcheck's own sinks and a user's).
template <class... A, class... B>
sink_list<A..., B...> operator+(sink_list<A...>, sink_list<B...>) {
    return {};
}

}  // namespace sinkcheck::testkit
