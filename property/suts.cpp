// The real sinks as sut_entry values: every encoder instantiated over every sink, once.
#include "suts.hpp"

namespace sinkcheck::prop {
namespace {

template <class Sut>
const sut_entry& entry_of() {
    static const sut_entry e = entry<Sut>();
    return e;
}

}  // namespace

const sut_entry& memory_writer_entry() { return entry_of<memory_writer_sut>(); }
const sut_entry& vector_sink_entry() { return entry_of<vector_sink_sut>(); }
const sut_entry& legacy_vector_sink_entry() { return entry_of<legacy_vector_sink_sut>(); }
const sut_entry& string_sink_entry() { return entry_of<string_sink_sut>(); }
const sut_entry& chunked_sink_entry() { return entry_of<chunked_sink_sut>(); }
const sut_entry& seekable_memory_writer_entry() { return entry_of<seekable_memory_writer_sut>(); }

const std::vector<sut_entry>& all_real_sinks() {
    static const std::vector<sut_entry> v = {memory_writer_entry(),        vector_sink_entry(),
                                             legacy_vector_sink_entry(),   string_sink_entry(),
                                             chunked_sink_entry(),         seekable_memory_writer_entry(),
                                             entry_of<ostream_sink_sut>(), entry_of<protocol_sink_sut>(),
                                             entry_of<span_sink_sut>(),    entry_of<counting_sink_sut>()};
    return v;
}

const std::vector<sut_entry>& vector_rule_sinks() {
    static const std::vector<sut_entry> v = {memory_writer_entry(), vector_sink_entry(), legacy_vector_sink_entry(),
                                             seekable_memory_writer_entry()};
    return v;
}

const std::vector<sut_entry>& windowed_sinks() {
    static const std::vector<sut_entry> v = {memory_writer_entry(), vector_sink_entry(), string_sink_entry(),
                                             seekable_memory_writer_entry()};
    return v;
}

}  // namespace sinkcheck::prop
