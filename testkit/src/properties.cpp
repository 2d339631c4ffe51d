// properties.cpp — the properties of the test kit (sinkcheck/testkit/properties.hpp), compiled
// once in the kit's library sinkcheck::testkit_properties: they take the sink as a sut_entry,
// so nothing in them depends on the sink's type, and a check or a property test compiles only
// the entries of its own sinks.
#include "sinkcheck/testkit/properties.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <rapidcheck.h>

namespace sinkcheck::testkit {

template rc::Gen<nlohmann::json> json_value<nlohmann::json>(const value_profile&);

const sut_entry& baseline_entry() {
    static const sut_entry e = entry<baseline_sink>();
    return e;
}

void all_sinks_write_identical_bytes(const std::vector<sut_entry>& suts) {
    const auto j = *json_value<json>(sink_profile());
    const shape sh = *shape_gen();
    const sut_entry& baseline = suts.front();
    for (format f : all_formats) {
        const json doc = document_for(f, j);
        const encode_options o = options_for(f, sh);
        const run_record base = baseline.encode(f, doc, o, run_setup{});
        const std::string input(format_name(f));
        require_sound(baseline, base, run_setup{}, {baseline.name, window_of(baseline, default_window), input});
        if (f == format::cbor) {
            RC_TAG(size_class(base.model.size()));
        }
        for (const sut_entry& s : suts) {
            for (std::size_t w : windows_for(s)) {
                run_setup setup;
                setup.window = w;
                setup.span_capacity = base.model.size();
                const run_record r = s.encode(f, doc, o, setup);
                const where at{s.name, window_of(s, w), input};
                if (r.how != base.how || r.error_id != base.error_id) {
                    RC_FAIL(at.describe() + ": " + outcome_of(r) + ", but " + baseline.name + ": " + outcome_of(base));
                }
                if (s.stores && r.bytes != base.bytes) {
                    RC_FAIL(bytes_report(at.describe() + " differs from " + baseline.name, base.bytes, r.bytes, &doc, f,
                                         o));
                }
                if (r.position != base.position) {
                    RC_FAIL(at.describe() + ": position() " + std::to_string(r.position) + ", " + baseline.name + ": " +
                            std::to_string(base.position));
                }
                require_sound(s, r, setup, at);
            }
        }
    }
}

void require_kept(const verdict& v, const run_record& r, const where& w) {
    if (!v) {
        return;
    }
    // "<sink> (<input>) after <outcome>: ...", or "<sink> (<input>): ..."
    const std::string said = w.describe() + (v.text.rfind("after ", 0) == 0 ? " " : ": ") + v.text;
    if (v.bytes) {
        RC_FAIL(bytes_report(said, r.model, r.bytes, no_document, format::cbor, {}));
    }
    RC_FAIL(said);
}

void require_sound(const sut_entry& s, const run_record& r, const run_setup& setup, const where& w,
                   const std::vector<std::uint8_t>* full) {
    const judged_run run{r, setup, full};
    require_kept(judge_bytes(s, run), r, w);
    require_kept(judge_throws(s, run), r, w);
}

void trims_to_written_bytes_when_writes_throw(const std::vector<sut_entry>& suts) {
    const sut_entry& s = suts[(*sink_gen(suts)).index];
    const format f = *format_gen();
    const std::size_t w = s.windowed ? (*window_gen()).bytes : default_window;
    const bool hostile = (*decision_gen("values from the hostile profile")).yes;
    const auto j = *json_value<json>(fault_profile(hostile));
    const json doc = document_for(f, j);
    const encode_options o = options_for(f, *shape_gen());
    const where at{s.name, window_of(s, w), std::string(format_name(f))};

    run_setup setup;
    setup.window = w;
    setup.span_capacity = baseline_entry().encode(f, doc, o, run_setup{}).model.size();
    const run_record full = s.encode(f, doc, o, setup);
    RC_CLASSIFY(full.how == outcome::refused, "refused by the encoder");
    // an encoder's own refusal is a throw like any other: the completed writes, exactly
    require_sound(s, full, setup, at);
    if (full.how != outcome::completed && full.how != outcome::refused) {
        RC_FAIL(at.describe() + ": " + outcome_of(full));
    }
    if (full.how == outcome::completed && s.stores && full.bytes != encode_any_to_vector(f, doc, o)) {
        RC_FAIL(at.describe() + ": the full output differs from the encoder's");
    }

    // a throw at every write call, then at every allocation of the target, then at every one the
    // sink made through operator new, the full run made
    struct fault_kind {
        const char* name;
        const char* through;
        std::size_t count;
        std::size_t run_setup::*arm;
        outcome expected;
    };
    const fault_kind kinds[] = {
        {"write", "", full.writes.size(), &run_setup::write_fault, outcome::write_fault},
        {"allocation", "", full.allocations.size(), &run_setup::alloc_fault, outcome::alloc_fault},
        {"allocation", " through operator new", full.new_allocations.size(), &run_setup::new_fault,
         outcome::alloc_fault}};
    for (const fault_kind& kind : kinds) {
        for (std::size_t k = 1; k <= kind.count; ++k) {
            run_setup faulty = setup;
            faulty.*kind.arm = k;
            const run_record r = s.encode(f, doc, o, faulty);
            const std::string fault = std::string("a throw at ") + kind.name + " " + std::to_string(k) + kind.through;
            if (r.how != kind.expected) {
                RC_FAIL(at.describe() + " with " + fault + ": " + outcome_of(r));
            }
            require_sound(s, r, faulty, {at.sink, at.window, at.input + " with " + fault}, &full.model);
        }
    }
}

void capacity_growth_ignores_window(const std::vector<sut_entry>& suts) {
    const auto j = *json_value<json>(sink_profile());
    const shape sh = *shape_gen();
    for (format f : all_formats) {
        const json doc = document_for(f, j);
        const encode_options o = options_for(f, sh);
        std::vector<std::size_t> first;
        std::string first_name;
        for (const sut_entry& s : suts) {
            for (std::size_t w : windows_for(s)) {
                run_setup setup;
                setup.window = w;
                const run_record r = s.encode(f, doc, o, setup);
                const where at{s.name, window_of(s, w), std::string(format_name(f))};
                if (!s.growth.empty()) {
                    require_kept(judge_growth_rule(s, {r, setup}), r, at);
                }
                if (reported_capacities(r) != r.allocations) {
                    RC_FAIL(at.describe() + ": reported capacities " + list_of(reported_capacities(r)) +
                            ", allocated " + list_of(r.allocations));
                }
                if (first_name.empty()) {
                    first = r.allocations;
                    first_name = at.describe();
                } else if (r.allocations != first) {
                    RC_FAIL(at.describe() + ": capacities " + list_of(r.allocations) + ", but " + first_name + ": " +
                            list_of(first));
                }
            }
        }
    }
}

void zero_fill_stays_within_window(const std::vector<sut_entry>& suts) {
    const auto j = *json_value<json>(sink_profile());
    const shape sh = *shape_gen();
    for (format f : all_formats) {
        const json doc = document_for(f, j);
        const encode_options o = options_for(f, sh);
        for (const sut_entry& s : suts) {
            for (std::size_t w : window_sizes()) {
                if (w == unlimited_window) {
                    continue;
                }
                run_setup setup;
                setup.window = w;
                const run_record r = s.encode(f, doc, o, setup);
                require_kept(judge_zero_fill(s, {r, setup}), r, {s.name, w, std::string(format_name(f))});
            }
        }
    }
}

void chunks_double_up_to_the_cap(const sut_entry& chunked, const sut_entry& vector_like) {
    const chunk_bounds bounds = *chunk_bounds_gen();
    const std::size_t first = bounds.first;
    const std::size_t cap = bounds.cap;
    run_setup setup;
    setup.first_chunk = first;
    setup.max_chunk = cap;
    run_record r;
    run_record base;
    std::string input;
    if ((*decision_gen("a write program, not an encoding")).yes) {
        const auto prog = *write_program_gen(false, false);
        r = chunked.program(prog, setup);
        base = vector_like.program(prog, run_setup{});
        input = "a write program";
    } else {
        const auto j = *json_value<json>(sink_profile());
        const format f = *format_gen();
        const json doc = document_for(f, j);
        r = chunked.encode(f, doc, encode_options{}, setup);
        base = vector_like.encode(f, doc, encode_options{}, run_setup{});
        input = std::string(format_name(f));
    }
    const std::string at =
        chunked.name + " (first " + std::to_string(first) + ", cap " + std::to_string(cap) + ", " + input + ")";
    require_sound(
        chunked, r, setup,
        {chunked.name, none, "first " + std::to_string(first) + ", cap " + std::to_string(cap) + ", " + input});
    const auto rule = chunk_doubling::allocations(r.writes, setup);
    if (r.allocations != rule) {
        RC_FAIL(at + ": allocated chunks " + list_of(r.allocations) + ", but doubling from " + std::to_string(first) +
                " up to " + std::to_string(cap) + " gives " + list_of(rule) + " for writes " + list_of(r.writes));
    }
    if (r.chunks != rule) {
        RC_FAIL(at + ": reports chunks " + list_of(r.chunks) + ", allocated " + list_of(r.allocations));
    }
    const std::size_t n = bytes_offered(r);
    if (r.allocations.size() > chunk_bound(n, first, cap)) {
        RC_FAIL(at + ": " + std::to_string(r.allocations.size()) + " allocations for " + std::to_string(n) +
                " bytes, more than the bound " + std::to_string(chunk_bound(n, first, cap)));
    }
    if (r.bytes != base.bytes) {
        RC_FAIL(bytes_report(at + ": the concatenated chunks differ from " + vector_like.name, base.bytes, r.bytes,
                             no_document, format::cbor, {}));
    }
}

void string_leaves_short_buffer_exactly(const sut_entry& string_like) {
    const std::size_t short_capacity = traced_string().capacity();
    const std::size_t w = (*window_gen()).bytes;
    run_setup setup;
    setup.window = w;
    run_record r;
    std::string input;
    if ((*decision_gen("a write program, not an encoding")).yes) {
        const auto prog = *write_program_gen(false, false);
        r = string_like.program(prog, setup);
        input = "a write program";
    } else {
        const auto j = *json_value<json>(sink_profile());
        const format f = *format_gen();
        r = string_like.encode(f, document_for(f, j), encode_options{}, setup);
        input = std::string(format_name(f));
    }
    const where at{string_like.name, w, input};
    const std::string name = at.describe();
    require_sound(string_like, r, setup, at);
    const auto rule = string_rule(r.writes, short_capacity);
    if (r.allocations != rule) {
        RC_FAIL(name + ": allocations " + list_of(r.allocations) + ", but an exact first allocation " + "out of the " +
                std::to_string(short_capacity) + "-byte short buffer, then " + "max(needed, 2 * capacity), gives " +
                list_of(rule) + " for writes " + list_of(r.writes));
    }
}

void seekable_writer_without_seeks_equals_seekless(const sut_entry& seekable, const sut_entry& seekless) {
    const auto j = *json_value<json>(sink_profile());
    const format f = *format_gen();
    const std::size_t w = (*window_gen()).bytes;
    const json doc = document_for(f, j);
    const encode_options o = options_for(f, *shape_gen());
    run_setup setup;
    setup.window = w;
    const run_record a = seekable.encode(f, doc, o, setup);
    const run_record b = seekless.encode(f, doc, o, setup);
    const where at{seekable.name, w, std::string(format_name(f))};
    require_sound(seekable, a, setup, at);
    if (a.how != b.how || a.bytes != b.bytes) {
        RC_FAIL(bytes_report(
            at.describe() + " (" + outcome_of(a) + ") differs from " + seekless.name + " (" + outcome_of(b) + ")",
            b.bytes, a.bytes, &doc, f, o));
    }
    if (a.allocations != b.allocations) {
        RC_FAIL(at.describe() + ": capacities " + list_of(a.allocations) + ", " + seekless.name + ": " +
                list_of(b.allocations));
    }
}

void patched_bson_lengths_equal_precomputed(const sut_entry& seekable, const sut_entry& baseline) {
    const auto j = *json_value<json>(sink_profile());
    const std::size_t w = (*window_gen()).bytes;
    const json doc = document_for(format::bson, j);
    encode_options patched;
    patched.bson_patch_lengths = true;
    run_setup setup;
    setup.window = w;
    const run_record a = seekable.encode(format::bson, doc, patched, setup);
    const run_record b = baseline.encode(format::bson, doc, encode_options{}, run_setup{});
    const where at{seekable.name, w, "bson"};
    require_sound(seekable, a, setup, at);
    if (a.how != b.how || a.error_id != b.error_id) {
        RC_FAIL(at.describe() + " with patched lengths: " + outcome_of(a) +
                ", with precomputed lengths: " + outcome_of(b));
    }
    if (a.how == outcome::completed && a.bytes != b.bytes) {
        RC_FAIL(bytes_report(at.describe() + ": patched lengths differ from precomputed ones", b.bytes, a.bytes, &doc,
                             format::bson, encode_options{}));
    }
}

run_setup program_setup(const write_program& prog, std::size_t w) {
    run_setup setup;
    setup.window = w;
    std::size_t write_calls = 0;
    std::size_t total = 0;
    for (std::size_t i = 0; i < prog.ops.size(); ++i) {
        if (prog.ops[i].what != write_op::kind::seek) {
            ++write_calls;
            total += prog.ops[i].what == write_op::kind::block ? prog.ops[i].length : 1;
            if (i == prog.fault_at) {
                setup.write_fault = write_calls;
            }
        }
    }
    setup.span_capacity = total;
    return setup;
}

void write_programs_match_a_byte_array(const sut_entry& s) {
    const auto prog = *write_program_gen(s.seekable, true);
    const std::size_t w = s.windowed ? (*window_gen()).bytes : default_window;
    const run_setup setup = program_setup(prog, w);
    const run_record r = s.program(prog, setup);
    RC_CLASSIFY(setup.write_fault != 0, "with a fault");
    require_sound(s, r, setup, {s.name, window_of(s, w), "a write program"});
}

rc::Gen<std::vector<std::uint8_t>> existing_contents_gen() {
    return rc::gen::apply(
        [](std::size_t n, std::uint8_t salt) {
            std::vector<std::uint8_t> v(n);
            for (std::size_t i = 0; i < n; ++i) {
                v[i] = static_cast<std::uint8_t>(salt + 7U * i);
            }
            return v;
        },
        choice<std::size_t>({{1, one_of_values(edges_up_to(edges::as_vector(edges::lengths), 4096))},
                             {1, rc::gen::inRange<std::size_t>(1, 200)}}),
        rc::gen::arbitrary<std::uint8_t>());
}

void appends_after_existing_contents(const sut_entry& s) {
    const auto existing = *existing_contents_gen();
    const auto prog = *write_program_gen(false, true);
    const std::size_t w = s.windowed ? (*window_gen()).bytes : default_window;
    run_setup setup = program_setup(prog, w);
    setup.existing = existing;
    run_record r = s.program(prog, setup);
    RC_CLASSIFY(setup.write_fault != 0, "with a fault");
    const where at{s.name, window_of(s, w), "a write program after " + std::to_string(existing.size()) + " bytes"};
    std::vector<std::uint8_t> expected = existing;
    expected.insert(expected.end(), r.model.begin(), r.model.end());
    if (r.bytes != expected) {
        RC_FAIL(bytes_report(at.describe() + " after " + outcome_of(r) +
                                 ": the target does not hold its earlier bytes followed by the writes that returned",
                             expected, r.bytes, no_document, format::cbor, {}));
    }
    r.bytes.erase(r.bytes.begin(), r.bytes.begin() + static_cast<std::ptrdiff_t>(existing.size()));
    require_sound(s, r, setup, at);
}

void fixed_capacity_edges(const sut_entry& s) {
    const auto prog = *write_program_gen(false, false);
    const run_setup exact = program_setup(prog, default_window);
    const run_record fits = s.program(prog, exact);
    const std::string capacity = "capacity " + std::to_string(exact.span_capacity);
    require_sound(s, fits, exact, {s.name, none, "a write program of exactly its " + capacity});
    if (fits.how != outcome::completed) {
        RC_FAIL(s.name + ": a write program of exactly its " + capacity + ": " + outcome_of(fits));
    }
    if (exact.span_capacity == 0) {
        return;  // nothing to overrun
    }
    run_setup short_by_one = exact;
    --short_by_one.span_capacity;
    const run_record r = s.program(prog, short_by_one);
    const where at{s.name, none,
                   "a write program of " + std::to_string(exact.span_capacity) + " bytes into capacity " +
                       std::to_string(short_by_one.span_capacity)};
    require_kept(judge_capacity(s, {r, short_by_one}), r, at);
    if (r.how != outcome::sink_error) {
        RC_FAIL(at.describe() + ": " + outcome_of(r) + " (a full buffer throws sink_error)");
    }
    require_sound(s, r, short_by_one, at);
}

void empty_writes_change_nothing(const sut_entry& s) {
    const auto prog = *write_program_gen(false, false);
    const auto where_empty = *rc::gen::container<std::vector<bool>>(prog.ops.size() + 1, rc::gen::arbitrary<bool>());
    write_program padded;
    write_op empty;
    empty.what = write_op::kind::block;
    for (std::size_t i = 0; i <= prog.ops.size(); ++i) {
        if (where_empty[i]) {
            padded.ops.push_back(empty);
        }
        if (i < prog.ops.size()) {
            padded.ops.push_back(prog.ops[i]);
        }
    }
    const std::size_t w = s.windowed ? (*window_gen()).bytes : default_window;
    const run_setup setup = program_setup(prog, w);
    const run_record a = s.program(prog, setup);
    const run_record b = s.program(padded, setup);
    const where at{s.name, window_of(s, w), "a write program with empty writes put in"};
    require_sound(s, b, setup, at);
    const auto growths_of = [](const run_record& r) {
        std::vector<std::size_t> out;
        for (const growth_event& e : r.growths) {
            out.insert(out.end(), {e.position, e.capacity, e.ahead});
        }
        return out;
    };
    if (a.how != b.how || a.position != b.position || a.bytes != b.bytes) {
        RC_FAIL(bytes_report(at.describe() + " (" + outcome_of(b) + ", position() " + std::to_string(b.position) +
                                 ") differs from the program without them (" + outcome_of(a) + ", position() " +
                                 std::to_string(a.position) + ")",
                             a.bytes, b.bytes, no_document, format::cbor, {}));
    }
    if (a.allocations != b.allocations || a.chunks != b.chunks) {
        RC_FAIL(at.describe() + ": allocations " + list_of(b.allocations) + " and chunks " + list_of(b.chunks) +
                ", without them " + list_of(a.allocations) + " and " + list_of(a.chunks));
    }
    if (growths_of(a) != growths_of(b)) {
        RC_FAIL(at.describe() + ": growths (position, capacity, ahead) " + list_of(growths_of(b)) + ", without them " +
                list_of(growths_of(a)));
    }
}

/// failing_stream_is_reported for a sink that keeps up to s.buffers bytes before they reach its
/// stream: the failure may surface late, but the writes that returned go at most that far past the
/// first byte the stream refused, position() counts them, the error names a byte the stream did not
/// take, and the stream holds the beginning of the writes and nothing past the byte it refused.
void failure_surfaced_within_buffer(const sut_entry& s, const run_setup& setup, const run_record& r, const where& at) {
    const std::size_t written = r.model.size();
    if (written > setup.stream_limit + s.buffers) {
        RC_FAIL(at.describe() + ": the writes that returned hold " + std::to_string(written) +
                " bytes, more than the " + std::to_string(s.buffers) +
                " the sink may keep past the byte the stream refused; the failure surfaced too late (" + r.error + ")");
    }
    if (r.position != written || r.error_position == none || r.error_position > setup.stream_limit) {
        RC_FAIL(at.describe() + ": position() " + std::to_string(r.position) + " after writes of " +
                std::to_string(written) + " bytes, and the error names byte " +
                (r.error_position == none ? std::string("(none)") : std::to_string(r.error_position)) +
                ", which the stream must not have taken (" + r.error + ")");
    }
    const std::size_t common = std::min(r.bytes.size(), written);
    if (s.stores &&
        (r.bytes.size() > setup.stream_limit ||
         !std::equal(r.model.begin(), r.model.begin() + static_cast<std::ptrdiff_t>(common), r.bytes.begin()))) {
        RC_FAIL(bytes_report(at.describe() + ": the stream does not hold the beginning of the writes", r.model, r.bytes,
                             no_document, format::cbor, {}));
    }
}

void failing_stream_is_reported(const sut_entry& s) {
    const auto prog = *write_program_gen(false, false);
    run_setup setup = program_setup(prog, default_window);
    const std::size_t total = setup.span_capacity;
    if (total == 0) {
        return;  // a stream that takes nothing is never asked for a byte
    }
    setup.stream_limit = (*number_gen("the stream fails at byte", rc::gen::inRange<std::size_t>(0, total))).n;
    const run_record r = s.program(prog, setup);
    const where at{s.name, none,
                   "a write program of " + std::to_string(total) + " bytes into a stream that fails at byte " +
                       std::to_string(setup.stream_limit)};
    if (r.how != outcome::sink_error) {
        RC_FAIL(at.describe() + ": " + outcome_of(r) + " (a failing stream throws sink_error" +
                (s.buffers == 0 ? std::string(")")
                 : s.finishes   ? std::string(", at a later write or at finish() at the latest)")
                                : std::string(", at a later write; the traits declare no finish step, so a refusal of "
                                                "the bytes it still keeps after the last write surfaces nowhere)")));
    }
    const std::size_t written = r.model.size();
    if (s.buffers != 0) {
        failure_surfaced_within_buffer(s, setup, r, at);
        return;
    }
    if (written > setup.stream_limit || r.writes.empty() || written + r.writes.back() <= setup.stream_limit) {
        RC_FAIL(at.describe() + ": the writes that returned hold " + std::to_string(written) +
                " bytes; the one that threw asked for " + std::to_string(r.writes.empty() ? 0 : r.writes.back()));
    }
    if (r.position != written || r.error_position != written) {
        RC_FAIL(at.describe() + ": position() " + std::to_string(r.position) + " and the error's position " +
                (r.error_position == none ? std::string("(none)") : std::to_string(r.error_position)) +
                " after writes of " + std::to_string(written) + " bytes (" + r.error + ")");
    }
    if (s.stores && (r.bytes.size() < written || r.bytes.size() > setup.stream_limit ||
                     !std::equal(r.model.begin(), r.model.end(), r.bytes.begin()))) {
        RC_FAIL(bytes_report(at.describe() + ": the stream does not begin with the writes that returned", r.model,
                             r.bytes, no_document, format::cbor, {}));
    }
}

void keeps_writing_after_a_move(const sut_entry& s) {
    const auto prog = *write_program_gen(false, true);
    move_plan plan;
    plan.split = (*number_gen("moved after op", rc::gen::inRange<std::size_t>(0, prog.ops.size() + 1))).n;
    plan.assign = s.move_assignable && (*decision_gen("move-assigned, not move-constructed")).yes;
    plan.order = static_cast<move_plan::death>(
        (*number_gen("the moved-from sink dies (0 at once, 1 first, 2 last)", rc::gen::inRange<std::size_t>(0, 3))).n);
    if (plan.assign && !s.fixed_capacity) {  // a fixed buffer is sized for the program alone
        plan.spare_bytes =
            (*number_gen("the sink assigned over wrote bytes",
                         rc::gen::weightedOneOf<std::size_t>(
                             {{1, rc::gen::just<std::size_t>(0)}, {3, rc::gen::inRange<std::size_t>(1, 200)}})))
                .n;
    }
    const std::size_t w = s.windowed ? (*window_gen()).bytes : default_window;
    run_setup setup = program_setup(prog, w);
    if (s.appends && (*decision_gen("the target holds bytes before the sink is made")).yes) {
        setup.existing = *existing_contents_gen();
    }
    static constexpr const char* deaths[] = {"destroyed at once", "destroyed first", "destroyed last"};
    const where at{
        s.name, window_of(s, w),
        std::string(plan.assign ? "move-assigned" : "move-constructed") + " after op " + std::to_string(plan.split) +
            " of " + std::to_string(prog.ops.size()) +
            (plan.spare_bytes == 0 ? "" : " (which had written " + std::to_string(plan.spare_bytes) + " bytes)") +
            ", the moved-from sink " + deaths[static_cast<int>(plan.order)] +
            (setup.existing.empty() ? "" : ", " + std::to_string(setup.existing.size()) + " bytes before")};
    RC_CLASSIFY(setup.write_fault != 0, "with a fault");
    moved_record m = s.moved_program(prog, setup, plan);
    run_record& r = m.run;
    if (!m.moved_from_problem.empty()) {
        RC_FAIL(at.describe() + ", right after the move: " + m.moved_from_problem);
    }
    if (r.how != outcome::completed && r.how != outcome::write_fault) {
        RC_FAIL(at.describe() + ": " + outcome_of(r));
    }
    if (s.stores) {
        std::vector<std::uint8_t> expected = setup.existing;
        expected.insert(expected.end(), r.model.begin(), r.model.end());
        if (r.bytes != expected) {
            RC_FAIL(bytes_report(at.describe() + " after " + outcome_of(r) +
                                     ": the target does not hold its earlier bytes and the writes that returned",
                                 expected, r.bytes, no_document, format::cbor, {}));
        }
        std::vector<std::uint8_t> spare_expected = setup.existing;
        const std::vector<std::uint8_t> pattern = spare_pattern(m.assigned ? plan.spare_bytes : 0);
        spare_expected.insert(spare_expected.end(), pattern.begin(), pattern.end());
        if (plan.assign && m.spare != spare_expected) {
            RC_FAIL(bytes_report(
                at.describe() + ": the target of the sink assigned over does not hold exactly its earlier bytes and "
                                "what that sink wrote before the assignment",
                spare_expected, m.spare, no_document, format::cbor, {}));
        }
        r.bytes.erase(r.bytes.begin(), r.bytes.begin() + static_cast<std::ptrdiff_t>(setup.existing.size()));
    }
    require_sound(s, r, setup, at);
}

void seek_programs_match_a_byte_array(const sut_entry& seekable) { write_programs_match_a_byte_array(seekable); }

void follows_its_growth_rule(const sut_entry& s) {
    run_setup setup;
    setup.window = s.windowed ? (*window_gen()).bytes : default_window;
    if (s.chunked) {  // drawn only where they mean something, so a counterexample shows no chunks it did not use
        const chunk_bounds bounds = *chunk_bounds_gen();
        setup.first_chunk = bounds.first;
        setup.max_chunk = bounds.cap;
    }
    run_record r;
    std::string input;
    if ((*decision_gen("a write program, not an encoding")).yes) {
        r = s.program(*write_program_gen(false, false), setup);
        input = "a write program";
    } else {
        const format f = *format_gen();
        r = s.encode(f, document_for(f, *json_value<json>(sink_profile())), encode_options{}, setup);
        input = std::string(format_name(f));
    }
    const where at{s.name, window_of(s, setup.window), input};
    require_sound(s, r, setup, at);
    require_kept(judge_growth_rule(s, {r, setup}), r, at);
}

void check_promise(promise p, const sut_entry& s) {
    switch (p) {
        case promise::identical_bytes: all_sinks_write_identical_bytes({baseline_entry(), s}); return;
        case promise::write_programs: write_programs_match_a_byte_array(s); return;
        case promise::trims_when_writes_throw: trims_to_written_bytes_when_writes_throw({s}); return;
        case promise::empty_writes: empty_writes_change_nothing(s); return;
        case promise::failing_stream: failing_stream_is_reported(s); return;
        case promise::appends: appends_after_existing_contents(s); return;
        case promise::keeps_writing_after_a_move: keeps_writing_after_a_move(s); return;
        case promise::fixed_capacity: fixed_capacity_edges(s); return;
        case promise::growth_rule: follows_its_growth_rule(s); return;
        case promise::capacity_ignores_window: capacity_growth_ignores_window({s}); return;
        case promise::zero_fill_within_window: zero_fill_stays_within_window({s}); return;
        case promise::without_seeks_equals_seekless:
            seekable_writer_without_seeks_equals_seekless(s, baseline_entry());
            return;
    }
    throw std::logic_error("check_promise: a promise outside enum promise");
}

}  // namespace sinkcheck::testkit
