// ordered_json_encoders.cpp — the encoders of nlohmann::ordered_json into the memory writers,
// compiled once in the kit's library sinkcheck::testkit_encoders (json_encoders.cpp says why;
// the list: sinkcheck/encode.hpp).
#include <nlohmann/json.hpp>

#include "sinkcheck/encode.hpp"
#include "sinkcheck/sink/seekable_memory_writer.hpp"

SINKCHECK_JSON_ENCODERS_OF(, nlohmann::ordered_json)
