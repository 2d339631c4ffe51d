// json_oracle.cpp — nlohmann 3.11.2's writers and readers of nlohmann::json and ordered_json behind the oracle,
// compiled once in the kit's library sinkcheck::testkit_encoders for every unit that links it
// (SINKCHECK_EXTERN_JSON_ENCODERS; the list: sinkcheck/testkit/oracle.hpp).
#include <nlohmann/json.hpp>

#include "sinkcheck/testkit/oracle.hpp"

SINKCHECK_JSON_ORACLE()
