// sinkcheck/testkit/check.hpp — running a property: case counts, timing, and a failure you can replay.
//
// SINKCHECK_PROPERTY(Suite, Name, weight) defines a GoogleTest test that checks a RapidCheck
// property with weight x max_success cases (RC_PARAMS sets max_success, 100 by default), so
// cheap properties get more cases than the ones that rerun a document once per write. A
// failure reports the seed, the shrunk counterexample, RapidCheck's own message and the exact
// RC_PARAMS line that replays it; a pass prints how many cases ran in how long. The property
// id is "Suite/Name", the id RC_GTEST_PROP would use, so `reproduce=` strings work as usual.
// The gallery uses check_property() directly, with a quiet listener, to see a property fail.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

namespace rc::detail {
// Both defined in librapidcheck but not declared in its installed headers: the string form of
// a reproduce map (what RC_PARAMS="reproduce=..." takes), and the listener that prints that
// line for every failed property when the program exits.
std::string reproduceMapToString(const std::unordered_map<std::string, Reproduce>& map);
TestListener& globalTestListener();
}  // namespace rc::detail

namespace sinkcheck::testkit {

struct check_outcome {
    bool failed = false;
    bool gave_up = false;
    /// cases that passed (before the failing one, when it failed)
    int passed = 0;
    double seconds = 0;
    /// RapidCheck's own report: counterexample after shrinking, and the failure's message
    std::string report;
    /// the failing case's message alone (what RC_FAIL said)
    std::string description;
    /// the shrunk inputs, one "type: value" per line
    std::string counterexample;
    /// RC_PARAMS value that replays the failure
    std::string reproduce;
    /// "tag: percent" lines of RC_TAG / RC_CLASSIFY
    std::string distribution;
};

/// Cases for a property of this weight under the current RC_PARAMS.
inline int cases_for(double weight) {
    const int configured = rc::detail::configuration().testParams.maxSuccess;
    return std::max(1, static_cast<int>(std::lround(configured * weight)));
}

/// Checks fn as a property named id (quietly: nothing is printed, nothing is kept for the
/// exit-time reproduce line unless listener is the global one).
template <class Fn>
check_outcome check_property(const std::string& id, Fn&& fn, double weight, rc::detail::TestListener& listener) {
    using namespace rc::detail;
    TestMetadata meta;
    meta.id = id;
    meta.description = id;
    TestParams params = configuration().testParams;
    params.maxSuccess = cases_for(weight);
    // replay only this property's failure when RC_PARAMS names one
    std::unordered_map<std::string, Reproduce> replay;
    const auto it = configuration().reproduce.find(id);
    if (it != configuration().reproduce.end()) {
        replay.insert(*it);
    }
    const auto start = std::chrono::steady_clock::now();
    const TestResult result = checkTestable(std::forward<Fn>(fn), meta, params, listener, replay);
    check_outcome out;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream report;
    printResultMessage(result, report);
    out.report = report.str();
    if (result.template is<SuccessResult>()) {
        const auto& s = result.template get<SuccessResult>();
        out.passed = s.numSuccess;
        std::ostringstream dist;
        for (const auto& [tags, count] : s.distribution) {
            std::string name;
            for (const auto& t : tags) {
                name += (name.empty() ? "" : ", ") + t;
            }
            dist << "  " << (100.0 * count / std::max(1, s.numSuccess)) << "% " << name << "\n";
        }
        out.distribution = dist.str();
    } else if (result.template is<FailureResult>()) {
        const auto& f = result.template get<FailureResult>();
        out.failed = true;
        out.passed = f.numSuccess;
        out.description = f.description;
        for (const auto& [type, value] : f.counterExample) {
            out.counterexample += type + ": " + value + "\n";
        }
        std::unordered_map<std::string, Reproduce> map{{id, f.reproduce}};
        out.reproduce = "reproduce=" + reproduceMapToString(map);
    } else {
        out.failed = true;
        out.gave_up = true;
    }
    return out;
}

/// The path of this program, for the replay line ("<test binary>" where it cannot be read).
inline std::string this_program() {
    std::error_code failed;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", failed);
    return failed || self.empty() ? std::string("<test binary>") : self.string();
}

/// The body of a SINKCHECK_PROPERTY test: a failure fails the test with everything needed to
/// replay it; a pass logs the case count and time.
template <class Fn>
void expect_property(const std::string& id, Fn&& fn, double weight) {
    const auto seed = rc::detail::configuration().testParams.seed;
    const check_outcome out = check_property(id, std::forward<Fn>(fn), weight, rc::detail::globalTestListener());
    if (out.failed && out.reproduce.empty()) {
        // gave up (too many discarded cases), or a replayed case that no longer fails
        ADD_FAILURE() << id << ": " << out.report;
        return;
    }
    if (out.failed) {
        std::string filter = id;
        std::replace(filter.begin(), filter.end(), '/', '.');
        ADD_FAILURE() << id << " failed after " << out.passed << " passing cases (seed " << seed << ")\n"
                      << out.report << "\nReplay this case with:\n  RC_PARAMS=\"" << out.reproduce << "\" "
                      << this_program() << " --gtest_filter=" << filter << "\n";
        return;
    }
    std::cout << id << ": " << out.passed << " cases passed in " << out.seconds << " s (seed " << seed << ")\n"
              << out.distribution;
}

}  // namespace sinkcheck::testkit

/// A property test: SINKCHECK_PROPERTY(ChunkedSink, ChunksDoubleUpToTheCap, 10.0) { body }.
#define SINKCHECK_PROPERTY(Suite, Name, weight)                                                                \
    static void sinkcheck_property_##Suite##_##Name();                                                         \
    TEST(Suite, Name) {                                                                                        \
        ::sinkcheck::testkit::expect_property(#Suite "/" #Name, &sinkcheck_property_##Suite##_##Name, weight); \
    }                                                                                                          \
    static void sinkcheck_property_##Suite##_##Name()
