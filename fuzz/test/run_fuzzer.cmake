# A bounded libFuzzer run of one target as a CTest test.
# -DFUZZER=binary -DCORPUS=seed dir -DDICT=dictionary -DRUNS=n -DWORK=scratch dir
# DICT is empty for a target whose .options names no dictionary (fuzz_sink, fuzz_fault); every
# target has seeds. The seeds are copied to a scratch corpus first, so the committed corpus is
# never written to.
include(${CMAKE_CURRENT_LIST_DIR}/output_tail.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/findings)
file(GLOB seeds ${CORPUS}/*)
if(NOT seeds)
  message(FATAL_ERROR "${FUZZER}: no seeds in ${CORPUS}")
endif()
file(COPY ${seeds} DESTINATION ${WORK}/corpus)
set(args -runs=${RUNS} -seed=1 -print_final_stats=1 -artifact_prefix=${WORK}/findings/)
if(NOT "${DICT}" STREQUAL "")
  if(NOT EXISTS ${DICT})
    message(FATAL_ERROR "${FUZZER}: dictionary ${DICT} does not exist")
  endif()
  list(APPEND args -dict=${DICT})
endif()
execute_process(COMMAND ${FUZZER} ${args} ${WORK}/corpus
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX MATCH "stat::average_exec_per_sec: *[0-9]+" speed "${out}")
message(STATUS "${FUZZER}: ${speed}")
if(NOT status EQUAL 0)
  output_tail(out 6000)
  message(FATAL_ERROR "${FUZZER} found something (exit ${status}); inputs saved in ${WORK}/findings\n${out}")
endif()
