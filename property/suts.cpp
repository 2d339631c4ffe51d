// sinkcheck's own sinks as sut_entry values, derived from testkit::builtin_sinks: every encoder
// instantiated over every sink, once, for all the property executables.
#include "suts.hpp"

#include "sinkcheck/testkit/properties.hpp"

namespace sinkcheck::testkit {
namespace {

template <class T>
const sut_entry& entry_of() {
    static const sut_entry e = entry<T>();
    return e;
}

template <class... T>
std::vector<sut_entry> entries_of(sink_list<T...>) {
    return {entry_of<T>()...};
}

/// The built-in sinks that satisfy keep(entry), the baseline first when it is one of them.
template <class Keep>
std::vector<sut_entry> builtin_where(Keep keep) {
    std::vector<sut_entry> out;
    for (const sut_entry& e : entries_of(builtin_sinks{})) {
        if (keep(e)) {
            out.insert(e.name == baseline_entry().name ? out.begin() : out.end(), e);
        }
    }
    return out;
}

}  // namespace

const sut_entry& builtin_entry(std::string_view name) {
    static const std::vector<sut_entry> all = entries_of(builtin_sinks{});
    for (const sut_entry& e : all) {
        if (e.name == name) {
            return e;
        }
    }
    throw std::invalid_argument("no built-in sink '" + std::string(name) + "'");
}

const std::vector<sut_entry>& all_real_sinks() {
    static const std::vector<sut_entry> v = builtin_where([](const sut_entry&) { return true; });
    return v;
}

const std::vector<sut_entry>& vector_rule_sinks() {
    static const std::vector<sut_entry> v =
        builtin_where([](const sut_entry& e) { return e.growth == vector_doubling::description; });
    return v;
}

const std::vector<sut_entry>& windowed_sinks() {
    static const std::vector<sut_entry> v = builtin_where([](const sut_entry& e) { return e.windowed; });
    return v;
}

}  // namespace sinkcheck::testkit
