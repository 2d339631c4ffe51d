# The teeth test: a target built with -DSINKCHECK_FUZZ_BROKEN_SINK=1 (one sink loses the last byte
# of a write that ends on a 64-byte edge) must report it, starting from an empty corpus, within
# a bounded run. Passes when the run stops with a sink-bytes mismatch naming the broken sink.
# -DFUZZER=binary -DRUNS=n -DWORK=scratch dir
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/findings)
execute_process(COMMAND ${FUZZER} -runs=${RUNS} -max_total_time=600 -seed=1 -max_len=4096
                        -artifact_prefix=${WORK}/findings/ ${WORK}/corpus
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX MATCH "==sinkcheck== MISMATCH sink-bytes[^\n]*edge_dropping[^\n]*" found "${out}")
if(status EQUAL 0 OR NOT found)
  string(LENGTH "${out}" length)
  if(length GREATER 4000)
    math(EXPR from "${length} - 4000")
    string(SUBSTRING "${out}" ${from} 4000 out)
  endif()
  message(FATAL_ERROR "the broken sink went unnoticed for ${RUNS} runs (exit ${status}):\n${out}")
endif()
string(REGEX MATCH "#[0-9]+[^\n]*\n[^\n]*==sinkcheck==" progress "${out}")
string(REGEX MATCHALL "\n#[0-9]+" steps "${out}")
list(LENGTH steps n)
set(last "")
if(n GREATER 0)
  list(GET steps -1 last)
  string(STRIP "${last}" last)
endif()
message(STATUS "found after about ${last} runs: ${found}")
