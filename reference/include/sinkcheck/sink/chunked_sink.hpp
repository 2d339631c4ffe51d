// sinkcheck/sink/chunked_sink.hpp — output as a list of separately allocated chunks (seed 003).
//
// Contract: the first chunk holds 2 KiB and each next one twice its predecessor, up to a 64 KiB cap
// (both parameters); a write that does not fit fills the current chunk and goes on in a new one,
// and what remains of a write larger than the next chunk gets a chunk of the next power of two
// that holds it. Nothing is zero-filled; every chunk but the last holds exactly what was written
// into it. A throw (bad_alloc for a new chunk) happens before any byte of that write is copied, so
// the chunks hold exactly the completed writes; the destructor frees every chunk.
//
// Closing figure with the defaults: 2+4+...+64 KiB = 129,024 bytes fill the first six chunks, so an
// output of n > 129,024 bytes written in pieces of at most 2 KiB takes 6 + ceil((n - 129,024) /
// 65,536) chunks: O(log n) allocations up to the cap, then one per 64 KiB, and no byte is ever
// copied twice. The cap keeps one chunk cheap to allocate and to hand on; the doubling keeps a
// small document in one small chunk.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "sinkcheck/sink/detail/cursor_sink.hpp"

namespace sinkcheck {

template <class Alloc = std::allocator<std::uint8_t>>
class basic_chunked_sink : public detail::cursor_sink<basic_chunked_sink<Alloc>> {
    using base = detail::cursor_sink<basic_chunked_sink<Alloc>>;
    friend base;
    using byte_alloc = typename std::allocator_traits<Alloc>::template rebind_alloc<std::uint8_t>;
    using traits = std::allocator_traits<byte_alloc>;

public:
    static constexpr std::size_t default_first_chunk = 2048;
    static constexpr std::size_t default_max_chunk = 65536;

    /// A chunk as seen from outside: its written bytes and the size it was allocated with.
    struct chunk_view {
        const std::uint8_t* data;
        std::size_t size;
        std::size_t capacity;
    };

    explicit basic_chunked_sink(std::size_t first_chunk = default_first_chunk,
                                std::size_t max_chunk = default_max_chunk, const Alloc& alloc = Alloc())
        : alloc_(alloc), next_(first_chunk), max_(max_chunk) {
        if (first_chunk == 0 || max_chunk < first_chunk) {
            throw std::invalid_argument("chunked_sink: need 0 < first_chunk <= max_chunk");
        }
    }

    ~basic_chunked_sink() { release(); }

    basic_chunked_sink(const basic_chunked_sink&) = delete;
    basic_chunked_sink& operator=(const basic_chunked_sink&) = delete;

    basic_chunked_sink(basic_chunked_sink&& other) noexcept
        : alloc_(std::move(other.alloc_)),
          chunks_(std::move(other.chunks_)),
          begin_(other.begin_),
          flushed_(other.flushed_),
          next_(other.next_),
          max_(other.max_) {
        other.move_cursor_to(*this);
        other.chunks_.clear();
        other.begin_ = nullptr;
        other.flushed_ = 0;
    }

    basic_chunked_sink& operator=(basic_chunked_sink&&) = delete;

    std::size_t position() const noexcept { return flushed_ + static_cast<std::size_t>(this->cursor_ - begin_); }

    std::size_t chunk_count() const noexcept { return chunks_.size(); }

    /// Chunk i, for i < chunk_count(): every chunk but the last is full.
    chunk_view chunk(std::size_t i) const noexcept {
        const owned_chunk& c = chunks_[i];
        const bool current = i + 1 == chunks_.size();
        const std::size_t used = current ? static_cast<std::size_t>(this->cursor_ - begin_) : c.capacity;
        return {c.data, used, c.capacity};
    }

    std::vector<chunk_view> chunks() const {
        std::vector<chunk_view> out;
        out.reserve(chunks_.size());
        for (std::size_t i = 0; i < chunks_.size(); ++i) {
            out.push_back(chunk(i));
        }
        return out;
    }

    /// All chunks' bytes, in order, in one vector.
    std::vector<std::uint8_t> flatten() const {
        std::vector<std::uint8_t> out;
        out.reserve(position());
        for (const chunk_view& c : chunks()) {
            out.insert(out.end(), c.data, c.data + c.size);
        }
        return out;
    }

private:
    struct owned_chunk {
        std::uint8_t* data;
        std::size_t capacity;
    };

    /// The size of the chunk that takes `rest` bytes: the next chunk size, doubled until it
    /// holds them (jiffy's enc_ensure loop).
    std::size_t chunk_size_for(std::size_t rest) const noexcept {
        std::size_t size = next_;
        while (size < rest) {
            size = size <= std::numeric_limits<std::size_t>::max() / 2 ? 2 * size : rest;
        }
        return size;
    }

    [[gnu::noinline]] void write_slow(const std::uint8_t* p, std::size_t n) {
        const auto room = static_cast<std::size_t>(this->limit_ - this->cursor_);
        const std::size_t rest = n - room;
        const std::size_t size = chunk_size_for(rest);
        // Everything that can throw comes first, so a failed write copies nothing.
        if (chunks_.size() == chunks_.capacity()) {
            chunks_.reserve(std::max<std::size_t>(8, 2 * chunks_.size()));
        }
        std::uint8_t* fresh = traits::allocate(alloc_, size);
        if (room != 0) {
            std::memcpy(this->cursor_, p, room);
        }
        flushed_ += static_cast<std::size_t>(this->cursor_ - begin_) + room;
        chunks_.push_back({fresh, size});
        std::memcpy(fresh, p + room, rest);
        begin_ = fresh;
        this->cursor_ = fresh + rest;
        this->limit_ = fresh + size;
        next_ = next_ <= max_ / 2 ? 2 * next_ : max_;
    }

    void release() noexcept {
        for (const owned_chunk& c : chunks_) {
            traits::deallocate(alloc_, c.data, c.capacity);
        }
        chunks_.clear();
    }

    byte_alloc alloc_;
    std::vector<owned_chunk> chunks_;  // bookkeeping only; the last entry is the current chunk
    std::uint8_t* begin_ = nullptr;
    std::size_t flushed_ = 0;  // bytes in the chunks before the current one
    std::size_t next_;
    std::size_t max_;
};

using chunked_sink = basic_chunked_sink<>;

}  // namespace sinkcheck
