// What protobuf_coded_stream_check.cpp and protobuf_late_failure_check.cpp share: a
// CodedOutputStream over an OstreamOutputStream over the kit's failing stream buffer, as a sink.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <sinkcheck/error.hpp>
#include <sinkcheck/testkit/sink_traits.hpp>
#include <sinkcheck/testkit/sinks.hpp>

namespace examples {

/// WriteRaw takes an int: a longer block goes in parts.
inline void write_raw(google::protobuf::io::CodedOutputStream& coded, const std::uint8_t* p, std::size_t n) {
    constexpr std::size_t most = std::numeric_limits<int>::max();
    do {
        const std::size_t part = std::min(n, most);
        coded.WriteRaw(p, static_cast<int>(part));
        p += part;
        n -= part;
    } while (n != 0);
}

/// Writes through a CodedOutputStream over an OstreamOutputStream; a write after which the coded
/// stream has seen a refused block throws sink_error. Where the stream stopped is not known here
/// (the adaptor does not say how much of a block the stream took), so the error names byte 0.
class coded_ostream_sink {
public:
    explicit coded_ostream_sink(std::ostream& os) : stream_(std::in_place, &os), coded_(std::in_place, &*stream_) {}
    coded_ostream_sink(const coded_ostream_sink&) = delete;
    coded_ostream_sink& operator=(const coded_ostream_sink&) = delete;
    ~coded_ostream_sink() = default;

    void write(std::uint8_t b) { write(&b, 1); }
    void write(const std::uint8_t* p, std::size_t n) {
        write_raw(*coded_, p, n);
        if (coded_->HadError()) {
            throw sinkcheck::sink_error("the stream refused a block the coded stream flushed", 0);
        }
        written_ += n;
    }
    std::size_t position() const { return written_; }

    /// Trims the coded stream and destroys the OstreamOutputStream, which writes its last block
    /// into the ostream (a refusal shows only in the ostream's state).
    void close() {
        coded_.reset();
        stream_.reset();
    }
    /// The slip of protobuf_late_failure_check.cpp: trims and asks the coded stream, whose last
    /// block is still in the adaptor, unwritten.
    bool trim_and_ask() {
        coded_->Trim();
        return !coded_->HadError();
    }

private:
    std::optional<google::protobuf::io::OstreamOutputStream> stream_;
    std::optional<google::protobuf::io::CodedOutputStream> coded_;  // destroyed first
    std::size_t written_ = 0;
};

/// Everything but the name and the finish step.
struct coded_ostream_traits_base {
    static constexpr bool streams = true;
    /// the adaptor's block (kDefaultBlockSize) and the coded stream's slop bytes (kSlopBytes)
    static constexpr std::size_t buffers = 8192 + 16;
    static constexpr bool allocates = true;
    struct target {
        sinkcheck::testkit::limited_streambuf buf;
        std::ostream os;
        target(const sinkcheck::testkit::run_setup& s, const std::shared_ptr<sinkcheck::allocation_log>&)
            : buf(s.stream_limit), os(&buf) {}
    };
    static coded_ostream_sink make(target& t) { return coded_ostream_sink(t.os); }
    static std::vector<std::uint8_t> contents(target& t) { return {t.buf.str().begin(), t.buf.str().end()}; }
};

}  // namespace examples
