# CMake functions of the test kit, for projects that find_package(sinkcheck COMPONENTS testkit).
#
# sinkcheck_add_sink_check(NAME SOURCES src... [LIBS lib...] [LABELS label...] [TIMEOUT s]
#                          [ALLOCATIONS new|kit-only] [EXPECT_CAUGHT regex])
#   A GoogleTest executable from sources that use SINKCHECK_SINK_PROPERTIES; each property is a
#   CTest test of its own (labels: sinkcheck plus LABELS). ALLOCATIONS new (the default) links the
#   kit's replacement of the global operator new and delete, so what the sink allocates through
#   new is counted and failed like the tracing allocator's; kit-only leaves them alone (for a
#   program that brings its own replacement), and the properties then say they did not see them.
#   EXPECT_CAUGHT: the sink is a broken one, kept to prove the properties catch it: one CTest test
#   NAME runs every property and passes only when exactly one fails, with output matching regex.
#
# sinkcheck_add_sink_fuzzer(NAME SOURCES src... [LIBS lib...] [CORPUS dir])
#   A fuzz target (sources define LLVMFuzzerTestOneInput). With clang and SINKCHECK_FUZZ=ON it
#   links libFuzzer, with coverage feedback from the code under test only (the standard library
#   and the kit's own checks are left out: coverage-ignorelist.txt beside this file); otherwise the kit's replay main, and CORPUS (when given) is replayed as a
#   CTest test, so the target builds and runs with any compiler.
#
# sinkcheck_add_process_sink_check(NAME COMMAND cmd [arg...] [DEPENDS target...] [CHECK_ARGS arg...]
#                                  [LABELS label...] [TIMEOUT s] [EXPECT_CAUGHT regex])
#   A CTest test NAME: `sinkcheck check-sink CHECK_ARGS -- cmd arg...`, a sink in another process
#   and language under the sink protocol (docs/sink-protocol.md; the helpers of each language are
#   in SINKCHECK_SINK_PROTOCOL_DIR). EXPECT_CAUGHT: the sink is a broken one, and the test passes
#   only when check-sink exits 1 with output matching regex. DEPENDS: targets that build cmd.
#
# sinkcheck_add_encoder_check(NAME SOURCES src... [LIBS lib...] [LEVEL exact|canonical|equivalent]
#                             [FORMATS format...] [EXPECTED_FAILURES file] [CORPUS path] [LABELS label...])
#   NAME-conform: `sinkcheck conform` with the encoder of the sources' SINKCHECK_ENCODER line linked
#   in (same options and reports), and a CTest test NAME_conform (one per format of FORMATS, named
#   NAME_conform_FORMAT, when given) grading it over the installed corpus at LEVEL (exact).
#
# sinkcheck_add_encoder_fuzzer(NAME SOURCES src... [LIBS lib...] [LEVEL exact|equivalent] [CORPUS dir]
#                              [ENCODER name])
#   A fuzz target comparing the program's linked encoders (those of its SINKCHECK_ENCODER lines,
#   or only the one ENCODER names) with sinkcheck's reference at LEVEL (exact); libFuzzer or the
#   replay main as for sinkcheck_add_sink_fuzzer.
include_guard(GLOBAL)
# sinkcheck_testkit_source(VAR file): the path of one of the kit's sources (a main, the encoder
# fuzzer), installed beside this file or, in sinkcheck's own tree, in testkit/src (the sink half)
# or conformance/runner/src (the encoder half, which sits on the runner).
function(sinkcheck_testkit_source var file)
  set(dir "${CMAKE_CURRENT_FUNCTION_LIST_DIR}")
  foreach(candidate "${dir}" "${dir}/../src" "${dir}/../../conformance/runner/src")
    if(EXISTS "${candidate}/${file}")
      set(${var} "${candidate}/${file}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "sinkcheck: the test kit's source ${file} is missing beside ${dir}")
endfunction()

# sinkcheck_discover_gtests(TARGET LABELS label-list TIMEOUT s): every TEST() of TARGET a CTest
# test of its own, each with all of LABELS and TIMEOUT. gtest_discover_tests(... PROPERTIES
# LABELS "a;b" TIMEOUT s) flattens the list on its way into the generated script (the test ends
# up with the one label a, and b and TIMEOUT read as property names), so the properties are set
# by a script of ours that CTest runs after discovery, over the discovered names. With
# EXTRA_LABEL l MATCHING regex, the tests whose name matches regex get label l as well; with
# ENVIRONMENT VAR=value..., each test runs with those variables set.
function(sinkcheck_discover_gtests target)
  cmake_parse_arguments(ARG "" "TIMEOUT;EXTRA_LABEL;MATCHING" "LABELS;ENVIRONMENT" ${ARGN})
  include(GoogleTest)
  gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60 TEST_LIST ${target}_TESTS)
  set(script "${CMAKE_CURRENT_BINARY_DIR}/${target}_test_properties.cmake")
  set(extra "")
  if(ARG_EXTRA_LABEL)
    set(extra
      "  if(test MATCHES [==[${ARG_MATCHING}]==])\n"
      "    set_tests_properties(\"\${test}\" PROPERTIES LABELS [==[${ARG_LABELS};${ARG_EXTRA_LABEL}]==])\n"
      "  endif()\n")
  endif()
  if(ARG_ENVIRONMENT)
    string(APPEND extra "  set_tests_properties(\"\${test}\" PROPERTIES ENVIRONMENT [==[${ARG_ENVIRONMENT}]==])\n")
  endif()
  file(WRITE "${script}"
    "foreach(test IN LISTS ${target}_TESTS)\n"
    "  set_tests_properties(\"\${test}\" PROPERTIES LABELS [==[${ARG_LABELS}]==] TIMEOUT ${ARG_TIMEOUT})\n"
    ${extra}
    "endforeach()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
endfunction()

function(sinkcheck_add_sink_check name)
  cmake_parse_arguments(ARG "" "TIMEOUT;ALLOCATIONS;EXPECT_CAUGHT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "sinkcheck_add_sink_check(${name}): SOURCES is required")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 900)
  endif()
  if(NOT ARG_ALLOCATIONS)
    set(ARG_ALLOCATIONS new)
  endif()
  if(NOT ARG_ALLOCATIONS MATCHES "^(new|kit-only)$")
    message(FATAL_ERROR "sinkcheck_add_sink_check(${name}): ALLOCATIONS is new or kit-only, not '${ARG_ALLOCATIONS}'")
  endif()
  add_executable(${name} ${ARG_SOURCES})
  if(ARG_ALLOCATIONS STREQUAL "new")
    sinkcheck_testkit_source(global_new global_new.cpp)
    target_sources(${name} PRIVATE "${global_new}")
  endif()
  target_link_libraries(${name} PRIVATE sinkcheck::testkit GTest::gtest_main ${ARG_LIBS})
  if(DEFINED ARG_EXPECT_CAUGHT)
    # the exit status is not looked at: the regex must name the failure (the property's message,
    # or GoogleTest's "[  FAILED  ] Suite.Property" line); GoogleTest's "N FAILED TESTS" (plural)
    # means a second property failed too, which the sink is not kept for
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "${ARG_EXPECT_CAUGHT}"
      FAIL_REGULAR_EXPRESSION "[0-9]+ FAILED TESTS" LABELS "sinkcheck;caught;${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT})
  else()
    sinkcheck_discover_gtests(${name} LABELS sinkcheck ${ARG_LABELS} TIMEOUT ${ARG_TIMEOUT})
  endif()
endfunction()

option(SINKCHECK_FUZZ "Build sinkcheck fuzz targets with libFuzzer (clang only)" OFF)
function(sinkcheck_add_process_sink_check name)
  cmake_parse_arguments(ARG "" "TIMEOUT;EXPECT_CAUGHT" "COMMAND;DEPENDS;CHECK_ARGS;LABELS" ${ARGN})
  if(NOT ARG_COMMAND)
    message(FATAL_ERROR "sinkcheck_add_process_sink_check(${name}): COMMAND is required")
  endif()
  set(tool "${SINKCHECK_TOOL}")
  if(TARGET sinkcheck_cli)  # in sinkcheck's own tree
    set(tool "$<TARGET_FILE:sinkcheck_cli>")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  add_test(NAME ${name} COMMAND "${tool}" check-sink ${ARG_CHECK_ARGS} -- ${ARG_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS "sinkcheck;${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT})
  if(ARG_EXPECT_CAUGHT)
    # exit 1 with the finding: a protocol error (exit 2) is no catch
    set_tests_properties(${name} PROPERTIES WILL_FAIL FALSE PASS_REGULAR_EXPRESSION "${ARG_EXPECT_CAUGHT}"
      FAIL_REGULAR_EXPRESSION "sinkcheck check-sink: .*: |PASS: every answer")
  endif()
endfunction()

# sinkcheck_content_named(VAR file...): VAR lists copies of the files in the build directory, in
# a folder named by the digest of their contents (sinkcheck-lists/<md5>/<index>-<name>). The flags
# that name a sanitizer or coverage list name the copy: ccache keys an object by its command line
# and its preprocessed source, not by the files a flag names, so with the list's own path in the
# flag an edited list left the objects compiled with the old one in the cache (seen: an entry
# added to coverage-ignorelist.txt had no effect until the cache was bypassed). Named by its
# contents, an edited list is a new flag. An edited list also configures again (configure_file).
function(sinkcheck_content_named var)
  set(all "")
  foreach(file ${ARGN})
    file(MD5 "${file}" digest)
    string(APPEND all "${digest}")
  endforeach()
  string(MD5 digest "${all}")
  set(copies "")
  set(index 0)
  foreach(file ${ARGN})
    get_filename_component(name "${file}" NAME)
    set(copy "${CMAKE_BINARY_DIR}/sinkcheck-lists/${digest}/${index}-${name}")
    configure_file("${file}" "${copy}" COPYONLY)
    list(APPEND copies "${copy}")
    math(EXPR index "${index} + 1")
  endforeach()
  set(${var} "${copies}" PARENT_SCOPE)
endfunction()

function(sinkcheck_add_sink_fuzzer name)
  cmake_parse_arguments(ARG "" "CORPUS" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE sinkcheck::testkit_core ${ARG_LIBS})
  if(SINKCHECK_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      message(FATAL_ERROR "SINKCHECK_FUZZ=ON needs clang (libFuzzer)")
    endif()
    # feedback from the code under test only (the lists beside this file say why)
    sinkcheck_content_named(lists "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/coverage-ignorelist.txt"
      "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ubsan-ignorelist.txt")
    list(GET lists 0 coverage_list)
    list(GET lists 1 ubsan_list)
    if(CMAKE_GENERATOR MATCHES "Ninja")  # it compiles from the build directory: the same flags in any clone
      file(RELATIVE_PATH coverage_list "${CMAKE_BINARY_DIR}" "${coverage_list}")
      file(RELATIVE_PATH ubsan_list "${CMAKE_BINARY_DIR}" "${ubsan_list}")
    endif()
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer "-fsanitize-coverage-ignorelist=${coverage_list}"
      "-fsanitize-ignorelist=${ubsan_list}")
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  else()
    sinkcheck_testkit_source(replay_main replay_main.cpp)
    target_sources(${name} PRIVATE "${replay_main}")
    if(ARG_CORPUS)
      add_test(NAME ${name}_replay COMMAND ${name} ${ARG_CORPUS})
      set_tests_properties(${name}_replay PROPERTIES LABELS "sinkcheck;fuzz-replay")
    endif()
  endif()
endfunction()

# sinkcheck_find_fuzzed_data_provider(VAR): a directory holding fuzzer/FuzzedDataProvider.h (clang's
# header, which value_from_bytes.hpp reads input with), or VAR-NOTFOUND. g++ gets a forwarding
# header, so that it does not see clang's other builtin headers.
function(sinkcheck_find_fuzzed_data_provider var)
  find_path(SINKCHECK_FDP_DIR fuzzer/FuzzedDataProvider.h
    HINTS ${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES}
    PATHS /usr/lib/llvm-14/lib/clang/14.0.6/include /usr/lib/llvm-16/lib/clang/16/include
          /usr/lib/llvm-15/lib/clang/15.0.6/include /usr/local/lib/clang/include)
  if(NOT SINKCHECK_FDP_DIR)
    set(${var} ${var}-NOTFOUND PARENT_SCOPE)
    return()
  endif()
  set(shim ${CMAKE_BINARY_DIR}/sinkcheck-fdp-include)
  file(CONFIGURE OUTPUT ${shim}/fuzzer/FuzzedDataProvider.h
    CONTENT "#pragma once\n#include \"${SINKCHECK_FDP_DIR}/fuzzer/FuzzedDataProvider.h\"\n")
  set(${var} ${shim} PARENT_SCOPE)
endfunction()

# What both encoder functions start with: the runner library must be there; LEVEL defaults to exact.
macro(sinkcheck_encoder_prologue caller)
  if(NOT TARGET sinkcheck::conform)
    message(FATAL_ERROR "${caller}: this sinkcheck has no conformance runner library (sinkcheck::conform); "
                        "it is installed with the testkit component when sinkcheck is built with SINKCHECK_BUILD_TESTS=ON")
  endif()
  if(NOT ARG_LEVEL)
    set(ARG_LEVEL exact)
  endif()
endmacro()

function(sinkcheck_add_encoder_check name)
  cmake_parse_arguments(ARG "" "LEVEL;EXPECTED_FAILURES;CORPUS" "SOURCES;LIBS;FORMATS;LABELS" ${ARGN})
  sinkcheck_encoder_prologue(sinkcheck_add_encoder_check)
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "sinkcheck_add_encoder_check(${name}): SOURCES is required (the traits and their SINKCHECK_ENCODER line)")
  endif()
  if(NOT ARG_CORPUS)
    set(ARG_CORPUS "${SINKCHECK_CONFORMANCE_CORPUS}")
  endif()
  sinkcheck_testkit_source(main encoder_check_main.cpp)
  add_executable(${name}-conform ${ARG_SOURCES} "${main}")
  target_link_libraries(${name}-conform PRIVATE sinkcheck::conform sinkcheck::testkit_core ${ARG_LIBS})
  set(args --level ${ARG_LEVEL} --corpus "${ARG_CORPUS}")
  if(ARG_EXPECTED_FAILURES)
    get_filename_component(list "${ARG_EXPECTED_FAILURES}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args --expected-failures "${list}")
  endif()
  if(ARG_FORMATS)
    foreach(format IN LISTS ARG_FORMATS)
      add_test(NAME ${name}_conform_${format} COMMAND ${name}-conform --format ${format} ${args})
      set_tests_properties(${name}_conform_${format} PROPERTIES LABELS "sinkcheck;conformance;${ARG_LABELS}")
    endforeach()
  else()
    add_test(NAME ${name}_conform COMMAND ${name}-conform ${args})
    set_tests_properties(${name}_conform PROPERTIES LABELS "sinkcheck;conformance;${ARG_LABELS}")
  endif()
endfunction()

function(sinkcheck_add_encoder_fuzzer name)
  cmake_parse_arguments(ARG "" "LEVEL;CORPUS;ENCODER" "SOURCES;LIBS" ${ARGN})
  sinkcheck_encoder_prologue(sinkcheck_add_encoder_fuzzer)
  if(NOT ARG_LEVEL MATCHES "^(exact|equivalent)$")
    message(FATAL_ERROR "sinkcheck_add_encoder_fuzzer(${name}): LEVEL is exact or equivalent, not '${ARG_LEVEL}'")
  endif()
  sinkcheck_find_fuzzed_data_provider(fdp)
  if(NOT fdp)
    message(FATAL_ERROR "sinkcheck_add_encoder_fuzzer(${name}): fuzzer/FuzzedDataProvider.h not found "
                        "(Debian: libclang-rt-14-dev); set SINKCHECK_FDP_DIR to the folder holding fuzzer/")
  endif()
  sinkcheck_testkit_source(fuzzer encoder_fuzzer.cpp)
  sinkcheck_add_sink_fuzzer(${name} SOURCES ${ARG_SOURCES} "${fuzzer}"
    LIBS sinkcheck::conform ${ARG_LIBS} CORPUS ${ARG_CORPUS})
  target_include_directories(${name} SYSTEM PRIVATE ${fdp})
  target_compile_definitions(${name} PRIVATE SINKCHECK_ENCODER_FUZZ_LEVEL=${ARG_LEVEL})
  if(ARG_ENCODER)
    target_compile_definitions(${name} PRIVATE "SINKCHECK_ENCODER_FUZZ_NAME=\"${ARG_ENCODER}\"")
  endif()
endfunction()
