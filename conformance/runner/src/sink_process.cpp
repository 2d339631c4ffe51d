// sink_process.cpp — `sinkcheck check-sink`: a sink in another process under the sink protocol
// (sink_protocol.hpp, docs/sink-protocol.md). Starts the process as the runner starts an encoder
// (child.hpp: its own process group, deadlines, capped output), reads its greeting, sends the
// write programs in batches and judges every answer as it arrives.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "child.hpp"
#include "sinkcheck/conform/sink_protocol.hpp"

namespace sinkcheck::conform::sink_protocol {
namespace {

using detail::child;
using detail::clock_type;
using detail::pump_end;

/// Programs sent before their answers are read: enough to keep a pipe busy, few enough that a
/// batch's answers stay small.
constexpr std::size_t batch_programs = 16;
/// stderr kept from the process, for the report of a broken conversation.
constexpr std::size_t stderr_cap = std::size_t{64} * 1024;
/// The greeting may not be longer.
constexpr std::size_t max_greeting = std::size_t{64} * 1024;

/// The process broke the protocol: exit 2, with the message and what it wrote to stderr.
class protocol_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The same calls up to one the encoder had not finished when an error elsewhere stopped it: the
/// sink is dropped unfinished there (the kit's fault at a write, across a process).
program cut_short(const program& whole, std::uint64_t index) {
    program cut = whole;
    const std::size_t keep = static_cast<std::size_t>((index * 0x9e3779b97f4a7c15ULL >> 17) % whole.calls.size());
    cut.calls.resize(keep);
    cut.abandon = true;
    cut.origin +=
        ", stopped after " + std::to_string(keep) + " of its " + std::to_string(whole.calls.size()) + " calls";
    return cut;
}

/// The generated values' programs (each whole, and stopped part-way), then the random ones.
class program_source {
public:
    program_source(const check_options& o, bool seekable) : o_(o), seekable_(seekable) {}

    /// The next program, or false when there are none left.
    bool next(program& p) {
        while (pending_.empty() && value_ < o_.values) encode_value(value_++);
        if (!pending_.empty()) {
            p = std::move(pending_.back());
            pending_.pop_back();
            ++from_values_;
            return true;
        }
        if (random_ < o_.programs) {
            p = random_program(o_.seed, random_++, seekable_);
            return true;
        }
        return false;
    }

    std::uint64_t from_values() const noexcept { return from_values_; }

private:
    void encode_value(std::uint64_t index) {
        const nlohmann::json value = generated_value(o_.seed, index);
        for (format f : all_formats) {
            for (const option_shape& s : option_shapes(f, seekable_)) {
                const std::string shape = s.name.empty() ? "" : " (" + std::string(s.name) + ")";
                program whole =
                    record_encoding(f, value, s.options, seekable_,
                                    "value " + std::to_string(index) + " in " + std::string(format_name(f)) + shape);
                if (!whole.abandon && !whole.calls.empty()) pending_.push_back(cut_short(whole, index));
                pending_.push_back(std::move(whole));
            }
        }
        std::reverse(pending_.begin(), pending_.end());  // taken from the back: in order
    }

    const check_options& o_;
    bool seekable_;
    std::uint64_t value_ = 0;
    std::uint64_t random_ = 0;
    std::uint64_t from_values_ = 0;
    std::vector<program> pending_;
};

/// More bytes than any sink could leave in a target after the program (its writes past its
/// furthest seek, twice, and some): beyond it, an answer is refused as a protocol error rather
/// than read; below it, a target that holds too much is a finding.
std::uint64_t most_held(const program& p) {
    std::uint64_t furthest = 0;
    for (const call& c : p.calls) {
        if (c.what == call::kind::seek) furthest = std::max(furthest, c.at);
    }
    return 2 * (furthest + p.data.size()) + 65536;
}

std::string with_stderr(std::string message, const std::string& err) {
    if (!err.empty()) message += "\n  its stderr:\n" + err;
    return message;
}

std::string pump_problem(pump_end end, const check_options& o) {
    switch (end) {
        case pump_end::timeout: return "no answer within " + std::to_string(o.timeout_seconds) + " s";
        case pump_end::output_limit: return "it wrote more than the answers can hold";
        case pump_end::stdout_closed: return "it closed its standard output (exited?)";
        case pump_end::failed: return "reading its output failed";
        case pump_end::done: break;
    }
    return {};
}

clock_type::time_point deadline_after(double seconds) {
    return clock_type::now() + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
}

greeting read_greeting(child& c, const check_options& o, std::string& err) {
    std::vector<std::uint8_t> out;
    std::size_t written = 0;
    std::size_t end = std::string::npos;
    const pump_end how =
        pump(c, std::string(), written, false, out, err, max_greeting, stderr_cap, deadline_after(o.timeout_seconds),
             [&](const std::vector<std::uint8_t>& bytes) {
                 const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
                 end = text.find("\n\n");
                 return end != std::string_view::npos;
             });
    if (how != pump_end::done) {
        throw protocol_error(with_stderr("no greeting (a 'sinkcheck-sink 1' line, key=value lines, an empty line): " +
                                             pump_problem(how, o) + " after " + std::to_string(out.size()) + " bytes",
                                         err));
    }
    if (end + 2 != out.size()) {
        throw protocol_error("byte " + std::to_string(end + 2) + " of its output: it wrote after its greeting " +
                             "before a program was sent");
    }
    greeting g;
    const std::string problem = parse_greeting(std::string_view(reinterpret_cast<const char*>(out.data()), end), g);
    if (!problem.empty()) throw protocol_error("its greeting: " + problem);
    return g;
}

/// A failing program for the report: its first finding, and the calls up to it.
std::string show(const program& p, const std::vector<finding>& findings) {
    const finding& first = findings.front();
    std::string out = first.text;
    if (findings.size() > 1) out += " (and " + std::to_string(findings.size() - 1) + " more)";
    out += "\n";
    const std::size_t last = first.call == no_call ? p.calls.size() : first.call + 1;
    const std::size_t from = last > 6 ? last - 6 : 0;
    if (from > 0) out += "    ... " + std::to_string(from) + " calls before\n";
    out += describe_calls(p, from, last == 0 ? 0 : last - 1);
    if (last < p.calls.size()) out += "    ... " + std::to_string(p.calls.size() - last) + " calls after\n";
    return out + "    then " + (p.abandon ? "A (dropped unfinished)" : "F (finished)") + "\n";
}

std::string thousands(std::uint64_t n) {
    std::string digits = std::to_string(n);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

void print_report(const greeting& g, const check_options& o, const program_source& source, const tally& t,
                  std::size_t failing, const std::vector<std::string>& shown) {
    std::string rule = g.growth ? g.growth->text() : "no rule declared";
    if (rule.size() > 120) rule = rule.substr(0, 100) + "... (" + thousands(rule.size()) + " characters)";
    std::printf("check-sink: %s (seeks: %s; capacity: %s; growth: %s)\n", g.name.c_str(), g.seeks ? "yes" : "no",
                g.capacity_reported ? "reported" : "not reported", rule.c_str());
    std::printf(
        "check-sink: %s programs: %s from %s values encoded in %zu formats, %s random; %s calls (%s seeks), "
        "%s bytes written, %s programs abandoned part-way\n",
        thousands(t.programs).c_str(), thousands(source.from_values()).c_str(), thousands(o.values).c_str(),
        all_formats.size(), thousands(t.programs - source.from_values()).c_str(), thousands(t.calls).c_str(),
        thousands(t.seeks).c_str(), thousands(t.bytes).c_str(), thousands(t.abandoned).c_str());
    if (g.growth) {
        std::printf("check-sink: growth rule judged at %s writes, %s of them growths%s\n",
                    thousands(t.rule_writes).c_str(), thousands(t.rule_growths).c_str(),
                    t.gap_writes == 0
                        ? ""
                        : (", " + thousands(t.gap_writes) + " writes after a seek past the end not judged").c_str());
    }
    std::printf("check-sink: not checked: allocation failures (the sink allocates in its own process)");
    if (!g.capacity_reported) std::printf("; capacity and growth (the greeting says capacity=none)");
    if (g.capacity_reported && !g.growth) std::printf("; a growth rule (none declared: only the capacity's bounds)");
    if (g.growth && t.rule_growths == 0) std::printf("; growth (no write grew the target)");
    if (!g.seeks) std::printf("; seeks (the sink does not seek)");
    std::printf("\n");
    for (const std::string& s : shown) std::printf("FAIL %s\n", s.c_str());
    if (failing == 0) {
        std::printf("check-sink: PASS: every answer matched the model%s\n", g.growth ? " and the growth rule" : "");
    } else {
        std::printf("check-sink: FAIL: %s of %s programs did not match (the first %zu shown)\n",
                    thousands(failing).c_str(), thousands(t.programs).c_str(), std::min(failing, o.show));
    }
}

}  // namespace

int run_check_sink(const check_options& o) {
    detail::prepare_runner_once();
    child c;
    std::string err;
    std::string start_error;
    try {
        if (!c.start(o.command, {}, start_error, "check-sink")) {
            std::fprintf(stderr, "sinkcheck check-sink: %s\n", start_error.c_str());
            return 2;
        }
        const greeting g = read_greeting(c, o, err);
        program_source source(o, g.seeks);
        tally t;
        std::size_t failing = 0;
        std::vector<std::string> shown;
        std::vector<program> batch;
        for (;;) {
            batch.clear();
            program p;
            while (batch.size() < batch_programs && source.next(p)) batch.push_back(std::move(p));
            if (batch.empty()) break;
            std::string wire;
            std::size_t limit = 0;
            std::vector<std::uint64_t> held_bound;  // per program, asked again at every read
            for (const program& q : batch) {
                append_program(wire, q);
                held_bound.push_back(most_held(q));
                limit += 5 + 16 * q.calls.size() + 4 + 65536 + 8 + held_bound.back();
            }
            std::vector<std::uint8_t> out;
            std::size_t written = 0;
            std::size_t parsed = 0;
            std::size_t answered = 0;
            std::vector<answer> answers(batch.size());
            const pump_end how =
                pump(c, wire, written, false, out, err, limit, stderr_cap, deadline_after(o.timeout_seconds),
                     [&](const std::vector<std::uint8_t>& bytes) {
                         while (answered < batch.size()) {
                             const program& q = batch[answered];
                             std::size_t took = 0;
                             try {
                                 took = read_answer(bytes.data() + parsed, bytes.size() - parsed, q.calls.size(),
                                                    held_bound[answered], answers[answered]);
                             } catch (const std::runtime_error& e) {
                                 throw protocol_error("its answer to " + q.origin + ": " + e.what());
                             }
                             if (took == 0) break;
                             parsed += took;
                             ++answered;
                         }
                         return answered == batch.size();
                     });
            if (how != pump_end::done) {
                throw protocol_error(with_stderr("no answer to " + batch[answered].origin + ": " +
                                                     pump_problem(how, o) + " (" + std::to_string(answered) + " of " +
                                                     std::to_string(batch.size()) + " programs of the batch answered)",
                                                 err));
            }
            if (parsed != out.size()) {
                throw protocol_error("it wrote " + std::to_string(out.size() - parsed) + " bytes after its answer to " +
                                     batch.back().origin);
            }
            for (std::size_t i = 0; i < batch.size(); ++i) {
                std::vector<finding> findings;
                try {
                    findings = judge(g, batch[i], answers[i], t);
                } catch (const std::domain_error& e) {
                    throw protocol_error(batch[i].origin + ": its growth rule cannot be evaluated: " + e.what());
                }
                if (findings.empty()) continue;
                ++failing;
                if (shown.size() < o.show) shown.push_back(show(batch[i], findings));
            }
        }
        c.close_stdin();
        if (!c.wait_exit(deadline_after(o.timeout_seconds))) {
            throw protocol_error("it did not exit within " + std::to_string(o.timeout_seconds) +
                                 " s of the end of its input");
        }
        detail::drain_stderr(c, err, stderr_cap);
        if (!WIFEXITED(c.status()) || WEXITSTATUS(c.status()) != 0) {
            throw protocol_error(with_stderr(
                WIFSIGNALED(c.status())
                    ? "killed by " + detail::signal_text(WTERMSIG(c.status())) + " at the end"
                    : "it exited with status " + std::to_string(WEXITSTATUS(c.status())) + " at the end of its input",
                err));
        }
        print_report(g, o, source, t, failing, shown);
        return failing == 0 ? 0 : 1;
    } catch (const protocol_error& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "sinkcheck check-sink: %s: %s\n", o.command.front().c_str(), e.what());
        return 2;
    } catch (const run_stopped& e) {
        std::fprintf(stderr, "sinkcheck %s\n", e.what());
        return 2;
    }
}

}  // namespace sinkcheck::conform::sink_protocol
