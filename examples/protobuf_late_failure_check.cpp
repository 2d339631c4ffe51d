// A slip kept to show that the kit's stream property catches it: the sink of
// protobuf_coded_stream_check.cpp whose finish step trims the coded stream and asks it for an
// error, but leaves the last block in the OstreamOutputStream's adaptor. That block reaches the
// stream only when the sink is destroyed, where its refusal is lost: a stream that fails inside
// the last block is never reported. CMakeLists.txt registers this check with EXPECT_CAUGHT, so
// it passes only while FailingStreamIsReported reports the run as completed.
#include <sinkcheck/error.hpp>
#include <sinkcheck/testkit/check_sink.hpp>

#include "protobuf_sinks.hpp"

namespace {

struct late_failure_traits : examples::coded_ostream_traits_base {
    static constexpr const char* name = "protobuf CodedOutputStream over an OstreamOutputStream, finish without flush";
    static void finish(examples::coded_ostream_sink& sink, target&) {
        if (!sink.trim_and_ask()) {  // the slip: the adaptor's last block is still unwritten
            throw sinkcheck::sink_error("the stream refused a block", 0);
        }
    }
};

}  // namespace

SINKCHECK_SINK_PROPERTIES(ProtobufLateFailure, late_failure_traits);
