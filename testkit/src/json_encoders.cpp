// json_encoders.cpp — the encoders of nlohmann::json into the memory writers, compiled once in
// the kit's library sinkcheck::testkit_encoders for every unit that links it: those units are
// compiled with SINKCHECK_EXTERN_JSON_ENCODERS and call these instead of compiling their own
// (the list and why: sinkcheck/encode.hpp; ordered_json's are in ordered_json_encoders.cpp, so
// that the two compile side by side).
#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/sink/seekable_memory_writer.hpp"

SINKCHECK_JSON_ENCODERS_OF(, nlohmann::json)
