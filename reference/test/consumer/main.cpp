// Encodes {"a":1} as CBOR through the installed headers and prints the bytes in hex.
#include <cstdio>

#include <nlohmann/json.hpp>
#include <sinkcheck/encode.hpp>

int main() {
    const auto bytes = sinkcheck::encode_to_vector(sinkcheck::format::cbor, nlohmann::json{{"a", 1}});
    for (unsigned char b : bytes) {
        std::printf("%02x", b);
    }
    std::printf("\n");
    return 0;
}
