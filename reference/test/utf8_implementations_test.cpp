// Every UTF-8 check in detail/utf8.hpp's list (the scalar scan and, on x86-64, the SSSE3 and
// AVX2 block checks) must give the same answer as the scalar scan and as the test kit's oracle,
// which decodes instead of comparing ranges: the same verdict and the same first invalid byte, on
// every input. The block checks see text in 16- or 32-byte blocks and carry the last three bytes
// from one block to the next, so the cases here put each sequence across every block boundary
// and every error at every offset from one, and run the checks directly: the dispatcher would
// send the short cases to the scalar scan.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sinkcheck/detail/utf8.hpp"
#include "sinkcheck/testkit/generators.hpp"
#include "sinkcheck/testkit/hex.hpp"
#include "sinkcheck/testkit/utf8_oracle.hpp"

namespace {

namespace sd = sinkcheck::detail;
using sinkcheck::testkit::first_invalid_utf8;
using sinkcheck::testkit::utf8_ok;

std::vector<const sd::utf8_implementation*> runnable() {
    std::vector<const sd::utf8_implementation*> out;
    for (const auto& impl : sd::utf8_implementations) {
        if (impl.supported()) {
            out.push_back(&impl);
        }
    }
    return out;
}

std::size_t scan(const sd::utf8_implementation& impl, std::string_view s) {
    return impl.scan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

std::string where(std::size_t at) { return at == sd::utf8_valid ? "valid" : "byte " + std::to_string(at); }

/// Counts and reports disagreements with the oracle, the first few in full.
class judge {
public:
    void check(std::string_view text, const char* context) {
        const std::size_t expected = first_invalid_utf8(text);
        static_assert(utf8_ok == sd::utf8_valid, "the oracle and the encoders mark valid text alike");
        for (const auto* impl : impls_) {
            const std::size_t got = scan(*impl, text);
            if (got != expected && ++failures_ <= 8) {
                ADD_FAILURE() << impl->name << " on " << context << ", " << text.size() << " bytes: " << where(got)
                              << ", the oracle says " << where(expected) << "\n"
                              << sinkcheck::testkit::to_hex(text);
            }
        }
        const std::size_t dispatched = sd::utf8_invalid_at(text.data(), text.size());
        if (dispatched != expected && ++failures_ <= 8) {
            ADD_FAILURE() << "utf8_invalid_at on " << context << ": " << where(dispatched) << ", the oracle says "
                          << where(expected) << "\n"
                          << sinkcheck::testkit::to_hex(text);
        }
        // the check made while copying (an encoder writing into a sink's room): the same answer,
        // and the text itself in the copy when it is valid
        copy_.assign(text.size() + 1, 0xA5);
        const std::size_t copied = sd::utf8_copy_invalid_at(copy_.data(), text.data(), text.size());
        const bool same_bytes = text.empty() || std::memcmp(text.data(), copy_.data(), text.size()) == 0;
        if ((copied != expected || (expected == sd::utf8_valid && !same_bytes) || copy_.back() != 0xA5) &&
            ++failures_ <= 8) {
            ADD_FAILURE() << "utf8_copy_invalid_at on " << context << ": " << where(copied) << ", the oracle says "
                          << where(expected) << (same_bytes ? "" : "; the copy differs")
                          << (copy_.back() == 0xA5 ? "" : "; a byte past the copy was written") << "\n"
                          << sinkcheck::testkit::to_hex(text);
        }
    }
    std::size_t failures() const { return failures_; }

private:
    std::vector<const sd::utf8_implementation*> impls_ = runnable();
    std::vector<std::uint8_t> copy_;
    std::size_t failures_ = 0;
};

TEST(Utf8Implementations, ListsEveryImplementationOfThisArchitecture) {
    // Adding a check to the list without raising this number fails here, so that it is added to
    // the documentation and the benchmark (bench/utf8_bench.cpp) too.
#if SINKCHECK_UTF8_X86
    constexpr std::size_t expected = 3;
#else
    constexpr std::size_t expected = 1;
#endif
    ASSERT_EQ(std::size(sd::utf8_implementations), expected);
    EXPECT_STREQ(sd::utf8_implementations[0].name, "scalar");
    EXPECT_TRUE(sd::utf8_implementations[0].supported());
    std::string names;
    for (const auto* impl : runnable()) {
        names += std::string(" ") + impl->name;
    }
    std::printf("runnable here:%s\n", names.c_str());
}

#if SINKCHECK_UTF8_X86
// The kernels' three nibble tables, built at run time (through a pointer: the kernels use them
// as constants, so nothing else runs the code that derives them), give for every pair of adjacent
// bytes exactly the errors RFC 3629 §4's byte ranges give that pair.
TEST(Utf8Implementations, NibbleTablesGiveEveryPairOfBytesTheErrorsOfRfc3629) {
    namespace x = sd::utf8_x86;
    x::nibble_tables (*volatile make)() noexcept = &x::make_nibble_tables;
    const x::nibble_tables t = make();
    const auto continuation = [](unsigned b) { return b >= 0x80 && b <= 0xBF; };
    std::size_t wrong = 0;
    for (unsigned first = 0; first < 256; ++first) {
        for (unsigned second = 0; second < 256; ++second) {
            std::uint8_t expected = 0;
            if (first < 0x80) {
                if (continuation(second)) expected = x::too_long;  // a continuation with no lead
            } else if (continuation(first)) {
                if (continuation(second)) expected = x::two_continuations;  // told apart later
            } else if (!continuation(second)) {
                expected = x::too_short;  // a lead, then no continuation
            } else if (first <= 0xC1) {
                expected = x::overlong_2;  // C0 and C1 only encode U+0000..U+007F
            } else if (first == 0xE0 && second <= 0x9F) {
                expected = x::overlong_3;
            } else if (first == 0xED && second >= 0xA0) {
                expected = x::surrogate;
            } else if (first == 0xF0 && second <= 0x8F) {
                expected = x::overlong_4_or_large;
            } else if (first == 0xF4 && second >= 0x90) {
                expected = x::too_large;
            } else if (first >= 0xF5) {
                expected = second <= 0x8F ? x::overlong_4_or_large : x::too_large;  // no F5..FF lead exists
            }
            const auto got = static_cast<std::uint8_t>(t.first_high[first >> 4] & t.first_low[first & 15] &
                                                       t.second_high[second >> 4]);
            if (got != expected && ++wrong <= 8) {
                ADD_FAILURE() << std::hex << "pair " << first << " " << second << ": the tables give " << unsigned{got}
                              << ", the byte ranges " << unsigned{expected};
            }
        }
    }
    EXPECT_EQ(wrong, 0u);
}
#endif

// Where a short sequence is tried in a 64-byte ASCII text: across or against the end of the
// first 16- and 32-byte block, where the block checks carry it, and far from either.
constexpr std::size_t every_placement[] = {0, 13, 14, 15, 29, 30, 31, 61};
// For the 16.8 million three-byte sequences, only those that cross a block's end or close it.
constexpr std::size_t crossing_placement[] = {14, 30};

template <std::size_t N>
void place(judge& j, std::string_view sequence, const std::size_t (&placements)[N], std::string& buffer) {
    j.check(sequence, "the sequence alone");
    for (std::size_t at : placements) {
        buffer.assign(64, 'a');
        buffer.replace(at, sequence.size(), sequence.data(), sequence.size());
        buffer.resize(std::max<std::size_t>(64, at + sequence.size()));
        j.check(buffer, "a sequence in ASCII");
    }
    // ending a text of one and of two blocks, where only the check for a sequence still open at
    // the end can see a truncation
    for (std::size_t end : {std::size_t{16}, std::size_t{32}}) {
        buffer.assign(end - sequence.size(), 'a');
        buffer.append(sequence.data(), sequence.size());
        j.check(buffer, "a sequence ending the text");
    }
}

TEST(Utf8Implementations, AgreeOnEverySequenceOfOneTwoAndThreeBytesAcrossBlockBoundaries) {
    judge j;
    std::string buffer;
    char bytes[3];
    for (std::size_t length = 1; length <= 3; ++length) {
        const std::uint32_t count = 1U << (8 * length);
        for (std::uint32_t v = 0; v < count; ++v) {
            for (std::size_t k = 0; k < length; ++k) {
                bytes[k] = static_cast<char>((v >> (8 * k)) & 0xFFU);
            }
            const std::string_view sequence(bytes, length);
            if (length < 3) {
                place(j, sequence, every_placement, buffer);
            } else {
                place(j, sequence, crossing_placement, buffer);
            }
        }
    }
    EXPECT_EQ(j.failures(), 0U);
}

TEST(Utf8Implementations, AgreeOnEveryFourByteLeadWithEveryContinuationClass) {
    // one byte of each range RFC 3629 §4 distinguishes, and its edges
    static constexpr unsigned char classes[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0,
                                                0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
    judge j;
    std::string buffer;
    for (unsigned lead = 0; lead <= 0xFF; ++lead) {
        for (unsigned char a : classes) {
            for (unsigned char b : classes) {
                for (unsigned char c : classes) {
                    const char s[4] = {static_cast<char>(lead), static_cast<char>(a), static_cast<char>(b),
                                       static_cast<char>(c)};
                    place(j, std::string_view(s, 4), every_placement, buffer);
                }
            }
        }
    }
    EXPECT_EQ(j.failures(), 0U);
}

/// Valid text of exactly n bytes, characters of every length drawn at random, the edges of each
/// range among them.
std::string valid_text(std::mt19937& rng, std::size_t n) {
    static constexpr std::uint32_t edges[] = {0x00,   0x7F,   0x80,    0x7FF,   0x800,   0xD7FF,
                                              0xE000, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0x10FFFF};
    const auto below = [&rng](std::uint32_t bound) { return static_cast<std::uint32_t>(rng() % bound); };
    std::string out;
    while (out.size() < n) {
        const std::size_t room = n - out.size();
        std::uint32_t cp;
        switch (below(6)) {
            case 0: cp = edges[below(std::size(edges))]; break;
            case 1: cp = 0x20 + below(0x5F); break;               // ASCII
            case 2: cp = 0x80 + below(0x800 - 0x80); break;       // two bytes
            case 3: cp = 0x4E00 + below(0x9FFF - 0x4E00); break;  // three: CJK
            case 4: cp = 0x1F300 + below(0x300); break;           // four: emoji
            default: cp = 0x10000 + below(0x110000 - 0x10000); break;
        }
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;
        }
        const std::size_t length = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (length > room) {
            cp = 'x';
        }
        sd::append_utf8(out, cp);
    }
    return out;
}

/// Invalid pieces and the offset of the first invalid byte in each: the kit's list (the first
/// byte, in each) and sequences that go wrong only in their third to fifth byte. A sequence cut
/// short by the lead of a complete one (F1 80 80, then F1 80 80 80) is seen only by the block
/// checks' "must be a continuation" test, two or three bytes after the lead: across a block
/// boundary, from the bytes carried over.
std::vector<std::pair<std::string, std::size_t>> planted_pieces() {
    std::vector<std::pair<std::string, std::size_t>> out;
    for (const std::string& piece : sinkcheck::testkit::invalid_utf8_pieces()) {
        out.emplace_back(piece, 0);
    }
    const std::pair<const char*, std::size_t> late[] = {{"\xC3\xA9\x80", 2},
                                                        {"\xE2\x82\xAC\x80", 3},
                                                        {"\xF0\x9F\x98\x80\x80", 4},
                                                        {"\xE1\x80\x41", 0},
                                                        {"\xE1\x80\xC2\x80", 0},
                                                        {"\xF1\x80\x80\x41", 0},
                                                        {"\xF1\x80\x80\xF1", 0},
                                                        {"\xF1\x80\x41\x80", 0},
                                                        {"\xF4\x8F\xBF", 0},
                                                        {"\xEF\xBF", 0},
                                                        {"\xDF", 0},
                                                        {"\xF0\x80", 0},
                                                        {"\xE0\xA0\xC2\x80", 0},
                                                        {"\xF4\x90", 0},
                                                        {"\xC2\xC2\x80", 0},
                                                        {"\xED\x9F\xBF\xED\xA0", 3},
                                                        {"\xE1\x80\xE1\x80\x80", 0},
                                                        {"\xF1\x80\xF1\x80\x80\x80", 0},
                                                        {"\xF1\x80\x80\xF1\x80\x80\x80", 0}};
    for (const auto& [bytes, at] : late) {
        out.emplace_back(bytes, at);
    }
    return out;
}

TEST(Utf8Implementations, FindEveryPlantedErrorAtEveryOffsetInTextOfEveryLengthUpTo300) {
    std::mt19937 rng(20261204);
    judge j;
    const auto pieces = planted_pieces();
    std::size_t planted = 0;
    for (std::size_t length = 0; length <= 300; ++length) {
        const std::string clean = valid_text(rng, length);
        ASSERT_EQ(first_invalid_utf8(clean), utf8_ok) << sinkcheck::testkit::to_hex(clean);
        j.check(clean, "valid text");
        for (const auto& [piece, piece_at] : pieces) {
            for (std::size_t at = 0; at + piece.size() <= length; ++at) {
                const std::string text = valid_text(rng, at) + piece + valid_text(rng, length - at - piece.size());
                // the case itself must hold what it says, or agreeing on it proves nothing
                ASSERT_EQ(first_invalid_utf8(text), at + piece_at) << sinkcheck::testkit::to_hex(text);
                j.check(text, "planted error");
                ++planted;
            }
        }
    }
    EXPECT_GT(planted, 100000U);
    EXPECT_EQ(j.failures(), 0U);
}

// The texts above live in std::strings, whose capacity past size() a sanitizer does not guard:
// here each text sits in an allocation of exactly its size, so that a check reading one byte past
// the end (a block loaded whole, a lookahead) is a heap-buffer-overflow under AddressSanitizer.
// The exhaustive tests above are sweeps (reference/test/CMakeLists.txt): the sanitizer build runs
// this one in their place.
TEST(Utf8Implementations, ReadNoByteBeyondTheTextInAnAllocationOfItsExactSize) {
    std::mt19937 rng(20261207);
    judge j;
    const auto pieces = planted_pieces();
    for (std::size_t length = 0; length <= 300; ++length) {
        std::vector<std::string> texts = {std::string(length, 'a'), valid_text(rng, length)};
        for (const auto& [piece, piece_at] : pieces) {
            if (piece.size() <= length) {
                // the invalid piece at the very end, where a check looks ahead past it
                texts.push_back(valid_text(rng, length - piece.size()) + piece);
            }
        }
        for (const std::string& text : texts) {
            const std::unique_ptr<char[]> exact(new char[text.size()]);
            std::copy(text.begin(), text.end(), exact.get());
            j.check(std::string_view(exact.get(), text.size()), "a text in an allocation of its size");
        }
    }
    EXPECT_EQ(j.failures(), 0U);
}

TEST(Utf8Implementations, FindTheErrorFarIntoALongText) {
    std::mt19937 rng(7);
    judge j;
    const std::string clean = valid_text(rng, 100000);
    j.check(clean, "100,000 bytes of valid text");
    for (std::size_t at : {std::size_t{40000}, std::size_t{99990}}) {
        for (const auto& [piece, piece_at] : planted_pieces()) {
            std::string text = valid_text(rng, at) + piece;
            text += valid_text(rng, 100000 - text.size());
            ASSERT_EQ(first_invalid_utf8(text), at + piece_at);
            j.check(text, "an error far in");
        }
    }
    EXPECT_EQ(j.failures(), 0U);
}

}  // namespace
