// global_new.cpp — the kit's replacement of the global operator new and delete (every form: plain,
// array, nothrow, aligned, sized), so a sink's allocations through `new` are seen and failed.
//
// Linked into a check binary by sinkcheck_add_sink_check unless it is given ALLOCATIONS kit-only.
// Inside an armed scope with a run tracking allocations (sinkcheck/testkit/instrument/global_new.hpp), an
// allocation goes through the run's allocation_log, which counts it and can make it throw; every
// other allocation goes straight to malloc. Every form takes its memory from the malloc family
// and gives it back with free(), so a block may be released by any delete form, tracked or not,
// and AddressSanitizer (which intercepts malloc and free) still sees every block.
// [new.delete.single] and [new.delete.array]: the throwing forms call the new-handler until it
// gives up; the nothrow forms return nullptr where the throwing form would throw; the array
// forms and the sized deletes behave as the plain ones.
#include <cstddef>
#include <cstdlib>
#include <new>

#include "sinkcheck/testkit/instrument/global_new.hpp"
#include "sinkcheck/testkit/instrument/tracing_allocator.hpp"

namespace {

using sinkcheck::detail::new_hook;

constexpr std::size_t default_alignment = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

/// One attempt at the heap: malloc, or aligned_alloc with the size rounded up to a multiple of
/// the alignment (C11 7.22.3.1 asks for that).
void* heap_attempt(std::size_t bytes, std::size_t align) noexcept {
    if (bytes == 0) {
        bytes = 1;  // [basic.stc.dynamic.allocation]: a zero-byte request still gets a distinct block
    }
    if (align <= default_alignment) {
        return std::malloc(bytes);
    }
    const std::size_t rounded = (bytes + align - 1) / align * align;
    if (rounded < bytes) {
        return nullptr;  // the rounding overflowed
    }
    return std::aligned_alloc(align, rounded);
}

void* heap(std::size_t bytes, std::size_t align) {
    for (;;) {
        if (void* p = heap_attempt(bytes, align)) {
            return p;
        }
        const std::new_handler handler = std::get_new_handler();
        if (handler == nullptr) {
            throw std::bad_alloc();
        }
        handler();
    }
}

/// Whether this allocation is a sink's: a run tracks allocations, the sink is being called, and
/// the kit is not doing its own bookkeeping.
bool the_sinks() noexcept { return new_hook.log != nullptr && new_hook.armed && new_hook.kit_depth == 0; }

void* allocate(std::size_t bytes, std::size_t align) {
    if (the_sinks()) {
        return new_hook.log->allocate(bytes, align);  // its memory comes from heap(), in a kit_section
    }
    return heap(bytes, align);
}

void* allocate_nothrow(std::size_t bytes, std::size_t align) noexcept {
    try {
        return allocate(bytes, align);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

/// sized: the size the caller says it allocated (0: it does not say). A block the run's log
/// handed out is released through it, wherever the release comes from; a size that differs from
/// the one allocated is then counted as a mismatch.
void release(void* p, std::size_t sized, std::size_t align) noexcept {
    if (p == nullptr) {
        return;
    }
    std::size_t bytes = 0;
    if (new_hook.log != nullptr && new_hook.kit_depth == 0 && new_hook.log->live_size(p, bytes)) {
        new_hook.log->deallocate(p, sized != 0 ? sized : bytes, align);  // frees it in a kit_section
        return;
    }
    std::free(p);
}

std::size_t alignment(std::align_val_t a) noexcept { return static_cast<std::size_t>(a); }

[[maybe_unused]] const bool linked = (sinkcheck::detail::new_hook_linked = true);

}  // namespace

void* operator new(std::size_t n) { return allocate(n, default_alignment); }
void* operator new[](std::size_t n) { return allocate(n, default_alignment); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate_nothrow(n, default_alignment); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate_nothrow(n, default_alignment); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, alignment(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate(n, alignment(a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate_nothrow(n, alignment(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate_nothrow(n, alignment(a));
}

void operator delete(void* p) noexcept { release(p, 0, default_alignment); }
void operator delete[](void* p) noexcept { release(p, 0, default_alignment); }
void operator delete(void* p, std::size_t n) noexcept { release(p, n, default_alignment); }
void operator delete[](void* p, std::size_t n) noexcept { release(p, n, default_alignment); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p, 0, default_alignment); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p, 0, default_alignment); }
void operator delete(void* p, std::align_val_t a) noexcept { release(p, 0, alignment(a)); }
void operator delete[](void* p, std::align_val_t a) noexcept { release(p, 0, alignment(a)); }
void operator delete(void* p, std::size_t n, std::align_val_t a) noexcept { release(p, n, alignment(a)); }
void operator delete[](void* p, std::size_t n, std::align_val_t a) noexcept { release(p, n, alignment(a)); }
void operator delete(void* p, std::align_val_t a, const std::nothrow_t&) noexcept { release(p, 0, alignment(a)); }
void operator delete[](void* p, std::align_val_t a, const std::nothrow_t&) noexcept { release(p, 0, alignment(a)); }
