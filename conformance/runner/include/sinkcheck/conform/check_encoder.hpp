// sinkcheck/conform/check_encoder.hpp — a user's C++ encoder under the conformance runner and a
// differential fuzzer, from one traits struct and one registration line (docs/testkit.md,
// "Check your own encoder").
//
// The traits (every member static):
//   name           const char*: the encoder's name in reports (--encoder linked:NAME)
//   description    const char*: the library and its version
//   formats        an array of sinkcheck::format: what it writes; anything else is "unsupported"
//   encode(format, const nlohmann::json&, const sinkcheck::encode_options&) -> bytes
//                  throws sinkcheck::conform::unsupported for what it cannot write, any other
//                  exception to refuse a value (a refusal the corpus expects is a pass)
// and the behaviour it differs from the reference by on purpose, which the runner grades as an
// expected failure and the fuzzer does not report (conform::declared_behaviour's members of the
// same names; both default to false):
//   whole_floats_as_integers  bool: a whole double (and -0.0) may be written as an integer
//   writes_invalid_utf8       bool: strings are written as bytes, valid UTF-8 or not
#pragma once

#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sinkcheck/conform/encoder.hpp"
#include "sinkcheck/options.hpp"

namespace sinkcheck::testkit {

namespace detail_encoder {

template <class T, class = void>
struct whole_floats : std::false_type {};
template <class T>
struct whole_floats<T, std::void_t<decltype(T::whole_floats_as_integers)>>
    : std::bool_constant<T::whole_floats_as_integers> {};

template <class T, class = void>
struct invalid_utf8 : std::false_type {};
template <class T>
struct invalid_utf8<T, std::void_t<decltype(T::writes_invalid_utf8)>> : std::bool_constant<T::writes_invalid_utf8> {};

/// The traits as the runner's linked encoder (which asks only for the formats they declare).
template <class Traits>
class traits_encoder final : public conform::linked_encoder {
public:
    std::vector<std::uint8_t> encode(format f, const nlohmann::json& value, const std::string&,
                                     const encode_options& options) override {
        return Traits::encode(f, value, options);
    }
};

}  // namespace detail_encoder

/// Registers the traits as a linked encoder (conform::linked_encoders()), which the conformance
/// main and the encoder fuzzer read (SINKCHECK_ENCODER).
template <class Traits>
bool register_encoder() {
    static_assert(std::size(Traits::formats) > 0, "the traits' formats list names what the encoder writes");
    conform::linked_encoder_info info{Traits::name, Traits::description,
                                      std::vector<format>(std::begin(Traits::formats), std::end(Traits::formats)),
                                      [] { return std::make_unique<detail_encoder::traits_encoder<Traits>>(); }};
    info.declared.whole_floats_as_integers = detail_encoder::whole_floats<Traits>::value;
    info.declared.writes_invalid_utf8 = detail_encoder::invalid_utf8<Traits>::value;
    conform::register_linked_encoder(std::move(info));
    return true;
}

}  // namespace sinkcheck::testkit

/// One line per encoder, at namespace scope in one of the sources given to
/// sinkcheck_add_encoder_check() or sinkcheck_add_encoder_fuzzer().
#define SINKCHECK_ENCODER(Traits) \
    static const bool sinkcheck_encoder_registered_##Traits = ::sinkcheck::testkit::register_encoder<Traits>()
