// ostream_sink: bytes reach the stream; a failing stream surfaces as sink_error with its position.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ios>
#include <sstream>
#include <streambuf>
#include <string>

#include <gtest/gtest.h>

#include "sink_test_programs.hpp"
#include "sinkcheck/sink/ostream_sink.hpp"

namespace sinkcheck {
namespace {

using test::program_of;
using test::run_writes;

/// A streambuf that takes `limit` bytes and refuses the rest (a full device).
class limited_buf : public std::streambuf {
public:
    explicit limited_buf(std::size_t limit) : limit_(limit) {}
    const std::string& data() const { return data_; }

protected:
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) {
            return traits_type::not_eof(c);
        }
        if (data_.size() >= limit_) {
            return traits_type::eof();
        }
        data_.push_back(traits_type::to_char_type(c));
        return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        const std::size_t take = std::min(static_cast<std::size_t>(n), limit_ - data_.size());
        data_.append(s, take);
        return static_cast<std::streamsize>(take);
    }

private:
    std::size_t limit_;
    std::string data_;
};

TEST(OstreamSink, WritesEveryByteToTheStream) {
    const auto p = test::mixed_program(81, 100000);
    std::ostringstream os;
    ostream_sink s(os);
    run_writes(s, p);
    EXPECT_EQ(s.position(), p.bytes().size());
    const std::string out = os.str();
    EXPECT_EQ(std::vector<std::uint8_t>(out.begin(), out.end()), p.bytes());
}

TEST(OstreamSink, FailingStreamThrowsSinkErrorNamingThePosition) {
    const auto p = program_of({4, 1, 6, 3});
    limited_buf buf(8);
    std::ostream os(&buf);
    ostream_sink s(os);
    try {
        run_writes(s, p);
        ADD_FAILURE() << "no failure";
    } catch (const sink_error& e) {
        EXPECT_EQ(e.position(), 5u);  // the 6-byte write began at byte 5
        EXPECT_NE(std::string(e.what()).find("at byte 5"), std::string::npos) << e.what();
    }
    EXPECT_EQ(s.position(), 5u);
}

TEST(OstreamSink, SingleByteWriteToAFullStreamFails) {
    limited_buf buf(2);
    std::ostream os(&buf);
    ostream_sink s(os);
    s.write(0x01);
    s.write(0x02);
    EXPECT_THROW(s.write(0x03), sink_error);
    EXPECT_EQ(buf.data(), std::string("\x01\x02"));
}

TEST(OstreamSink, StreamThatThrowsStillSurfacesAsSinkError) {
    limited_buf buf(3);
    std::ostream os(&buf);
    os.exceptions(std::ios_base::badbit | std::ios_base::failbit);
    ostream_sink s(os);
    run_writes(s, program_of({2}));
    try {
        run_writes(s, program_of({2}));
        ADD_FAILURE() << "no failure";
    } catch (const sink_error& e) {
        EXPECT_EQ(e.position(), 2u);
    }
}

TEST(OstreamSink, AlreadyFailedStreamFailsAtTheFirstWrite) {
    std::ostringstream os;
    os.setstate(std::ios_base::badbit);
    ostream_sink s(os);
    EXPECT_THROW(s.write(0x01), sink_error);
    EXPECT_EQ(s.position(), 0u);
}

}  // namespace
}  // namespace sinkcheck
