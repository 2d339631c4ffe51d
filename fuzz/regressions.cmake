# Regression inputs: every minimised finding stays in corpus/regressions/<target>/ and is replayed
# in every build, so a fixed bug cannot come back unnoticed (corpus/regressions/README.md says how
# to add one). Included at the end of fuzz/CMakeLists.txt, after the targets exist.
#
#   <target>_regressions         replays the folder: the replay main in builds without libFuzzer,
#                                the libFuzzer binary on each file in a -DSINKCHECK_FUZZ=ON build
#                                (label fuzz-replay in both, so CI runs it in both builds)
#   fuzz_regressions_teeth       the same replay of fuzz_cbor's folder plus a planted input must
#                                fail once the deliberately broken sink is switched on
#
# The inputs of a folder are listed again when its test runs.
set(SINKCHECK_REGRESSIONS_DIR ${SINKCHECK_CORPUS_DIR}/regressions)
if(SINKCHECK_FUZZ)
  set(regressions_engine libfuzzer)
else()
  set(regressions_engine replay)
endif()

# a target gets its test once its folder holds an input (a README alone is not one); the glob
# re-runs CMake when the first input arrives or the last one goes
file(GLOB regression_inputs LIST_DIRECTORIES false CONFIGURE_DEPENDS ${SINKCHECK_REGRESSIONS_DIR}/fuzz_*/*)
list(FILTER regression_inputs EXCLUDE REGEX "/README[^/]*$")
foreach(name ${SINKCHECK_FUZZERS})
  set(folder ${SINKCHECK_REGRESSIONS_DIR}/${name})
  set(mine ${regression_inputs})
  list(FILTER mine INCLUDE REGEX "^${folder}/")
  if(NOT mine)
    continue()
  endif()
  add_test(NAME ${name}_regressions
    COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:${name}> -DDIR=${folder}
            -DENGINE=${regressions_engine} -P ${CMAKE_CURRENT_SOURCE_DIR}/test/replay_regressions.cmake)
  set_tests_properties(${name}_regressions PROPERTIES LABELS fuzz-replay TIMEOUT 300)
endforeach()

set(planted ${CMAKE_CURRENT_SOURCE_DIR}/test/planted/fuzz_cbor-edge-64.json)
add_test(NAME fuzz_regressions_teeth
  COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:fuzz_cbor> -DDIR=${SINKCHECK_REGRESSIONS_DIR}/fuzz_cbor
          -DPLANTED=${planted} -DENGINE=${regressions_engine}
          -DWORK=${CMAKE_CURRENT_BINARY_DIR}/regressions-teeth
          -P ${CMAKE_CURRENT_SOURCE_DIR}/test/regression_teeth.cmake)
set_tests_properties(fuzz_regressions_teeth PROPERTIES LABELS fuzz-replay TIMEOUT 300)
