// The encoders compiled once over any_sink (sinkcheck/testkit/any_sink.hpp) against the encoders
// templated on the sink: the same calls, with the same arguments, in the same order, the same
// exception at the same call, in every format; and, through every built-in sink, the same bytes
// as the direct instantiation (one format: what differs between sinks is below the encoder).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/testkit/any_sink.hpp"
#include "sinkcheck/testkit/registry.hpp"

namespace sinkcheck {
namespace {

using json = nlohmann::json;

struct stop_here : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Records every call an encoder makes (one line each), and throws stop_here at call `stop_at`
/// (0: never).
class recording_sink {
public:
    explicit recording_sink(std::size_t stop_at = 0) : stop_at_(stop_at) {}
    void write(std::uint8_t b) {
        call("put " + std::to_string(b));
        ++position_;
    }
    void write(const std::uint8_t* p, std::size_t n) {
        std::string line = "block " + std::to_string(n) + ":";
        for (std::size_t i = 0; i < n; ++i) line += " " + std::to_string(p[i]);
        call(line);
        position_ += n;
    }
    std::size_t position() const {
        calls_.push_back("position " + std::to_string(position_));
        return position_;
    }
    const std::vector<std::string>& calls() const noexcept { return calls_; }

protected:
    void call(std::string line) {
        calls_.push_back(std::move(line));
        if (calls_.size() == stop_at_) throw stop_here("stopped at call " + std::to_string(stop_at_));
    }
    std::size_t position_ = 0;

private:
    std::size_t stop_at_;
    mutable std::vector<std::string> calls_;
};

class seekable_recording_sink : public recording_sink {
public:
    using recording_sink::recording_sink;
    void seek(std::size_t to) {
        call("seek " + std::to_string(to));
        position_ = to;
    }
};

/// What happened: the calls, then how the encoding ended.
template <class Sink, class Encode>
std::vector<std::string> run(std::size_t stop_at, Encode&& encode) {
    Sink sink(stop_at);
    std::string end = "completed";
    try {
        encode(sink);
    } catch (const stop_here& e) {
        end = std::string("stop_here: ") + e.what();
    } catch (const encode_error& e) {
        end = "refused " + std::to_string(e.id()) + " at '" + e.pointer() + "'";
    }
    std::vector<std::string> out = sink.calls();
    out.push_back(end);
    return out;
}

std::vector<json> documents() {
    std::vector<json> out;
    out.push_back(json::object());
    out.push_back(json{{"a", 1}, {"b", json::array({true, false, nullptr, -1, 1.5, "x"})}});
    out.push_back(json{{"long", std::string(70000, 'q')}, {"nested", json{{"deep", json::array({json::array({1})})}}}});
    out.push_back(json{{"bytes", json::binary({1, 2, 3, 255})}, {"big", std::uint64_t{18446744073709551615u}}});
    json many = json::array();
    for (int i = 0; i < 300; ++i) many.push_back(json{{"k" + std::to_string(i), i * 1000003}});
    out.push_back(json{{"many", many}});
    out.push_back(json{{"bad", std::string("\xff\xfe")}});  // refused: not UTF-8
    return out;
}

std::vector<encode_options> options_for(format f) {
    std::vector<encode_options> out{encode_options{}};
    if (takes_container_shape(f)) {
        encode_options typed;
        typed.use_size = true;
        typed.use_type = true;
        out.push_back(typed);
    }
    if (f == format::bson) {
        encode_options patched;
        patched.bson_patch_lengths = true;
        out.push_back(patched);
    }
    return out;
}

template <class Sink>
void expect_same_calls(format f, const json& doc, const encode_options& o, std::size_t stop_at) {
    const auto direct = run<Sink>(stop_at, [&](Sink& s) { encode(f, doc, s, o); });
    const auto erased = run<Sink>(stop_at, [&](Sink& s) { testkit::encode_any(f, doc, s, o); });
    ASSERT_EQ(direct, erased) << format_name(f) << " " << doc.dump().substr(0, 80) << ", stop at call " << stop_at;
}

TEST(AnySink, MakesTheCallsOfTheEncoderTemplatedOnTheSinkInEveryFormat) {
    std::size_t compared = 0;
    for (format f : all_formats) {
        for (const encode_options& o : options_for(f)) {
            for (const json& doc : documents()) {
                const bool patched = o.bson_patch_lengths;
                const std::size_t calls =
                    patched ? run<seekable_recording_sink>(0, [&](auto& s) { encode(f, doc, s, o); }).size()
                            : run<recording_sink>(0, [&](auto& s) { encode(f, doc, s, o); }).size();
                // completed, then a throw at the first, a middle and the last call (calls counts
                // the line that says how the run ended too)
                std::vector<std::size_t> stops{0};
                if (calls > 1) stops.insert(stops.end(), {1, (calls - 1 + 1) / 2, calls - 1});
                for (const std::size_t stop : stops) {
                    if (patched) {
                        expect_same_calls<seekable_recording_sink>(f, doc, o, stop);
                    } else {
                        expect_same_calls<recording_sink>(f, doc, o, stop);
                        expect_same_calls<seekable_recording_sink>(f, doc, o, stop);
                    }
                    ++compared;
                }
            }
        }
    }
    EXPECT_GE(compared, 150u);
}

TEST(AnySink, SeeksOnlyWhereTheSinkCanSeek) {
    // without seek(), patched lengths are refused as they are by the template
    recording_sink plain;
    encode_options patched;
    patched.bson_patch_lengths = true;
    EXPECT_THROW(testkit::encode_any(format::bson, json{{"a", 1}}, plain, patched), std::invalid_argument);
    static_assert(!testkit::has_seek<recording_sink>::value);
    static_assert(testkit::has_seek<seekable_recording_sink>::value);
    static_assert(std::is_base_of_v<testkit::any_seekable_sink, testkit::sink_ref<seekable_recording_sink>>);
    static_assert(!std::is_base_of_v<testkit::any_seekable_sink, testkit::sink_ref<recording_sink>>);
}

TEST(AnySink, EveryBuiltInSinkHoldsTheBytesOfTheDirectInstantiation) {
    for (const sink_info& s : all_sinks()) {
        for (const json& doc : documents()) {
            const sink_faults capture{0, 0, true};
            const sink_run direct = run_sink_with(
                s.name, 0, [&](auto& sink) { encode_as<format::cbor>(doc, sink); }, capture);
            const sink_run erased = run_sink(s.name, 0, format::cbor, doc, encode_options{}, capture);
            EXPECT_EQ(direct.bytes, erased.bytes) << s.name;
            EXPECT_EQ(direct.size, erased.size) << s.name;
            EXPECT_EQ(direct.capacities, erased.capacities) << s.name;
            EXPECT_EQ(direct.allocations, erased.allocations) << s.name;
            EXPECT_EQ(direct.error == nullptr, erased.error == nullptr) << s.name;
        }
    }
}

}  // namespace
}  // namespace sinkcheck
