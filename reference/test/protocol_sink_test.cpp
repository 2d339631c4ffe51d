// protocol_sink and make_output_adapter: the two-way bridge to nlohmann's output adapters,
// proven by nlohmann's own binary_writer writing into every sinkcheck sink.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sink_test_programs.hpp"
#include "sinkcheck/sink/protocol_sink.hpp"
#include "sinkcheck/sink/vector_sink.hpp"
#include "sinkcheck/testkit/registry.hpp"

namespace sinkcheck {
namespace {

using json = nlohmann::json;
using bytes = std::vector<std::uint8_t>;
using nl_writer = nlohmann::detail::binary_writer<json, std::uint8_t>;

/// Counts the calls it receives and keeps the bytes.
class recording_adapter final : public output_protocol {
public:
    void write_character(std::uint8_t c) override {
        ++single_calls;
        out.push_back(c);
    }
    void write_characters(const std::uint8_t* s, std::size_t length) override {
        ++block_calls;
        out.insert(out.end(), s, s + length);
    }
    bytes out;
    std::size_t single_calls = 0;
    std::size_t block_calls = 0;
};

class refusing_adapter final : public output_protocol {
public:
    void write_character(std::uint8_t) override { throw std::runtime_error("refused"); }
    void write_characters(const std::uint8_t*, std::size_t) override { throw std::runtime_error("refused"); }
};

TEST(ProtocolSink, WritesThroughAnNlohmannVectorAdapter) {
    const auto p = test::mixed_program(91, 50000);
    bytes v;
    protocol_sink s{nlohmann::detail::output_adapter<std::uint8_t>(v)};
    test::run_writes(s, p);
    EXPECT_EQ(s.position(), p.bytes().size());
    EXPECT_EQ(v, p.bytes());
}

TEST(ProtocolSink, KeepsSingleBytesAndBlocksApart) {
    auto rec = std::make_shared<recording_adapter>();
    protocol_sink s(rec);
    test::run_writes(s, test::program_of({1, 5, 1, 1, 9}));
    EXPECT_EQ(rec->single_calls, 3u);
    EXPECT_EQ(rec->block_calls, 2u);
    EXPECT_EQ(rec->out, test::program_of({1, 5, 1, 1, 9}).bytes());
}

TEST(ProtocolSink, AThrowPassesThroughWithThePositionBeforeIt) {
    protocol_sink s(std::make_shared<refusing_adapter>());
    EXPECT_THROW(s.write(0x01), std::runtime_error);
    EXPECT_EQ(s.position(), 0u);
}

TEST(ProtocolSink, AdaptersComposeBothWays) {
    const auto p = test::mixed_program(92, 100000);
    bytes v;
    {
        vector_sink inner(v, 32);
        protocol_sink outer(make_output_adapter(inner));
        test::run_writes(outer, p);
    }
    EXPECT_EQ(v, p.bytes());
}

std::vector<json> documents() {
    json big = json::array();
    for (std::uint64_t i = 0; i < 20000; ++i) {
        big.push_back((i * 0x9E3779B97F4A7C15u) >> (1 + i % 63));  // fits int64 (BSON)
    }
    return {
        json::object(),
        json::parse(R"({"a":1,"b":[true,false,null,-1,1.5,"x"],"c":{"d":"text","e":-100000}})"),
        json{{"bin", json::binary(bytes(5000, 0x42), 7)}, {"big", big}},
        json{{"s", std::string(70000, 'w')}, {"n", 3.25}},
    };
}

bytes nlohmann_writes(const std::string& what, const json& j, const std::string& sink) {
    return run_sink_with(sink, 64,
                         [&](auto& s) {
                             nl_writer w(make_output_adapter(s));
                             if (what == "cbor") {
                                 w.write_cbor(j);
                             } else if (what == "msgpack") {
                                 w.write_msgpack(j);
                             } else if (what == "ubjson") {
                                 w.write_ubjson(j, false, false);
                             } else if (what == "ubjson-size-type") {
                                 w.write_ubjson(j, true, true);
                             } else if (what == "bjdata") {
                                 w.write_ubjson(j, true, false, true, true);
                             } else {
                                 w.write_bson(j);
                             }
                         })
        .bytes;
}

bytes nlohmann_to(const std::string& what, const json& j) {
    if (what == "cbor") return json::to_cbor(j);
    if (what == "msgpack") return json::to_msgpack(j);
    if (what == "ubjson") return json::to_ubjson(j);
    if (what == "ubjson-size-type") return json::to_ubjson(j, true, true);
    if (what == "bjdata") return json::to_bjdata(j, true, false);
    return json::to_bson(j);
}

TEST(ProtocolSink, NlohmannBinaryWriterWritesIntoEverySinkcheckSink) {
    std::size_t checked = 0;
    for (const json& j : documents()) {
        for (const std::string what : {"cbor", "msgpack", "ubjson", "ubjson-size-type", "bjdata", "bson"}) {
            const bytes expected = nlohmann_to(what, j);
            for (const sink_info& s : all_sinks()) {
                if (s.name == "counting") {
                    continue;
                }
                EXPECT_EQ(nlohmann_writes(what, j, std::string(s.name)), expected)
                    << what << " into " << s.name << ": " << j.dump().substr(0, 60);
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 4u * 6u * 9u);
}

}  // namespace
}  // namespace sinkcheck
