// sink_protocol_test.cpp — the sink protocol's judge, growth expressions, greeting, wire format,
// and `sinkcheck check-sink` on real sinks in Python (docs/sink-protocol.md).
//
// The process side is played here by a byte-array sink in C++ that reads the wire as a process
// would and answers as the spec says, with slips planted on demand: every check of the judge is
// shown to fail on the slip it is there for.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "sinkcheck/conform/sink_protocol.hpp"
#include "sinkcheck/encode.hpp"

namespace sp = sinkcheck::conform::sink_protocol;
using sinkcheck::format;

namespace {

std::uint64_t eval(const std::string& text, sp::rule_expression::inputs in = {}) {
    return sp::rule_expression::parse(text).evaluate(in);
}

/// What the C++ stand-in for a sink process gets wrong, if anything.
struct slips {
    bool drop_last_byte_of_blocks = false;  // of blocks of 3 bytes or more; the position still counts it
    bool seek_one_late = false;
    bool no_minimum_capacity = false;    // Vec's rule without its minimum of 8
    std::size_t keeps_back = 0;          // bytes that never reach the target, however the program ends
    bool empty_write_fills_gap = false;  // a write of no bytes after a seek past the end zero-fills
};

void put_le(std::string& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffU));
}
std::uint64_t get_le(const std::string& in, std::size_t at, int bytes) {
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(in[at + static_cast<std::size_t>(i)]);
    return v;
}

/// Plays one program from the wire on a Rust-Vec-like byte array (capacity max(8, needed,
/// 2 x capacity)) and returns the answer's bytes, as a process would write them.
std::string play(const std::string& wire, const slips& s = {}) {
    std::vector<std::uint8_t> held;
    std::size_t cursor = 0;
    std::size_t capacity = 0;
    std::string after;
    std::uint32_t done = 0;
    auto write = [&](const std::uint8_t* p, std::size_t n) {
        if (n == 0 && !s.empty_write_fills_gap) return;
        const std::size_t needed = std::max(held.size(), cursor + n);
        if (needed > capacity)
            capacity =
                std::max<std::size_t>({s.no_minimum_capacity ? std::size_t{0} : std::size_t{8}, needed, 2 * capacity});
        if (held.size() < needed) held.resize(needed);
        std::copy(p, p + n, held.begin() + static_cast<std::ptrdiff_t>(cursor));
        cursor += n;
    };
    std::size_t at = 0;
    char end = 0;
    while (end == 0) {
        const char op = wire.at(at++);
        if (op == 'b') {
            const auto b = static_cast<std::uint8_t>(wire.at(at++));
            write(&b, 1);
        } else if (op == 'w') {
            const std::size_t n = get_le(wire, at, 4);
            at += 4;
            std::vector<std::uint8_t> block(wire.begin() + static_cast<std::ptrdiff_t>(at),
                                            wire.begin() + static_cast<std::ptrdiff_t>(at + n));
            at += n;
            if (s.drop_last_byte_of_blocks && n >= 3)
                block.back() = held.size() > cursor + n - 1 ? held[cursor + n - 1] : 0;
            write(block.data(), block.size());
        } else if (op == 's') {
            cursor = get_le(wire, at, 8) + (s.seek_one_late ? 1 : 0);
            at += 8;
        } else if (op == 'F' || op == 'A') {
            end = op;
            break;
        } else {
            throw std::runtime_error("bad op");
        }
        ++done;
        put_le(after, cursor, 8);
        put_le(after, capacity, 8);
    }
    if (s.keeps_back > 0) held.resize(held.size() > s.keeps_back ? held.size() - s.keeps_back : 0);
    std::string out = "r";
    put_le(out, done, 4);
    out += after;
    put_le(out, 0, 4);
    put_le(out, held.size(), 8);
    out.append(held.begin(), held.end());
    return out;
}

const char* vec_greeting =
    "sinkcheck-sink 1\nname=vec\nseeks=1\ncapacity=reported\ngrowth=max(8, needed, 2 * capacity)";

/// The findings of a program played with the given slips (the greeting's text as given).
std::vector<sp::finding> findings_of(const sp::program& p, const slips& s,
                                     const std::string& greeting_text = vec_greeting) {
    sp::greeting g;
    EXPECT_EQ(sp::parse_greeting(greeting_text, g), "");
    std::string wire;
    sp::append_program(wire, p);
    const std::string bytes = play(wire, s);
    sp::answer a;
    const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
    EXPECT_EQ(sp::read_answer(data, bytes.size(), p.calls.size(), 1 << 24, a), bytes.size());
    // every shorter prefix is an answer not yet complete
    for (std::size_t cut : {std::size_t{0}, std::size_t{1}, bytes.size() / 2, bytes.size() - 1}) {
        sp::answer partial;
        EXPECT_EQ(sp::read_answer(data, cut, p.calls.size(), 1 << 24, partial), 0U) << cut;
    }
    sp::tally t;
    return sp::judge(g, p, a, t);
}

struct run_result {
    int status = -1;
    std::string output;
};

/// `sinkcheck check-sink ARGS` through the shell, stdout and stderr together.
run_result check_sink(const std::string& args) {
    run_result r;
    const std::string command = std::string(SINKCHECK_CLI) + " check-sink " + args + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return r;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
    const int st = ::pclose(pipe);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

std::string python_sink(const std::string& example, const std::string& plant = "") {
    return "--values 30 --programs 60 -- env PYTHONPATH=" SINKCHECK_SINK_HELPERS
           "/python python3 " SINKCHECK_SINK_EXAMPLES "/python/" +
           example + (plant.empty() ? "" : " --plant " + plant);
}

sp::program seeking_program() {
    sp::program p;
    p.origin = "test";
    const std::uint8_t bytes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    p.data.assign(bytes, bytes + 10);
    p.calls = {{sp::call::kind::block, 0, 4}, {sp::call::kind::byte, 4, 1},  {sp::call::kind::seek, 1, 0},
               {sp::call::kind::block, 5, 3}, {sp::call::kind::seek, 12, 0}, {sp::call::kind::block, 8, 2}};
    return p;
}

}  // namespace

TEST(SinkRule, FollowsCsPrecedenceAndEvaluatesOnlyTheBranchTaken) {
    EXPECT_EQ(eval("2 + 3 * 4"), 14U);
    EXPECT_EQ(eval("1 << 2 + 1"), 8U);  // + binds tighter than <<, as in C
    EXPECT_EQ(eval("(1 << 2) + 1"), 5U);
    EXPECT_EQ(eval("1 < 2 == 1"), 1U);
    EXPECT_EQ(eval("0 ? 1 : 0 ? 2 : 3"), 3U);  // right to left
    EXPECT_EQ(eval("7 / 2 % 2 + 1"), 2U);
    EXPECT_EQ(eval("!0 && 5 || 0"), 1U);
    EXPECT_EQ(eval("max(3, 9, 4) + min(3, 1, 2)"), 10U);
    sp::rule_expression::inputs in;
    in.capacity = 16;
    in.size = 5;
    in.position = 2;
    in.length = 30;
    in.needed = 32;
    EXPECT_EQ(eval("max(8, needed, 2 * capacity)", in), 32U);
    EXPECT_EQ(eval("capacity == 0 && length <= 64 ? 64 : 2 * capacity + length", in), 62U);
    EXPECT_EQ(eval("8 * needed <= 9 * capacity ? needed + (needed >> 3) + (needed < 9 ? 3 : 6) : needed + 1", in), 33U);
    EXPECT_EQ(eval("size > 8 ? size - 8 : 0", in), 0U);  // the subtraction is never evaluated
    EXPECT_EQ(eval("position >= 2 && size != 4"), 0U);   // all names zero
}

TEST(SinkRule, NamesWhereATextStopsMakingSenseAndWhatCannotBeEvaluated) {
    auto parse_error = [](const std::string& text) {
        try {
            sp::rule_expression::parse(text);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("parsed");
    };
    EXPECT_NE(parse_error("needed + capacty").find("character 10: unknown name 'capacty'"), std::string::npos);
    EXPECT_NE(parse_error("max(needed)").find("expected ','"), std::string::npos);
    EXPECT_NE(parse_error("needed needed").find("character 8: unexpected 'n'"), std::string::npos);
    EXPECT_NE(parse_error("(needed").find("expected ')'"), std::string::npos);
    EXPECT_NE(parse_error("needed +").find("ends early"), std::string::npos);
    EXPECT_NE(parse_error("99999999999999999999").find("out of range"), std::string::npos);
    EXPECT_NE(parse_error(std::string(16385, '1')).find("16385 characters"), std::string::npos);
    EXPECT_NE(parse_error(std::string(300, '(') + "1" + std::string(300, ')')).find("nested more than 256 deep"),
              std::string::npos);
    EXPECT_NE(parse_error(std::string(300, '!') + "1").find("nested more than 256 deep"), std::string::npos);
    EXPECT_EQ(eval(std::string(200, '(') + "1" + std::string(200, ')')), 1U);
    EXPECT_THROW(eval("size - 1"), std::domain_error);
    EXPECT_THROW(eval("1 / size"), std::domain_error);
    EXPECT_THROW(eval("18446744073709551615 + 1"), std::domain_error);
    EXPECT_THROW(eval("4294967296 * 4294967296"), std::domain_error);
}

TEST(SinkGreeting, ReadsEveryKeyAndRefusesWhatItCannotUse) {
    sp::greeting g;
    ASSERT_EQ(sp::parse_greeting("sinkcheck-sink 1\nname=go bytes.Buffer\nseeks=0\ncapacity=reported\n"
                                 "growth=2 * capacity + length\ngrows_when=needed > capacity\ninitial=64\nbuffers=4096",
                                 g),
              "");
    EXPECT_EQ(g.name, "go bytes.Buffer");
    EXPECT_FALSE(g.seeks);
    EXPECT_TRUE(g.capacity_reported);
    EXPECT_EQ(g.initial, 64U);
    EXPECT_EQ(g.buffers, 4096U);
    ASSERT_TRUE(g.growth && g.grows_when);
    EXPECT_EQ(g.growth->text(), "2 * capacity + length");
    EXPECT_NE(sp::parse_greeting("sinkcheck-sink 2\nname=x", g).find("not 'sinkcheck-sink 1'"), std::string::npos);
    EXPECT_NE(sp::parse_greeting("sinkcheck-sink 1\nseeks=1", g).find("no name="), std::string::npos);
    EXPECT_NE(sp::parse_greeting("sinkcheck-sink 1\nname=x\nseeks=yes", g).find("0 or 1"), std::string::npos);
    EXPECT_NE(sp::parse_greeting("sinkcheck-sink 1\nname=x\ncolour=red", g).find("unknown key 'colour'"),
              std::string::npos);
    EXPECT_NE(sp::parse_greeting("sinkcheck-sink 1\nname=x\ngrowth=needed", g).find("needs capacity=reported"),
              std::string::npos);
    EXPECT_NE(sp::parse_greeting("sinkcheck-sink 1\nname=x\ncapacity=reported\ngrowth=needed +", g).find("ends early"),
              std::string::npos);
    EXPECT_NE(sp::parse_greeting("sinkcheck-sink 1\nname=x\ninitial=-1", g).find("whole number"), std::string::npos);
    EXPECT_NE(sp::parse_greeting("", g).find("empty"), std::string::npos);
}

TEST(SinkJudge, ACorrectSinkPassesAndEachSlipIsNamedAtItsCall) {
    const sp::program p = seeking_program();
    EXPECT_TRUE(findings_of(p, {}).empty());

    slips dropped;
    dropped.drop_last_byte_of_blocks = true;
    auto f = findings_of(p, dropped);
    ASSERT_FALSE(f.empty());
    EXPECT_EQ(f.back().call, sp::no_call);
    EXPECT_NE(f.back().text.find("they differ at byte 3"), std::string::npos) << f.back().text;

    slips late;
    late.seek_one_late = true;
    f = findings_of(p, late);
    ASSERT_FALSE(f.empty());
    EXPECT_EQ(f.front().call, 2U);
    EXPECT_NE(f.front().text.find("call 2 (seek to 1): position 2, the model's 1"), std::string::npos)
        << f.front().text;

    slips small;
    small.no_minimum_capacity = true;
    f = findings_of(p, small);
    ASSERT_EQ(f.size(), 1U);  // after the first capacity the rule does not give, the rule is not asked again
    EXPECT_NE(f.front().text.find("call 0 (write of 4 bytes): capacity 4, the growth rule gives 8"), std::string::npos)
        << f.front().text;
}

TEST(SinkJudge, ADroppedSinkMayKeepBackOnlyWhatItsGreetingSaysItBuffers) {
    sp::program p = seeking_program();
    p.calls.resize(4);  // no gap: the writes are a prefix of the bytes
    p.abandon = true;
    slips keeps;
    keeps.keeps_back = 3;
    EXPECT_EQ(findings_of(p, keeps).size(), 1U);
    EXPECT_TRUE(findings_of(p, keeps, std::string(vec_greeting) + "\nbuffers=3").empty());
    EXPECT_EQ(findings_of(p, keeps, std::string(vec_greeting) + "\nbuffers=2").size(), 1U);
    p.abandon = false;  // a finished sink keeps nothing back, whatever it buffers
    EXPECT_EQ(findings_of(p, keeps, std::string(vec_greeting) + "\nbuffers=3").size(), 1U);
    EXPECT_TRUE(findings_of(p, {}, std::string(vec_greeting) + "\nbuffers=3").empty());
}

TEST(SinkJudge, AWriteAfterAGapIsNotJudgedAgainstTheRule) {
    const sp::program p = seeking_program();
    sp::greeting g;
    ASSERT_EQ(sp::parse_greeting(vec_greeting, g), "");
    std::string wire;
    sp::append_program(wire, p);
    const std::string bytes = play(wire);
    sp::answer a;
    ASSERT_GT(
        sp::read_answer(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), p.calls.size(), 1 << 20, a),
        0U);
    sp::tally t;
    EXPECT_TRUE(sp::judge(g, p, a, t).empty());
    EXPECT_EQ(t.gap_writes, 1U);
    EXPECT_EQ(t.rule_writes, 3U);
    EXPECT_EQ(t.seeks, 2U);
}

TEST(SinkJudge, AWriteOfNoBytesChangesNothingEvenAfterASeekPastTheEnd) {
    sp::program p;
    p.origin = "test";
    p.data = {1, 2};
    p.calls = {{sp::call::kind::block, 0, 2}, {sp::call::kind::seek, 10, 0}, {sp::call::kind::block, 2, 0}};
    EXPECT_TRUE(findings_of(p, {}).empty());
    slips fills;
    fills.empty_write_fills_gap = true;
    const auto f = findings_of(p, fills);
    ASSERT_FALSE(f.empty());
    EXPECT_NE(f.back().text.find("the target holds 10 bytes, the model 2 bytes"), std::string::npos) << f.back().text;
}

TEST(SinkAnswer, MalformedAnswersAreRefusedWithTheirOffset) {
    sp::answer a;
    const std::string not_r("x\0\0\0\0", 5);
    EXPECT_THROW(sp::read_answer(reinterpret_cast<const std::uint8_t*>(not_r.data()), 5, 1, 100, a),
                 std::runtime_error);
    std::string too_many = "r";
    put_le(too_many, 3, 4);
    try {
        sp::read_answer(reinterpret_cast<const std::uint8_t*>(too_many.data()), too_many.size(), 2, 100, a);
        ADD_FAILURE() << "3 calls answered of 2 read";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("3 calls returned, of 2 sent"), std::string::npos);
    }
    std::string huge = "r";
    put_le(huge, 0, 4);
    put_le(huge, 0, 4);
    put_le(huge, 1000, 8);
    try {
        sp::read_answer(reinterpret_cast<const std::uint8_t*>(huge.data()), huge.size(), 0, 100, a);
        ADD_FAILURE() << "a target of 1000 bytes read where 100 is the most";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("byte 9 of the answer: the target holds 1000 bytes"), std::string::npos);
    }
}

TEST(SinkPrograms, RecordedEncodingsReplayToTheEncodersBytes) {
    for (std::uint64_t i = 0; i < 40; ++i) {
        const nlohmann::json value = sp::generated_value(7, i);
        for (format f : sinkcheck::all_formats) {
            for (bool seekable : {false, true}) {
                sinkcheck::encode_options o;
                o.bson_patch_lengths = seekable;
                const sp::program p = sp::record_encoding(f, value, o, seekable, "v");
                if (p.abandon) continue;  // refused: the value is not in the format's reach
                std::string wire;
                sp::append_program(wire, p);
                const std::string bytes = play(wire);
                sp::answer a;
                ASSERT_EQ(sp::read_answer(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(),
                                          p.calls.size(), 1 << 24, a),
                          bytes.size());
                // the same bytes as the encoder writes into memory (which computes BSON's lengths first)
                sinkcheck::encode_options plain = o;
                plain.bson_patch_lengths = false;
                std::vector<std::uint8_t> expected;
                try {
                    expected = sinkcheck::encode_to_vector(f, value, plain);
                } catch (const std::exception&) {
                    ADD_FAILURE() << "the recorder completed what the encoder refuses";
                    continue;
                }
                EXPECT_EQ(a.held, expected)
                    << sinkcheck::format_name(f) << " value " << i << (seekable ? " seekable" : "");
            }
        }
    }
}

TEST(SinkPrograms, RandomProgramsAreRepeatableAndReachEveryCall) {
    std::array<int, 3> kinds{};
    bool abandoned = false;
    bool finished = false;
    for (std::uint64_t i = 0; i < 200; ++i) {
        const sp::program p = sp::random_program(3, i, true);
        const sp::program again = sp::random_program(3, i, true);
        ASSERT_EQ(p.data, again.data);
        ASSERT_EQ(p.calls.size(), again.calls.size());
        for (const sp::call& c : p.calls) ++kinds[static_cast<std::size_t>(c.what)];
        (p.abandon ? abandoned : finished) = true;
        EXPECT_TRUE(findings_of(p, {}).empty()) << p.origin;
    }
    EXPECT_GT(kinds[0], 0);
    EXPECT_GT(kinds[1], 0);
    EXPECT_GT(kinds[2], 0);
    EXPECT_TRUE(abandoned && finished);
    for (std::uint64_t i = 0; i < 200; ++i) {
        for (const sp::call& c : sp::random_program(3, i, false).calls) EXPECT_NE(c.what, sp::call::kind::seek);
    }
}

TEST(SinkCheckCommand, PythonSinksPassWithTheirGrowthRulesAndEachPlantedSlipIsCaught) {
    for (const char* example : {"bytesio_check.py", "bytearray_check.py"}) {
        SCOPED_TRACE(example);
        run_result r = check_sink(python_sink(example));
        EXPECT_EQ(r.status, 0) << r.output;
        EXPECT_NE(r.output.find("PASS: every answer matched the model and the growth rule"), std::string::npos)
            << r.output;
        EXPECT_NE(r.output.find(" of them growths"), std::string::npos) << r.output;

        r = check_sink(python_sink(example, "drop-byte"));
        EXPECT_EQ(r.status, 1) << r.output;
        EXPECT_NE(r.output.find("did not match"), std::string::npos) << r.output;

        r = check_sink(python_sink(example, "rule"));
        EXPECT_EQ(r.status, 1) << r.output;
        EXPECT_NE(r.output.find("the growth rule gives"), std::string::npos) << r.output;
    }
    const run_result r = check_sink(python_sink("bytesio_check.py", "seek"));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("(seek to "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("the model's"), std::string::npos) << r.output;
}

TEST(SinkCheckCommand, AProcessThatBreaksTheProtocolIsNamedAndExitsTwo) {
    struct hostile {
        const char* script;
        const char* says;
    };
    const hostile cases[] = {
        {"printf 'hello\\n\\n'", "not 'sinkcheck-sink 1'"},
        {"printf 'sinkcheck-sink 1\\nname=x\\n\\n'", "closed its standard output"},
        {"printf 'sinkcheck-sink 1\\nname=x\\n\\n'; sleep 30", "no answer within 1"},
        {"printf 'sinkcheck-sink 1\\nname=x\\n\\nr'; cat >/dev/null", "wrote after its greeting"},
        {"printf 'sinkcheck-sink 1\\nname=x\\n\\n'; head -c 1 >/dev/null; printf 'x1234'; sleep 30",
         "byte 0 of the answer is 0x78, not 'r'"},
        {"echo 'oops' >&2; exit 3", "oops"},
    };
    for (const hostile& h : cases) {
        const run_result r =
            check_sink(std::string("--timeout 1 --values 1 --programs 0 -- sh -c \"") + h.script + "\"");
        EXPECT_EQ(r.status, 2) << h.script << "\n" << r.output;
        EXPECT_NE(r.output.find(h.says), std::string::npos) << h.script << "\n" << r.output;
    }
    const run_result missing = check_sink("-- /nonexistent/sink");
    EXPECT_EQ(missing.status, 2) << missing.output;
    EXPECT_NE(missing.output.find("cannot run '/nonexistent/sink'"), std::string::npos) << missing.output;
    const run_result usage = check_sink("--values many -- true");
    EXPECT_EQ(usage.status, 2) << usage.output;
}
