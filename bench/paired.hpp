// bench/paired.hpp — paired A/B timing in one process, for noisy shared machines.
//
// An absolute time means little on a 2-core machine other jobs share, but two candidates run
// back to back see nearly the same machine. Each repetition times A then B (the order flips
// every repetition, so neither always runs on a warmer cache or a quieter neighbour), and the
// repetition's ratio time(B)/time(A) is one sample: a ratio above 1 means A is faster. The
// report is the median ratio with its min and max over the repetitions. Times are the thread's
// CPU time unless --wall is given (see now_seconds()).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <time.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace sinkcheck::bench {

struct paired_result {
    std::string name;
    double median = 0, min = 0, max = 0;  // time(B) / time(A)
    double a_seconds = 0, b_seconds = 0;  // median seconds per call
    std::size_t repetitions = 0;
};

/// Keeps the optimiser from deleting work whose result is otherwise unused.
template <class T>
inline void keep(const T& value) {
    asm volatile("" : : "g"(&value) : "memory");
}

inline double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Which clock times a call. The default is this thread's CPU time (user and system, page faults
/// included): with more runnable jobs than cores, wall-clock time mostly measures how long the
/// scheduler kept us waiting, and that differs between A and B by chance. `--wall` selects the
/// steady clock instead, for a quiet machine.
inline bool& use_wall_clock() {
    static bool wall = false;
    return wall;
}

/// Whether the CPU time of waited-for child processes counts too (getrusage(RUSAGE_CHILDREN)):
/// for a benchmark whose calls are processes (bench_tool).
inline bool& children_clock() {
    static bool children = false;
    return children;
}

inline double now_seconds() {
    if (children_clock()) {
        rusage own{};
        rusage children{};
        getrusage(RUSAGE_SELF, &own);
        getrusage(RUSAGE_CHILDREN, &children);
        const auto seconds = [](const timeval& t) {
            return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
        };
        return seconds(own.ru_utime) + seconds(own.ru_stime) + seconds(children.ru_utime) + seconds(children.ru_stime);
    }
    if (use_wall_clock()) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// Whether every timed call starts from a heap trimmed back to the kernel (the default; see
/// keep_heap() for the other setting). glibc trims the heap top once it exceeds twice the largest
/// block freed so far; in one process, one side's growth pattern may cross that line and the
/// other's not, and then the first faults in every page of its output on every call and the
/// second none, because of the blocks the first raised the threshold with: the result would
/// depend on the order the comparisons run in. Trimming before each call makes both sides pay
/// for their own fresh memory, every time.
inline bool& cold_heap() {
    static bool cold = true;
    return cold;
}

inline void trim_heap() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

/// Seconds for `calls` calls of f (with a cold heap, each call timed alone after a trim).
inline double time_calls(const std::function<void()>& f, std::size_t calls) {
    if (cold_heap()) {
        double total = 0;
        for (std::size_t i = 0; i < calls; ++i) {
            trim_heap();
            const double start = now_seconds();
            f();
            total += now_seconds() - start;
        }
        return total;
    }
    const double start = now_seconds();
    for (std::size_t i = 0; i < calls; ++i) {
        f();
    }
    return now_seconds() - start;
}

/// Runs A and B interleaved `repetitions` times; each timing covers enough calls to last about
/// `min_seconds` (calibrated once on A).
inline paired_result compare(const std::string& name, const std::function<void()>& a, const std::function<void()>& b,
                             std::size_t repetitions = 15, double min_seconds = 0.05) {
    a();
    b();  // warm up both: first-touch page faults and lazy initialisation are not measured
    std::size_t calls = 1;
    while (time_calls(a, calls) < min_seconds && calls < (std::size_t{1} << 30)) {
        calls *= 2;
    }
    // Each timed batch follows one untimed call of the same side, so each side is timed in the
    // state it leaves the allocator and the caches in itself, not in the state the other left:
    // a fresh vector of one side may otherwise reuse (or be trimmed by) the other's heap.
    const auto batch = [calls](const std::function<void()>& f) {
        f();
        return time_calls(f, calls);
    };
    std::vector<double> ratios, ta, tb;
    for (std::size_t r = 0; r < repetitions; ++r) {
        double sa, sb;
        if (r % 2 == 0) {
            sa = batch(a);
            sb = batch(b);
        } else {
            sb = batch(b);
            sa = batch(a);
        }
        ratios.push_back(sb / sa);
        ta.push_back(sa / static_cast<double>(calls));
        tb.push_back(sb / static_cast<double>(calls));
    }
    paired_result res;
    res.name = name;
    res.median = median_of(ratios);
    res.min = *std::min_element(ratios.begin(), ratios.end());
    res.max = *std::max_element(ratios.begin(), ratios.end());
    res.a_seconds = median_of(ta);
    res.b_seconds = median_of(tb);
    res.repetitions = repetitions;
    return res;
}

/// Command-line settings every benchmark executable takes: `--quick` (3 repetitions, short
/// timings: a smoke run, not a measurement), `--reps N`, `--only ROW` (repeatable), `--wall`
/// (steady clock instead of thread CPU time), `--keep-heap` (see keep_heap()), `--compiler NAME`
/// (a label for the report).
struct run_settings {
    std::size_t repetitions = 15;
    double min_seconds = 0.05;
    std::vector<std::string> only;
    std::string compiler = "unknown";
    bool heap_kept = false;

    bool wants(const std::string& row) const {
        return only.empty() || std::find(only.begin(), only.end(), row) != only.end();
    }
};

/// `--keep-heap`: the other setting, a long-running process's: glibc keeps freed memory instead
/// of returning it to the kernel and serves large blocks from the heap, so no call pays page
/// faults for memory an earlier call freed (see cold_heap()).
inline void keep_heap() {
    cold_heap() = false;
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
#endif
}

inline run_settings parse_settings(int argc, char** argv) {
    run_settings s;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--quick") {
            s.repetitions = 3;
            s.min_seconds = 0.01;
        } else if (arg == "--reps" && has_value) {
            s.repetitions = std::stoul(argv[++i]);
        } else if (arg == "--only" && has_value) {
            s.only.emplace_back(argv[++i]);
        } else if (arg == "--wall") {
            use_wall_clock() = true;
        } else if (arg == "--keep-heap") {
            keep_heap();
            s.heap_kept = true;
        } else if (arg == "--compiler" && has_value) {
            s.compiler = argv[++i];
        } else {
            std::fprintf(stderr,
                         "usage: %s [--quick] [--reps N] [--only ROW]... [--wall] [--keep-heap] [--compiler NAME]\n",
                         argv[0]);
            std::exit(2);
        }
    }
    return s;
}

/// Which way a ratio's goal points: the least acceptable median (the usual "A is at least this
/// much faster") or the largest (row 11: encoder time over the DOM walk's, at most 1.30).
enum class goal_kind { at_least, at_most };

/// One line of tab-separated output per comparison, read by bench/report.py:
///   ratio  row  compiler  name  median  min  max  repetitions  A_MB/s  B_MB/s  goal  verdict
/// The ratio is time(B)/time(A): how many times faster A is. `goal` is the least acceptable
/// median ("-" for rows that only report; "<=X" for an at_most goal, the largest acceptable), and
/// the verdict compares the median with it.
inline void emit_ratio(const run_settings& s, const std::string& row, const paired_result& r, double bytes_per_call,
                       double goal = 0, goal_kind kind = goal_kind::at_least) {
    const double a_mbps = bytes_per_call / r.a_seconds / 1e6;
    const double b_mbps = bytes_per_call / r.b_seconds / 1e6;
    char goal_text[32] = "-";
    const char* verdict = "reported";
    if (goal > 0) {
        const bool at_most = kind == goal_kind::at_most;
        std::snprintf(goal_text, sizeof goal_text, "%s%.2f", at_most ? "<=" : "", goal);
        verdict = (at_most ? r.median <= goal : r.median >= goal) ? "met" : "missed";
    }
    std::printf("ratio\t%s\t%s\t%s\t%.3f\t%.3f\t%.3f\t%zu\t%.0f\t%.0f\t%s\t%s\n", row.c_str(), s.compiler.c_str(),
                r.name.c_str(), r.median, r.min, r.max, r.repetitions, a_mbps, b_mbps, goal_text, verdict);
    std::fflush(stdout);
}

/// A measured quantity that is not a time ratio (allocations, bytes):
///   value  row  compiler  name  measured  bound  verdict
/// verdict: "met" when measured <= bound, "missed" when not, "reported" when there is no bound.
inline void emit_value(const run_settings& s, const std::string& row, const std::string& name,
                       const std::string& measured, const std::string& bound = "-", const char* verdict = "reported") {
    std::printf("value\t%s\t%s\t%s\t%s\t%s\t%s\n", row.c_str(), s.compiler.c_str(), name.c_str(), measured.c_str(),
                bound.c_str(), verdict);
    std::fflush(stdout);
}

}  // namespace sinkcheck::bench
