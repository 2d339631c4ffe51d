// A broken sink, kept to show that the kit's default properties catch it: a std::string whose
// block write appends in two steps, so an allocation that fails in the second step leaves half a
// write behind it. The allocation comes from global operator new, seen through the kit's hook;
// CMakeLists.txt registers this check with EXPECT_CAUGHT, so it passes only while the failure is
// reported (by TrimsToWrittenBytesWhenWritesThrow, with a throw at an allocation through new).
#include <sinkcheck/testkit/check_sink.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct string_half_write_sink {
    std::string& s;
    void write(std::uint8_t b) { s.push_back(static_cast<char>(b)); }
    void write(const std::uint8_t* p, std::size_t n) {
        const std::size_t half = n / 2;
        s.append(reinterpret_cast<const char*>(p), half);  // the bug: a throw below keeps this half
        s.append(reinterpret_cast<const char*>(p) + half, n - half);
    }
    std::size_t position() const { return s.size(); }
};

struct string_half_write_traits {
    static constexpr const char* name = "std::string, a block write in two appends";
    using target = std::string;
    static constexpr bool allocates = true;
    static string_half_write_sink make(target& s) { return {s}; }
    static std::vector<std::uint8_t> contents(target& s) { return {s.begin(), s.end()}; }
};

SINKCHECK_SINK_PROPERTIES(StringHalfWrite, string_half_write_traits);
