// absl::Cord (libabsl-dev 20220623) as an encoder's output, under the sinkcheck test kit.
//
// A Cord keeps short data inline and longer data in flat nodes it allocates through operator new,
// which the kit's hook counts and fails. This sink appends each write once, as a user would;
// it is kept with EXPECT_CAUGHT (CMakeLists.txt) for what the kit found in the Cord itself: when
// an allocation fails inside Append, the Cord leaks the node it had just made (64 bytes) or keeps
// bytes of the write that threw (docs/testkit.md has the input). absl_cord_half_write_check.cpp
// is the slip of appending a block in two steps, behind the same Cord.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <absl/strings/cord.h>
#include <absl/strings/string_view.h>
#include <sinkcheck/testkit/check_sink.hpp>

namespace {

struct cord_sink {
    absl::Cord& c;
    void write(std::uint8_t b) { c.Append(absl::string_view(reinterpret_cast<const char*>(&b), 1)); }
    void write(const std::uint8_t* p, std::size_t n) {
        c.Append(absl::string_view(reinterpret_cast<const char*>(p), n));
    }
    std::size_t position() const { return c.size(); }
};

struct cord_traits {
    static constexpr const char* name = "absl::Cord, one Append per write";
    using target = absl::Cord;
    static constexpr bool allocates = true;
    static cord_sink make(target& c) { return {c}; }
    static std::vector<std::uint8_t> contents(target& c) {
        const std::string s(c);
        return {s.begin(), s.end()};
    }
};

}  // namespace

SINKCHECK_SINK_PROPERTIES(AbslCord, cord_traits);
