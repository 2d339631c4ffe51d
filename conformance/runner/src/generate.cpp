// `sinkcheck conform --generate N` (run.hpp): generated values against any encoder, with shrinking.
//
// Each value is built by the test kit's value builder (value_from_bytes.hpp) from choice bytes
// drawn from a stream keyed by (seed, value index, attempt), so a seed gives the same values
// whatever N is. A value goes through its wire notation and back (what the protocols carry is
// exactly what is graded), the reference encoder gives the expected bytes or the refusal, and
// the value is sent and classified as a corpus vector is. A failure is shrunk on its choice
// bytes, as Hypothesis does: delete chunks, zero and lower bytes, keep a candidate when it is
// smaller (shorter, then lexicographically) and still fails in the same class.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

#include "choice_stream.hpp"
#include "sinkcheck/conform/canonical.hpp"
#include "sinkcheck/conform/run.hpp"
#include "sinkcheck/encode.hpp"
#include "sinkcheck/error.hpp"

#include "sinkcheck/testkit/byte_choices.hpp"
#include "sinkcheck/testkit/value_from_bytes.hpp"
#include "sinkcheck/testkit/value_shrink.hpp"

namespace sinkcheck::conform {

namespace {

using bytes = std::vector<std::uint8_t>;

/// Failing values of each class whose results are kept for the reports (the first by index),
/// besides the smallest ones shrinking starts from; every other value is only counted
/// (run_summary::unlisted), so memory grows with the classes, not with --generate N.
constexpr std::size_t kept_per_class = 16;
/// Seconds between two progress lines on a terminal.
constexpr double progress_interval = 0.5;
/// Default profile: draws of one value before the format is declared unable to hold any.
constexpr std::uint64_t max_attempts = 1000;
/// Failing values shrunk per class; the smallest result represents the class.
constexpr std::size_t shrunk_per_class = 3;
/// Default profile nesting: deep enough for every length class of a container head, shallow
/// enough for an encoder that recurses (Python's default limit is 1000 frames).
constexpr std::size_t plain_max_depth = 256;

using detail::choice_stream;

/// A value's choices: the bytes the builder reads, and the encoder options (UBJSON, BJData).
struct choices {
    bytes data;
    encode_options options;
};

choices draw(format f, std::uint64_t seed, std::uint64_t index, std::uint64_t attempt) {
    choice_stream s{seed};
    s.state = s.next() ^ index;
    s.state = s.next() ^ attempt;
    choices c;
    const encode_options o = fuzz::options_from_bits(static_cast<std::uint8_t>(s.next()));
    if (takes_container_shape(f)) {
        c.options.use_size = o.use_size;
        c.options.use_type = o.use_type;
    }
    // 16 to 1,024 bytes: small values often, up to the builder's node limit now and then
    const std::size_t n = 1 + static_cast<std::size_t>(s.next() % (std::uint64_t{16} << (s.next() % 7)));
    c.data.resize(n);
    for (std::uint8_t& b : c.data) b = static_cast<std::uint8_t>(s.next() >> 56);
    return c;
}

bool shortlex_less(const bytes& a, const bytes& b) {
    if (a.size() != b.size()) return a.size() < b.size();
    return a < b;
}

const char* profile_name(bool hostile) { return hostile ? "hostile" : "default"; }

class generator {
public:
    explicit generator(const conform_options& o) : o_(o) {
        if (!o.generate.hostile) {
            limits_.hostile = false;
            limits_.max_depth = plain_max_depth;
        }
    }

    /// The vector the choices describe, or nothing when the default profile has no place for
    /// it (the reference refuses the value: the format cannot hold it).
    std::optional<test_vector> make(const choices& c, std::uint64_t index) const {
        testkit::byte_choices in(c.data.data(), c.data.size());
        nlohmann::json built = fuzz::value_from_bytes<nlohmann::json>(in, limits_);
        if (!o_.generate.hostile && describe(o_.fmt).root_object && !built.is_object()) {
            // A BSON document is an object: any other value goes in as its one member, rather
            // than being drawn again (two thirds of all values would be).
            built = nlohmann::json{{"v", std::move(built)}};
        }
        return make_from(std::move(built), c.options, index);
    }

    /// The vector of a value given as it is (the value shrinker's candidates), or nothing as
    /// make() gives nothing.
    std::optional<test_vector> make_from(nlohmann::json built, const encode_options& options,
                                         std::uint64_t index) const {
        test_vector v;
        // What the protocols carry is what is graded: the value as read back from its notation
        // (rendered_value gives what parse_value would, without reading the text again).
        v.input = rendered_value(std::move(built));
        v.input_text = v.input.wire;
        v.fmt = o_.fmt;
        v.use_size = options.use_size;
        v.use_type = options.use_type;
        v.source = "the reference encoder's bytes";
        try {
            v.expect = encode_to_vector(o_.fmt, v.input.value, options);
            v.levels = level_exact;
            // The canonical model costs as much as the encoding: only where it grades or is saved.
            const bool canonical_wanted = o_.level == run_level::canonical || !o_.generate.save.empty();
            if (const auto canonical = canonical_wanted ? canonical_bytes(o_.fmt, v.input.value, v.expect)
                                                        : std::optional<std::vector<std::uint8_t>>()) {
                if (*canonical == v.expect) {
                    v.levels |= level_canonical;
                } else if (o_.level == run_level::canonical) {
                    // graded by the model's bytes, a corpus "/canonical" vector's way
                    v.expect = *canonical;
                    v.levels = level_canonical;
                    v.source = "RFC 8949 §4.2.1, §4.2.2 (core deterministic encoding)";
                }
            }
        } catch (const encode_error& e) {
            if (!o_.generate.hostile) return std::nullopt;
            v.error = std::string(e.category()) + "." + std::to_string(e.id());
            v.source = "the reference encoder's refusal";
        }
        if ((v.levels & level_exact) != 0 || v.negative()) {
            if (const char* d = known_divergence(o_.fmt, v.input.value, options)) v.divergence = d;
        }
        v.line = static_cast<std::size_t>(index);
        return v;
    }

    /// The id, file and rule of value index: only the values a report shows are named.
    void name(test_vector& v, std::uint64_t index) const {
        const std::string seed = std::to_string(o_.generate.seed);
        v.id = std::string(format_name(o_.fmt)) + "/generated/" + seed + "/" + std::to_string(index);
        v.file = "generated(seed=" + seed + ")";
        v.line = static_cast<std::size_t>(index);
        v.rule = std::string("generated value, ") + profile_name(o_.generate.hostile) + " profile";
    }

    /// The choices of value index in the default profile's sense: the first draw the format can hold.
    std::pair<choices, test_vector> value(std::uint64_t index, std::size_t& redrawn) const {
        for (std::uint64_t attempt = 0; attempt < max_attempts; ++attempt) {
            choices c = draw(o_.fmt, o_.generate.seed, index, attempt);
            if (std::optional<test_vector> v = make(c, index)) return {std::move(c), std::move(*v)};
            ++redrawn;
        }
        throw conform_error(std::string(format_name(o_.fmt)) + ": no value of " + std::to_string(max_attempts) +
                            " draws is one the format can hold (value " + std::to_string(index) + ", seed " +
                            std::to_string(o_.generate.seed) + ")");
    }

private:
    const conform_options& o_;
    fuzz::build_limits limits_;
};

bool failing(const vector_result& r) { return !r.success && r.verdict != result::unsupported && !r.declared; }

std::string class_of(const vector_result& r) {
    return r.difference.empty() ? std::string(result_name(r.verdict)) : r.difference;
}

/// The smallest choices found that still fail in the class, the vector and verdict they give.
struct shrunk_value {
    choices c;
    test_vector vector;
    vector_result result;
    std::size_t steps = 0;
    bool exhausted = false;
    bool edited = false;  // the value was shrunk past what its choices build (value_shrink.hpp)
};

/// The smaller of two shrunk values: the shorter notation (what a reader sees), then the
/// smaller choices. Choices alone can mislead: six bytes give a BJData ND-array object where
/// three give the integer inside it.
bool smaller_value(const shrunk_value& a, const shrunk_value& b) {
    if (a.vector.input_text.size() != b.vector.input_text.size())
        return a.vector.input_text.size() < b.vector.input_text.size();
    return shortlex_less(a.c.data, b.c.data);
}

class shrinker {
public:
    shrinker(const generator& g, encoder_session& session, const conform_options& o, std::uint64_t index,
             std::string cls)
        : g_(g), session_(session), o_(o), index_(index), class_(std::move(cls)) {}

    shrunk_value run(shrunk_value best) {
        best_ = std::move(best);
        bool progress = true;
        while (progress && !out_of_steps()) {
            progress = delete_chunks();
            progress = zero_chunks() || progress;
            progress = lower_bytes() || progress;
        }
        while (!out_of_steps() && edit_value()) {}
        best_.steps = steps_;
        best_.exhausted = out_of_steps();
        return std::move(best_);
    }

private:
    bool out_of_steps() const { return steps_ >= o_.generate.shrink_steps; }

    /// Tries a candidate; keeps it when it is smaller and fails in the same class.
    bool attempt(bytes data) {
        if (out_of_steps() || !shortlex_less(data, best_.c.data)) return false;
        ++steps_;
        choices c{std::move(data), best_.c.options};
        std::optional<test_vector> v = g_.make(c, index_);
        if (!v) return false;
        vector_result r = classify(*v, o_.level, o_.declared, send_vector(session_, *v));
        if (!failing(r) || class_of(r) != class_) return false;
        best_.c = std::move(c);
        best_.vector = std::move(*v);
        best_.result = std::move(r);
        return true;
    }

    /// One value-level edit (value_shrink.hpp) that keeps the failure and its class and makes
    /// the value smaller; false when none does.
    bool edit_value() {
        const nlohmann::json current = best_.vector.input.value;
        const testkit::value_cost current_cost = testkit::cost_of(current);
        const std::size_t current_text = best_.vector.input_text.size();
        return testkit::for_each_value_candidate(
                   current,
                   [&](const nlohmann::json& candidate) {
                       if (out_of_steps()) return true;  // stops the walk; the caller sees out_of_steps()
                       const testkit::value_cost cost = testkit::cost_of(candidate);
                       if (current_cost < cost ||
                           (cost == current_cost && render_value(candidate).size() >= current_text)) {
                           return false;
                       }
                       ++steps_;
                       std::optional<test_vector> v = g_.make_from(candidate, best_.c.options, index_);
                       if (!v) return false;
                       vector_result r = classify(*v, o_.level, o_.declared, send_vector(session_, *v));
                       if (!failing(r) || class_of(r) != class_) return false;
                       best_.vector = std::move(*v);
                       best_.result = std::move(r);
                       best_.edited = true;
                       return true;
                   }) &&
               !out_of_steps();
    }

    bool delete_chunks() {
        bool any = false;
        std::size_t k = 1;
        while (k * 2 <= best_.c.data.size()) k *= 2;
        for (; k >= 1 && !out_of_steps(); k /= 2) {
            // from the end: the builder reads its operations from there
            std::size_t end = best_.c.data.size();
            while (end >= k && !out_of_steps()) {
                bytes d = best_.c.data;
                d.erase(d.begin() + static_cast<std::ptrdiff_t>(end - k), d.begin() + static_cast<std::ptrdiff_t>(end));
                if (attempt(std::move(d))) {
                    any = true;
                    end = std::min(end, best_.c.data.size());
                } else {
                    end -= 1;
                    if (k > 1) end = end >= k - 1 ? end - (k - 1) : 0;
                }
            }
        }
        return any;
    }

    bool zero_chunks() {
        bool any = false;
        for (const std::size_t k : {std::size_t{8}, std::size_t{4}, std::size_t{2}}) {
            for (std::size_t i = 0; i + k <= best_.c.data.size() && !out_of_steps(); i += k) {
                bytes d = best_.c.data;
                if (std::all_of(d.begin() + static_cast<std::ptrdiff_t>(i),
                                d.begin() + static_cast<std::ptrdiff_t>(i + k), [](std::uint8_t b) { return b == 0; }))
                    continue;
                std::fill(d.begin() + static_cast<std::ptrdiff_t>(i), d.begin() + static_cast<std::ptrdiff_t>(i + k),
                          0);
                any = attempt(std::move(d)) || any;
            }
        }
        return any;
    }

    /// Each byte as low as it goes: a binary search between 0 and its value, as if the
    /// smaller values that still fail were all below the ones that do not.
    bool lower_bytes() {
        bool any = false;
        for (std::size_t i = 0; i < best_.c.data.size() && !out_of_steps(); ++i) {
            unsigned fails = best_.c.data[i];  // the lowest value known to fail
            unsigned passes = 0;               // below it, one tried that did not (or 0 untried)
            bool zero_tried = false;
            while (fails > passes + (zero_tried ? 1u : 0u) && !out_of_steps()) {
                const unsigned v = zero_tried ? passes + (fails - passes) / 2 : 0u;
                bytes d = best_.c.data;
                d[i] = static_cast<std::uint8_t>(v);
                if (attempt(std::move(d))) {
                    fails = v;
                    any = true;
                } else {
                    passes = v;
                }
                zero_tried = true;
            }
        }
        return any;
    }

    const generator& g_;
    encoder_session& session_;
    const conform_options& o_;
    std::uint64_t index_;
    std::string class_;
    shrunk_value best_;
    std::size_t steps_ = 0;
};

/// A graded value that is kept for the report only: what reports show of it. A pass shows
/// its id alone; anything else an excerpt of its input and both byte strings.
void lighten(test_vector& v, vector_result& r) {
    v.input = parsed_value();
    if (r.verdict == result::pass) {
        v.input_text = std::string();
        v.expect = bytes();
        r.actual = bytes();
    } else if (v.input_text.size() > 201) {
        v.input_text.resize(201);
        v.input_text.shrink_to_fit();
    }
}

void progress(const run_summary& s, std::uint64_t done, std::uint64_t total, std::size_t failures, double seconds) {
    if (::isatty(STDERR_FILENO) == 0) return;
    const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
    const double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0.0;
    std::fprintf(stderr, "\rsinkcheck conform: %s, %llu/%llu values, %.0f values/s, ETA %.0f s, %zu failing ",
                 format_name(s.options.fmt).data(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total), rate, eta, failures);
    if (done == total) std::fputs("\n", stderr);
    std::fflush(stderr);
}

void save_findings(const run_summary& s, const std::string& path) {
    const generate_options& g = s.options.generate;
    std::string out = "# sinkcheck conform --generate " + std::to_string(g.count) + " --seed " +
                      std::to_string(g.seed) + " --profile " + profile_name(g.hostile) + " --format " +
                      std::string(format_name(s.options.fmt)) + " --level " + level_name(s.options.level) +
                      "\n# encoder: " + s.encoder_description +
                      "\n# one vector per class of failure: the smallest failing value after shrinking\n";
    for (const finding& f : s.generation.findings) {
        const vector_result& r = s.results[f.representative];
        const test_vector& v = *r.vector;
        out += "\nid: " + v.id + "\ninput: " + v.input_text + "\n";
        if (v.use_size || v.use_type)
            out += std::string("options:") + (v.use_size ? " use_size" : "") + (v.use_type ? " use_type" : "") + "\n";
        if (v.negative()) {
            out += "error: " + v.error + "\n";
        } else {
            out += "level:";
            for (const char* name : level_names(v.levels)) out += std::string(" ") + name;
            out += "\nexpect: " + compact_hex(v.expect) + "\n";
        }
        std::string rule = printable(f.difference) + " in " + printable(s.encoder_description) + " (" +
                           std::to_string(f.values) + " generated values failed this way; this one shrunk from " +
                           std::to_string(f.original_bytes) + " to " + std::to_string(f.shrunk_bytes) +
                           " choice bytes in " + std::to_string(f.steps) + " steps)";
        std::replace(rule.begin(), rule.end(), '\n', ' ');  // one line per field
        out += "rule: " + rule + "\n";
        out += "source: " + v.source + ", " + v.rule + "\n";
        if (!v.divergence.empty()) out += "divergence: " + v.divergence + "\n";
    }
    std::ofstream file(path, std::ios::binary);
    file << out;
    file.close();
    if (!file) throw conform_error(path + ": cannot write the findings");
    std::fprintf(stderr, "%s: %zu findings saved as vectors\n", path.c_str(), s.generation.findings.size());
}

}  // namespace

namespace {

/// Values a worker builds and sends at a time: a batch process gets them as one pipelined
/// exchange (encoder_session::encode_all), one round trip instead of 32.
constexpr std::uint64_t window_values = 32;

/// encode_all, with an exception of the runner's own a harness error of every vector.
std::vector<encode_outcome> send_all(encoder_session& session, const std::vector<const test_vector*>& vectors) {
    try {
        return session.encode_all(vectors);
    } catch (const run_stopped&) {
        throw;
    } catch (const std::exception& e) {
        std::vector<encode_outcome> out(vectors.size());
        for (encode_outcome& o : out) {
            o.what = encode_outcome::kind::harness_error;
            o.message = std::string("the runner failed: ") + e.what();
        }
        return out;
    }
}

/// One graded value on its way to the summary.
struct graded_value {
    std::uint64_t index = 0;
    std::size_t choice_bytes = 0;
    test_vector vector;
    vector_result result;
};

/// What the run keeps of one class of failure while the values stream past.
struct class_record {
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();  // the classes' order
    std::size_t values = 0;
    std::set<std::uint64_t> earliest;                          // the first kept_per_class indices
    std::set<std::pair<std::size_t, std::uint64_t>> smallest;  // (choice bytes, index): shrinking's start
};

/// The summary as values arrive from the workers, in any order: every value is counted, and
/// only what the reports detail is kept. What is kept depends only on the values, not on the
/// order they arrive in, so a seed gives the same report with any --jobs.
class collector {
public:
    collector(run_summary& s, const generator& gen) : s_(s), gen_(gen) {}

    void add(graded_value g) {
        const bool fails = failing(g.result);
        if (!fails && g.result.verdict != result::unsupported) {
            s_.unlisted.add(g.result);
            return;
        }
        if (fails) ++failures_;
        class_record& c = classes_[fails ? class_of(g.result) : std::string(result_name(result::unsupported))];
        ++c.values;
        c.first = std::min(c.first, g.index);
        const std::uint64_t i = g.index;
        c.earliest.insert(i);
        std::vector<std::uint64_t> dropped;
        if (c.earliest.size() > kept_per_class) {
            dropped.push_back(*c.earliest.rbegin());
            c.earliest.erase(std::prev(c.earliest.end()));
        }
        if (fails) {
            c.smallest.emplace(g.choice_bytes, i);
            if (c.smallest.size() > shrunk_per_class) {
                dropped.push_back(std::prev(c.smallest.end())->second);
                c.smallest.erase(std::prev(c.smallest.end()));
            }
        }
        const auto held = [&c](std::uint64_t k) {
            return c.earliest.count(k) != 0 ||
                   std::any_of(c.smallest.begin(), c.smallest.end(), [k](const auto& e) { return e.second == k; });
        };
        if (held(i)) {
            gen_.name(g.vector, i);
            lighten(g.vector, g.result);
            kept_.emplace(i, std::move(g));
        } else {
            s_.unlisted.add(g.result);
        }
        for (const std::uint64_t k : dropped) {
            if (k == i || held(k)) continue;
            const auto it = kept_.find(k);
            if (it == kept_.end()) continue;
            s_.unlisted.add(it->second.result);
            kept_.erase(it);
        }
    }

    std::size_t failures() const noexcept { return failures_; }
    std::map<std::string, class_record>& classes() { return classes_; }
    std::map<std::uint64_t, graded_value>& kept() { return kept_; }

private:
    run_summary& s_;
    const generator& gen_;
    std::map<std::string, class_record> classes_;  // failing classes, and "unsupported"
    std::map<std::uint64_t, graded_value> kept_;
    std::size_t failures_ = 0;
};

}  // namespace

run_summary run_generated(const conform_options& options, encoder_factory& factory) {
    run_summary s;
    s.options = options;
    s.encoder_description = factory.describe();
    s.generation.active = true;
    const generate_options& g = options.generate;
    s.corpus = std::to_string(g.count) + " generated values, seed " + std::to_string(g.seed) + ", profile " +
               profile_name(g.hostile);
    if (options.level == run_level::canonical && !has_canonical_encoding(options.fmt)) {
        throw conform_error(std::string(format_name(options.fmt)) +
                            " defines no canonical encoding; use --level exact or --level equivalent");
    }
    // This shard's values: global indices shard_index, shard_index + shard_count, ...
    const std::uint64_t shards = g.shard_count;
    const std::uint64_t values = g.count > g.shard_index ? (g.count - g.shard_index + shards - 1) / shards : 0;
    if (values == 0) {
        throw conform_error("--shard " + std::to_string(g.shard_index + 1) + "/" + std::to_string(shards) +
                            " has no value of --generate " + std::to_string(g.count));
    }
    if (shards > 1) {
        s.corpus += ", shard " + std::to_string(g.shard_index + 1) + "/" + std::to_string(shards) + " (" +
                    std::to_string(values) + " values)";
    }
    const auto global = [&](std::uint64_t k) { return k * shards + g.shard_index; };
    const generator gen(options);
    const auto t0 = std::chrono::steady_clock::now();
    collector kept(s, gen);

    // Each worker owns a session of the encoder for the whole run (a batch process is started
    // once, not once per value), builds the values it takes, grades them, and asks a failing
    // one again through a second session of its own.
    std::atomic<std::uint64_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex m;  // guards kept, s.generation's counters, the progress line and stop_message
    std::string stop_message;
    std::uint64_t done = 0;
    double last_progress = 0;
    const auto record = [&](graded_value v, std::size_t redrawn, bool nondeterministic) {
        const std::lock_guard<std::mutex> lock(m);
        s.generation.redrawn += redrawn;
        if (nondeterministic) ++s.nondeterministic;
        kept.add(std::move(v));
        ++done;
        const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (now - last_progress >= progress_interval || done == values) {
            last_progress = now;
            progress(s, done, values, kept.failures(), now);
        }
    };
    const auto work = [&]() {
        try {
            std::unique_ptr<encoder_session> session = factory.open();
            std::unique_ptr<encoder_session> again;
            // The session's last value waits for the next answer: a batch encoder's extra frame
            // after its answer shows only then, and is that value's failure.
            std::optional<graded_value> previous;
            std::size_t previous_redrawn = 0;
            bool previous_nondeterministic = false;
            const auto settle = [&](const std::string& violation) {
                if (!previous) return;
                if (!violation.empty()) {
                    encode_outcome late;
                    late.what = encode_outcome::kind::protocol_error;
                    late.message = violation;
                    previous->result = classify(previous->vector, options.level, options.declared, late);
                }
                record(std::move(*previous), previous_redrawn, previous_nondeterministic);
                previous.reset();
            };
            while (!stop.load()) {
                const std::uint64_t start = next.fetch_add(window_values);
                if (start >= values) break;
                const std::uint64_t end = std::min<std::uint64_t>(values, start + window_values);
                std::vector<graded_value> built;
                std::vector<std::size_t> redraws;
                built.reserve(static_cast<std::size_t>(end - start));
                for (std::uint64_t k = start; k < end; ++k) {
                    const std::uint64_t i = global(k);
                    std::size_t redrawn = 0;
                    auto [c, v] = gen.value(i, redrawn);
                    built.push_back(graded_value{i, c.data.size(), std::move(v), vector_result()});
                    redraws.push_back(redrawn);
                }
                std::vector<const test_vector*> sent;
                sent.reserve(built.size());
                for (const graded_value& b : built) sent.push_back(&b.vector);
                std::vector<encode_outcome> outcomes = send_all(*session, sent);
                for (std::size_t j = 0; j < built.size(); ++j) {
                    settle(outcomes[j].previous_violation);
                    vector_result r = classify(built[j].vector, options.level, options.declared, outcomes[j]);
                    bool nondeterministic = false;
                    if (worth_asking_again(r)) {
                        if (!again) again = factory.open();
                        nondeterministic = ask_again(*again, built[j].vector, options.level, options.declared, r);
                    }
                    built[j].result = std::move(r);
                    previous = std::move(built[j]);
                    previous_redrawn = redraws[j];
                    previous_nondeterministic = nondeterministic;
                }
            }
            settle(session->finish());
            if (again) again->finish();
        } catch (const run_stopped& e) {
            const std::lock_guard<std::mutex> lock(m);
            if (!stop.exchange(true)) stop_message = e.what();
        } catch (const conform_error& e) {
            const std::lock_guard<std::mutex> lock(m);
            if (!stop.exchange(true)) stop_message = e.what();
        }
    };
    const unsigned jobs = std::max(1u, static_cast<unsigned>(std::min<std::uint64_t>(options.jobs, values)));
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
    if (stop.load()) throw conform_error(stop_message);
    s.encode_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    warn_nondeterministic(s);

    // Shrink the smallest few of each class, in the order the classes first appeared; the
    // smallest result represents the class.
    const auto t1 = std::chrono::steady_clock::now();
    conform_options no_shrinking = options;
    no_shrinking.generate.shrink_steps = 0;
    std::vector<std::pair<std::uint64_t, std::string>> class_order;
    for (const auto& [cls, c] : kept.classes()) {
        if (cls != result_name(result::unsupported)) class_order.emplace_back(c.first, cls);
    }
    std::sort(class_order.begin(), class_order.end());
    std::vector<std::uint64_t> representatives;
    auto& held = kept.kept();
    if (!class_order.empty()) {
        std::unique_ptr<encoder_session> session = factory.open();
        for (const auto& [first, cls] : class_order) {
            const class_record& c = kept.classes()[cls];
            std::optional<shrunk_value> best;
            std::uint64_t best_index = 0;
            finding f;
            f.difference = cls;
            f.values = c.values;
            for (const auto& [choice_bytes, i] : c.smallest) {
                shrunk_value start;
                std::size_t ignored = 0;
                std::tie(start.c, start.vector) = gen.value(i, ignored);
                start.result = held.at(i).result;
                shrunk_value shrunk;
                try {
                    // every candidate of a hanging encoder can take --timeout: not shrunk
                    shrunk =
                        shrinker(gen, *session,
                                 cls == result_name(result::timeout) || cls == nondeterministic_class ? no_shrinking
                                                                                                      : options,
                                 i, cls)
                            .run(std::move(start));
                } catch (const run_stopped& e) {
                    throw conform_error(e.what());
                }
                ++f.shrunk;
                if (!best || smaller_value(shrunk, *best)) {
                    best_index = i;
                    f.steps = shrunk.steps;
                    f.steps_exhausted = shrunk.exhausted;
                    f.original_bytes = choice_bytes;
                    f.shrunk_bytes = shrunk.c.data.size();
                    best = std::move(shrunk);
                }
            }
            // The representative's row shows the shrunk value; the others kept name it.
            graded_value& rep = held.at(best_index);
            gen.name(best->vector, best_index);
            vector_result& r = best->result;
            r.detail = "shrunk from " + std::to_string(f.original_bytes) + " to " + std::to_string(f.shrunk_bytes) +
                       " choice bytes in " + std::to_string(f.steps) + " steps" +
                       (best->edited ? ", then edited as a value" : "") +
                       (f.steps_exhausted ? " (stopped at --shrink-steps)" : "") + "; " + r.detail;
            rep.vector = std::move(best->vector);
            rep.result = std::move(r);
            for (auto& [i, kv] : held) {
                if (i != best_index && failing(kv.result) && class_of(kv.result) == cls)
                    kv.result.detail += "; class '" + cls + "', shrunk as " + rep.vector.id;
            }
            representatives.push_back(best_index);
            s.generation.findings.push_back(f);
        }
        session->finish();
    }
    s.generation.shrink_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();

    // The kept values in index order; the findings point at their representatives' rows.
    std::map<std::uint64_t, std::size_t> row;
    for (auto& [i, kv] : held) {
        row[i] = s.results.size();
        s.vectors.push_back(std::move(kv.vector));
        s.results.push_back(std::move(kv.result));
    }
    for (std::size_t k = 0; k < s.results.size(); ++k) s.results[k].vector = &s.vectors[k];
    for (std::size_t k = 0; k < representatives.size(); ++k) {
        s.generation.findings[k].representative = row.at(representatives[k]);
    }
    count_results(s);
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!g.save.empty()) save_findings(s, g.save);
    return s;
}

}  // namespace sinkcheck::conform
