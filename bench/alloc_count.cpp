// bench/alloc_count.cpp — the counting global operator new and delete (see alloc_count.hpp).
#include "alloc_count.hpp"

#include <cstdlib>
#include <new>

namespace {

std::size_t g_calls = 0;
std::size_t g_bytes = 0;

void* counted_alloc(std::size_t n) {
    ++g_calls;
    g_bytes += n;
    if (void* p = std::malloc(n == 0 ? 1 : n)) {
        return p;
    }
    throw std::bad_alloc();
}

void* counted_alloc(std::size_t n, std::align_val_t align) {
    ++g_calls;
    g_bytes += n;
    const auto a = static_cast<std::size_t>(align);
    // aligned_alloc wants a size that is a multiple of the alignment
    if (void* p = std::aligned_alloc(a, (n + a - 1) / a * a)) {
        return p;
    }
    throw std::bad_alloc();
}

}  // namespace

namespace sinkcheck::bench {
allocation_totals allocations() noexcept { return {g_calls, g_bytes}; }
}  // namespace sinkcheck::bench

void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void* operator new(std::size_t n, std::align_val_t a) { return counted_alloc(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_alloc(n, a); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return counted_alloc(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return counted_alloc(n);
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
