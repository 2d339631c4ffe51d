# Installs sinkcheck's build tree into a scratch prefix, then configures, builds and runs the
# examples project against that prefix, as a user's project would. Arguments: BUILD_DIR,
# WORK_DIR, EXAMPLES_DIR, CXX, CTEST and LAUNCHER (a compiler launcher such as ccache; may be empty).
file(REMOVE_RECURSE "${WORK_DIR}")
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${err}")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
if(NOT EXISTS "${WORK_DIR}/prefix/include/sinkcheck/testkit/check_sink.hpp")
  message(FATAL_ERROR "the full install holds no test kit")
endif()
# the product alone must not carry the test machinery
step(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/product" --component reference)
if(EXISTS "${WORK_DIR}/product/include/sinkcheck/instrument" OR EXISTS "${WORK_DIR}/product/include/sinkcheck/testkit")
  message(FATAL_ERROR "the product's install (--component reference) holds test machinery")
endif()
step(${CMAKE_COMMAND} -S "${EXAMPLES_DIR}" -B "${WORK_DIR}/build" -G Ninja -DCMAKE_CXX_COMPILER=${CXX}
     "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG"
     "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
step(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
# the examples' tests in parallel, one per core: this test runs alone (RUN_SERIAL), so the cores
# are its own
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
step(${CTEST} --test-dir "${WORK_DIR}/build" --output-on-failure -j ${cores})
# Every check here is registered with LABELS examples (the fuzz target's corpus replay carries
# the kit's own fuzz-replay label): selecting by the label must find them all
# (sinkcheck_add_sink_check once lost every label but "sinkcheck" and the TIMEOUT on the way
# through gtest_discover_tests).
function(count_tests var)
  execute_process(COMMAND ${CTEST} --test-dir "${WORK_DIR}/build" -N ${ARGN} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "Total Tests: ([0-9]+)")
    message(FATAL_ERROR "ctest -N ${ARGN} in ${WORK_DIR}/build: no test count (${rc})\n${out}")
  endif()
  set(${var} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()
count_tests(all -LE "^fuzz-replay$")
count_tests(labelled -L "^examples$")
if(all EQUAL 0 OR NOT labelled EQUAL all)
  message(FATAL_ERROR "ctest -L examples selects ${labelled} of the ${all} tests registered with LABELS examples")
endif()
message(STATUS "ctest -L examples selects all ${all} tests registered with that label")
