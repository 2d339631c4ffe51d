// The kit's one value equality (testkit/same_value.hpp): the rules every round trip, `sinkcheck
// check` and the runner's "equivalent" level compare by, and each format's policy.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/testkit/same_value.hpp"

namespace {

using nlohmann::json;
using sinkcheck::format;
using sinkcheck::testkit::first_value_difference;
using sinkcheck::testkit::policy_of;
using sinkcheck::testkit::same_representation;
using sinkcheck::testkit::same_value;

std::string pointer_of_difference(sinkcheck::testkit::value_policy policy, const json& a, const json& b) {
    const auto d = first_value_difference(policy, a, b);
    return d ? "differs at '" + d->pointer + "'" : "same";
}

TEST(SameValue, NumbersCompareByKindAndValue) {
    EXPECT_TRUE(same_value(json(std::uint64_t{5}), json(std::int64_t{5})));
    EXPECT_FALSE(same_value(json(1), json(1.0)));
    EXPECT_FALSE(same_value(json(0.0), json(-0.0)));
    EXPECT_TRUE(same_value(json(std::nan("")), json(-std::nan("1"))));
    EXPECT_FALSE(same_value(json(std::nan("")), json(0.0)));
    // nlohmann 3.11.2's own == casts the unsigned side to int64 and calls these two equal
    const json minus_one = std::int64_t{-1};
    const json max_unsigned = std::numeric_limits<std::uint64_t>::max();
    ASSERT_TRUE(minus_one == max_unsigned);
    EXPECT_FALSE(same_value(minus_one, max_unsigned));
    EXPECT_FALSE(same_value(json(std::numeric_limits<std::int64_t>::min()), json(std::uint64_t{1} << 63U)));
    EXPECT_TRUE(same_value(json(std::numeric_limits<std::int64_t>::max()),
                           json(std::uint64_t{std::numeric_limits<std::int64_t>::max()})));
}

TEST(SameValue, ContainersStringsAndBinary) {
    EXPECT_TRUE(same_value(json::parse(R"({"a":[1,{"b":null}]})"), json::parse(R"({"a":[1,{"b":null}]})")));
    EXPECT_FALSE(same_value(json::parse(R"([1,2])"), json::parse(R"([2,1])")));
    EXPECT_FALSE(same_value(json::parse(R"([1])"), json::parse(R"([1,1])")));
    EXPECT_FALSE(same_value(json("a"), json("b")));
    EXPECT_FALSE(same_value(json(true), json(1)));
    EXPECT_FALSE(same_value(json::binary({1}), json::binary({1}, 0)));
    EXPECT_FALSE(same_value(json::binary({1}, 2), json::binary({1}, 3)));
    EXPECT_FALSE(same_value(json::binary({1}), json::binary({2})));
    EXPECT_TRUE(same_value(json::binary({1, 2}, 7), json::binary({1, 2}, 7)));
}

TEST(SameValue, PointsAtTheFirstDifference) {
    EXPECT_EQ(pointer_of_difference(same_representation, json::parse(R"({"a/b":{"c~d":[0,1]}})"),
                                    json::parse(R"({"a/b":{"c~d":[0,2]}})")),
              "differs at '/a~1b/c~0d/1'");
    const json original = json::parse(R"({"x":1,"y":2})");
    const json decoded = json::parse(R"({"x":1,"z":2})");
    const auto missing = first_value_difference(same_representation, original, decoded);
    ASSERT_TRUE(missing.has_value());
    EXPECT_EQ(missing->pointer, "/y");
    EXPECT_EQ(missing->decoded, nullptr);
    ASSERT_NE(missing->original, nullptr);
    EXPECT_EQ(*missing->original, json(2));
    EXPECT_EQ(pointer_of_difference(same_representation, json(1), json(2)), "differs at ''");
    EXPECT_EQ(pointer_of_difference(same_representation, json::parse("[[0,1],[2,3]]"), json::parse("[[0,9],[2,9]]")),
              "differs at '/0/1'");
}

TEST(SameValue, EachFormatsPolicy) {
    const json bytes = json::binary({1, 255});
    const json as_array = json::array({1, 255});
    for (format f : {format::ubjson, format::bjdata, format::bon8}) {
        EXPECT_TRUE(policy_of(f).binary_as_array) << format_name(f);
        EXPECT_EQ(pointer_of_difference(policy_of(f), bytes, as_array), "same") << format_name(f);
        EXPECT_EQ(pointer_of_difference(policy_of(f), bytes, json::array({1, 254})), "differs at '/1'")
            << format_name(f);
    }
    EXPECT_EQ(pointer_of_difference(policy_of(format::cbor), bytes, as_array), "differs at ''");
    // BSON writes a binary without subtype as subtype 0; elsewhere a subtype 0 is a difference
    EXPECT_EQ(pointer_of_difference(policy_of(format::bson), bytes, json::binary({1, 255}, 0)), "same");
    EXPECT_EQ(pointer_of_difference(policy_of(format::bson), bytes, bytes), "differs at ''");
    EXPECT_EQ(pointer_of_difference(policy_of(format::msgpack), bytes, json::binary({1, 255}, 0)), "differs at ''");
    // BJData: an ND-array of one dimension comes back as the plain array of its data
    const json ndarray = json::parse(R"({"_ArrayType_":"uint8","_ArraySize_":[2],"_ArrayData_":[1,2]})");
    EXPECT_EQ(pointer_of_difference(policy_of(format::bjdata), ndarray, json::array({1, 2})), "same");
    EXPECT_EQ(pointer_of_difference(policy_of(format::ubjson), ndarray, json::array({1, 2})), "differs at ''");
    const json matrix = json::parse(R"({"_ArrayType_":"uint8","_ArraySize_":[2,2],"_ArrayData_":[1,2,3,4]})");
    const json other_shape = json::parse(R"({"_ArrayType_":"uint8","_ArraySize_":[4,1],"_ArrayData_":[1,2,3,4]})");
    EXPECT_EQ(pointer_of_difference(policy_of(format::bjdata), matrix, other_shape), "differs at '/_ArraySize_/0'");
}

TEST(SameValue, AnyDepth) {
    json deep = 1;
    json deeper = 2;
    for (int i = 0; i < 10000; ++i) {
        deep = json::array({std::move(deep)});
        deeper = json::array({std::move(deeper)});
    }
    const auto d = first_value_difference(same_representation, deep, deeper);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->pointer.size(), 2U * 10000U);
}

}  // namespace
