// Checks the test helpers themselves, so a broken helper cannot make other tests pass vacuously.
#include <set>

#include "test_support.hpp"

namespace sct = sinkcheck::test;

TEST(TestSupport, HexRoundTripsAndIgnoresSpaces) { EXPECT_EQ(sct::hex(sct::unhex("00 7f 80 FF")), "007f80ff"); }

TEST(TestSupport, DeepEqualTellsValuesApart) {
    using nlohmann::json;
    EXPECT_TRUE(sct::deep_equal(json::parse(R"({"a":[1,2.0,"x"]})"), json::parse(R"({"a":[1,2,"x"]})")));
    EXPECT_FALSE(sct::deep_equal(json::parse(R"({"a":[1,2,"x"]})"), json::parse(R"({"a":[1,3,"x"]})")));
    EXPECT_FALSE(sct::deep_equal(json::parse(R"({"a":1})"), json::parse(R"({"b":1})")));
    EXPECT_TRUE(sct::deep_equal(json(std::nan("")), json(-std::nan(""))));
    EXPECT_FALSE(sct::deep_equal(json::binary({1, 2}, 3), json::binary({1, 2}, 4)));
}

TEST(TestSupport, NestedArraysHasTheRequestedDepthWithoutRecursing) {
    const auto deep = sct::nested_arrays<nlohmann::json>(100000);
    const nlohmann::json* cur = &deep;
    std::size_t depth = 1;
    while (!cur->empty()) {
        cur = &(*cur)[0];
        ++depth;
    }
    EXPECT_EQ(depth, 100000u);
    EXPECT_TRUE(sct::deep_equal(deep, deep));
}

TEST(TestSupport, RandomValuesReachEveryType) {
    std::mt19937_64 rng(sct::seed());
    std::set<int> seen;  // not value_t: nlohmann orders all number types as equal
    for (int i = 0; i < 2000; ++i) {
        seen.insert(static_cast<int>(sct::random_value<nlohmann::json>(rng).type()));
    }
    EXPECT_GE(seen.size(), 9u) << "types seen: " << [&] {
        std::string s;
        for (auto t : seen) s += std::to_string(t) + " ";
        return s;
    }();  // null bool 3 numbers string array object binary
}
