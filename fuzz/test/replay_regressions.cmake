# Replays every input of one regression folder (corpus/regressions/<target>/) as a CTest test.
# -DFUZZER=binary -DDIR=folder -DENGINE=replay|libfuzzer
# The folder is listed when the test runs, so an input dropped in is replayed without
# reconfiguring. Files named README* are documentation, not inputs. Fails when an input makes the
# target report anything, when the folder holds no input (a replay that checks nothing must not
# pass), or when the binary ran fewer inputs than the folder holds.
include(${CMAKE_CURRENT_LIST_DIR}/output_tail.cmake)
file(GLOB inputs LIST_DIRECTORIES false ${DIR}/*)
list(FILTER inputs EXCLUDE REGEX "/README[^/]*$")
list(LENGTH inputs count)
if(count EQUAL 0)
  message(FATAL_ERROR "no regression inputs in ${DIR}")
endif()
list(SORT inputs)

# libFuzzer runs each file named on its command line once; the replay main does the same
set(args)
if(ENGINE STREQUAL "libfuzzer")
  set(args -runs=1)
endif()
execute_process(COMMAND ${FUZZER} ${args} ${inputs}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(ENGINE STREQUAL "libfuzzer")
  string(REGEX MATCHALL "\nExecuted [^\n]*" executed "\n${out}")
  list(LENGTH executed ran)
else()
  string(REGEX MATCH "replay: ran [0-9]+ of" ran "${out}")
  string(REGEX REPLACE "[^0-9]" "" ran "${ran}")
endif()
if(NOT status EQUAL 0)
  # the last input named before the report is the one that failed
  string(REGEX MATCHALL "(Running|replay): [^\n]*" named "${out}")
  list(POP_BACK named culprit)
  string(REGEX REPLACE "^(Running|replay): " "" culprit "${culprit}")
  string(REGEX REPLACE " \\([0-9]+ bytes\\)$" "" culprit "${culprit}")
  output_tail(out 12000)
  message(FATAL_ERROR "a regression came back (exit ${status}) in ${culprit}\n"
                      "reproduce: ${FUZZER} ${culprit}\n${out}")
endif()
if(NOT ran EQUAL count)
  output_tail(out 3000)
  message(FATAL_ERROR "ran '${ran}' of ${count} regression inputs in ${DIR}\n${out}")
endif()
message(STATUS "${count} regression input(s) of ${DIR} replayed")
