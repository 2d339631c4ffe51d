# The teeth test: a target run with SINKCHECK_FUZZ_BROKEN_SINK=1 (one sink loses the last byte
# of a write that ends on a 64-byte edge) must report it, starting from an empty corpus, within
# a bounded run. Passes when the run stops with a sink-bytes mismatch naming the broken sink, or
# with what EXPECT (a regular expression) matches, for a target with a bug of another kind.
# -DFUZZER=binary -DRUNS=n -DWORK=scratch dir [-DEXPECT=regex]
include(${CMAKE_CURRENT_LIST_DIR}/output_tail.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/findings)
execute_process(COMMAND ${FUZZER} -runs=${RUNS} -max_total_time=600 -seed=1 -max_len=4096 -print_final_stats=1
                        -artifact_prefix=${WORK}/findings/ ${WORK}/corpus
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT DEFINED EXPECT)
  set(EXPECT "MISMATCH sink-bytes[^\n]*edge_dropping")
endif()
string(REGEX MATCH "==sinkcheck== ${EXPECT}[^\n]*" found "${out}")
if(status EQUAL 0 OR NOT found)
  output_tail(out 4000)
  message(FATAL_ERROR "the planted bug went unnoticed for ${RUNS} runs (exit ${status}):\n${out}")
endif()
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${out}")
string(REGEX REPLACE "[^0-9]" "" runs "${runs}")
message(STATUS "found after ${runs} runs: ${found}")
