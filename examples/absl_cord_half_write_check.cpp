// A broken sink, kept to show that the kit's default properties catch it behind absl::Cord as
// behind std::string (string_half_write_check.cpp): a block write appended in two steps, so an
// allocation of a flat node that fails in the second step leaves half a write in the Cord.
// CMakeLists.txt registers this check with EXPECT_CAUGHT.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <absl/strings/cord.h>
#include <absl/strings/string_view.h>
#include <sinkcheck/testkit/check_sink.hpp>

namespace {

struct cord_half_write_sink {
    absl::Cord& c;
    void write(std::uint8_t b) { c.Append(absl::string_view(reinterpret_cast<const char*>(&b), 1)); }
    void write(const std::uint8_t* p, std::size_t n) {
        const std::size_t half = n / 2;
        const char* text = reinterpret_cast<const char*>(p);
        c.Append(absl::string_view(text, half));  // the bug: a throw below keeps this half
        c.Append(absl::string_view(text + half, n - half));
    }
    std::size_t position() const { return c.size(); }
};

struct cord_half_write_traits {
    static constexpr const char* name = "absl::Cord, a block write in two appends";
    using target = absl::Cord;
    static constexpr bool allocates = true;
    static cord_half_write_sink make(target& c) { return {c}; }
    static std::vector<std::uint8_t> contents(target& c) {
        const std::string s(c);
        return {s.begin(), s.end()};
    }
};

}  // namespace

SINKCHECK_SINK_PROPERTIES(AbslCordHalfWrite, cord_half_write_traits);
