// msgpack-cxx's sbuffer and vrefbuffer (libmsgpack-cxx-dev 4.1) as an encoder's output, under the
// sinkcheck test kit.
//
// Both buffers allocate with malloc/realloc, not through an allocator, so the kit cannot count or
// fail their allocations: the allocation properties see none, and the traits declare no growth
// rule. vrefbuffer copies a write shorter than its ref_size and keeps a *pointer* to a longer
// one (zero copy): the caller must keep those bytes alive until the buffer is read. The encoders'
// sink protocol gives no such promise (a write's bytes are valid during the call only), so the
// buffer is checked with a ref_size above every write, where it copies; that it keeps the pointer
// otherwise is shown by the plain test at the end, with bytes the test keeps alive itself.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#define MSGPACK_NO_BOOST 1
#include <msgpack.hpp>
#include <sinkcheck/testkit/check_sink.hpp>

namespace {

/// The protocol the encoders write to, over anything with msgpack's write(const char*, size_t).
template <class Buffer>
class msgpack_buffer_sink {
public:
    explicit msgpack_buffer_sink(Buffer& b) : b_(&b) {}
    void write(std::uint8_t c) { write(&c, 1); }
    void write(const std::uint8_t* p, std::size_t n) {
        b_->write(reinterpret_cast<const char*>(p), n);
        position_ += n;
    }
    std::size_t position() const { return position_; }

private:
    Buffer* b_;
    std::size_t position_ = 0;
};

struct sbuffer_traits {
    static constexpr const char* name = "msgpack::sbuffer";
    struct target {
        msgpack::sbuffer b;
    };
    static msgpack_buffer_sink<msgpack::sbuffer> make(target& t) { return msgpack_buffer_sink<msgpack::sbuffer>(t.b); }
    static std::vector<std::uint8_t> contents(target& t) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(t.b.data());
        return {p, p + t.b.size()};
    }
};

std::vector<std::uint8_t> flatten(const msgpack::vrefbuffer& b) {
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < b.vector_size(); ++i) {
        const auto* p = static_cast<const std::uint8_t*>(b.vector()[i].iov_base);
        out.insert(out.end(), p, p + b.vector()[i].iov_len);
    }
    return out;
}

struct vrefbuffer_copying_traits {
    static constexpr const char* name = "msgpack::vrefbuffer (ref_size above every write)";
    struct target {
        msgpack::vrefbuffer b{std::numeric_limits<std::size_t>::max() / 2, 8192};
    };
    static msgpack_buffer_sink<msgpack::vrefbuffer> make(target& t) {
        return msgpack_buffer_sink<msgpack::vrefbuffer>(t.b);
    }
    static std::vector<std::uint8_t> contents(target& t) { return flatten(t.b); }
};

}  // namespace

SINKCHECK_SINK_PROPERTIES(MsgpackSbuffer, sbuffer_traits);
SINKCHECK_SINK_PROPERTIES(MsgpackVrefbuffer, vrefbuffer_copying_traits);

// With its default ref_size (32), a write of 32 bytes or more is kept by reference: changing the
// caller's bytes afterwards changes what the buffer holds. Legitimate for a zero-copy buffer, and
// the reason it cannot take an encoder's writes from temporaries.
TEST(MsgpackVrefbuffer, KeepsAPointerToWritesOfRefSizeOrMore) {
    msgpack::vrefbuffer b;
    std::vector<char> bytes(32, 'a');
    b.write(bytes.data(), bytes.size());
    std::memset(bytes.data(), 'b', bytes.size());
    EXPECT_EQ(flatten(b), std::vector<std::uint8_t>(32, 'b'));

    msgpack::vrefbuffer small;
    std::vector<char> few(31, 'a');
    small.write(few.data(), few.size());
    std::memset(few.data(), 'b', few.size());
    EXPECT_EQ(flatten(small), std::vector<std::uint8_t>(31, 'a'));
}
