// The kit's hook of global operator new (sinkcheck/testkit/instrument/global_new.hpp, testkit/src/global_new.cpp,
// linked into this test): what is allocated through new inside an armed scope is counted, can be
// failed, and its release is recorded wherever it comes; everything else is left alone.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sinkcheck/testkit/instrument/global_new.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"

namespace sinkcheck {
namespace {

// Where pointers escape, so that no new-expression and its delete are optimised away as a pair.
void* volatile escape = nullptr;

struct alignas(64) over_aligned {
    unsigned char bytes[64];
};

// The sized forms are declared only where sized deallocation is on (g++ by default; clang 14 with
// -fsized-deallocation): elsewhere the unsized form stands in.
void delete_sized(void* p, std::size_t n) {
#if defined(__cpp_sized_deallocation)
    ::operator delete(p, n);
#else
    (void)n;
    ::operator delete(p);
#endif
}
void delete_array_sized(void* p, std::size_t n, std::align_val_t a) {
#if defined(__cpp_sized_deallocation)
    ::operator delete[](p, n, a);
#else
    (void)n;
    ::operator delete[](p, a);
#endif
}

TEST(GlobalNew, IsLinkedIntoThisProgram) { EXPECT_TRUE(global_new_hooked()); }

TEST(GlobalNew, CountsWhatIsAllocatedInsideAnArmedScope) {
    allocation_log log;
    {
        const new_tracking tracking(log);
        std::string outside(100, 'a');  // not armed: not the sink's
        {
            const armed_scope on;
            std::string inside(100, 'b');
            escape = inside.data();
        }
        escape = outside.data();
    }
    EXPECT_EQ(log.allocation_sizes(), (std::vector<std::size_t>{101}));
    EXPECT_TRUE(log.clean()) << log.leak_report();
}

TEST(GlobalNew, FailsTheKthAllocationThroughEveryThrowingForm) {
    for (int form = 0; form < 4; ++form) {
        allocation_log log;
        const new_tracking tracking(log);
        const armed_scope on;
        log.fail_at(2);
        void* first = ::operator new(8);
        EXPECT_THROW(
            {
                switch (form) {
                    case 0: escape = ::operator new(16); break;
                    case 1: escape = ::operator new[](16); break;
                    case 2: escape = ::operator new(16, std::align_val_t(64)); break;
                    default: escape = ::operator new[](16, std::align_val_t(64)); break;
                }
            },
            std::bad_alloc)
            << "form " << form;
        ::operator delete(first);
        EXPECT_EQ(log.allocations(), 1U) << "form " << form;
        EXPECT_TRUE(log.clean()) << log.leak_report();
    }
}

TEST(GlobalNew, NothrowFormsReturnNullWhereTheAllocationFails) {
    allocation_log log;
    const new_tracking tracking(log);
    const armed_scope on;
    log.fail_always();
    EXPECT_EQ(::operator new(8, std::nothrow), nullptr);
    EXPECT_EQ(::operator new[](8, std::nothrow), nullptr);
    EXPECT_EQ(::operator new(8, std::align_val_t(64), std::nothrow), nullptr);
    EXPECT_EQ(::operator new[](8, std::align_val_t(64), std::nothrow), nullptr);
    EXPECT_EQ(new (std::nothrow) int(1), nullptr);
    log.disarm();
    EXPECT_EQ(log.allocations(), 0U);
    EXPECT_EQ(log.events().size(), 5U);  // five failed attempts
}

TEST(GlobalNew, EveryFormIsCountedAndEveryDeleteFormReleases) {
    allocation_log log;
    {
        const new_tracking tracking(log);
        void* p[8] = {};
        over_aligned* typed = nullptr;
        {
            const armed_scope on;  // the allocations alone: the checks below allocate too
            p[0] = ::operator new(10);
            p[1] = ::operator new[](20);
            p[2] = ::operator new(30, std::nothrow);
            p[3] = ::operator new[](40, std::nothrow);
            p[4] = ::operator new(50, std::align_val_t(64));
            p[5] = ::operator new[](60, std::align_val_t(128));
            p[6] = ::operator new(70, std::align_val_t(256), std::nothrow);
            p[7] = ::operator new[](80, std::align_val_t(64), std::nothrow);
            typed = new over_aligned;
        }
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p[4]) % 64, 0U);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p[5]) % 128, 0U);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p[6]) % 256, 0U);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p[7]) % 64, 0U);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(typed) % 64, 0U);
        EXPECT_EQ(log.allocation_sizes(), (std::vector<std::size_t>{10, 20, 30, 40, 50, 60, 70, 80, 64}));
        EXPECT_EQ(log.live_allocations(), 9U);
        // released unarmed: a block the run's log handed out is recorded wherever it is freed
        delete_sized(p[0], 10);
        ::operator delete[](p[1]);
        ::operator delete(p[2], std::nothrow);
#if defined(__cpp_sized_deallocation)
        ::operator delete[](p[3], 40);
#else
        ::operator delete[](p[3]);
#endif
#if defined(__cpp_sized_deallocation)
        ::operator delete(p[4], 50, std::align_val_t(64));
#else
        ::operator delete(p[4], std::align_val_t(64));
#endif
        ::operator delete[](p[5], std::align_val_t(128));
        ::operator delete(p[6], std::align_val_t(256), std::nothrow);
        delete_array_sized(p[7], 80, std::align_val_t(64));
        escape = typed;
        delete typed;
    }
    EXPECT_TRUE(log.clean()) << log.leak_report();
}

TEST(GlobalNew, ASizedDeleteOfAnotherSizeIsAMismatch) {
#if !defined(__cpp_sized_deallocation)
    GTEST_SKIP() << "sized deallocation is off in this build";
#endif
    allocation_log log;
    const new_tracking tracking(log);
    const armed_scope on;
    void* p = ::operator new(24);
    delete_sized(p, 23);
    EXPECT_EQ(log.mismatches(), 1U);
    EXPECT_EQ(log.live_allocations(), 0U);
}

TEST(GlobalNew, ReleasesOutsideTheArmedScopeAreRecorded) {
    allocation_log log;
    {
        const new_tracking tracking(log);
        std::vector<int> v;
        {
            const armed_scope on;
            v.resize(1000);  // the sink's writes allocate...
        }
        EXPECT_EQ(log.live_allocations(), 1U);
    }  // ...and the target frees it after the sink is gone
    EXPECT_TRUE(log.clean()) << log.leak_report();
}

TEST(GlobalNew, WhatIsStillLiveWhenTheRunEndsIsALeak) {
    allocation_log log;
    void* kept = nullptr;
    {
        const new_tracking tracking(log);
        const armed_scope on;
        kept = ::operator new(48);
    }
    EXPECT_EQ(log.leak_report(), "leaked 48 bytes (allocation #1)\n");
    ::operator delete(kept);  // after the run: straight to the heap
    EXPECT_EQ(log.live_allocations(), 1U);
}

TEST(GlobalNew, TheKitsOwnWorkIsNeverCountedNorFailed) {
    allocation_log log;
    const new_tracking tracking(log);
    const armed_scope on;
    log.fail_always();
    {
        const kit_section own;
        auto* p = new std::string(200, 'k');
        escape = p;
        delete p;
    }
    log.disarm();
    EXPECT_TRUE(log.events().empty());
}

TEST(GlobalNew, ATracingAllocatorsBlocksAreNotCountedTwice) {
    allocation_log through_new;
    auto traced = std::make_shared<allocation_log>();
    {
        const new_tracking tracking(through_new);
        const armed_scope on;
        std::vector<int, tracing_allocator<int>> v{tracing_allocator<int>(traced)};
        v.resize(100);
    }
    EXPECT_EQ(traced->allocation_sizes(), (std::vector<std::size_t>{400}));
    EXPECT_TRUE(traced->clean()) << traced->leak_report();
    EXPECT_EQ(through_new.allocations(), 0U);
    EXPECT_TRUE(through_new.events().empty());
}

TEST(GlobalNew, AnEmptyRequestStillGetsADistinctBlock) {
    allocation_log log;
    const new_tracking tracking(log);
    const armed_scope on;
    void* a = ::operator new(0);
    void* b = ::operator new(0);
    EXPECT_NE(a, nullptr);
    EXPECT_NE(a, b);
    ::operator delete(a);
    ::operator delete(b);
    EXPECT_TRUE(log.clean()) << log.leak_report();
}

}  // namespace
}  // namespace sinkcheck
