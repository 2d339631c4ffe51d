// fmt's memory_buffer (libfmt-dev 9.1) as an encoder's output, under the sinkcheck test kit.
//
// basic_memory_buffer keeps SIZE bytes inline and grows on the heap through its allocator, here
// sinkcheck's tracing allocator, so the kit can count its allocations, fail any of them and check
// for leaks. Its growth rule is fmt's own (format.h, basic_memory_buffer::grow): the new
// capacity is max(needed, 1.5 x capacity), the first heap buffer included. The traits declare
// that rule and the kit checks the buffer follows it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <sinkcheck/testkit/check_sink.hpp>

namespace {

using sinkcheck::testkit::run_setup;
using buffer = fmt::basic_memory_buffer<char, 500, sinkcheck::tracing_allocator<char>>;

/// The protocol the encoders write to, over a memory_buffer.
class memory_buffer_sink {
public:
    explicit memory_buffer_sink(buffer& b) : b_(&b) {}
    void write(std::uint8_t c) { b_->push_back(static_cast<char>(c)); }
    void write(const std::uint8_t* p, std::size_t n) { b_->append(p, p + n); }
    std::size_t position() const { return b_->size(); }

private:
    buffer* b_;
};

struct one_and_a_half {
    static constexpr std::string_view description = "fmt 9: max(needed, 1.5 x capacity) past 500 inline bytes";
    static std::vector<std::size_t> allocations(const std::vector<std::size_t>& writes, const run_setup&) {
        return sinkcheck::testkit::replay_growth(writes, 500,
                                                 [](std::size_t capacity, std::size_t, std::size_t needed) {
                                                     return std::max(needed, capacity + capacity / 2);
                                                 });
    }
};

struct memory_buffer_traits {
    static constexpr const char* name = "fmt::basic_memory_buffer<char, 500>";
    using growth = one_and_a_half;
    struct target {
        buffer b;
        target(const run_setup&, std::shared_ptr<sinkcheck::allocation_log> log)
            : b(sinkcheck::tracing_allocator<char>(std::move(log))) {}
    };
    static memory_buffer_sink make(target& t) { return memory_buffer_sink(t.b); }
    static std::vector<std::uint8_t> contents(target& t) { return {t.b.data(), t.b.data() + t.b.size()}; }
};

}  // namespace

SINKCHECK_SINK_PROPERTIES(FmtMemoryBuffer, memory_buffer_traits);
