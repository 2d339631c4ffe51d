# Shared build settings and the small helpers every part of the build uses.
include(${CMAKE_CURRENT_LIST_DIR}/../testkit/cmake/SinkcheckTestkit.cmake)

# Warnings for sinkcheck's own targets (not forced on projects that consume the library).
add_library(sinkcheck_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(sinkcheck_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion)
  if(SINKCHECK_WERROR)
    target_compile_options(sinkcheck_warnings INTERFACE -Werror)
  endif()
endif()
# Names reserved to the implementation (__x, _X, _x at global scope) in sinkcheck's own code: the
# compiler sees only user code, where clang-tidy's bugprone-reserved-identifier also judged every
# name of the standard library's headers (about 29,000 findings thrown away per unit, .clang-tidy).
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  target_compile_options(sinkcheck_warnings INTERFACE -Wreserved-identifier)
endif()

if(SINKCHECK_SANITIZE)
  set(SINKCHECK_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${SINKCHECK_SANITIZER_FLAGS})
  add_link_options(${SINKCHECK_SANITIZER_FLAGS})
endif()

if(SINKCHECK_COVERAGE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SINKCHECK_COVERAGE=ON needs clang (source-based coverage); configure with -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  # Where a program writes its profile when LLVM_PROFILE_FILE is not set (the scripts always set
  # it): an absolute path, merged per binary, instead of clang's default.profraw in whatever
  # directory the program ran in. Absolute also for ccache, which hashes the working directory of
  # a compile whose profile path is relative, so no other build directory would find the objects.
  set(SINKCHECK_PROFILE_FILE "/tmp/sinkcheck-%m.profraw" CACHE STRING
      "Default profile of coverage-instrumented programs (LLVM_PROFILE_FILE overrides it at run time)")
  # Only the sources coverage is measured on get counters (cmake/coverage-sources.txt, turned into
  # clang's profile list). The list is named by its content's hash, so that ccache, which hashes
  # the flag and not the file, compiles again when the list changes; under Ninja, which compiles
  # from the build directory, the name is relative to it, so the flag is the same in every clone.
  # The flag goes to clang's front end through -Xclang: ccache 4.7 does not cache a compile that
  # names the driver's -fprofile-list ("unsupported compiler option"), and hashes -Xclang's
  # argument like any other.
  file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/coverage-sources.txt coverage_sources REGEX "^[^#]")
  set(profile_list "")
  foreach(source IN LISTS coverage_sources)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${source})
      message(FATAL_ERROR "cmake/coverage-sources.txt names ${source}, which does not exist")
    endif()
    if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/${source})
      string(APPEND profile_list "src:*/${source}/*\n")
    else()
      string(APPEND profile_list "src:*/${source}\n")
    endif()
  endforeach()
  string(MD5 profile_list_hash "${profile_list}")
  set(profile_list_file ${CMAKE_BINARY_DIR}/coverage-sources-${profile_list_hash}.list)
  # written only when its content changes: every object's depfile names it, so rewriting it at
  # each configure would rebuild the whole tree
  file(CONFIGURE OUTPUT ${profile_list_file} CONTENT "${profile_list}" @ONLY)
  if(CMAKE_GENERATOR MATCHES "Ninja")
    file(RELATIVE_PATH profile_list_file ${CMAKE_BINARY_DIR} ${profile_list_file})
  endif()
  add_compile_options(-fprofile-instr-generate=${SINKCHECK_PROFILE_FILE} -fcoverage-mapping
                      "SHELL:-Xclang -fprofile-list=${profile_list_file}")
  add_link_options(-fprofile-instr-generate=${SINKCHECK_PROFILE_FILE})
endif()

# sinkcheck_add_test(NAME SOURCES src... [LIBS lib...] [LABELS label...] [TIMEOUT s]
#                    [SWEEPS regex] [ENVIRONMENT VAR=value...])
# One GoogleTest executable; each TEST() becomes its own CTest test. The tests whose name
# matches SWEEPS get label sweep too: a check repeated over the whole corpus or many values
# through processes, run by the g++ stage and left out of the sanitizer stage (scripts/test.sh).
function(sinkcheck_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT;SWEEPS" "SOURCES;LIBS;LABELS;ENVIRONMENT" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE sinkcheck::testkit_core sinkcheck_warnings GTest::gtest GTest::gtest_main ${ARG_LIBS})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  if(ARG_SWEEPS)
    sinkcheck_discover_gtests(${name} LABELS ${ARG_LABELS} TIMEOUT ${ARG_TIMEOUT} EXTRA_LABEL sweep MATCHING "${ARG_SWEEPS}"
      ENVIRONMENT ${ARG_ENVIRONMENT})
  else()
    sinkcheck_discover_gtests(${name} LABELS ${ARG_LABELS} TIMEOUT ${ARG_TIMEOUT} ENVIRONMENT ${ARG_ENVIRONMENT})
  endif()
endfunction()
