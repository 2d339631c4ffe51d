// The sink catalogue, and the family's promises checked through the real encoders: every sink,
// every window and the nlohmann oracle write the same bytes in every format; the capacity
// sequence ignores the window; zero-fill stays within its window; a failure at any allocation
// or any write leaves a prefix and no leak; allocation and chunk counts on a 1M-number array.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <new>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/testkit/instrument/fault_sink.hpp"
#include "sinkcheck/testkit/oracle.hpp"
#include "sinkcheck/testkit/registry.hpp"
#include "test_support.hpp"

namespace sinkcheck {
namespace {

using json = nlohmann::json;
using bytes = std::vector<std::uint8_t>;

struct format_case {
    format f;
    encode_options o;
    std::string label;
};

std::vector<format_case> format_cases() {
    std::vector<format_case> out;
    out.reserve(all_formats.size() + 3);
    for (format f : all_formats) {
        out.push_back({f, {}, std::string(format_name(f))});
    }
    encode_options sized;
    sized.use_size = true;
    encode_options typed = sized;
    typed.use_type = true;
    out.push_back({format::ubjson, sized, "ubjson+size"});
    out.push_back({format::ubjson, typed, "ubjson+size+type"});
    out.push_back({format::bjdata, typed, "bjdata+size+type"});
    return out;
}

std::vector<std::size_t> windows_for(const sink_info& s) {
    if (!s.windowed) {
        return {0};
    }
    return {1, 13, default_window, unlimited_window};
}

json numbers(std::size_t n) {
    json a = json::array();
    for (std::uint64_t i = 0; i < n; ++i) {
        a.push_back((i * 0x9E3779B97F4A7C15u) >> 1u);  // seed 000's many_windows, int64-safe
    }
    return a;
}

std::vector<json> documents() {
    std::vector<json> docs = {
        json::object(),
        json::array(),
        json(nullptr),
        json::parse(R"({"a":1,"b":[true,false,null,-1,1.5,"x"],"c":{"d":"text","e":-100000}})"),
        json{{"bin", json::binary(bytes(5000, 0x42), 7)}, {"s", std::string(70000, 'w')}},
        json{{"many", numbers(30000)}},
        test::nested_arrays<json>(1000),
    };
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 25; ++i) {
        docs.push_back(test::random_value<json>(rng));
    }
    return docs;
}

std::string what_of(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& x) {
        return x.what();
    } catch (...) {
        return "(non-standard exception)";
    }
}

TEST(SinkRegistry, ListsTheTenSinksByName) {
    std::vector<std::string> names;
    for (const sink_info& s : all_sinks()) {
        names.emplace_back(s.name);
        EXPECT_FALSE(s.description.empty());
        EXPECT_EQ(find_sink(s.name), &s);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"vector", "legacy_vector", "string", "chunked", "memory",
                                               "seekable_memory", "ostream", "protocol", "span", "counting"}));
    EXPECT_EQ(find_sink("nope"), nullptr);
}

TEST(SinkRegistry, UnknownNameThrowsListingTheValidNames) {
    try {
        run_sink("vectr", 0, format::cbor, json(1));
        ADD_FAILURE() << "no error";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("'vectr'"), std::string::npos) << what;
        for (const sink_info& s : all_sinks()) {
            EXPECT_NE(what.find(std::string(s.name)), std::string::npos) << what;
        }
    }
}

TEST(SinkRegistry, CountingSinkReportsOnlyTheSize) {
    const json j = json::parse(R"({"k":[1,2,3]})");
    const sink_run r = run_sink("counting", 0, format::cbor, j);
    EXPECT_TRUE(r.bytes.empty());
    EXPECT_EQ(r.size, json::to_cbor(j).size());
}

TEST(SinkRegistry, AllSinksWriteIdenticalBytesInEveryFormat) {
    std::size_t runs = 0, oracle_checks = 0, refusals = 0;
    for (const json& j : documents()) {
        for (const format_case& c : format_cases()) {
            bytes reference;
            std::string refusal;
            bytes refused_prefix;  // what the reference writer holds when the encoder refuses
            memory_writer w;
            try {
                encode(c.f, j, w, c.o);
                reference = w.take();
            } catch (const std::exception& e) {
                refusal = e.what();
                refused_prefix = w.take();
                ++refusals;
            }
            if (refusal.empty() && oracle_has(c.f) && known_divergence(c.f, j, c.o) == nullptr) {
                ASSERT_EQ(test::hex(reference), test::hex(oracle_encode(c.f, j, c.o)))
                    << c.label << " " << test::describe(j);
                ++oracle_checks;
            }
            for (const sink_info& s : all_sinks()) {
                for (std::size_t window : windows_for(s)) {
                    const std::string where = c.label + " into " + std::string(s.name) + " window " +
                                              std::to_string(window) + ": " + test::describe(j);
                    sink_faults capture;
                    capture.capture = true;
                    const sink_run r = run_sink(s.name, window, c.f, j, c.o, capture);
                    ++runs;
                    if (!refusal.empty()) {
                        ASSERT_TRUE(r.error) << where;
                        EXPECT_EQ(what_of(r.error), refusal) << where;
                        if (s.name != "counting") {
                            EXPECT_EQ(r.bytes, refused_prefix) << where;
                        }
                        continue;
                    }
                    ASSERT_FALSE(r.error) << where << ": " << what_of(r.error);
                    EXPECT_EQ(r.size, reference.size()) << where;
                    if (s.name != "counting") {
                        ASSERT_EQ(r.bytes, reference) << where;
                    }
                    EXPECT_EQ(r.leaks, "") << where;
                }
            }
        }
    }
    std::cout << runs << " sink runs, " << oracle_checks << " oracle comparisons, " << refusals
              << " refusals compared across sinks\n";
    EXPECT_GT(oracle_checks, 150u);
}

TEST(SinkRegistry, SeekableMemoryPatchesBsonLengthsLikeTheSizingPass) {
    encode_options patch;
    patch.bson_patch_lengths = true;
    for (const json& j : documents()) {
        if (!j.is_object() || known_divergence(format::bson, j) != nullptr) {
            continue;
        }
        for (std::size_t window : {1u, 64u, 0u}) {
            EXPECT_EQ(run_sink("seekable_memory", window, format::bson, j, patch).bytes, oracle_encode(format::bson, j))
                << test::describe(j);
        }
        EXPECT_THROW(run_sink("vector", 0, format::bson, j, patch), std::invalid_argument);
    }
}

TEST(SinkRegistry, CapacityGrowthIgnoresWindowInEveryFormat) {
    const json j = json{{"many", numbers(40000)}, {"s", std::string(100000, 'c')}};
    for (const format_case& c : format_cases()) {
        const auto legacy = run_sink("legacy_vector", 0, c.f, j, c.o).capacities;
        ASSERT_GE(legacy.size(), 10u) << c.label;
        EXPECT_EQ(legacy.front(), 64u);
        for (const char* name : {"vector", "string", "memory", "seekable_memory"}) {
            const auto reference = run_sink(name, unlimited_window, c.f, j, c.o).capacities;
            for (std::size_t window : {1u, 7u, 4096u, 65536u}) {
                EXPECT_EQ(run_sink(name, window, c.f, j, c.o).capacities, reference)
                    << c.label << " " << name << " window " << window;
            }
            if (std::string(name) != "string") {
                EXPECT_EQ(reference, legacy) << c.label << " " << name;
            }
        }
    }
}

/// The longest single write an encoding makes.
struct largest_write_sink {
    std::size_t position_ = 0;
    std::size_t largest = 0;
    void write(std::uint8_t) {
        ++position_;
        largest = largest > 1 ? largest : 1;
    }
    void write(const std::uint8_t*, std::size_t n) {
        position_ += n;
        largest = n > largest ? n : largest;
    }
    std::size_t position() const { return position_; }
};

TEST(SinkRegistry, ZeroFillStaysWithinTheWindowPlusTheLargestWrite) {
    const json j = json{{"many", numbers(40000)}, {"s", std::string(100000, 'c')}};
    for (const format_case& c : format_cases()) {
        largest_write_sink measure;
        encode(c.f, j, measure, c.o);
        for (const char* name : {"vector", "string", "memory", "seekable_memory"}) {
            for (std::size_t window : {1u, 7u, 4096u, 65536u}) {
                const sink_run r = run_sink(name, window, c.f, j, c.o);
                EXPECT_LE(r.max_zero_fill, window + measure.largest) << c.label << " " << name << " window " << window;
            }
        }
        // without the window, one growth zero-fills half the final capacity at once
        EXPECT_GE(run_sink("legacy_vector", 0, c.f, j, c.o).max_zero_fill, measure.position() / 4) << c.label;
    }
}

/// Whether `got` is the output of the first writes of `full` (a prefix ending at a write
/// boundary), given the write boundaries of the full encoding.
bool is_write_prefix(const bytes& got, const bytes& full, const std::vector<std::size_t>& bounds) {
    if (got.size() > full.size() || !std::equal(got.begin(), got.end(), full.begin())) {
        return false;
    }
    return std::binary_search(bounds.begin(), bounds.end(), got.size());
}

struct boundary_sink {
    std::vector<std::size_t> bounds{0};
    void write(std::uint8_t) { bounds.push_back(bounds.back() + 1); }
    void write(const std::uint8_t*, std::size_t n) { bounds.push_back(bounds.back() + n); }
    std::size_t position() const { return bounds.back(); }
};

TEST(SinkRegistry, FailureAtEveryAllocationLeavesAPrefixAndNoLeak) {
    const json j = json{{"many", numbers(3000)}, {"s", std::string(20000, 'a')}, {"t", "end"}};
    std::size_t faults = 0;
    for (const format_case& c : format_cases()) {
        const bytes full = encode_to_vector(c.f, j, c.o);
        boundary_sink b;
        encode(c.f, j, b, c.o);
        for (const char* name : {"vector", "legacy_vector", "string", "chunked", "memory", "seekable_memory"}) {
            for (std::size_t window : {1u, 0u}) {
                const std::size_t total = run_sink(name, window, c.f, j, c.o).allocations;
                for (std::size_t k = 1; k <= total; ++k) {
                    sink_faults fault;
                    fault.allocation = k;
                    const sink_run r = run_sink(name, window, c.f, j, c.o, fault);
                    ++faults;
                    const std::string where =
                        c.label + " " + name + " window " + std::to_string(window) + " allocation " + std::to_string(k);
                    ASSERT_TRUE(r.error) << where;
                    EXPECT_NE(what_of(r.error).find("bad_alloc"), std::string::npos) << where;
                    EXPECT_TRUE(is_write_prefix(r.bytes, full, b.bounds)) << where << ": " << r.bytes.size();
                    EXPECT_EQ(r.leaks, "") << where;
                }
            }
        }
    }
    std::cout << faults << " allocation faults injected\n";
}

TEST(SinkRegistry, FailureAtEveryWriteLeavesExactlyTheEarlierWrites) {
    const json j =
        json::parse(R"({"a":[1,-2,3.5,"four",null,true],"b":{"c":"dddddddddddddddddddddddddddddd","e":[[],{}]}})");
    std::size_t faults = 0;
    for (const format_case& c : format_cases()) {
        boundary_sink b;
        encode(c.f, j, b, c.o);
        const bytes full = encode_to_vector(c.f, j, c.o);
        const std::size_t calls = b.bounds.size() - 1;
        for (const sink_info& s : all_sinks()) {
            for (std::size_t window : windows_for(s)) {
                for (std::size_t k = 1; k <= calls; ++k) {
                    sink_faults fault;
                    fault.write = k;
                    const sink_run r = run_sink(s.name, window, c.f, j, c.o, fault);
                    ++faults;
                    const std::string where = c.label + " " + std::string(s.name) + " write " + std::to_string(k);
                    ASSERT_TRUE(r.error) << where;
                    EXPECT_NE(what_of(r.error).find("injected fault"), std::string::npos) << where;
                    EXPECT_EQ(r.size, b.bounds[k - 1]) << where;
                    if (s.name != "counting") {
                        EXPECT_EQ(r.bytes,
                                  bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(b.bounds[k - 1])))
                            << where;
                    }
                    EXPECT_EQ(r.leaks, "") << where;
                }
            }
        }
    }
    std::cout << faults << " write faults injected\n";
}

std::size_t log2_ceil(double x) { return static_cast<std::size_t>(std::ceil(std::log2(x))); }

TEST(SinkRegistry, OneMillionNumbersAllocateLogarithmically) {
    const json j = numbers(1000000);
    for (format f : all_formats) {
        const json& value = f == format::bson ? json{{"a", j}} : j;  // BSON needs a document
        const sink_run vec = run_sink("vector", 0, f, value);
        const std::size_t n = vec.size;
        const sink_run legacy = run_sink("legacy_vector", 0, f, value);
        const sink_run str = run_sink("string", 0, f, value);
        const sink_run chunks = run_sink("chunked", 0, f, value);
        const sink_run mem = run_sink("memory", 0, f, value);
        std::cout << format_name(f) << ": " << n << " bytes; allocations: vector " << vec.allocations << " (bound "
                  << log2_ceil(static_cast<double>(n) / 64) + 2 << "), legacy " << legacy.allocations << ", string "
                  << str.allocations << ", memory " << mem.allocations << ", chunked " << chunks.allocations
                  << " chunks (6 + ceil((n - 129024) / 65536) = " << 6 + (n - 129024 + 65535) / 65536
                  << "); zero-fill ahead: vector " << vec.max_zero_fill << ", legacy " << legacy.max_zero_fill << "\n";
        EXPECT_LE(vec.allocations, log2_ceil(static_cast<double>(n) / 64) + 2) << format_name(f);
        EXPECT_EQ(legacy.allocations, vec.allocations) << format_name(f);
        EXPECT_EQ(mem.allocations, vec.allocations) << format_name(f);
        EXPECT_LE(str.allocations, log2_ceil(static_cast<double>(n) / 16) + 2) << format_name(f);
        EXPECT_EQ(chunks.allocations, 6 + (n - 129024 + 65535) / 65536) << format_name(f);
        EXPECT_EQ(chunks.capacities.size(), chunks.allocations);
        EXPECT_LE(vec.max_zero_fill, default_window + 16) << format_name(f);
        EXPECT_EQ(vec.bytes, legacy.bytes);
        EXPECT_EQ(vec.bytes, chunks.bytes);
        if (oracle_has(f)) {
            EXPECT_EQ(vec.bytes, oracle_encode(f, value)) << format_name(f);
        }
    }
}

}  // namespace
}  // namespace sinkcheck
