// fault_cost.cpp — what a minor page fault costs on this machine, right now.
//
// Every row that starts from a trimmed heap pays one fault per fresh 4 KiB page of output, and
// on a virtual machine that price moves with the host: it decides how the "fresh vector" rows
// compare with the "heap kept" ones. scripts/bench.sh prints this before and after its runs.
// Maps 64 MiB of fresh anonymous memory, touches one byte per page, and reports the median
// microseconds per page over 7 rounds (thread CPU time, as the benchmarks use).
#include <sys/mman.h>
#include <time.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <vector>

namespace {

double thread_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main() {
    constexpr std::size_t bytes = std::size_t{64} << 20;
    constexpr std::size_t page = 4096;
    std::vector<double> per_page;
    for (int round = 0; round < 7; ++round) {
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            std::perror("fault_cost: mmap");
            return 2;
        }
        auto* bytes_at = static_cast<volatile unsigned char*>(p);
        const double start = thread_seconds();
        for (std::size_t i = 0; i < bytes; i += page) {
            bytes_at[i] = 1;
        }
        per_page.push_back((thread_seconds() - start) * 1e6 / static_cast<double>(bytes / page));
        munmap(p, bytes);
    }
    std::sort(per_page.begin(), per_page.end());
    std::printf("%.2f us per minor page fault (median of 7 x 64 MiB; min %.2f, max %.2f)\n", per_page[3],
                per_page.front(), per_page.back());
    return 0;
}
