// The sink tests' one exception-safety tester: a write program run through a sink once per
// allocation it makes and once per write call, failing that one, every promise checked each time.
//
// A fixture owns what the sink writes into (a vector or string on the tracing allocator, or a
// sink that owns its memory) and says which bytes it holds; the tester fails allocation k
// (allocation_log::fail_at) or write k (fault_sink::fail_at_write) and requires:
//   - the failure reaches the caller: std::bad_alloc, or injected_fault at the byte where the
//     failed write began;
//   - what the fixture holds afterwards is the bytes of the writes that completed, exactly
//     writes 1..k-1 when write k failed, a prefix ending at a write's end when an allocation did;
//   - nothing leaks, and (on the run without failures) the sink's destruction allocates nothing.
// Tests that know which write each allocation serves check the counts it returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "sink_test_programs.hpp"
#include "sinkcheck/testkit/instrument/fault_sink.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"

namespace sinkcheck::test {

/// The number of whole writes of p whose bytes are exactly `held`, or -1 when `held` is not such
/// a prefix.
inline long completed_writes_of(const write_program& p, const std::vector<std::uint8_t>& held) {
    std::vector<std::uint8_t> prefix;
    for (std::size_t count = 0;; ++count) {
        if (prefix == held) {
            return static_cast<long>(count);
        }
        if (count == p.writes.size() || prefix.size() >= held.size()) {
            return -1;
        }
        prefix.insert(prefix.end(), p.writes[count].begin(), p.writes[count].end());
    }
}

/// What one run with allocation k failed left: how many writes had completed (-1: not a prefix).
struct allocation_failure {
    std::size_t allocation;
    long completed_writes;
};

/// Runs p through the sink of make(log) (a fixture: `run(body)` builds the sink, calls body(sink)
/// and is done with the sink; `held()` gives the bytes the caller has afterwards) with no failure,
/// then with each allocation and each write failed in turn. Reports every broken promise as a
/// GoogleTest failure naming `what` and k; returns one entry per allocation of the clean run.
template <class Make>
std::vector<allocation_failure> check_every_failure(const write_program& p, Make make, const char* what) {
    std::size_t allocations = 0;
    {
        auto log = std::make_shared<allocation_log>();
        {
            auto fixture = make(log);
            std::size_t at_end_of_writes = 0;
            fixture.run([&](auto& sink) {
                run_writes(sink, p);
                at_end_of_writes = log->allocations();
            });
            EXPECT_EQ(log->allocations(), at_end_of_writes) << what << ": the sink allocated as it was destroyed";
            EXPECT_EQ(fixture.held(), p.bytes()) << what << ": the run without failures";
            allocations = log->allocations();
        }
        EXPECT_TRUE(log->clean()) << what << ": " << log->leak_report();
    }

    std::vector<allocation_failure> out;
    for (std::size_t k = 1; k <= allocations; ++k) {
        auto log = std::make_shared<allocation_log>();
        {
            auto fixture = make(log);
            log->fail_at(k);
            bool threw = false;
            try {
                fixture.run([&](auto& sink) { run_writes(sink, p); });
            } catch (const std::bad_alloc&) {
                threw = true;
            }
            log->disarm();
            EXPECT_TRUE(threw) << what << ": allocation " << k << " failed and the run went on";
            const long completed = completed_writes_of(p, fixture.held());
            EXPECT_GE(completed, 0) << what << ": allocation " << k
                                    << " failed and the bytes held are not the bytes of the completed writes";
            out.push_back({k, completed});
        }
        EXPECT_TRUE(log->clean()) << what << ": allocation " << k << ": " << log->leak_report();
    }

    for (std::size_t k = 1; k <= p.writes.size(); ++k) {
        auto log = std::make_shared<allocation_log>();
        {
            auto fixture = make(log);
            const std::vector<std::uint8_t> completed = p.prefix(k - 1);
            bool threw = false;
            try {
                fixture.run([&](auto& sink) {
                    fault_sink<std::remove_reference_t<decltype(sink)>> faulty(sink);
                    faulty.fail_at_write(k);
                    run_writes(faulty, p);
                });
            } catch (const injected_fault& e) {
                threw = true;
                EXPECT_EQ(e.position(), completed.size()) << what << ": write " << k;
            }
            EXPECT_TRUE(threw) << what << ": write " << k << " was to fail";
            const auto held = fixture.held();
            EXPECT_EQ(held, completed) << what << ": write " << k << " failed";
            if (held != completed) {
                break;  // one report per fixture, not one per write
            }
        }
        EXPECT_TRUE(log->clean()) << what << ": write " << k << ": " << log->leak_report();
    }
    return out;
}

}  // namespace sinkcheck::test
