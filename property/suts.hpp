// property/suts.hpp — the real sinks as "sinks under test" (see harness.hpp for the protocol).
//
// Each adapter says how to build the sink's target with a tracing allocator (so allocations can
// be counted, failed on cue and checked for leaks), how to build the sink over it, and how to read
// back what the target holds: after the sink is destroyed for the sinks that write into a
// caller's container (the trim is part of what is checked), just before for the sinks that own
// their bytes. Names are those of the sink registry (sink/registry.hpp), so a failure names the
// sink as `sinkcheck check` and the fuzzers do. The lists at the bottom are what the properties
// iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/instrument/tracing_allocator.hpp"
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

#include "harness.hpp"

namespace sinkcheck::prop {

using byte_alloc = tracing_allocator<std::uint8_t>;
using traced_bytes = std::vector<std::uint8_t, byte_alloc>;
using traced_string = std::basic_string<char, std::char_traits<char>, tracing_allocator<char>>;

template <class Container>
std::vector<std::uint8_t> bytes_of(const Container& c) {
    std::vector<std::uint8_t> out(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
        out[i] = static_cast<std::uint8_t>(c[i]);
    }
    return out;
}

/// Shared by the sinks that write into a container the caller keeps (and that must be trimmed
/// back to the bytes written when the sink goes).
template <class Container>
struct container_target {
    Container c;
    container_target(const run_setup&, std::shared_ptr<allocation_log> log)
        : c(typename Container::allocator_type(std::move(log))) {}
};

template <class Container>
struct over_container {
    static constexpr bool stores = true;
    using target = container_target<Container>;
    template <class Sink>
    static void capture(Sink&, target&) {}
    static std::vector<std::uint8_t> contents(target& t) { return bytes_of(t.c); }
    /// measured on the container itself, not on what the sink reports
    template <class Sink>
    static std::function<std::size_t()> ahead(Sink& s, target& t) {
        return [&s, &t] { return t.c.size() - s.position(); };
    }
};

struct vector_sink_sut : over_container<traced_bytes> {
    static constexpr const char* name = "vector";
    static constexpr bool windowed = true;
    static basic_vector_sink<byte_alloc> make(target& t, const run_setup& s, growth_observer* o) {
        return basic_vector_sink<byte_alloc>(t.c, s.window, o);
    }
};

struct legacy_vector_sink_sut : over_container<traced_bytes> {
    static constexpr const char* name = "legacy_vector";
    static constexpr bool windowed = false;
    static basic_legacy_vector_sink<byte_alloc> make(target& t, const run_setup&, growth_observer* o) {
        return basic_legacy_vector_sink<byte_alloc>(t.c, o);
    }
};

struct string_sink_sut : over_container<traced_string> {
    static constexpr const char* name = "string";
    static constexpr bool windowed = true;
    using sink_type = basic_string_sink<char, std::char_traits<char>, tracing_allocator<char>>;
    static sink_type make(target& t, const run_setup& s, growth_observer* o) { return sink_type(t.c, s.window, o); }
};

/// The sinks that own their bytes: read them out before the sink is destroyed.
struct owned_bytes_target {
    std::shared_ptr<allocation_log> log;
    std::vector<std::uint8_t> bytes;
    std::vector<std::size_t> chunk_sizes;
    owned_bytes_target(const run_setup&, std::shared_ptr<allocation_log> l) : log(std::move(l)) {}
};

struct owning {
    static constexpr bool stores = true;
    using target = owned_bytes_target;
    static std::vector<std::uint8_t> contents(target& t) { return t.bytes; }
    template <class Sink>
    static std::function<std::size_t()> ahead(Sink&, target&) {
        return {};
    }
};

template <class Writer>
struct memory_writer_like : owning {
    static constexpr bool windowed = true;
    static Writer make(target& t, const run_setup& s, growth_observer* o) {
        Writer w(0, s.window, byte_alloc(t.log));
        w.set_observer(o);
        return w;
    }
    static void capture(Writer& w, target& t) {
        const auto& b = w.bytes();
        t.bytes.assign(b.begin(), b.end());
    }
};

struct memory_writer_sut : memory_writer_like<basic_memory_writer<byte_alloc>> {
    static constexpr const char* name = "memory";
};

struct seekable_memory_writer_sut : memory_writer_like<basic_seekable_memory_writer<byte_alloc>> {
    static constexpr const char* name = "seekable_memory";
};

/// Chunk bounds come from run_setup (first_chunk, max_chunk), so a property can make the cap
/// small enough to be reached by a small document.
struct chunked_sink_sut : owning {
    static constexpr const char* name = "chunked";
    static constexpr bool windowed = false;
    using sink_type = basic_chunked_sink<byte_alloc>;
    static sink_type make(target& t, const run_setup& s, growth_observer*) {
        return sink_type(s.first_chunk, s.max_chunk, byte_alloc(t.log));
    }
    static void capture(sink_type& sink, target& t) {
        t.bytes = sink.flatten();
        t.chunk_sizes.clear();
        for (const auto& c : sink.chunks()) {
            t.chunk_sizes.push_back(c.capacity);
        }
    }
};

struct ostream_sink_sut {
    static constexpr const char* name = "ostream";
    static constexpr bool windowed = false;
    static constexpr bool stores = true;
    struct target {
        std::ostringstream os;
        target(const run_setup&, const std::shared_ptr<allocation_log>&) {}
    };
    static ostream_sink make(target& t, const run_setup&, growth_observer*) { return ostream_sink(t.os); }
    static void capture(ostream_sink&, target&) {}
    static std::vector<std::uint8_t> contents(target& t) { return bytes_of(t.os.str()); }
    static std::function<std::size_t()> ahead(ostream_sink&, target&) { return {}; }
};

/// nlohmann's own vector output adapter behind the virtual protocol.
struct protocol_sink_sut : over_container<traced_bytes> {
    static constexpr const char* name = "protocol";
    static constexpr bool windowed = false;
    static protocol_sink make(target& t, const run_setup&, growth_observer*) {
        return protocol_sink(std::make_shared<nlohmann::detail::output_vector_adapter<std::uint8_t, byte_alloc>>(t.c));
    }
    static std::function<std::size_t()> ahead(protocol_sink&, target&) { return {}; }
};

/// The buffer is prefilled with a sentinel: a byte stored past position() (a write that
/// overflowed and was only partly refused) shows up in contents() as extra bytes.
struct span_sink_sut {
    static constexpr const char* name = "span";
    static constexpr bool windowed = false;
    static constexpr bool stores = true;
    static constexpr std::uint8_t sentinel = 0xA5;
    struct target {
        std::vector<std::uint8_t> buf;
        std::size_t used = 0;
        target(const run_setup& s, const std::shared_ptr<allocation_log>&) : buf(s.span_capacity, sentinel) {}
    };
    static span_sink make(target& t, const run_setup&, growth_observer*) {
        return span_sink(t.buf.data(), t.buf.size());
    }
    static void capture(span_sink& s, target& t) { t.used = s.position(); }
    static std::vector<std::uint8_t> contents(target& t) {
        std::size_t end = t.buf.size();
        while (end > t.used && t.buf[end - 1] == sentinel) {
            --end;
        }
        return {t.buf.begin(), t.buf.begin() + static_cast<std::ptrdiff_t>(end)};
    }
    static std::function<std::size_t()> ahead(span_sink&, target&) { return {}; }
};

struct counting_sink_sut {
    static constexpr const char* name = "counting";
    static constexpr bool windowed = false;
    static constexpr bool stores = false;
    struct target {
        target(const run_setup&, const std::shared_ptr<allocation_log>&) {}
    };
    static counting_sink make(target&, const run_setup&, growth_observer*) { return counting_sink(); }
    static void capture(counting_sink&, target&) {}
    static std::vector<std::uint8_t> contents(target&) { return {}; }
    static std::function<std::size_t()> ahead(counting_sink&, target&) { return {}; }
};

// Defined in suts.cpp, so the encoders are instantiated for every sink in one translation unit.

/// The seekless memory writer: the baseline every other sink is compared with.
const sut_entry& memory_writer_entry();
const sut_entry& vector_sink_entry();
const sut_entry& legacy_vector_sink_entry();
const sut_entry& string_sink_entry();
const sut_entry& chunked_sink_entry();
const sut_entry& seekable_memory_writer_entry();
/// Every real sink, the baseline first.
const std::vector<sut_entry>& all_real_sinks();
/// The sinks that grow a vector by seed 000's rule (max(64, needed, 2 * capacity)).
const std::vector<sut_entry>& vector_rule_sinks();
/// The sinks with a zero-fill window.
const std::vector<sut_entry>& windowed_sinks();

}  // namespace sinkcheck::prop
