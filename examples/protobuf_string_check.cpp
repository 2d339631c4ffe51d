// protobuf's CodedOutputStream (libprotobuf-dev 3.21) over a StringOutputStream, under the
// sinkcheck test kit. The std::string grows through operator new, which the kit's hook counts and
// fails. Two findings, each registered in CMakeLists.txt as its own EXPECT_CAUGHT test over one
// property (docs/testkit.md has the inputs and bytes):
//
//   - the coded stream keeps up to 16 written bytes in its slop buffer (coded_stream.h,
//     kSlopBytes) and its destructor flushes them into the string, which may have to grow: the
//     destructor allocates, so an allocation failure there, while an exception unwinds, ends in
//     std::terminate (WritesIdenticalBytesToTheReference: "destroying the sink allocated");
//   - an allocation that fails inside a write (the string's growth in StringOutputStream::Next)
//     leaves the coded stream in a state whose trim writes bytes that were never written
//     (TrimsToWrittenBytesWhenWritesThrow). protobuf is written for code without exceptions, so
//     neither is a bug by its own rules; both are what an encoder that throws through it meets.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <sinkcheck/testkit/check_sink.hpp>

#include "protobuf_sinks.hpp"

namespace {

using google::protobuf::io::CodedOutputStream;
using google::protobuf::io::StringOutputStream;

/// A CodedOutputStream over a StringOutputStream over the target string.
class coded_string_sink {
public:
    explicit coded_string_sink(std::string& s) : stream_(&s), coded_(&stream_) {}
    void write(std::uint8_t b) { coded_.WriteRaw(&b, 1); }
    void write(const std::uint8_t* p, std::size_t n) { examples::write_raw(coded_, p, n); }
    std::size_t position() const { return static_cast<std::size_t>(coded_.ByteCount()); }

private:
    StringOutputStream stream_;
    CodedOutputStream coded_;  // destroyed first: it trims the string to what was written
};

struct coded_string_traits {
    static constexpr const char* name = "protobuf CodedOutputStream over a StringOutputStream";
    using target = std::string;
    static constexpr bool allocates = true;
    static coded_string_sink make(target& s) { return coded_string_sink(s); }
    static std::vector<std::uint8_t> contents(target& s) { return {s.begin(), s.end()}; }
};

}  // namespace

SINKCHECK_SINK_PROPERTIES(ProtobufCodedString, coded_string_traits);
