// sinkcheck-encoder — sinkcheck's reference encoders as a conformance protocol process.
//
// Reads a value in the corpus notation and writes its encoding (docs/conformance.md, both
// modes), so `sinkcheck conform --encoder sinkcheck-encoder` grades the reference with the same
// machinery as any third-party encoder.
#include <cstdio>
#include <cstring>

#include "sinkcheck/conform/serve.hpp"

int main(int argc, char** argv) {
    if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::puts(
            "usage: sinkcheck-encoder   (speaks the sinkcheck conformance protocol on stdin/stdout;\n"
            "       SINKCHECK_MODE=batch for framed mode, see docs/conformance.md)");
        return 0;
    }
    return sinkcheck::conform::serve(sinkcheck::conform::serve_reference);
}
