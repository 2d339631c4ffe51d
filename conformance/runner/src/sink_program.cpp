// sink_program.cpp — the sink protocol's write programs (recorded from the encoders, or random),
// its greeting and answers on the wire, and the judge (sink_protocol.hpp).
#include <algorithm>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "choice_stream.hpp"
#include "sinkcheck/conform/sink_protocol.hpp"
#include "sinkcheck/testkit/any_sink.hpp"
#include "sinkcheck/testkit/byte_choices.hpp"
#include "sinkcheck/testkit/hex.hpp"
#include "sinkcheck/testkit/value_from_bytes.hpp"

namespace sinkcheck::conform::sink_protocol {
namespace {

/// The encoder's calls, kept as a program, with a byte array's cursor and size so that the
/// encoder's position() and seek() behave as on any sink.
class recorder final : public testkit::any_seekable_sink {
public:
    explicit recorder(program& p) : p_(p) {}

    void write(std::uint8_t b) override {
        p_.calls.push_back({call::kind::byte, p_.data.size(), 1});
        p_.data.push_back(b);
        advance(1);
    }
    void write(const std::uint8_t* bytes, std::size_t n) override {
        p_.calls.push_back({call::kind::block, p_.data.size(), static_cast<std::uint32_t>(n)});
        p_.data.insert(p_.data.end(), bytes, bytes + n);
        advance(n);
    }
    std::size_t position() const override { return cursor_; }
    void seek(std::size_t to) override {
        p_.calls.push_back({call::kind::seek, to, 0});
        cursor_ = to;
    }

private:
    void advance(std::size_t n) {
        cursor_ += n;
        size_ = std::max(size_, cursor_);
    }

    program& p_;
    std::size_t cursor_ = 0;
    std::size_t size_ = 0;
};

/// The same calls offered to an encoder as a sink that cannot seek.
class seekless_recorder final : public testkit::any_sink {
public:
    explicit seekless_recorder(recorder& r) : r_(r) {}
    void write(std::uint8_t b) override { r_.write(b); }
    void write(const std::uint8_t* bytes, std::size_t n) override { r_.write(bytes, n); }
    std::size_t position() const override { return r_.position(); }

private:
    recorder& r_;
};

using detail::choice_stream;

/// Block lengths where sinks change behaviour: the smallest, a short buffer's edge, the windows
/// of seed 000, chunk sizes of seed 003, the kit's stream buffers, and one either side.
constexpr std::uint32_t edge_lengths[] = {0,    1,    2,    3,    5,     7,     8,     9,    13,   15,   16,
                                          22,   23,   24,   31,   32,    33,    63,    64,   65,   127,  128,
                                          129,  255,  256,  1023, 1024,  1025,  2047,  2048, 2049, 4095, 4096,
                                          4097, 8191, 8192, 8193, 16384, 65535, 65536, 65537};
/// A program stops growing here, so one answer stays small.
constexpr std::uint64_t max_random_bytes = std::uint64_t{1} << 20;

void put_u32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffU));
}
void put_u64(std::string& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffU));
}
std::uint64_t get_le(const std::uint8_t* p, int bytes) {
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

std::string bytes_word(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

std::string describe(const program& p, std::size_t i) {
    const call& c = p.calls[i];
    switch (c.what) {
        case call::kind::byte: return "write of 1 byte (" + testkit::to_hex(&p.data[c.at], 1) + ")";
        case call::kind::block: return "write of " + bytes_word(c.length);
        case call::kind::seek: return "seek to " + std::to_string(c.at);
    }
    return "?";
}

/// The byte array every sink is judged against: what it holds and where its cursor is.
struct model {
    std::vector<std::uint8_t> held;
    std::uint64_t cursor = 0;
    void write(const std::uint8_t* p, std::size_t n) {
        if (n == 0) return;  // nothing, not even after a seek past the end (harness.hpp's byte array)
        if (held.size() < cursor + n) held.resize(cursor + n);  // a gap before the cursor: zeros
        std::copy(p, p + n, held.begin() + static_cast<std::ptrdiff_t>(cursor));
        cursor += n;
    }
};

}  // namespace

program record_encoding(format f, const nlohmann::json& value, const encode_options& options, bool seekable,
                        std::string origin) {
    program p;
    p.origin = std::move(origin);
    recorder r(p);
    try {
        if (seekable) {
            testkit::encode_through(f, value, r, options);
        } else {
            seekless_recorder s(r);
            testkit::encode_through(f, value, s, options);
        }
    } catch (const std::exception& e) {
        // The encoder refused the value part-way: a writer that stops, as the sink meets it.
        p.abandon = true;
        p.origin += " (the encoder refused it: " + std::string(e.what()) + ")";
    }
    return p;
}

nlohmann::json generated_value(std::uint64_t seed, std::uint64_t index) {
    // choice bytes as `conform --generate` draws them: 16 to 1,024, small values often
    choice_stream s{seed};
    s.state = s.next() ^ index;
    std::vector<std::uint8_t> choices(1 + s.below(std::uint64_t{16} << s.below(7)));
    for (std::uint8_t& b : choices) b = static_cast<std::uint8_t>(s.next() >> 56);
    testkit::byte_choices in(choices.data(), choices.size());
    return fuzz::value_from_bytes<nlohmann::json>(in);
}

program random_program(std::uint64_t seed, std::uint64_t index, bool seekable) {
    choice_stream s{~seed};
    s.state = s.next() ^ index;
    program p;
    p.origin = "random program " + std::to_string(index);
    const std::uint64_t calls = 1 + s.below(std::uint64_t{4} << s.below(6));  // 1 to 128, short ones often
    std::uint64_t size = 0;
    std::uint64_t cursor = 0;
    for (std::uint64_t i = 0; i < calls && p.data.size() < max_random_bytes; ++i) {
        const std::uint64_t choice = s.below(16);
        call c;
        if (seekable && choice < 2) {
            // back into what is written, or up to 16 bytes past its end (a gap of zeros)
            c.what = call::kind::seek;
            c.at = s.below(size + 17);
            cursor = c.at;
            p.calls.push_back(c);
            continue;
        }
        if (choice < 7) {
            c.what = call::kind::byte;
            c.length = 1;
        } else {
            c.what = call::kind::block;
            c.length =
                choice < 12 ? static_cast<std::uint32_t>(s.below(130)) : edge_lengths[s.below(std::size(edge_lengths))];
        }
        c.at = p.data.size();
        for (std::uint32_t k = 0; k < c.length; ++k) p.data.push_back(static_cast<std::uint8_t>(s.next() >> 56));
        p.calls.push_back(c);
        cursor += c.length;
        if (c.length > 0) size = std::max(size, cursor);
    }
    if (s.below(3) == 0) {
        // the writer stops after a random call
        p.calls.resize(s.below(p.calls.size() + 1));
        p.abandon = true;
    }
    return p;
}

std::string parse_greeting(std::string_view text, greeting& g) {
    g = greeting();
    bool first = true;
    bool named = false;
    while (!text.empty()) {
        const std::size_t eol = text.find('\n');
        const std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        if (first) {
            if (line != "sinkcheck-sink 1") {
                return "the first line is '" + std::string(line.substr(0, 80)) + "', not 'sinkcheck-sink 1'";
            }
            first = false;
            continue;
        }
        const std::size_t eq = line.find('=');
        if (eq == std::string_view::npos) return "line without '=': '" + std::string(line.substr(0, 80)) + "'";
        const std::string_view key = line.substr(0, eq);
        const std::string value(line.substr(eq + 1));
        auto flag = [&](bool& out) {
            if (value != "0" && value != "1") return std::string(key) + "=" + value + ": 0 or 1";
            out = value == "1";
            return std::string();
        };
        auto count = [&](std::uint64_t& out) {
            if (value.empty() || value.size() > 19 || value.find_first_not_of("0123456789") != std::string::npos) {
                return std::string(key) + "=" + value + ": a whole number of bytes";
            }
            out = std::stoull(value);
            return std::string();
        };
        std::string problem;
        try {
            if (key == "name") {
                g.name = value;
                named = !value.empty();
            } else if (key == "seeks") {
                problem = flag(g.seeks);
            } else if (key == "capacity") {
                if (value != "reported" && value != "none") problem = "capacity=" + value + ": 'reported' or 'none'";
                g.capacity_reported = value == "reported";
            } else if (key == "growth") {
                g.growth = rule_expression::parse(value);
            } else if (key == "grows_when") {
                g.grows_when = rule_expression::parse(value);
            } else if (key == "initial") {
                problem = count(g.initial);
            } else if (key == "buffers") {
                problem = count(g.buffers);
            } else {
                problem = "unknown key '" + std::string(key.substr(0, 40)) +
                          "' (name, seeks, capacity, growth, grows_when, initial, buffers)";
            }
        } catch (const std::invalid_argument& e) {
            problem = e.what();
        }
        if (!problem.empty()) return problem;
    }
    if (first) return "empty greeting";
    if (!named) return "no name= line";
    if ((g.growth || g.grows_when) && !g.capacity_reported) return "a growth rule needs capacity=reported";
    if (g.grows_when && !g.growth) return "grows_when without growth";
    return {};
}

void append_program(std::string& wire, const program& p) {
    for (const call& c : p.calls) {
        switch (c.what) {
            case call::kind::byte:
                wire.push_back('b');
                wire.push_back(static_cast<char>(p.data[c.at]));
                break;
            case call::kind::block:
                wire.push_back('w');
                put_u32(wire, c.length);
                wire.append(reinterpret_cast<const char*>(p.data.data() + c.at), c.length);
                break;
            case call::kind::seek:
                wire.push_back('s');
                put_u64(wire, c.at);
                break;
        }
    }
    wire.push_back(p.abandon ? 'A' : 'F');
}

std::size_t read_answer(const std::uint8_t* p, std::size_t n, std::size_t calls, std::uint64_t max_held, answer& a) {
    std::size_t at = 0;
    auto need = [&](std::uint64_t k) { return n - at >= k; };
    if (!need(5)) return 0;
    if (p[0] != 'r') {
        throw std::runtime_error("byte 0 of the answer is 0x" + testkit::to_hex(p, 1) + ", not 'r'");
    }
    a = answer();
    a.done = static_cast<std::uint32_t>(get_le(p + 1, 4));
    at = 5;
    if (a.done > calls) {
        throw std::runtime_error("byte 1 of the answer: " + std::to_string(a.done) + " calls returned, of " +
                                 std::to_string(calls) + " sent");
    }
    if (!need(std::uint64_t{16} * a.done + 4)) return 0;
    a.positions.resize(a.done);
    a.capacities.resize(a.done);
    for (std::uint32_t i = 0; i < a.done; ++i, at += 16) {
        a.positions[i] = get_le(p + at, 8);
        a.capacities[i] = get_le(p + at + 8, 8);
    }
    const std::uint64_t error_length = get_le(p + at, 4);
    if (error_length > (1U << 16)) {
        throw std::runtime_error("byte " + std::to_string(at) + " of the answer: an error text of " +
                                 std::to_string(error_length) + " bytes (at most 65,536)");
    }
    at += 4;
    if (!need(error_length + 8)) return 0;
    a.error.assign(reinterpret_cast<const char*>(p + at), error_length);
    at += error_length;
    const std::uint64_t held = get_le(p + at, 8);
    if (held > max_held) {
        throw std::runtime_error("byte " + std::to_string(at) + " of the answer: the target holds " +
                                 std::to_string(held) + " bytes, more than the " + std::to_string(max_held) +
                                 " the program could have put there");
    }
    at += 8;
    if (!need(held)) return 0;
    a.held.assign(p + at, p + at + held);
    return at + held;
}

std::string describe_calls(const program& p, std::size_t first, std::size_t last) {
    std::string out;
    last = std::min(last, p.calls.empty() ? 0 : p.calls.size() - 1);
    for (std::size_t i = first; i <= last && i < p.calls.size(); ++i) {
        out += "    call " + std::to_string(i) + ": " + describe(p, i);
        const call& c = p.calls[i];
        if (c.what == call::kind::block && c.length > 0) {
            const std::size_t shown = std::min<std::size_t>(c.length, 16);
            out += " " + testkit::to_hex(&p.data[c.at], shown) + (shown < c.length ? " ..." : "");
        }
        out += "\n";
    }
    return out;
}

std::vector<finding> judge(const greeting& g, const program& p, const answer& a, tally& t) {
    std::vector<finding> findings;
    auto at_call = [&](std::size_t i, const std::string& what) {
        findings.push_back({i, p.origin + ": call " + std::to_string(i) + " (" + describe(p, i) + "): " + what});
    };
    auto at_end = [&](const std::string& what) { findings.push_back({no_call, p.origin + ": " + what}); };
    ++t.programs;
    if (p.abandon) ++t.abandoned;
    model m;
    auto check_position = [&](std::size_t i) {
        if (a.positions[i] != m.cursor) {
            at_call(i, "position " + std::to_string(a.positions[i]) + ", the model's " + std::to_string(m.cursor));
        }
    };
    std::uint64_t capacity = g.initial;
    std::uint64_t last_reported = g.initial;
    bool rule_holds = true;  // after the first capacity the rule did not give, only the shape is judged
    bool gap = false;
    for (std::size_t i = 0; i < a.done; ++i) {
        const call& c = p.calls[i];
        ++t.calls;
        const std::uint64_t reported = a.capacities[i];
        if (c.what == call::kind::seek) {
            ++t.seeks;
            m.cursor = c.at;
            check_position(i);
            if (g.capacity_reported && reported != last_reported) {
                at_call(i, "capacity " + std::to_string(reported) + " after a seek, " + std::to_string(last_reported) +
                               " before it");
            }
        } else {
            const std::uint64_t size = m.held.size();
            rule_expression::inputs in;
            in.capacity = capacity;
            in.size = size;
            in.position = m.cursor;
            in.length = c.length;
            in.needed = std::max<std::uint64_t>(size, m.cursor + c.length);
            gap = m.cursor > size;
            m.write(&p.data[c.at], c.length);
            t.bytes += c.length;
            check_position(i);
            if (g.capacity_reported) {
                if (reported < m.held.size()) {
                    at_call(i, "capacity " + std::to_string(reported) + ", below the " + bytes_word(m.held.size()) +
                                   " the target must hold");
                } else if (reported < last_reported) {
                    at_call(i, "capacity shrank from " + std::to_string(last_reported) + " to " +
                                   std::to_string(reported) + " under a write");
                }
            }
            if (g.growth && gap) {
                ++t.gap_writes;
            } else if (g.growth && rule_holds) {
                ++t.rule_writes;
                const bool grows = g.grows_when ? g.grows_when->evaluate(in) != 0 : in.needed > in.capacity;
                const std::uint64_t expected = grows ? g.growth->evaluate(in) : capacity;
                if (grows) ++t.rule_growths;
                if (reported != expected) {
                    at_call(i, "capacity " + std::to_string(reported) + ", the growth rule gives " +
                                   std::to_string(expected) + (grows ? " (it grows" : " (it does not grow") +
                                   ": capacity " + std::to_string(in.capacity) + ", size " + std::to_string(in.size) +
                                   ", position " + std::to_string(in.position) + ", length " +
                                   std::to_string(in.length) + ", needed " + std::to_string(in.needed) + ")");
                    rule_holds = false;
                }
            }
        }
        capacity = reported;
        last_reported = reported;
    }
    const bool failed_call = a.done < p.calls.size();
    if (failed_call) {
        at_call(a.done, "failed: " + (a.error.empty() ? std::string("(no reason given)") : a.error));
    } else if (!a.error.empty()) {
        at_end(std::string(p.abandon ? "dropping" : "finishing") + " the sink failed: " + a.error);
    }
    // What the target must hold: everything after a finish; after the writer stopped, the writes
    // that returned, less at most `buffers` bytes at the end that had not reached it.
    const bool complete = !p.abandon && !failed_call;
    const std::vector<std::uint8_t>& want = m.held;
    const std::size_t same = testkit::first_difference(a.held, want);
    const std::string ending = complete ? "after the finish" : failed_call ? "after the failed call" : "after the drop";
    if (a.held.size() > want.size() || same < a.held.size()) {
        at_end(ending + " the target holds " + bytes_word(a.held.size()) + ", the model " + bytes_word(want.size()) +
               "; they differ at byte " + std::to_string(same) + " (" +
               (same < a.held.size() ? testkit::to_hex(&a.held[same], 1) : std::string("end")) +
               " where the model has " +
               (same < want.size() ? testkit::to_hex(&want[same], 1) : std::string("its end")) + ")");
    } else if (a.held.size() < want.size()) {
        const std::uint64_t missing = want.size() - a.held.size();
        if (complete || missing > g.buffers) {
            at_end(ending + " the target holds " + bytes_word(a.held.size()) + " of the model's " +
                   std::to_string(want.size()) +
                   (complete ? std::string() : " (the greeting allows " + bytes_word(g.buffers) + " still buffered)"));
        }
    }
    return findings;
}

}  // namespace sinkcheck::conform::sink_protocol
