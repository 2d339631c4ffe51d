// encode_any.cpp — the six encoders compiled once over any_sink and any_seekable_sink
// (sinkcheck/testkit/any_sink.hpp), in the kit's library sinkcheck::testkit_encoders.
#include "sinkcheck/testkit/any_sink.hpp"

namespace sinkcheck::testkit {

void encode_through(format f, const nlohmann::json& j, any_sink& sink, const encode_options& options) {
    sinkcheck::encode(f, j, sink, options);
}

void encode_through(format f, const nlohmann::json& j, any_seekable_sink& sink, const encode_options& options) {
    sinkcheck::encode(f, j, sink, options);
}

}  // namespace sinkcheck::testkit
