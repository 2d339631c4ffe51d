// protobuf's CodedOutputStream (libprotobuf-dev 3.21) over an OstreamOutputStream over the kit's
// failing stream buffer (a device that refuses every byte past a limit), under the sinkcheck test
// kit. Written bytes wait in the adaptor's 8 KiB block (protobuf's kDefaultBlockSize,
// zero_copy_stream_impl_lite.cc) and in the coded stream's 16 slop bytes (coded_stream.h,
// kSlopBytes) before they reach the stream, so a refused byte surfaces late: as HadError() after
// a later write, or, for the last block, only when the OstreamOutputStream is destroyed (it has
// no Flush() of its own) and the ostream is found bad. The traits declare that contract
// (`buffers`, `finish`) and FailingStreamIsReported checks it. protobuf_late_failure_check.cpp is
// the same sink with a slip in its finish step; protobuf_string_check.cpp is the coded stream over
// a StringOutputStream.
#include <ostream>

#include <sinkcheck/error.hpp>
#include <sinkcheck/testkit/check_sink.hpp>

#include "protobuf_sinks.hpp"

namespace {

/// The OstreamOutputStream sink with the finish step a user of it needs.
struct coded_ostream_traits : examples::coded_ostream_traits_base {
    static constexpr const char* name = "protobuf CodedOutputStream over an OstreamOutputStream";
    static void finish(examples::coded_ostream_sink& sink, target& t) {
        sink.close();  // trims, and writes the last block into the stream
        if (!t.os.good()) {
            throw sinkcheck::sink_error("the stream refused a block of the last flush", 0);
        }
    }
};

}  // namespace

SINKCHECK_SINK_PROPERTIES(ProtobufCodedOstream, coded_ostream_traits);
