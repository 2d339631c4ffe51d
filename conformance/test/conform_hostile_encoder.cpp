// conform_hostile_encoder.cpp — deliberately wrong encoders for the harness self-test.
//
// The reference encoder served over the protocol, then broken in one way named by argv[1]:
// the self-test (conform_selftest_test.cpp) asserts the runner classifies each one right and
// never hangs, crashes or runs out of memory while doing it.
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "planted_bug.hpp"
#include "sinkcheck/conform/protocol.hpp"
#include "sinkcheck/conform/serve.hpp"
#include "sinkcheck/conform/value_text.hpp"
#include "sinkcheck/detail/bytes.hpp"

namespace {

using sinkcheck::conform::answer_payload;
using sinkcheck::conform::answer_status;
using sinkcheck::conform::served;
using sinkcheck::conform::protocol::request;
namespace protocol = sinkcheck::conform::protocol;

std::string kind;
int requests = 0;
bool batch = false;
std::uint32_t announced = 0;

[[noreturn]] void hang() {
    for (;;) ::pause();
}

[[noreturn]] void flood() {
    static char chunk[1 << 16];
    std::memset(chunk, 0x5a, sizeof chunk);
    for (;;) {
        if (::write(1, chunk, sizeof chunk) < 0) std::_Exit(3);
    }
}

/// CBOR floats always as binary64 (fb): a different float width, the same value.
bool wide_float(const request& r, served& s) {
    if (r.fmt != sinkcheck::format::cbor) return false;
    sinkcheck::conform::parse_limits lim;
    lim.allow_repeat = false;
    const auto v = sinkcheck::conform::parse_value(r.value_text, lim).value;
    if (!v.is_number_float() || std::isnan(v.get<double>())) return false;
    s.bytes.assign(9, 0);
    s.bytes[0] = 0xfb;
    sinkcheck::detail::store_be(s.bytes.data() + 1, v.get<double>());
    return true;
}

served hostile(const request& r) {
    ++requests;
    served s = sinkcheck::conform::serve_reference(r);
    if (kind == "flip") {
        if (!s.bytes.empty()) s.bytes[s.bytes.size() / 2] ^= 0x01;
    } else if (kind == "truncate") {
        if (!s.bytes.empty()) s.bytes.pop_back();
    } else if (kind == "float-width") {
        wide_float(r, s);
    } else if (kind == "cbor-24") {
        if (s.what == served::kind::encoded) {
            sinkcheck::conform::parse_limits lim;
            lim.allow_repeat = false;
            sinkcheck::encode_options o;
            o.use_size = r.use_size;
            o.use_type = r.use_type;
            s.bytes = sinkcheck::conform::test::encode_with_short_24(
                r.fmt, sinkcheck::conform::parse_value(r.value_text, lim).value, o);
        }
    } else if (kind == "crash") {
        std::abort();
    } else if (kind == "hang") {
        hang();
    } else if (kind == "flood") {
        flood();
    } else if (kind == "garbage") {
        s.what = served::kind::encoded;
        s.bytes.assign({0xc1, 0xff, 0x00, 0xde, 0xad});
    } else if (kind == "refuse-all") {
        s.what = served::kind::refused;
        s.message = "I refuse everything";
    } else if (kind == "wrong-category") {
        if (s.what == served::kind::refused) s.message = "[fake.type_error.302] wrong reason";
    } else if (kind == "unsupported") {
        s.what = served::kind::unsupported;
        s.message = "this encoder supports nothing";
    } else if (kind == "quit-after-2") {
        if (requests > 2) std::exit(0);
    } else if (kind == "stderr-binary") {
        // Bytes no report format can carry as they are, on stderr and in the refusal reason.
        static const char noise[] = "\377\376 \001\033[31m <testcase> ]]> &amp; \xef\xbf\xbe \xc0\xaf\n";
        std::fwrite(noise, 1, sizeof noise - 1, stderr);
        s.what = served::kind::refused;
        s.message = std::string("I refuse: ") + noise;
    } else if (kind == "raise-all") {
        // As a script dies of an uncaught exception: a traceback and exit status 1, no answer.
        std::fputs("Traceback (most recent call last):\n  File \"enc.py\", line 3\nKeyError: 'x'\n", stderr);
        std::exit(1);
    } else if (kind == "extra-frame" && batch) {
        // The answer, then the same frame once more in a separate write.
        const std::string frame = protocol::encode_answer(answer_status(s), r.seq, answer_payload(s));
        if (::write(1, frame.data(), frame.size()) < 0) std::_Exit(3);
    } else if ((kind == "flood-framed" || kind == "announce") && batch) {
        // A well-formed answer head announcing `announced` bytes (argv[2], hex), then more
        // than that without end, or nothing at all.
        std::string head(1, static_cast<char>(protocol::status_encoded));
        protocol::put_u32(head, r.seq);
        protocol::put_u32(head, announced);
        if (::write(1, head.data(), head.size()) < 0) std::_Exit(3);
        if (kind == "announce") hang();
        flood();
    }
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    kind = argc > 1 ? argv[1] : "";
    const char* mode = std::getenv(protocol::env_mode);
    batch = mode != nullptr && std::strcmp(mode, "batch") == 0;
    if (argc > 2) announced = static_cast<std::uint32_t>(std::strtoul(argv[2], nullptr, 16));
    if (kind == "per-vector-only") {
        // Serves per-vector mode whatever SINKCHECK_MODE says: reads its input to end of file.
        ::unsetenv(protocol::env_mode);
    }
    if (kind == "setsid-orphan") {
        // Answers correctly, but leaves a child in a session of its own holding stdout open; the
        // child appends its pid to $CONFORM_ORPHAN_PIDS so the test can look for it afterwards.
        if (::fork() == 0) {
            ::setsid();
            if (const char* file = std::getenv("CONFORM_ORPHAN_PIDS")) {
                if (std::FILE* f = std::fopen(file, "a")) {
                    std::fprintf(f, "%d\n", static_cast<int>(::getpid()));
                    std::fclose(f);
                }
            }
            hang();
        }
    }
    if (kind == "stderr-only") {
        // Reads its input, says something on stderr, exits 0 with nothing on stdout.
        char buf[4096];
        while (::read(0, buf, sizeof buf) > 0) {}
        std::fputs("all went well, I promise\n", stderr);
        return 0;
    }
    if (kind == "no-read") {
        return 0;  // exits before reading a byte of (possibly large) input
    }
    if (kind == "orphan") {
        // Answers correctly, but leaves a child holding stdout open and sleeping.
        if (::fork() == 0) hang();
    }
    if (kind == "stderr-flood") {
        static char chunk[1 << 16];
        std::memset(chunk, 'e', sizeof chunk);
        for (int i = 0; i < 256; ++i) {
            if (::write(2, chunk, sizeof chunk) < 0) break;
        }
    }
    return sinkcheck::conform::serve(hostile);
}
