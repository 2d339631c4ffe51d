// The real sinks as sut_entry values: every encoder instantiated over every sink, once.
#include "suts.hpp"

namespace sinkcheck::prop {

const sut_entry& memory_writer_entry() {
    static const sut_entry e = entry<memory_writer_sut>();
    return e;
}

const sut_entry& vector_sink_entry() {
    static const sut_entry e = entry<vector_sink_sut>();
    return e;
}

const sut_entry& legacy_vector_sink_entry() {
    static const sut_entry e = entry<legacy_vector_sink_sut>();
    return e;
}

const sut_entry& string_sink_entry() {
    static const sut_entry e = entry<string_sink_sut>();
    return e;
}

const sut_entry& chunked_sink_entry() {
    static const sut_entry e = entry<chunked_sink_sut>();
    return e;
}

const sut_entry& seekable_memory_writer_entry() {
    static const sut_entry e = entry<seekable_memory_writer_sut>();
    return e;
}

const std::vector<sut_entry>& all_real_sinks() {
    static const std::vector<sut_entry> v = {
        memory_writer_entry(),      vector_sink_entry(),      legacy_vector_sink_entry(),
        string_sink_entry(),        chunked_sink_entry(),     seekable_memory_writer_entry(),
        entry<ostream_sink_sut>(),  entry<protocol_sink_sut>(), entry<span_sink_sut>(),
        entry<counting_sink_sut>()};
    return v;
}

const std::vector<sut_entry>& vector_rule_sinks() {
    static const std::vector<sut_entry> v = {memory_writer_entry(), vector_sink_entry(),
                                             legacy_vector_sink_entry(),
                                             seekable_memory_writer_entry()};
    return v;
}

const std::vector<sut_entry>& windowed_sinks() {
    static const std::vector<sut_entry> v = {memory_writer_entry(), vector_sink_entry(),
                                             string_sink_entry(), seekable_memory_writer_entry()};
    return v;
}

}  // namespace sinkcheck::prop
