// nlohmann_json 3.11.2's own output adapters — vector, string and stream — through its virtual
// output_adapter_protocol, as an encoder's output, under the sinkcheck test kit.
//
// The vector and string adapters append to a container that takes sinkcheck's tracing allocator,
// so the kit sees every allocation; their growth is the standard library's, and the traits state
// libstdc++'s (GCC 12) rules: a vector grows to size + max(size, n), a string to
// max(needed, 2 x capacity) out of its 15-byte short buffer, plus one byte for the terminator.
// The stream adapter writes into an ostringstream, whose allocations the kit cannot see.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <sinkcheck/testkit/check_sink.hpp>

namespace {

using sinkcheck::tracing_allocator;
using sinkcheck::testkit::run_setup;
using log_ptr = std::shared_ptr<sinkcheck::allocation_log>;

/// The protocol the encoders write to, over any output_adapter_protocol<Char>.
template <class Char>
class protocol_sink {
public:
    explicit protocol_sink(nlohmann::detail::output_adapter_t<Char> out) : out_(std::move(out)) {}
    void write(std::uint8_t b) {
        out_->write_character(static_cast<Char>(b));
        ++position_;
    }
    void write(const std::uint8_t* p, std::size_t n) {
        out_->write_characters(reinterpret_cast<const Char*>(p), n);
        position_ += n;
    }
    std::size_t position() const { return position_; }

private:
    nlohmann::detail::output_adapter_t<Char> out_;
    std::size_t position_ = 0;
};

struct libstdcxx_vector_growth {
    static constexpr std::string_view description = "libstdc++ vector: size + max(size, n)";
    static std::vector<std::size_t> allocations(const std::vector<std::size_t>& writes, const run_setup&) {
        return sinkcheck::testkit::replay_growth(writes, 0, [](std::size_t, std::size_t size, std::size_t needed) {
            return size + std::max(size, needed - size);
        });
    }
};

struct libstdcxx_string_growth {
    static constexpr std::string_view description = "libstdc++ string: max(needed, 2 x capacity) + 1 out of 15";
    static std::vector<std::size_t> allocations(const std::vector<std::size_t>& writes, const run_setup&) {
        return sinkcheck::testkit::replay_growth(
            writes, 15,
            [](std::size_t capacity, std::size_t, std::size_t needed) { return std::max(needed, 2 * capacity); }, 1);
    }
};

using traced_vector = std::vector<std::uint8_t, tracing_allocator<std::uint8_t>>;
using traced_string = std::basic_string<char, std::char_traits<char>, tracing_allocator<char>>;

struct vector_adapter_traits {
    static constexpr const char* name = "nlohmann output_vector_adapter";
    using growth = libstdcxx_vector_growth;
    struct target {
        traced_vector v;
        target(const run_setup&, log_ptr log) : v(tracing_allocator<std::uint8_t>(std::move(log))) {}
    };
    static protocol_sink<std::uint8_t> make(target& t) {
        using adapter = nlohmann::detail::output_vector_adapter<std::uint8_t, tracing_allocator<std::uint8_t>>;
        return protocol_sink<std::uint8_t>(std::make_shared<adapter>(t.v));
    }
    static std::vector<std::uint8_t> contents(target& t) { return {t.v.begin(), t.v.end()}; }
};

struct string_adapter_traits {
    static constexpr const char* name = "nlohmann output_string_adapter";
    using growth = libstdcxx_string_growth;
    struct target {
        traced_string s;
        target(const run_setup&, log_ptr log) : s(tracing_allocator<char>(std::move(log))) {}
    };
    static protocol_sink<char> make(target& t) {
        return protocol_sink<char>(std::make_shared<nlohmann::detail::output_string_adapter<char, traced_string>>(t.s));
    }
    static std::vector<std::uint8_t> contents(target& t) { return {t.s.begin(), t.s.end()}; }
};

struct stream_adapter_traits {
    static constexpr const char* name = "nlohmann output_stream_adapter";
    struct target {
        std::ostringstream os;
    };
    static protocol_sink<char> make(target& t) {
        return protocol_sink<char>(std::make_shared<nlohmann::detail::output_stream_adapter<char>>(t.os));
    }
    static std::vector<std::uint8_t> contents(target& t) {
        const std::string s = t.os.str();
        return {s.begin(), s.end()};
    }
};

}  // namespace

SINKCHECK_SINK_PROPERTIES(NlohmannVectorAdapter, vector_adapter_traits);
SINKCHECK_SINK_PROPERTIES(NlohmannStringAdapter, string_adapter_traits);
SINKCHECK_SINK_PROPERTIES(NlohmannStreamAdapter, stream_adapter_traits);
