// A std::string as an encoder's output, written to with one append() per write, under every
// property of the sinkcheck test kit. std::string allocates through std::allocator, that is
// through global operator new, which the kit's hook sees (ALLOCATIONS new, the default): every
// allocation is counted and, in TrimsToWrittenBytesWhenWritesThrow, made to throw in turn.
// append() gives the strong guarantee ([string.require]/2 makes a throwing modifier leave the
// string unchanged in libstdc++ and libc++ alike), so a throw leaves exactly the earlier writes.
#include <sinkcheck/testkit/check_sink.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct string_append_sink {
    std::string& s;
    void write(std::uint8_t b) { s.push_back(static_cast<char>(b)); }
    void write(const std::uint8_t* p, std::size_t n) { s.append(reinterpret_cast<const char*>(p), n); }
    std::size_t position() const { return s.size(); }
};

struct string_append_traits {
    static constexpr const char* name = "std::string, one append per write";
    using target = std::string;
    // its buffer comes from operator new: a fault property that sees no allocation fails
    static constexpr bool allocates = true;
    static string_append_sink make(target& s) { return {s}; }
    static std::vector<std::uint8_t> contents(target& s) { return {s.begin(), s.end()}; }
};

SINKCHECK_SINK_PROPERTIES(StringAppend, string_append_traits);
