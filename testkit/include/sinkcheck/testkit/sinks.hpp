// sinkcheck/testkit/sinks.hpp — sinkcheck's own sinks, each described once by its traits.
//
// builtin_sinks is the one list of sinks: the registry (`sinkcheck sinks`, `--sink`, `check`),
// every property, fuzz_sink, fuzz_fault and every differential encoder target iterate it, so a
// sink added here is checked everywhere. Each traits struct says how to build the sink's target
// with a tracing allocator (so allocations can be counted, failed on cue and checked for leaks),
// how to build the sink over it and how to read back what the target holds: after the sink is
// destroyed for the sinks that write into a caller's container (the trim is part of what is
// checked), just before for the sinks that own their bytes (sink_traits.hpp has the protocol).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/sink/chunked_sink.hpp"
#include "sinkcheck/sink/counting_sink.hpp"
#include "sinkcheck/sink/legacy_vector_sink.hpp"
#include "sinkcheck/sink/memory_writer.hpp"
#include "sinkcheck/sink/ostream_sink.hpp"
#include "sinkcheck/sink/protocol_sink.hpp"
#include "sinkcheck/sink/seekable_memory_writer.hpp"
#include "sinkcheck/sink/span_sink.hpp"
#include "sinkcheck/sink/string_sink.hpp"
#include "sinkcheck/sink/vector_sink.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"

#include "harness.hpp"

namespace sinkcheck::testkit {

using byte_alloc = tracing_allocator<std::uint8_t>;
using traced_bytes = std::vector<std::uint8_t, byte_alloc>;
using traced_string = std::basic_string<char, std::char_traits<char>, tracing_allocator<char>>;

template <class Container>
std::vector<std::uint8_t> bytes_of(const Container& c) {
    static_assert(sizeof(typename Container::value_type) == 1, "a container of bytes");
    std::vector<std::uint8_t> out(c.size());
    if (!c.empty()) {
        std::memcpy(out.data(), c.data(), c.size());
    }
    return out;
}

/// Shared by the sinks that write into a container the caller keeps (and that must be trimmed
/// back to its earlier contents and the bytes written when the sink goes).
template <class Container>
struct container_target {
    Container c;
    /// what the container held before the sink was made
    std::size_t base;
    container_target(const run_setup& s, std::shared_ptr<allocation_log> log)
        : c(typename Container::allocator_type(std::move(log))), base(s.existing.size()) {
        for (std::uint8_t b : s.existing) {
            c.push_back(static_cast<typename Container::value_type>(b));
        }
    }
};

/// The sinks built on a cursor (sinkcheck/sink/detail/cursor_sink.hpp) promise that a moved-from
/// sink owns nothing: it hands its cursor to the new owner, so it reports position() 0 and a
/// write through it could never land in the new owner's bytes.
struct hands_over_its_cursor {
    template <class Sink>
    static std::string check_moved_from(const Sink& s) {
        if (s.position() == 0) {
            return {};
        }
        return "the moved-from sink still reports position() " + std::to_string(s.position()) +
               " (it kept its cursor, which now points into the new owner's bytes)";
    }
};

/// Floor: a capacity below it is grown on the next growth even when the write would fit (seed
/// 000's 64-byte minimum), so only a capacity of at least Floor counts as room.
template <class Container, std::size_t Floor = 0>
struct over_container {
    static constexpr bool stores = true;
    static constexpr bool appends = true;
    using target = container_target<Container>;
    static std::vector<std::uint8_t> contents(target& t) { return bytes_of(t.c); }
    /// measured on the container itself, not on what the sink reports
    template <class Sink>
    static std::function<std::size_t()> ahead(Sink& s, target& t) {
        return [&s, &t] { return t.c.size() - s.position(); };
    }
    template <class Sink>
    static std::size_t room(Sink& s, target& t) {
        const std::size_t used = t.base + s.position();
        return t.c.capacity() >= Floor && t.c.capacity() > used ? t.c.capacity() - used : 0;
    }
    /// The bytes written live in the container until the sink goes (past them: the window).
    template <class Sink>
    static std::string check_consistency(Sink& s, target& t) {
        if (t.c.size() < t.base + s.position()) {
            return "the container holds " + std::to_string(t.c.size()) + " bytes, fewer than its earlier " +
                   std::to_string(t.base) + " and the " + std::to_string(s.position()) + " written";
        }
        return {};
    }
};

struct vector_sink_traits : over_container<traced_bytes, sinkcheck::detail::min_vector_capacity>,
                            hands_over_its_cursor {
    static constexpr const char* name = "vector";
    static constexpr const char* description =
        "caller's std::vector, geometric growth, zero-fills a window ahead (seed 000)";
    static constexpr bool windowed = true;
    using growth = vector_doubling;
    static basic_vector_sink<byte_alloc> make(target& t, const run_setup& s, growth_observer* o) {
        return basic_vector_sink<byte_alloc>(t.c, s.window, o);
    }
};

struct legacy_vector_sink_traits : over_container<traced_bytes, sinkcheck::detail::min_vector_capacity>,
                                   hands_over_its_cursor {
    static constexpr const char* name = "legacy_vector";
    static constexpr const char* description =
        "caller's std::vector, zero-fills the whole new capacity (before seed 000)";
    using growth = vector_doubling;
    static basic_legacy_vector_sink<byte_alloc> make(target& t, const run_setup&, growth_observer* o) {
        return basic_legacy_vector_sink<byte_alloc>(t.c, o);
    }
    /// Its promise, the seed's "before": every growth zero-fills the whole new capacity, so once a
    /// byte is written the container's size is its capacity until the sink trims it.
    template <class Sink>
    static std::string check_consistency(Sink& s, target& t) {
        std::string problem = over_container::check_consistency(s, t);
        if (problem.empty() && s.position() > 0 && t.c.size() != t.c.capacity()) {
            problem = "the container's size is " + std::to_string(t.c.size()) + " of its capacity " +
                      std::to_string(t.c.capacity()) + ": a growth zero-filled less than the whole capacity";
        }
        return problem;
    }
};

/// Seed 002's rule, with the short buffer of the traced string type.
struct exact_out_of_short_buffer {
    static constexpr std::string_view description = "seed 002: exact out of the short buffer, then doubling";
    static std::vector<std::size_t> allocations(const std::vector<std::size_t>& writes, const run_setup&) {
        return string_rule(writes, traced_string().capacity());
    }
};

struct string_sink_traits : over_container<traced_string>, hands_over_its_cursor {
    static constexpr const char* name = "string";
    static constexpr const char* description =
        "caller's std::string, exact first allocation out of the short buffer (seed 002)";
    static constexpr bool windowed = true;
    using growth = exact_out_of_short_buffer;
    using sink_type = basic_string_sink<char, std::char_traits<char>, tracing_allocator<char>>;
    static sink_type make(target& t, const run_setup& s, growth_observer* o) { return sink_type(t.c, s.window, o); }
};

/// The sinks that own their bytes: read them out before the sink is destroyed.
struct owned_bytes_target {
    std::shared_ptr<allocation_log> log;
    std::vector<std::uint8_t> bytes;
    owned_bytes_target(const run_setup&, std::shared_ptr<allocation_log> l) : log(std::move(l)) {}
};

struct owning {
    static constexpr bool stores = true;
    using target = owned_bytes_target;
    static std::vector<std::uint8_t> contents(target& t) { return t.bytes; }
};

template <class Writer>
struct memory_writer_like : owning, hands_over_its_cursor {
    static constexpr bool windowed = true;
    static Writer make(target& t, const run_setup& s, growth_observer* o) {
        Writer w(0, s.window, byte_alloc(t.log));
        w.set_observer(o);
        return w;
    }
    static std::size_t room(Writer& w, target&) {
        return w.capacity() > w.position() ? w.capacity() - w.position() : 0;  // a seek may pass the capacity
    }
    static void capture(Writer& w, target& t) {
        const auto& b = w.bytes();
        t.bytes.assign(b.begin(), b.end());
    }
};

struct memory_writer_traits : memory_writer_like<basic_memory_writer<byte_alloc>> {
    static constexpr const char* name = "memory";
    static constexpr const char* description = "seekless memory writer (seed 004)";
};

struct seekable_memory_writer_traits : memory_writer_like<basic_seekable_memory_writer<byte_alloc>> {
    static constexpr const char* name = "seekable_memory";
    static constexpr const char* description = "seekable memory writer with overwrite and seek (seed 004)";
};

/// Chunk bounds come from run_setup (first_chunk, max_chunk), so a property can make the cap
/// small enough to be reached by a small document.
/// Also keeps each chunk's capacity (sink_traits reports them where a target has chunk_sizes).
struct chunked_target : owned_bytes_target {
    using owned_bytes_target::owned_bytes_target;
    std::vector<std::size_t> chunk_sizes;
    // What check_consistency summed when it last saw a new chunk: every chunk is checked again
    // when their number changes, the current one after every write.
    std::size_t chunks_seen = 0;
    std::size_t held_before_current = 0;
};

struct chunked_sink_traits : owning, hands_over_its_cursor {
    static constexpr const char* name = "chunked";
    using target = chunked_target;
    static constexpr const char* description = "list of chunks, 2 KiB doubling to 64 KiB (seed 003)";
    using growth = chunk_doubling;
    using sink_type = basic_chunked_sink<byte_alloc>;
    static sink_type make(target& t, const run_setup& s, growth_observer*) {
        return sink_type(s.first_chunk, s.max_chunk, byte_alloc(t.log));
    }
    static std::size_t room(sink_type& sink, target&) {
        if (sink.chunk_count() == 0) {
            return 0;
        }
        const auto last = sink.chunk(sink.chunk_count() - 1);
        return last.capacity - last.size;
    }
    /// The chunks hold exactly position() bytes, none more than it was allocated with. Runs after
    /// every write, so it costs the chunks' number only when that changes (a list of them per write
    /// made a million-write run quadratic).
    static std::string check_consistency(sink_type& sink, target& t) {
        const std::size_t count = sink.chunk_count();
        const auto overfull = [](const auto& c) {
            return "a chunk of " + std::to_string(c.capacity) + " bytes holds " + std::to_string(c.size);
        };
        if (count != t.chunks_seen) {
            t.held_before_current = 0;
            for (std::size_t i = 0; i + 1 < count; ++i) {
                const auto c = sink.chunk(i);
                if (c.size > c.capacity) {
                    return overfull(c);
                }
                t.held_before_current += c.size;
            }
            t.chunks_seen = count;
        }
        std::size_t held = t.held_before_current;
        if (count != 0) {
            const auto c = sink.chunk(count - 1);
            if (c.size > c.capacity) {
                return overfull(c);
            }
            held += c.size;
        }
        if (held != sink.position()) {
            return "the chunks hold " + std::to_string(held) + " bytes, position() is " +
                   std::to_string(sink.position());
        }
        return {};
    }
    static void capture(sink_type& sink, target& t) {
        t.bytes = sink.flatten();
        t.chunk_sizes.clear();
        for (const auto& c : sink.chunks()) {
            t.chunk_sizes.push_back(c.capacity);
        }
    }
};

/// A stream buffer that keeps what it is given and refuses every byte past `limit` (a full
/// device): the stream then sets badbit, as a real one does. It stands for a device, so what it
/// allocates to keep the bytes is the kit's, never counted or failed as the sink's (a sink that
/// flushes into it from its destructor does not allocate there, as with a file).
class limited_streambuf : public std::streambuf {
public:
    explicit limited_streambuf(std::size_t limit) : limit_(limit) {}
    const std::string& str() const noexcept { return bytes_; }

protected:
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) {
            return traits_type::not_eof(c);
        }
        if (bytes_.size() >= limit_) {
            return traits_type::eof();
        }
        const kit_section own;
        bytes_ += traits_type::to_char_type(c);
        return c;
    }
    std::streamsize xsputn(const char* p, std::streamsize n) override {
        const std::size_t room = limit_ - std::min(limit_, bytes_.size());
        const std::size_t take = std::min(room, static_cast<std::size_t>(n));
        const kit_section own;
        bytes_.append(p, take);
        return static_cast<std::streamsize>(take);
    }

private:
    std::size_t limit_;
    std::string bytes_;
};

struct ostream_sink_traits {
    static constexpr const char* name = "ostream";
    static constexpr const char* description = "std::ostream (over a stream buffer that can be made to fail)";
    static constexpr bool streams = true;
    struct target {
        limited_streambuf buf;
        std::ostream os;
        target(const run_setup& s, const std::shared_ptr<allocation_log>&) : buf(s.stream_limit), os(&buf) {}
    };
    static ostream_sink make(target& t, const run_setup&, growth_observer*) { return ostream_sink(t.os); }
    static std::vector<std::uint8_t> contents(target& t) { return bytes_of(t.buf.str()); }
};

/// nlohmann's own vector output adapter behind the virtual protocol.
struct protocol_sink_traits : over_container<traced_bytes> {
    static constexpr const char* name = "protocol";
    static constexpr const char* description = "virtual calls into an nlohmann output adapter (a vector adapter here)";
    static protocol_sink make(target& t, const run_setup&, growth_observer*) {
        return protocol_sink(std::make_shared<nlohmann::detail::output_vector_adapter<std::uint8_t, byte_alloc>>(t.c));
    }
};

/// The buffer is prefilled with a sentinel and has one canary byte past the span_capacity the
/// sink is given: a byte stored past position() (a write that overflowed and was only partly
/// refused, or a limit one byte past the end) shows up in contents() as extra bytes.
struct span_sink_traits {
    static constexpr const char* name = "span";
    static constexpr const char* description =
        "fixed caller buffer, sized exactly by a counting pass; throws on overflow";
    static constexpr bool fixed_capacity = true;
    static constexpr std::uint8_t sentinel = 0xA5;
    struct target {
        std::vector<std::uint8_t> buf;
        std::size_t used = 0;
        target(const run_setup& s, const std::shared_ptr<allocation_log>&) : buf(s.span_capacity + 1, sentinel) {}
    };
    static span_sink make(target& t, const run_setup&, growth_observer*) {
        return span_sink(t.buf.data(), t.buf.size() - 1);
    }
    static void capture(span_sink& s, target& t) { t.used = s.position(); }
    static std::vector<std::uint8_t> contents(target& t) {
        std::size_t end = t.buf.size();
        while (end > t.used && t.buf[end - 1] == sentinel) {
            --end;
        }
        return {t.buf.begin(), t.buf.begin() + static_cast<std::ptrdiff_t>(end)};
    }
};

struct counting_sink_traits {
    static constexpr const char* name = "counting";
    static constexpr const char* description = "counts bytes, stores none (run_sink reports only the size)";
    static constexpr bool stores = false;
    struct target {};
    static counting_sink make(target&) { return counting_sink(); }
};

/// Every sinkcheck sink, in the order the registry lists them. Adding a sink: its header, its
/// unit test and one entry here.
using builtin_sinks = sink_list<vector_sink_traits, legacy_vector_sink_traits, string_sink_traits, chunked_sink_traits,
                                memory_writer_traits, seekable_memory_writer_traits, ostream_sink_traits,
                                protocol_sink_traits, span_sink_traits, counting_sink_traits>;

/// The seekless memory writer: the baseline every other sink is compared with.
using baseline_sink = memory_writer_traits;

}  // namespace sinkcheck::testkit
