// sinkcheck/testkit/instrument/tracing_allocator.hpp — an allocator that logs, and fails on demand.
//
// Every allocate and deallocate made through any copy or rebind of a tracing_allocator goes
// into one shared allocation_log, with its size. The log can make the k-th allocation from now
// throw std::bad_alloc (to drive a sink through a failure at every allocation of a document), and
// reports what is still live, so a test can show that a sink which threw has leaked nothing.
// The kit's hook of global operator new (global_new.hpp) feeds a log of its own the same way.
// Not thread-safe: a log belongs to one test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sinkcheck/testkit/instrument/global_new.hpp"

namespace sinkcheck {

class allocation_log {
public:
    enum class kind { allocate, deallocate, failed };

    struct event {
        kind what;
        std::size_t bytes;
        const void* pointer;  // null for a failed allocation
    };

    /// Makes the k-th allocation from now (k >= 1) throw std::bad_alloc; 0 disarms.
    void fail_at(std::size_t k) noexcept { fail_serial_ = k == 0 ? 0 : attempts_ + k; }
    /// Makes every allocation from now throw (to prove that something does not allocate).
    void fail_always() noexcept { fail_all_ = true; }
    void disarm() noexcept {
        fail_serial_ = 0;
        fail_all_ = false;
    }

    void* allocate(std::size_t bytes, std::size_t align) {
        const kit_section own;  // the log's containers and the memory itself are not a sink's
        ++attempts_;
        if (fail_all_ || attempts_ == fail_serial_) {
            events_.push_back({kind::failed, bytes, nullptr});
            throw std::bad_alloc();
        }
        void* p = ::operator new(bytes, std::align_val_t(align));
        live_[p] = bytes;
        events_.push_back({kind::allocate, bytes, p});
        ++allocations_;
        bytes_allocated_ += bytes;
        live_bytes_ += bytes;
        if (live_bytes_ > peak_bytes_) {
            peak_bytes_ = live_bytes_;
        }
        return p;
    }

    void deallocate(void* p, std::size_t bytes, std::size_t align) noexcept {
        const kit_section own;
        events_.push_back({kind::deallocate, bytes, p});
        const auto it = live_.find(p);
        if (it == live_.end() || it->second != bytes) {
            ++mismatches_;  // unknown pointer, or a size other than the one allocated
        }
        if (it != live_.end()) {
            live_bytes_ -= it->second;
            live_.erase(it);
        }
        ::operator delete(p, std::align_val_t(align));
    }

    /// Whether p is live and was handed out by this log; if so, bytes is the size it was allocated with.
    bool live_size(const void* p, std::size_t& bytes) const noexcept {
        const auto it = live_.find(p);
        if (it == live_.end()) {
            return false;
        }
        bytes = it->second;
        return true;
    }

    const std::vector<event>& events() const noexcept { return events_; }
    /// Successful allocations, and their sizes in order.
    std::size_t allocations() const noexcept { return allocations_; }
    std::vector<std::size_t> allocation_sizes() const {
        std::vector<std::size_t> out;
        for (const event& e : events_) {
            if (e.what == kind::allocate) {
                out.push_back(e.bytes);
            }
        }
        return out;
    }
    std::size_t bytes_allocated() const noexcept { return bytes_allocated_; }
    std::size_t peak_bytes() const noexcept { return peak_bytes_; }
    std::size_t live_allocations() const noexcept { return live_.size(); }
    std::size_t live_bytes() const noexcept { return live_bytes_; }
    /// Deallocations of a pointer this log did not hand out, or with the wrong size.
    std::size_t mismatches() const noexcept { return mismatches_; }

    bool clean() const noexcept { return live_.empty() && mismatches_ == 0; }

    /// "" when clean, else what leaked (size and allocation number) and the mismatch count.
    std::string leak_report() const {
        std::string out;
        for (const auto& [pointer, bytes] : live_) {
            out +=
                "leaked " + std::to_string(bytes) + " bytes (allocation #" + std::to_string(serial_of(pointer)) + ")\n";
        }
        if (mismatches_ != 0) {
            out += std::to_string(mismatches_) + " mismatched deallocations\n";
        }
        return out;
    }

private:
    std::size_t serial_of(const void* p) const noexcept {
        std::size_t serial = 0;
        std::size_t found = 0;
        for (const event& e : events_) {
            if (e.what == kind::allocate) {
                ++serial;
                if (e.pointer == p) {
                    found = serial;  // the latest allocation at that address is the live one
                }
            }
        }
        return found;
    }

    std::vector<event> events_;
    std::map<const void*, std::size_t> live_;
    std::size_t attempts_ = 0;
    std::size_t fail_serial_ = 0;
    bool fail_all_ = false;
    std::size_t allocations_ = 0;
    std::size_t bytes_allocated_ = 0;
    std::size_t live_bytes_ = 0;
    std::size_t peak_bytes_ = 0;
    std::size_t mismatches_ = 0;
};

/// A standard allocator over a shared allocation_log; copies and rebinds share the log and
/// compare equal exactly when they do.
template <class T>
class tracing_allocator {
public:
    using value_type = T;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    using is_always_equal = std::false_type;

    /// A fresh log of its own (for containers that need a default-constructed allocator).
    tracing_allocator() : log_(std::make_shared<allocation_log>()) {}
    explicit tracing_allocator(std::shared_ptr<allocation_log> log) noexcept : log_(std::move(log)) {}
    template <class U>
    tracing_allocator(const tracing_allocator<U>& other) noexcept : log_(other.log()) {}

    T* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) {
            throw std::bad_array_new_length();
        }
        return static_cast<T*>(log_->allocate(n * sizeof(T), alignof(T)));
    }

    void deallocate(T* p, std::size_t n) noexcept { log_->deallocate(p, n * sizeof(T), alignof(T)); }

    const std::shared_ptr<allocation_log>& log() const noexcept { return log_; }

    template <class U>
    bool operator==(const tracing_allocator<U>& other) const noexcept {
        return log_ == other.log();
    }
    template <class U>
    bool operator!=(const tracing_allocator<U>& other) const noexcept {
        return log_ != other.log();
    }

private:
    std::shared_ptr<allocation_log> log_;
};

}  // namespace sinkcheck
