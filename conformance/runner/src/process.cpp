// Encoder processes (encoder.hpp): per-vector and batch sessions over POSIX pipes, each a child
// (child.hpp: process groups, deadlines, capped output). The linked encoders are in linked.cpp,
// the protocol's frames in protocol.cpp.
#include <poll.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "child.hpp"
#include "sinkcheck/conform/encoder.hpp"
#include "sinkcheck/conform/protocol.hpp"

namespace sinkcheck::conform {
namespace {

// the child process and its pipes (child.hpp)
using namespace detail;  // NOLINT(google-build-using-namespace)

/// The vector's value as the process reads it, and whether that text is plain RFC 8259 JSON
/// without a notation object.
struct wire_input {
    std::string text;
    bool plain = false;
};

wire_input input_for(const test_vector& v, wire_notation notation) {
    if (notation == wire_notation::token) return {v.input.wire, v.input.plain_json};
    std::string json = to_json_notation(
        v.input.wire, notation == wire_notation::json_decimal ? json_floats::decimal : json_floats::bits);
    const bool plain = v.input.plain_json && json == v.input.wire;
    return {std::move(json), plain};
}

std::vector<std::string> environment_for(const test_vector& v, process_mode mode, wire_notation notation,
                                         const wire_input& input) {
    std::vector<std::string> env = {
        std::string(protocol::env_mode) + "=" + (mode == process_mode::batch ? "batch" : "per-vector"),
        std::string(protocol::env_format) + "=" + std::string(format_name(v.fmt)),
        // json-decimal is the same notation, read by the same reader: only the spelling of doubles
        // differs, and a reader of the JSON notation reads both spellings.
        std::string(protocol::env_notation) + "=" + (notation == wire_notation::token ? "token" : "json")};
    if (mode == process_mode::per_vector) {
        env.push_back(std::string(protocol::env_use_size) + "=" + (v.use_size ? "1" : "0"));
        env.push_back(std::string(protocol::env_use_type) + "=" + (v.use_type ? "1" : "0"));
        env.push_back(std::string(protocol::env_vector_id) + "=" + v.id);
        env.push_back(std::string(protocol::env_plain) + "=" + (input.plain ? "1" : "0"));
    }
    return env;
}

// ---- per-vector mode --------------------------------------------------------------------------

class per_vector_session : public encoder_session {
public:
    per_vector_session(std::vector<std::string> argv, process_limits limits, wire_notation notation)
        : argv_(std::move(argv)), limits_(limits), notation_(notation) {}

    encode_outcome encode(const test_vector& v) override {
        encode_outcome o;
        const auto t0 = clock_type::now();
        const auto deadline = t0 + std::chrono::duration_cast<clock_type::duration>(
                                       std::chrono::duration<double>(limits_.timeout_seconds));
        child c;
        std::string error;
        const wire_input in = input_for(v, notation_);
        if (!c.start(argv_, environment_for(v, process_mode::per_vector, notation_, in), error)) {
            o.what = encode_outcome::kind::harness_error;
            o.message = error;
            return o;
        }
        std::size_t written = 0;
        pump_end end = pump(c, in.text, written, true, o.bytes, o.stderr_text, limits_.max_output, limits_.max_stderr,
                            deadline, [](const std::vector<std::uint8_t>&) { return false; });
        if (end == pump_end::stdout_closed && !wait_draining_stderr(c, o.stderr_text, limits_.max_stderr, deadline)) {
            end = pump_end::timeout;
        }
        if (end == pump_end::stdout_closed) c.wait_exit(deadline);  // kills what it left in its group
        drain_stderr(c, o.stderr_text, limits_.max_stderr);
        if (end == pump_end::timeout) {
            c.kill_and_reap();
            o.what = encode_outcome::kind::timed_out;
            o.message = "no exit within " + format_seconds(limits_.timeout_seconds) + "; the process group was killed";
        } else if (end == pump_end::output_limit) {
            c.kill_and_reap();
            o.what = encode_outcome::kind::output_limit;
            o.message =
                "more than " + std::to_string(limits_.max_output) + " bytes on stdout; the process group was killed";
        } else if (end == pump_end::failed) {
            c.kill_and_reap();
            o.what = encode_outcome::kind::harness_error;
            o.message = std::string("poll failed: ") + std::strerror(errno);
        } else {
            describe_exit(c.status(), o);
            if (o.signal != 0) {
                o.what = encode_outcome::kind::crashed;
                o.message = "killed by " + signal_text(o.signal);
            } else if (o.exit_status == 0) {
                o.what = encode_outcome::kind::output;
            } else if (o.exit_status == protocol::exit_unsupported) {
                o.what = encode_outcome::kind::unsupported;
                o.message = first_line(o.stderr_text);
            } else if (o.exit_status == protocol::exit_refused) {
                o.what = encode_outcome::kind::refused;
                o.message = first_line(o.stderr_text);
                if (o.message.empty()) o.message = "exit status 65, nothing on stderr";
            } else if (o.exit_status > 128 && o.exit_status < 160) {
                // A shell between the runner and the encoder reports a signal as 128+N.
                o.what = encode_outcome::kind::crashed;
                o.message = "exit status " + std::to_string(o.exit_status) + " (a shell's report of " +
                            signal_text(o.exit_status - 128) + ")";
            } else {
                // Not an answer: an encoder that dies of an error (an uncaught exception exits
                // 1 in most languages) has not refused anything.
                o.what = encode_outcome::kind::crashed;
                o.message = "exit status " + std::to_string(o.exit_status) +
                            ", which is no answer (a refusal exits 65, unsupported 77)";
                if (const std::string why = first_line(o.stderr_text); !why.empty()) o.message += ": " + why;
            }
        }
        o.seconds = seconds_since(t0);
        return o;
    }

    static std::string first_line(const std::string& s) {
        std::size_t b = 0;
        while (b < s.size() && (s[b] == '\n' || s[b] == '\r' || s[b] == ' ')) ++b;
        const std::size_t e = s.find('\n', b);
        return s.substr(b, e == std::string::npos ? std::string::npos : e - b);
    }

    static std::string format_seconds(double s) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g s", s);
        return buf;
    }

private:
    std::vector<std::string> argv_;
    process_limits limits_;
    wire_notation notation_;
};

// ---- batch mode -------------------------------------------------------------------------------

class batch_session : public encoder_session {
public:
    batch_session(std::vector<std::string> argv, process_limits limits, wire_notation notation,
                  std::shared_ptr<std::atomic<bool>> answered)
        : argv_(std::move(argv)), limits_(limits), notation_(notation), answered_(std::move(answered)) {}

    encode_outcome encode(const test_vector& v) override {
        // Nothing may be waiting on stdout before a request: if something is, the vector before
        // broke the protocol, and this one starts on a fresh process.
        std::string violation;
        if (child_ && child_->fd_out() >= 0) {
            if (const std::size_t stray = unread_bytes(); stray > 0) {
                violation =
                    std::to_string(stray) + " unexpected byte(s) after the answer frame, before the next request";
                child_.reset();
            }
        }
        encode_outcome o = exchange(v);
        if (o.what == encode_outcome::kind::protocol_error && o.previous_violation == stale_answer) {
            // The answer echoed the previous request: an extra frame of the vector before, come
            // late. That vector is graded for it, and this one is asked again on a fresh process.
            violation = "an extra answer frame (sequence number " + std::to_string(seq_ - 1) +
                        " again), read before the next answer";
            child_.reset();
            o = exchange(v);
        }
        o.previous_violation = violation;
        return o;
    }

    /// Pipelined: every frame written before the answers are read, which pump() does side by
    /// side so that neither pipe fills up. Anything irregular in the window — a timeout, a crash,
    /// a wrong sequence number or status, bytes beyond the answers, stderr, an answer over
    /// --max-output — and the window's process is killed and its vectors are asked again one at
    /// a time on a fresh one, where encode() grades each exactly as it always has. A fresh
    /// process answers its first request alone, so that an encoder started in the wrong mode is
    /// still told so.
    std::vector<encode_outcome> encode_all(const std::vector<const test_vector*>& vectors) override {
        std::vector<encode_outcome> out;
        out.reserve(vectors.size());
        std::size_t k = 0;
        if (!vectors.empty() && (!child_ || !child_->running() || child_->poll_exit() || first_request_)) {
            out.push_back(encode(*vectors[0]));
            k = 1;
        }
        if (vectors.size() - k >= 2 && window(vectors, k, out)) return out;
        for (; k < vectors.size(); ++k) out.push_back(encode(*vectors[k]));
        return out;
    }

    std::string finish() override {
        if (!child_ || !child_->running()) return {};
        // End of input: a well-behaved encoder exits without writing another byte.
        child_->close_stdin();
        std::vector<std::uint8_t> rest;
        std::string err;
        std::size_t written = 0;
        const auto deadline =
            clock_type::now() + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(
                                    std::min(limits_.timeout_seconds, end_of_input_wait_seconds)));
        // As in per-vector mode, reading stops 250 ms after the exit: a descendant may hold stdout.
        pump(*child_, std::string(), written, true, rest, err, 0, limits_.max_stderr, deadline,
             [](const std::vector<std::uint8_t>&) { return false; });
        child_.reset();
        if (rest.empty()) return {};
        return "unexpected byte(s) after the answer frame, before the end of the batch";
    }

private:
    /// Marks an answer that echoed the previous request's sequence number (see encode()).
    static constexpr const char* stale_answer = "stale answer";
    /// How long an encoder may take to exit once its input has ended.
    static constexpr double end_of_input_wait_seconds = 1.0;

    /// One request and its answer, on the running process or a fresh one.
    encode_outcome exchange(const test_vector& v) {
        encode_outcome o;
        const auto t0 = clock_type::now();
        const auto deadline = t0 + std::chrono::duration_cast<clock_type::duration>(
                                       std::chrono::duration<double>(limits_.timeout_seconds));
        const wire_input sent = input_for(v, notation_);
        if (!child_ || !child_->running() || child_->poll_exit()) {
            child_ = std::make_unique<child>();
            first_request_ = true;
            seq_ = 0;
            std::string error;
            if (!child_->start(argv_, environment_for(v, process_mode::batch, notation_, sent), error)) {
                child_.reset();
                o.what = encode_outcome::kind::harness_error;
                o.message = error;
                return o;
            }
        }
        protocol::request r;
        r.id = v.id;
        r.seq = ++seq_;
        r.fmt = v.fmt;
        r.use_size = v.use_size;
        r.use_type = v.use_type;
        r.plain = sent.plain;
        r.value_text = sent.text;
        const std::string frame = protocol::encode_request(r);
        std::size_t written = 0;
        std::vector<std::uint8_t> in;
        constexpr std::size_t head = protocol::answer_head;
        std::size_t need = head;  // size_t: a length near 2^32 plus the head must not wrap
        bool too_long = false;
        auto complete = [&](const std::vector<std::uint8_t>& got) {
            if (got.size() >= head && need == head) {
                need = head + std::size_t{protocol::get_u32(got.data() + 5)};
                // Refused as soon as announced: waiting for the bytes would end in a timeout.
                too_long = need - head > limits_.max_output;
            }
            return too_long || got.size() >= need;
        };
        const pump_end end = pump(*child_, frame, written, false, in, o.stderr_text, limits_.max_output + head,
                                  limits_.max_stderr, deadline, complete);
        o.seconds = seconds_since(t0);
        const bool first = first_request_;
        first_request_ = false;
        auto fail = [&](encode_outcome::kind k, std::string message) {
            drain_stderr(*child_, o.stderr_text, limits_.max_stderr);
            child_->kill_and_reap();
            describe_exit(child_->status(), o);
            child_.reset();
            o.what = k;
            o.message = std::move(message);
            o.bytes = std::move(in);
            return o;
        };
        if (too_long) {
            return fail(encode_outcome::kind::output_limit,
                        "an answer announced as " + std::to_string(need - head) + " bytes, more than --max-output " +
                            std::to_string(limits_.max_output) + "; the process group was killed");
        }
        if (end == pump_end::timeout) {
            if (first && in.empty() && !answered_->load())
                wrong_mode("gave no byte of an answer within " +
                           per_vector_session::format_seconds(limits_.timeout_seconds));
            return fail(encode_outcome::kind::timed_out,
                        "no answer within " + per_vector_session::format_seconds(limits_.timeout_seconds) +
                            "; the process group was killed");
        }
        if (end == pump_end::output_limit) {
            return fail(encode_outcome::kind::output_limit, "an answer of more than " +
                                                                std::to_string(limits_.max_output) +
                                                                " bytes; the process group was killed");
        }
        if (end == pump_end::failed)
            return fail(encode_outcome::kind::harness_error, std::string("poll failed: ") + std::strerror(errno));
        if (end == pump_end::stdout_closed) {
            child_->wait_exit(clock_type::now() + std::chrono::milliseconds(500));
            drain_stderr(*child_, o.stderr_text, limits_.max_stderr);
            std::string how;
            const bool exited = child_->reaped() && WIFEXITED(child_->status());
            if (child_->reaped() && WIFSIGNALED(child_->status()))
                how = "killed by " + signal_text(WTERMSIG(child_->status()));
            else if (exited)
                how = "exited with status " + std::to_string(WEXITSTATUS(child_->status()));
            else
                how = "closed its stdout";
            if (first && in.empty() && exited && !answered_->load()) {
                std::string why = how + " without a byte of an answer";
                if (const std::string line = per_vector_session::first_line(o.stderr_text); !line.empty()) {
                    why += " (stderr: " + line.substr(0, 200) + ")";
                }
                wrong_mode(why);
            }
            return fail(encode_outcome::kind::crashed,
                        how + " before a complete answer (" + std::to_string(in.size()) + " of " +
                            (in.size() >= head ? std::to_string(need) : "at least " + std::to_string(head)) +
                            " bytes)");
        }
        answered_->store(true);
        const std::uint8_t status = in[0];
        if (const std::uint32_t echo = protocol::get_u32(in.data() + 1); echo != r.seq) {
            encode_outcome stale =
                fail(encode_outcome::kind::protocol_error,
                     "the answer echoes sequence number " + std::to_string(echo) + ", not " + std::to_string(r.seq));
            // Only an answer to a request this same process was sent can be stale.
            if (r.seq > 1 && echo + 1 == r.seq) stale.previous_violation = stale_answer;
            return stale;
        }
        if (in.size() > need) {
            return fail(encode_outcome::kind::protocol_error,
                        std::to_string(in.size() - need) + " unexpected byte(s) after the answer frame");
        }
        // The payload, moved to the front in place: a second buffer would double the peak.
        in.erase(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(head));
        switch (status) {
            case protocol::status_encoded:
                o.what = encode_outcome::kind::output;
                o.bytes = std::move(in);
                return o;
            case protocol::status_refused:
                o.what = encode_outcome::kind::refused;
                o.message.assign(in.begin(), in.end());
                return o;
            case protocol::status_unsupported:
                o.what = encode_outcome::kind::unsupported;
                o.message.assign(in.begin(), in.end());
                return o;
            default:
                return fail(encode_outcome::kind::protocol_error,
                            "answer status byte " + std::to_string(status) + " is not 0, 1 or 2");
        }
    }

    /// The vectors from `from` on as one pipelined exchange; false (and no process) when
    /// anything in it was irregular, true with their outcomes appended otherwise.
    bool window(const std::vector<const test_vector*>& vectors, std::size_t from, std::vector<encode_outcome>& out) {
        if (!child_ || !child_->running() || child_->fd_out() < 0) return false;
        // Bytes already waiting are a protocol violation that encode() reports exactly.
        pollfd waiting{child_->fd_out(), POLLIN, 0};
        if (::poll(&waiting, 1, 0) != 0) return false;
        const std::size_t n = vectors.size() - from;
        std::string frames;
        for (std::size_t j = 0; j < n; ++j) {
            const test_vector& v = *vectors[from + j];
            wire_input sent = input_for(v, notation_);
            protocol::request r;
            r.id = v.id;
            r.seq = seq_ + 1 + static_cast<std::uint32_t>(j);
            r.fmt = v.fmt;
            r.use_size = v.use_size;
            r.use_type = v.use_type;
            r.plain = sent.plain;
            r.value_text = std::move(sent.text);
            protocol::append_request(frames, r);
        }
        const auto t0 = clock_type::now();
        const auto deadline = t0 + std::chrono::duration_cast<clock_type::duration>(
                                       std::chrono::duration<double>(limits_.timeout_seconds));
        constexpr std::size_t head = protocol::answer_head;
        std::size_t answers = 0;
        std::size_t parsed = 0;  // bytes of the complete answers so far
        bool irregular = false;
        auto complete = [&](const std::vector<std::uint8_t>& got) {
            while (!irregular && answers < n && got.size() >= parsed + head) {
                const std::size_t length = protocol::get_u32(got.data() + parsed + 5);
                if (length > limits_.max_output) irregular = true;
                if (irregular || got.size() < parsed + head + length) break;
                parsed += head + length;
                ++answers;
            }
            return irregular || answers == n;
        };
        std::vector<std::uint8_t> in;
        std::string err;
        std::size_t written = 0;
        const pump_end end = pump(*child_, frames, written, false, in, err, limits_.max_output + head,
                                  limits_.max_stderr, deadline, complete);
        irregular = irregular || end != pump_end::done || answers != n || in.size() != parsed || !err.empty();
        std::vector<encode_outcome> got;
        std::size_t at = 0;
        for (std::size_t j = 0; j < n && !irregular; ++j) {
            const std::uint8_t status = in[at];
            const std::uint32_t echo = protocol::get_u32(in.data() + at + 1);
            const std::size_t length = protocol::get_u32(in.data() + at + 5);
            const auto payload = in.begin() + static_cast<std::ptrdiff_t>(at + head);
            at += head + length;
            encode_outcome o;
            o.seconds = seconds_since(t0) / static_cast<double>(n);
            const bool known = status == protocol::status_encoded || status == protocol::status_refused ||
                               status == protocol::status_unsupported;
            if (echo != seq_ + 1 + j || !known) {
                irregular = true;
            } else if (status == protocol::status_encoded) {
                o.what = encode_outcome::kind::output;
                o.bytes.assign(payload, payload + static_cast<std::ptrdiff_t>(length));
            } else {
                o.what = status == protocol::status_refused ? encode_outcome::kind::refused
                                                            : encode_outcome::kind::unsupported;
                o.message.assign(payload, payload + static_cast<std::ptrdiff_t>(length));
            }
            got.push_back(std::move(o));
        }
        if (irregular) {
            child_->kill_and_reap();
            child_.reset();
            return false;
        }
        seq_ += static_cast<std::uint32_t>(n);
        answered_->store(true);
        for (encode_outcome& o : got) out.push_back(std::move(o));
        return true;
    }

    /// Bytes waiting on stdout right now (read and dropped), without waiting for more.
    std::size_t unread_bytes() {
        std::size_t n = 0;
        char buf[4096];
        for (;;) {
            const ssize_t k = ::read(child_->fd_out(), buf, sizeof buf);
            if (k <= 0) return n;
            n += static_cast<std::size_t>(k);
            if (n > limits_.max_output) return n;
        }
    }

    /// The very first request of the run got nothing at all: most likely an encoder that
    /// reads its input to end of file, as per-vector mode wants, and waits for it forever.
    [[noreturn]] void wrong_mode(const std::string& what) {
        child_.reset();
        throw run_stopped("in batch mode the encoder " + what +
                          " to its first request; a per-vector encoder reads its input to end of file and never "
                          "answers a frame: did you mean --mode per-vector?");
    }

    std::vector<std::string> argv_;
    process_limits limits_;
    wire_notation notation_;
    std::unique_ptr<child> child_;
    bool first_request_ = true;
    std::uint32_t seq_ = 0;                        // requests sent to the running process
    std::shared_ptr<std::atomic<bool>> answered_;  // any session of the run has answered a frame
};

class process_factory : public encoder_factory {
public:
    process_factory(std::string command, process_mode mode, process_limits limits, wire_notation notation)
        : command_(std::move(command)),
          argv_(split_command(command_)),
          mode_(mode),
          limits_(limits),
          notation_(notation) {
        prepare_runner_once();
    }
    std::string describe() const override {
        return command_ + (mode_ == process_mode::batch ? " (batch mode" : " (per-vector mode") +
               (notation_ == wire_notation::json           ? ", JSON notation)"
                : notation_ == wire_notation::json_decimal ? ", JSON notation, decimal doubles)"
                                                           : ")");
    }
    std::unique_ptr<encoder_session> open() override {
        if (mode_ == process_mode::batch) return std::make_unique<batch_session>(argv_, limits_, notation_, answered_);
        return std::make_unique<per_vector_session>(argv_, limits_, notation_);
    }

private:
    std::shared_ptr<std::atomic<bool>> answered_ = std::make_shared<std::atomic<bool>>(false);
    std::string command_;
    std::vector<std::string> argv_;
    process_mode mode_;
    process_limits limits_;
    wire_notation notation_;
};

}  // namespace

std::vector<std::string> split_command(const std::string& command) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (quote == '\'') {
            if (c == '\'')
                quote = 0;
            else
                word += c;
            continue;
        }
        if (quote == '"') {
            if (c == '"') {
                quote = 0;
            } else if (c == '\\' && i + 1 < command.size() &&
                       (command[i + 1] == '"' || command[i + 1] == '\\' || command[i + 1] == '$' ||
                        command[i + 1] == '`')) {
                word += command[++i];
            } else {
                word += c;
            }
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) {
                words.push_back(std::move(word));
                word.clear();
                in_word = false;
            }
            continue;
        }
        in_word = true;
        if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '\\' && i + 1 < command.size()) {
            word += command[++i];
        } else {
            word += c;
        }
    }
    if (quote != 0) throw std::invalid_argument("unterminated quote in the encoder command");
    if (in_word) words.push_back(std::move(word));
    if (words.empty()) throw std::invalid_argument("the encoder command is empty");
    return words;
}

std::unique_ptr<encoder_factory> make_process_factory(const std::string& command, process_mode mode,
                                                      const process_limits& limits, wire_notation notation) {
    return std::make_unique<process_factory>(command, mode, limits, notation);
}

}  // namespace sinkcheck::conform
