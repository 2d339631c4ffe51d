// std::ostringstream as an encoder's output, under every property of the sinkcheck test kit.
#include <sinkcheck/testkit/check_sink.hpp>
#include <sstream>

struct ostringstream_sink {  // what the encoders call: write(byte), write(bytes, n), position()
    std::ostringstream& os;
    void write(std::uint8_t b) { os.put(static_cast<char>(b)); }
    void write(const std::uint8_t* p, std::size_t n) {
        os.write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(n));
    }
    std::size_t position() { return static_cast<std::size_t>(os.tellp()); }
};

struct ostringstream_traits {
    static constexpr const char* name = "std::ostringstream";
    using target = std::ostringstream;  // built anew for every run
    static ostringstream_sink make(target& os) { return {os}; }
    static std::vector<std::uint8_t> contents(target& os) {
        const std::string s = os.str();
        return {s.begin(), s.end()};
    }
};

SINKCHECK_SINK_PROPERTIES(Ostringstream, ostringstream_traits);
