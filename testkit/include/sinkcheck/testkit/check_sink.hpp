// sinkcheck/testkit/check_sink.hpp — every property that applies to a sink, in one line.
//
//   SINKCHECK_SINK_PROPERTIES(MyBuffer, my_traits);
//
// defines one GoogleTest test per property of the kit (docs/testkit.md lists them), each run as a
// RapidCheck property with shrinking and a replay line on failure. A property that does not apply
// to the sink (a window it does not have, a growth rule it does not declare, a seek it cannot
// do) is reported as skipped, with the reason, so the run says what was not checked. A property
// that ran says what its runs never met ("not checked: 0 allocations seen: allocation faults not
// injected"), and is skipped when it met nothing at all; when the program ends, one summary line
// per sink gathers both. Link sinkcheck::testkit and GTest::gtest_main (sinkcheck_add_sink_check()
// in CMake does both, and links the hook of operator new, sinkcheck/testkit/instrument/global_new.hpp).
#pragma once

#include <cstddef>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sinkcheck/testkit/check.hpp"
#include "sinkcheck/testkit/harness.hpp"
#include "sinkcheck/testkit/sink_properties.hpp"

namespace sinkcheck::testkit {

/// What one property could not exercise on sink s, given what its runs met, one line each.
inline std::vector<std::string> not_checked(const sut_entry& s, const run_tally& t, property_reach reach) {
    std::vector<std::string> out;
    const bool hooked = global_new_hooked();
    if (t.allocations + t.new_allocations == 0) {
        out.push_back(
            std::string("0 allocations seen: ") +
            (reach.faults ? "allocation faults not injected" : "no allocation to leak or to make in the destructor") +
            (hooked ? "" : " (operator new is not hooked in this program: ALLOCATIONS kit-only)"));
    } else if (!hooked) {
        out.push_back(
            "allocations through operator new not seen (ALLOCATIONS kit-only): only the tracing allocator's " +
            std::string(reach.faults ? "failed" : "counted"));
    }
    if (reach.faults && t.write_faults == 0) {
        out.push_back("no write fault injected");
    }
    if (reach.seeks && s.seekable && t.seeks == 0) {
        out.push_back("no seek");
    }
    return out;
}

/// One summary line per sink, printed when the test program ends: how its properties went, the
/// reasons of those skipped and what those that ran did not check. A GoogleTest listener,
/// installed by the first SINKCHECK_SINK_PROPERTIES of the program (GoogleTest owns it).
class sink_summary : public ::testing::EmptyTestEventListener {
public:
    static sink_summary& get() {
        static sink_summary* const instance = [] {
            auto* made = new sink_summary;
            ::testing::UnitTest::GetInstance()->listeners().Append(made);
            return made;
        }();
        return *instance;
    }

    static bool add(const std::string& suite, const std::string& sink) {
        get().sinks_[suite].name = sink;
        return true;
    }

    /// A line the running property of suite says it did not check.
    void note(const std::string& suite, const std::string& property, const std::string& line) {
        sinks_[suite].lines[line].insert(property);
    }

    void OnTestEnd(const ::testing::TestInfo& info) override {
        const auto it = sinks_.find(info.test_suite_name());
        if (it == sinks_.end()) {
            return;
        }
        sink& k = it->second;
        const ::testing::TestResult& result = *info.result();
        if (result.Skipped()) {
            ++k.skipped;
            for (int i = 0; i < result.total_part_count(); ++i) {
                const ::testing::TestPartResult& part = result.GetTestPartResult(i);
                if (part.skipped()) {
                    k.lines[part.message()].insert(info.name());
                }
            }
        } else if (result.Failed()) {
            ++k.failed;
        } else {
            ++k.passed;
        }
    }

    void OnTestProgramEnd(const ::testing::UnitTest&) override {
        for (const auto& [suite, k] : sinks_) {
            if (k.passed + k.skipped + k.failed == 0) {
                continue;
            }
            std::cout << "sinkcheck summary: " << k.name << " (" << suite << "): " << k.passed << " passed, "
                      << k.skipped << " skipped, " << k.failed << " failed";
            const char* separator = "; not checked: ";
            for (const auto& [line, properties] : k.lines) {
                std::cout << separator << line << " [";
                const char* comma = "";
                for (const std::string& p : properties) {
                    std::cout << comma << p;
                    comma = ", ";
                }
                std::cout << "]";
                separator = "; ";
            }
            std::cout << "\n";
        }
    }

private:
    struct sink {
        std::string name;
        std::size_t passed = 0;
        std::size_t skipped = 0;
        std::size_t failed = 0;
        std::map<std::string, std::set<std::string>> lines;
    };
    std::map<std::string, sink> sinks_;
};

/// The body of one of SINKCHECK_SINK_PROPERTIES' tests: the property (expect_property), then what
/// its runs of sink s did not check, printed and kept for the summary; skipped when they checked
/// nothing at all; failed when s promises to allocate (`allocates`) and the fault property saw no
/// allocation.
template <class Fn>
void expect_sink_property(const std::string& id, const sut_entry& s, property_reach reach, Fn&& fn, double weight) {
    tallies().clear();
    expect_property(id, std::forward<Fn>(fn), weight);
    if (::testing::Test::HasFailure()) {
        return;  // the failure says what went wrong; what was not reached no longer matters
    }
    const run_tally t = tallies()[s.name];
    const ::testing::TestInfo& info = *::testing::UnitTest::GetInstance()->current_test_info();
    std::cout << id << ": " << t.runs << " runs of " << s.name << " saw " << t.allocations
              << " allocations of the target and " << t.new_allocations << " through operator new";
    if (reach.faults) {
        std::cout << "; threw at " << t.write_faults << " writes, " << t.alloc_faults
                  << " allocations of the target and " << t.new_faults << " through operator new";
    }
    std::cout << "\n";
    std::string joined;
    for (const std::string& line : not_checked(s, t, reach)) {
        std::cout << id << ": not checked: " << line << "\n";
        sink_summary::get().note(info.test_suite_name(), info.name(), line);
        joined += (joined.empty() ? "" : "; ") + line;
    }
    if (!joined.empty()) {
        ::testing::Test::RecordProperty("not_checked", joined);
    }
    if (s.allocates && reach.faults && t.allocations + t.new_allocations == 0) {
        ADD_FAILURE() << id << ": " << s.name << " declares that it allocates (allocates = true), but " << t.runs
                      << " runs saw 0 allocations"
                      << (global_new_hooked() ? " (through the tracing allocator or operator new)"
                                              : " (operator new is not hooked in this program: ALLOCATIONS kit-only)");
        return;
    }
    if (t.runs == 0) {
        GTEST_SKIP() << "no run of " << s.name << " was made";
    }
    if (reach.faults && t.write_faults + t.alloc_faults + t.new_faults == 0) {
        GTEST_SKIP() << "no fault was injected into " << s.name << " in " << t.runs << " runs";
    }
}

}  // namespace sinkcheck::testkit

namespace sinkcheck::testkit {

/// One promise of sink_promises() on one sink, as a GoogleTest test: skipped with the promise's
/// reason when the sink does not make it, else expect_sink_property.
class sink_promise_test : public ::testing::Test {
public:
    sink_promise_test(std::string suite, const sut_entry& (*entry)(), const sink_promise& promise)
        : suite_(std::move(suite)), entry_(entry), promise_(promise) {}

    void TestBody() override {
        const sut_entry& s = entry_();
        if (!promise_.made_by(s)) {
            GTEST_SKIP() << promise_.not_applicable;
        }
        expect_sink_property(
            suite_ + "/" + promise_.name, s, promise_.reach, [this, &s] { check_promise(promise_.id, s); },
            promise_.weight);
    }

private:
    std::string suite_;
    const sut_entry& (*entry_)();
    const sink_promise& promise_;
};

/// Registers one test per promise of sink_promises() under suite, for the sink entry() gives.
inline bool register_sink_promises(const char* suite, const sut_entry& (*entry)(), const char* file, int line) {
    for (const sink_promise& p : sink_promises()) {
        ::testing::RegisterTest(suite, p.name, nullptr, nullptr, file, line, [suite, entry, &p]() -> ::testing::Test* {
            return new sink_promise_test(suite, entry, p);
        });
    }
    return true;
}

}  // namespace sinkcheck::testkit

/// Registers every promise of the kit (sink_promises()) for the sink described by Traits under
/// Suite: one test each, named as the promise.
#define SINKCHECK_SINK_PROPERTIES(Suite, Traits)                                                                  \
    [[maybe_unused]] static const bool sinkcheck_summary_##Suite = ::sinkcheck::testkit::sink_summary::add(       \
        #Suite, std::string(::sinkcheck::testkit::sink_traits<Traits>::name()));                                  \
    [[maybe_unused]] static const bool sinkcheck_promises_##Suite = ::sinkcheck::testkit::register_sink_promises( \
        #Suite, &::sinkcheck::testkit::entry_for<Traits>, __FILE__, __LINE__)
