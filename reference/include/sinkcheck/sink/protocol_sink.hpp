// sinkcheck/sink/protocol_sink.hpp — the virtual sink, and adapters to and from nlohmann's.
//
// Contract: protocol_sink forwards every write, through one virtual call, to an object of
// nlohmann's output_adapter_protocol<std::uint8_t> shape (write_character / write_characters);
// it has no buffer, zero-fills nothing and grows nothing itself; the destructor releases its share
// of the adapter; a throw from the adapter passes through unchanged, with position() still at the
// bytes the adapter took before it.
//
// The adapters go both ways: protocol_sink lets sinkcheck's encoders write into any nlohmann
// output adapter (vector, stream, string or user-defined), and make_output_adapter() wraps any
// sinkcheck sink as an nlohmann::detail::output_adapter_t<std::uint8_t>, so nlohmann's own
// binary_writer can write into it — the oracle and the reference can share every sink.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include <nlohmann/json.hpp>

namespace sinkcheck {

/// The virtual byte-output interface: nlohmann's own, so either side can stand in for the other.
using output_protocol = nlohmann::detail::output_adapter_protocol<std::uint8_t>;
using output_protocol_ptr = nlohmann::detail::output_adapter_t<std::uint8_t>;

class protocol_sink {
public:
    explicit protocol_sink(output_protocol_ptr out) noexcept : out_(std::move(out)) {}

    void write(std::uint8_t b) {
        out_->write_character(b);
        ++position_;
    }

    void write(const std::uint8_t* p, std::size_t n) {
        out_->write_characters(p, n);
        position_ += n;
    }

    std::size_t position() const noexcept { return position_; }

private:
    output_protocol_ptr out_;
    std::size_t position_ = 0;
};

/// An nlohmann output adapter writing into a sinkcheck sink, which must outlive it.
template <class Sink>
class sink_output_adapter final : public output_protocol {
public:
    explicit sink_output_adapter(Sink& sink) noexcept : sink_(&sink) {}
    void write_character(std::uint8_t c) override { sink_->write(c); }
    void write_characters(const std::uint8_t* s, std::size_t length) override { sink_->write(s, length); }

private:
    Sink* sink_;
};

/// For nlohmann::detail::binary_writer<Json, std::uint8_t>(make_output_adapter(sink)).
template <class Sink>
output_protocol_ptr make_output_adapter(Sink& sink) {
    return std::make_shared<sink_output_adapter<Sink>>(sink);
}

}  // namespace sinkcheck
