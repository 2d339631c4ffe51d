// sinkcheck/testkit/broken_sinks.hpp — sinks with one plausible regression each, for the gallery.
//
// Compiled only into property_gallery. Each family is a small, straightforward implementation
// of a real sink's contract (stated at the top of each header of reference/include/sinkcheck/sink/)
// with a switch that plants one mistake a change like the seed's could make: a trim skipped while unwinding, a trim to the capacity,
// a byte doubled at a window edge, growth that stops doubling, a legacy sink that reports its
// resized size, a chunk cap ignored, a partial chunk dropped, a string that still doubles out of
// its short buffer, a seekable writer whose fast path forgets a seek, and slips that only one
// check of the kit sees (a window one byte long, a move assignment that leaves its old target
// untrimmed, a growth event with the wrong length, chunk sizes
// reported wrong, chunks freed with the wrong size, a stream error one byte off, growth on a
// write that exactly fills the capacity, a growth that zeroes the caller's earlier bytes, a
// growth measured from the previous write call, a position() that is one call behind). The switch set to `none`
// is the control: the same code unbroken, which must pass every property (so a mutant caught is
// caught for its mistake, not for a difference between this code and the reference sinks).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sinkcheck/error.hpp"
#include "sinkcheck/sink/growth_observer.hpp"

#include "sinkcheck/testkit/harness.hpp"
#include "sinkcheck/testkit/sink_fuzzer.hpp"
#include "sinkcheck/testkit/sinks.hpp"

namespace sinkcheck::testkit::gallery {

// ---------------------------------------------------------------------------------------------
// Vector and string sinks (seeds 000 and 002).

enum class container_bug {
    none,
    /// seed 000: "the destructor trims ... also when a write throws" — skipped while unwinding
    no_trim_when_unwinding,
    /// the destructor trims to the capacity instead of the position
    trim_to_capacity,
    /// a write that crosses the window edge is split, and the second half starts one byte early
    duplicate_at_window_edge,
    /// growth falls back to 1.5x once the vector holds 4 KiB
    stops_doubling,
    /// resize()s to the whole capacity although a window was asked for
    window_ignored,
    /// the legacy sink (whole capacity resized) reports the resized size as its position
    reports_resized_size,
    /// seed 002 reverted: leaving the short buffer still asks for twice its capacity
    doubles_out_of_short_buffer,
    /// the destructor trims to position() and forgets the container's earlier contents
    trim_ignores_existing,
    /// the fast path asks for n < room where n <= room is meant: a write that exactly fills the
    /// zero-filled room, an empty one at its end among them, takes the growth path
    fast_path_strict,
    /// the move constructor copies the container pointer and leaves it in the moved-from sink,
    /// whose destructor then trims the container to where the move happened
    moved_from_trims,
    /// position() is cached, and the growth path forgets to update the cache: until the next
    /// fast-path write it lags by the write that grew (the trim uses the true position)
    position_lags_growth,
    /// when the window is used up but the capacity holds the write, the container is copied into
    /// a new one of the same capacity instead of being resized within it
    reallocates_within_capacity,
    /// a growth zero-fills one byte more than the window (the reference's window-one-long slip)
    window_one_long,
    /// move assignment takes the other sink's container without trimming its own first: the
    /// container assigned away from keeps its zero-filled window
    move_assign_no_trim,
    /// the growth event names the bytes needed in all (position + n) for the write's length
    growth_reports_needed,
    /// "needed < capacity" for "<=": a write that exactly fills the capacity grows it
    grows_on_exact_fill,
    /// a growth copies into the new allocation only what the sink wrote: the caller's earlier
    /// bytes come out as zeros (the length stays right)
    growth_drops_existing,
    /// a growth event measures the bytes made writable from where the previous write call
    /// started, not from this one's cursor (what it does to the container is right)
    growth_ahead_from_previous_call,
    /// position() is cached, and the cache is brought up to date only after it is read: each call
    /// returns what the previous one should have (right again once nothing is written in between)
    position_updated_after_read,
    /// the trim then shrinks the container to fit: its bytes copied into a right-sized allocation
    /// (what shrink_to_fit may do), one allocation while the sink is destroyed
    shrinks_to_fit,
};

/// A caller's vector or string, grown through a zero-fill window, trimmed when the sink goes.
template <class Container>
class broken_container_sink {
public:
    broken_container_sink(Container& c, std::size_t window, container_bug bug, growth_observer* observer)
        : c_(&c), base_(c.size()), pos_(c.size()), window_(window), bug_(bug), observer_(observer) {}

    broken_container_sink(broken_container_sink&& other) noexcept
        : c_(nullptr), base_(0), pos_(0), window_(0), bug_(other.bug_), observer_(nullptr) {
        take(other);
    }
    broken_container_sink(const broken_container_sink&) = delete;
    broken_container_sink& operator=(const broken_container_sink&) = delete;

    /// Trims its own container, then takes the other's (which then owns nothing).
    broken_container_sink& operator=(broken_container_sink&& other) noexcept {
        if (this != &other) {
            if (bug_ != container_bug::move_assign_no_trim) {
                trim();
            }
            take(other);
        }
        return *this;
    }

    ~broken_container_sink() { trim(); }

    void write(std::uint8_t b) { write(&b, 1); }

    void write(const std::uint8_t* p, std::size_t n) {
        const std::size_t at = pos_;
        const bool fits = bug_ == container_bug::fast_path_strict ? n < c_->size() - pos_ : n <= c_->size() - pos_;
        if (fits) {
            copy_to(pos_, p, n);
            pos_ += n;
            lag_ = 0;
        } else {
            grow_and_write(p, n);
        }
        previous_call_at_ = at;
    }

    std::size_t position() const noexcept {
        if (bug_ == container_bug::position_updated_after_read) {
            const std::size_t cached = read_;
            read_ = pos_;
            return cached - base_;
        }
        return (bug_ == container_bug::reports_resized_size ? c_->size() : pos_ - lag_) - base_;
    }

private:
    static constexpr bool is_string = !std::is_same_v<typename Container::value_type, std::uint8_t>;

    void trim() {
        if (c_ == nullptr) {
            return;
        }
        if (bug_ == container_bug::no_trim_when_unwinding && std::uncaught_exceptions() > 0) {
            return;
        }
        if (bug_ == container_bug::trim_ignores_existing) {
            c_->resize(pos_ - base_);
            return;
        }
        c_->resize(bug_ == container_bug::trim_to_capacity ? c_->capacity() : pos_);
        if (bug_ == container_bug::shrinks_to_fit && !c_->empty() && c_->size() != c_->capacity()) {
            Container(c_->begin(), c_->end(), c_->get_allocator()).swap(*c_);
        }
    }

    void copy_to(std::size_t at, const std::uint8_t* p, std::size_t n) {
        if (n != 0) {
            std::memcpy(&(*c_)[0] + at, p, n);
        }
    }

    std::size_t short_capacity() const { return Container(c_->get_allocator()).capacity(); }

    /// Reserves by the sink's growth rule; returns the capacity.
    std::size_t reserve_for(std::size_t needed) {
        const std::size_t cap = c_->capacity();
        if (needed < cap || (needed == cap && bug_ != container_bug::grows_on_exact_fill)) {
            if constexpr (!is_string) {
                if (bug_ == container_bug::reallocates_within_capacity) {
                    Container copy(c_->get_allocator());
                    copy.reserve(cap);
                    copy.assign(c_->begin(), c_->end());
                    c_->swap(copy);
                }
            }
            return cap;
        }
        if constexpr (is_string) {
            if (cap == short_capacity()) {
                const std::size_t want =
                    bug_ == container_bug::doubles_out_of_short_buffer ? std::max(needed, 2 * cap) : needed;
                // libstdc++'s reserve() would round a small request up to twice the short
                // capacity; a string constructed with a count allocates exactly
                Container exact(want, '\0', c_->get_allocator());
                std::memcpy(&exact[0], c_->data(), c_->size());
                exact.resize(c_->size());
                c_->swap(exact);
                return c_->capacity();
            }
            c_->reserve(std::max(needed, 2 * cap));
            return c_->capacity();
        } else {
            std::size_t next = std::max(needed, 2 * cap);
            if (bug_ == container_bug::stops_doubling && cap >= 4096) {
                next = std::max(needed, cap + cap / 2);
            }
            if (bug_ == container_bug::growth_drops_existing) {
                Container fresh(c_->get_allocator());
                fresh.reserve(std::max<std::size_t>(64, next));
                fresh.resize(base_);
                fresh.insert(fresh.end(), c_->begin() + static_cast<std::ptrdiff_t>(base_), c_->end());
                c_->swap(fresh);
                return c_->capacity();
            }
            c_->reserve(std::max<std::size_t>(64, next));
            return c_->capacity();
        }
    }

    void grow_and_write(const std::uint8_t* p, std::size_t n) {
        const std::size_t room = c_->size() - pos_;
        const std::size_t needed = pos_ + n;
        const std::size_t cap = reserve_for(needed);
        const bool whole = bug_ == container_bug::window_ignored || bug_ == container_bug::reports_resized_size;
        const std::size_t reach =
            bug_ == container_bug::window_one_long && window_ != unlimited_window ? window_ + 1 : window_;
        std::size_t end = whole || reach >= cap - pos_ ? cap : pos_ + reach;
        end = std::max(end, needed);
        const std::size_t before = pos_;
        if (bug_ == container_bug::duplicate_at_window_edge && room > 0) {
            copy_to(pos_, p, room);
            c_->resize(end);
            copy_to(pos_ + room, p + room - 1, n - room);
        } else {
            c_->resize(end);
            copy_to(pos_, p, n);
        }
        pos_ = needed;
        lag_ = bug_ == container_bug::position_lags_growth ? n : 0;
        if (observer_ != nullptr) {
            const std::size_t request = bug_ == container_bug::growth_reports_needed ? needed - base_ : n;
            const std::size_t from =
                bug_ == container_bug::growth_ahead_from_previous_call ? previous_call_at_ : before;
            observer_->on_growth({before - base_, request, cap, end - from});
        }
    }

    /// Takes over other's container and cursor (for both moves); other then owns nothing,
    /// unless the bug is that it still trims.
    void take(broken_container_sink& other) noexcept {
        c_ = other.c_;
        base_ = other.base_;
        pos_ = other.pos_;
        window_ = other.window_;
        bug_ = other.bug_;
        observer_ = other.observer_;
        lag_ = other.lag_;
        previous_call_at_ = other.previous_call_at_;
        read_ = other.read_;
        if (bug_ != container_bug::moved_from_trims) {
            other.c_ = nullptr;
        }
    }

    Container* c_;
    std::size_t base_;
    std::size_t pos_;
    std::size_t window_;
    container_bug bug_;
    growth_observer* observer_;
    std::size_t lag_ = 0;
    std::size_t previous_call_at_ = pos_;
    mutable std::size_t read_ = pos_;
};

// ---------------------------------------------------------------------------------------------
// Chunked sink (seed 003).

enum class chunk_bug {
    none,
    /// the next chunk size keeps doubling past the cap
    cap_ignored,
    /// the final flush drops the chunk that is not full yet
    drops_partial_chunk,
    /// "double while next < cap / 2" for "<=": an odd cap is reached one doubling early
    cap_compared_strictly,
    /// the chunk sizes it reports are the bytes each chunk holds, not what it was allocated with
    reports_used_as_capacity,
    /// the destructor frees each chunk by the bytes it holds, not the size it was allocated with
    frees_used_bytes,
};

template <class Alloc>
class broken_chunked_sink {
public:
    broken_chunked_sink(std::size_t first, std::size_t cap, chunk_bug bug, const Alloc& alloc)
        : alloc_(alloc), next_(first), cap_(cap), bug_(bug) {}
    broken_chunked_sink(broken_chunked_sink&& other) noexcept
        : alloc_(std::move(other.alloc_)),
          chunks_(std::move(other.chunks_)),
          next_(other.next_),
          cap_(other.cap_),
          bug_(other.bug_) {
        other.chunks_.clear();
    }
    broken_chunked_sink(const broken_chunked_sink&) = delete;
    broken_chunked_sink& operator=(const broken_chunked_sink&) = delete;
    broken_chunked_sink& operator=(broken_chunked_sink&&) = delete;

    ~broken_chunked_sink() {
        for (const chunk& c : chunks_) {
            alloc_.deallocate(c.data, bug_ == chunk_bug::frees_used_bytes ? c.used : c.capacity);
        }
    }

    void write(std::uint8_t b) { write(&b, 1); }

    void write(const std::uint8_t* p, std::size_t n) {
        const std::size_t room = chunks_.empty() ? 0 : chunks_.back().capacity - chunks_.back().used;
        if (n <= room) {
            if (n != 0) {
                append(chunks_.back(), p, n);
            }
            return;
        }
        const std::size_t rest = n - room;
        std::size_t size = next_;
        while (size < rest) {
            size *= 2;
        }
        if (chunks_.size() == chunks_.capacity()) {
            chunks_.reserve(2 * chunks_.size() + 8);
        }
        std::uint8_t* fresh = alloc_.allocate(size);  // may throw: nothing copied yet
        if (room != 0) {
            append(chunks_.back(), p, room);
        }
        chunks_.push_back({fresh, size, 0});
        append(chunks_.back(), p + room, rest);
        if (bug_ == chunk_bug::cap_ignored) {
            next_ = 2 * next_;
        } else if (bug_ == chunk_bug::cap_compared_strictly) {
            next_ = next_ < cap_ / 2 ? 2 * next_ : cap_;
        } else {
            next_ = next_ <= cap_ / 2 ? 2 * next_ : cap_;
        }
    }

    std::size_t position() const noexcept {
        std::size_t n = 0;
        for (const chunk& c : chunks_) {
            n += c.used;
        }
        return n;
    }

    std::vector<std::uint8_t> flatten() const {
        std::vector<std::uint8_t> out;
        for (const chunk& c : chunks_) {
            if (bug_ == chunk_bug::drops_partial_chunk && c.used < c.capacity) {
                continue;
            }
            out.insert(out.end(), c.data, c.data + c.used);
        }
        return out;
    }

    std::vector<std::size_t> capacities() const {
        std::vector<std::size_t> out;
        for (const chunk& c : chunks_) {
            out.push_back(bug_ == chunk_bug::reports_used_as_capacity ? c.used : c.capacity);
        }
        return out;
    }

private:
    struct chunk {
        std::uint8_t* data;
        std::size_t capacity;
        std::size_t used;
    };

    static void append(chunk& c, const std::uint8_t* p, std::size_t n) {
        if (n != 0) {
            std::memcpy(c.data + c.used, p, n);
        }
        c.used += n;
    }

    Alloc alloc_;
    std::vector<chunk> chunks_;
    std::size_t next_;
    std::size_t cap_;
    chunk_bug bug_;
};

// ---------------------------------------------------------------------------------------------
// Fixed span.

enum class span_bug {
    none,
    /// the limit is one byte past the buffer: an overrun by exactly one byte is stored
    limit_one_past_end,
};

class broken_span_sink {
public:
    broken_span_sink(std::uint8_t* data, std::size_t capacity, span_bug bug) noexcept
        : data_(data), capacity_(capacity), bug_(bug) {}

    void write(std::uint8_t b) { write(&b, 1); }

    void write(const std::uint8_t* p, std::size_t n) {
        const std::size_t limit = bug_ == span_bug::limit_one_past_end ? capacity_ + 1 : capacity_;
        if (n > limit - pos_) {
            throw sink_overflow(pos_, capacity_, n);
        }
        if (n != 0) {
            std::memcpy(data_ + pos_, p, n);
        }
        pos_ += n;
    }

    std::size_t position() const noexcept { return pos_; }

private:
    std::uint8_t* data_;
    std::size_t capacity_;
    std::size_t pos_ = 0;
    span_bug bug_;
};

// ---------------------------------------------------------------------------------------------
// std::ostream.

enum class stream_bug {
    none,
    /// position() advances before the stream's state is checked
    advances_before_check,
    /// the error names the failed byte counting from 1: one past the bytes written
    error_position_one_based,
};

class broken_ostream_sink {
public:
    broken_ostream_sink(std::ostream& os, stream_bug bug) noexcept : os_(&os), bug_(bug) {}

    void write(std::uint8_t b) { write(&b, 1); }

    void write(const std::uint8_t* p, std::size_t n) {
        os_->write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(n));
        if (bug_ == stream_bug::advances_before_check) {
            position_ += n;
        }
        if (!*os_) {
            const std::size_t at = bug_ == stream_bug::error_position_one_based ? position_ + 1 : position_;
            throw sink_error("broken_ostream_sink: the stream failed at byte " + std::to_string(at), at);
        }
        if (bug_ != stream_bug::advances_before_check) {
            position_ += n;
        }
    }

    std::size_t position() const noexcept { return position_; }

private:
    std::ostream* os_;
    stream_bug bug_;
    std::size_t position_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Seekable memory writer (seed 004).

enum class seek_bug {
    none,
    /// the append fast path is chosen by a flag that seek() does not clear
    fast_path_forgets_seek,
    /// the append path lets std::vector::insert grow the buffer by the library's own rule
    library_growth,
};

template <class Alloc>
class broken_seekable_writer {
public:
    broken_seekable_writer(seek_bug bug, const Alloc& alloc, growth_observer* observer)
        : buf_(alloc), bug_(bug), observer_(observer) {}
    broken_seekable_writer(broken_seekable_writer&&) noexcept = default;
    broken_seekable_writer(const broken_seekable_writer&) = delete;
    broken_seekable_writer& operator=(const broken_seekable_writer&) = delete;
    broken_seekable_writer& operator=(broken_seekable_writer&&) = delete;

    void write(std::uint8_t b) { write(&b, 1); }

    void write(const std::uint8_t* p, std::size_t n) {
        if (appending_) {
            if (bug_ != seek_bug::library_growth) {
                reserve_for(buf_.size() + n, n);
            }
            buf_.insert(buf_.end(), p, p + n);
            pos_ = buf_.size();
            return;
        }
        if (n == 0) {
            return;  // no bytes: not even a gap to fill
        }
        const std::size_t needed = pos_ + n;
        reserve_for(needed, n);
        if (buf_.size() < needed) {
            buf_.resize(needed);  // zeros fill the gap after a seek past the end
        }
        if (n != 0) {
            std::memcpy(buf_.data() + pos_, p, n);
        }
        pos_ = needed;
        appending_ = pos_ == buf_.size();
    }

    void seek(std::size_t pos) {
        pos_ = pos;
        if (bug_ != seek_bug::fast_path_forgets_seek) {
            appending_ = pos == buf_.size();
        }
    }

    std::size_t position() const noexcept { return pos_; }
    const std::vector<std::uint8_t, Alloc>& bytes() const noexcept { return buf_; }

private:
    /// seed 000's rule, as the real memory writers grow
    void reserve_for(std::size_t needed, std::size_t n) {
        const std::size_t cap = buf_.capacity();
        if (needed > cap) {
            buf_.reserve(std::max<std::size_t>(64, std::max(needed, 2 * cap)));
            if (observer_ != nullptr) {
                observer_->on_growth({pos_, n, buf_.capacity(), n});
            }
        }
    }

    std::vector<std::uint8_t, Alloc> buf_;
    std::size_t pos_ = 0;
    bool appending_ = true;
    seek_bug bug_;
    growth_observer* observer_;
};

// ---------------------------------------------------------------------------------------------
// The gallery.

struct gallery_entry {
    sut_entry sut;
    /// the seed whose change the mistake belongs to, and the mistake
    std::string seed;
    std::string regression;
    /// names of the properties (gallery_test.cpp) that apply to this kind of sink
    std::vector<std::string> properties;
    /// the unbroken control: must pass every property
    bool control = false;
    /// the property whose check the mistake is planted for: it must be among those that catch
    /// it ("": any one will do)
    std::string caught_by;
};

const std::vector<gallery_entry>& all_broken_sinks();

/// The vector that grows when a write exactly fills its capacity (traits with `room`, no growth
/// rule), or with control its unbroken twin: a program of 64 one-byte writes shows it on its
/// last write, every time (in the gallery's random programs an exact fill comes too rarely).
sut_entry vector_growing_on_exact_fill(bool control);

/// The sink fuzzer's checks (sink_fuzzer.hpp) on program p, for the vector whose growth zero-fills
/// a byte past the window, or with control its unbroken twin: a broken promise stops the process.
void fuzz_window_one_long(const fuzz_program& p, bool control);

/// The promise the sink registry (registry.hpp) finds broken by thirty 3-byte writes through the
/// vector with `bug` (container_bug::none: the control) at window 7, with a throw at write call
/// write_fault (0: none); "" when none is.
std::string registry_verdict(container_bug bug, std::size_t write_fault);

}  // namespace sinkcheck::testkit::gallery
