// sinkcheck/testkit/any_sink.hpp — the six encoders compiled once, driving any sink.
//
// An encoder talks to its sink through three calls: write a byte, write a block, ask the
// position (and seek, for BSON's patched lengths; room_for and commit, for a long string checked
// as it is copied into the room of a sink that lends it, detail/utf8.hpp). any_sink is those calls as virtual functions,
// and sink_ref<Sink> forwards each of them to a sink of any type, so the encoders need to be
// compiled only for any_sink and any_seekable_sink — once, in the kit's library
// (testkit/src/encode_any.cpp) — and not again for every sink a check, a property or the
// registry puts under them. The sink sees the same calls, with the same arguments, in the same
// order, and what it throws passes through unchanged: the bytes, positions, growth and
// trimming it is judged on are those of the encoder templated on it.
//
// What the direct instantiation still tells, and where it is kept: that the encoders compile
// against a sink type and agree with themselves through the indirection —
// reference/test/any_sink_test.cpp encodes every built-in sink both ways.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/format/bson.hpp"
#include "sinkcheck/options.hpp"
#include "sinkcheck/sink/memory_writer.hpp"

namespace sinkcheck::testkit {

/// The calls an encoder makes on a sink, one virtual call each.
class any_sink {
public:
    virtual void write(std::uint8_t b) = 0;
    virtual void write(const std::uint8_t* p, std::size_t n) = 0;
    virtual std::size_t position() const = 0;
    /// The sink's room_for and commit when it lends its room; here (a recorder of the calls, say)
    /// it does not, and the encoder writes instead.
    virtual std::uint8_t* room_for(std::size_t /*n*/) noexcept { return nullptr; }
    virtual void commit(std::size_t /*n*/) noexcept {}

    any_sink() = default;
    virtual ~any_sink() = default;
    any_sink(const any_sink&) = delete;
    any_sink& operator=(const any_sink&) = delete;
    any_sink(any_sink&&) = delete;
    any_sink& operator=(any_sink&&) = delete;
};

/// The same, with seek(): BSON's patched lengths write through it.
class any_seekable_sink : public any_sink {
public:
    virtual void seek(std::size_t to) = 0;
};

/// The encoders, compiled once (testkit/src/encode_any.cpp): sinkcheck::encode over the sink.
void encode_through(format f, const nlohmann::json& j, any_sink& sink, const encode_options& options);
void encode_through(format f, const nlohmann::json& j, any_seekable_sink& sink, const encode_options& options);

/// Whether a sink seeks, as the BSON encoder asks it (the only encoder that does): what sink_ref
/// offers is what the encoder looks for.
template <class Sink>
using has_seek = sinkcheck::detail::bson_sink_has_seek<Sink>;

namespace detail {

/// The calls of any_sink forwarded to a Sink, which must outlive it.
template <class Sink, class Base>
class forwarding : public Base {
public:
    explicit forwarding(Sink& sink) noexcept : sink_(&sink) {}
    void write(std::uint8_t b) final { sink_->write(b); }
    void write(const std::uint8_t* p, std::size_t n) final { sink_->write(p, n); }
    std::size_t position() const final { return sink_->position(); }
    std::uint8_t* room_for(std::size_t n) noexcept final {
        if constexpr (sinkcheck::detail::lends_room<Sink>::value) {
            return sink_->room_for(n);
        } else {
            static_cast<void>(n);
            return nullptr;
        }
    }
    void commit(std::size_t n) noexcept final {
        if constexpr (sinkcheck::detail::lends_room<Sink>::value) {
            sink_->commit(n);
        } else {
            static_cast<void>(n);
        }
    }

protected:
    Sink* sink_;
};

}  // namespace detail

/// any_sink (any_seekable_sink when Sink can seek) forwarding every call to a Sink, which must
/// outlive it.
template <class Sink, bool Seeks = has_seek<Sink>::value>
class sink_ref final : public detail::forwarding<Sink, any_sink> {
public:
    using detail::forwarding<Sink, any_sink>::forwarding;
};

template <class Sink>
class sink_ref<Sink, true> final : public detail::forwarding<Sink, any_seekable_sink> {
public:
    using detail::forwarding<Sink, any_seekable_sink>::forwarding;
    void seek(std::size_t to) override { this->sink_->seek(to); }
};

/// sinkcheck::encode(f, j, sink, options), through the encoders compiled once when Json is
/// nlohmann::json (any other Json type is encoded by the templates, as before).
template <class Json, class Sink>
void encode_any(format f, const Json& j, Sink& sink, const encode_options& options = {}) {
    if constexpr (std::is_same_v<Json, nlohmann::json>) {
        sink_ref<Sink> ref(sink);
        encode_through(f, j, ref, options);
    } else {
        sinkcheck::encode(f, j, sink, options);
    }
}

/// encode_to_vector(f, j, options) through encode_any.
template <class Json>
std::vector<std::uint8_t> encode_any_to_vector(format f, const Json& j, const encode_options& options = {}) {
    memory_writer w;
    encode_any(f, j, w, options);
    return w.take();
}

}  // namespace sinkcheck::testkit
