# The regression replay has teeth: a regression folder with one planted input, replayed exactly as
# the <target>_regressions test replays it (replay_regressions.cmake), passes against the real
# sinks and fails once SINKCHECK_FUZZ_BROKEN_SINK=1 brings back a bug that input catches (a sink
# losing the last byte of a write ending on a 64-byte edge). Passes only when both hold and the
# failure names the planted file and the broken sink.
# -DFUZZER=binary -DDIR=the target's regression folder -DPLANTED=input -DENGINE=replay|libfuzzer
# -DWORK=scratch dir
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(GLOB inputs LIST_DIRECTORIES false ${DIR}/*)
if(inputs)
  file(COPY ${inputs} DESTINATION ${WORK})
endif()
file(COPY ${PLANTED} DESTINATION ${WORK})
get_filename_component(planted_name ${PLANTED} NAME)

set(replay ${CMAKE_COMMAND} -DFUZZER=${FUZZER} -DDIR=${WORK} -DENGINE=${ENGINE}
           -P ${CMAKE_CURRENT_LIST_DIR}/replay_regressions.cmake)
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=SINKCHECK_FUZZ_BROKEN_SINK ${replay}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the folder with the planted input fails even with the real sinks:\n${out}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E env SINKCHECK_FUZZ_BROKEN_SINK=1 ${replay}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX MATCH "==sinkcheck== MISMATCH sink-bytes[^\n]*edge_dropping[^\n]*" found "${out}")
string(FIND "${out}" "${planted_name}" named)
if(status EQUAL 0 OR NOT found OR named EQUAL -1)
  message(FATAL_ERROR "the replay let the broken sink through (exit ${status}):\n${out}")
endif()
message(STATUS "the replay failed as it must: ${found}")
