# CMake functions of the test kit, for projects that find_package(sinkcheck COMPONENTS testkit).
#
# sinkcheck_add_sink_check(NAME SOURCES src... [LIBS lib...] [LABELS label...] [TIMEOUT s])
#   A GoogleTest executable from sources that use SINKCHECK_SINK_PROPERTIES; each property is a
#   CTest test of its own (labels: sinkcheck plus LABELS).
#
# sinkcheck_add_sink_fuzzer(NAME SOURCES src... [LIBS lib...] [CORPUS dir])
#   A fuzz target (sources define LLVMFuzzerTestOneInput). With clang and SINKCHECK_FUZZ=ON it
#   links libFuzzer; otherwise the kit's replay main, and CORPUS (when given) is replayed as a
#   CTest test, so the target builds and runs with any compiler.
include_guard(GLOBAL)
set(SINKCHECK_TESTKIT_REPLAY_MAIN "${CMAKE_CURRENT_LIST_DIR}/replay_main.cpp")
if(NOT EXISTS "${SINKCHECK_TESTKIT_REPLAY_MAIN}")
  # sinkcheck's own build tree
  set(SINKCHECK_TESTKIT_REPLAY_MAIN "${CMAKE_CURRENT_LIST_DIR}/../src/replay_main.cpp")
endif()

function(sinkcheck_add_sink_check name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "sinkcheck_add_sink_check(${name}): SOURCES is required")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 900)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE sinkcheck::testkit GTest::gtest_main ${ARG_LIBS})
  include(GoogleTest)
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
    PROPERTIES LABELS "sinkcheck;${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT})
endfunction()

option(SINKCHECK_FUZZ "Build sinkcheck fuzz targets with libFuzzer (clang only)" OFF)
function(sinkcheck_add_sink_fuzzer name)
  cmake_parse_arguments(ARG "" "CORPUS" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE sinkcheck::testkit_core ${ARG_LIBS})
  if(SINKCHECK_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      message(FATAL_ERROR "SINKCHECK_FUZZ=ON needs clang (libFuzzer)")
    endif()
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  else()
    target_sources(${name} PRIVATE "${SINKCHECK_TESTKIT_REPLAY_MAIN}")
    if(ARG_CORPUS)
      add_test(NAME ${name}_replay COMMAND ${name} ${ARG_CORPUS})
      set_tests_properties(${name}_replay PROPERTIES LABELS "sinkcheck;fuzz-replay")
    endif()
  endif()
endfunction()
