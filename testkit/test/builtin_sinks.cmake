# builtin_sinks.cmake — every sink header of the reference is in the one list of sinks.
#
# reference/include/sinkcheck/sink/NAME.hpp declares a sink, and testkit/sinks.hpp's
# `using builtin_sinks = sink_list<...>` must name NAME_traits: a header left out of the list
# would compile and pass every test while no property, fuzzer or `sinkcheck check` ever drove it.
# Headers of the folder that are not sinks are listed below with the reason.
#
#   cmake -DSOURCE_DIR=<repository> [-DOMIT=NAME_traits] -P builtin_sinks.cmake
# OMIT reads the list as if NAME_traits were missing from it (the check's own test: it must fail).
cmake_minimum_required(VERSION 3.25)
set(not_sinks
  growth_observer  # the hook growing sinks call, no sink of its own
)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "builtin_sinks.cmake: -DSOURCE_DIR=<repository> is required")
endif()
set(list_file ${SOURCE_DIR}/testkit/include/sinkcheck/testkit/sinks.hpp)
file(READ ${list_file} text)
string(REGEX MATCH "using builtin_sinks = sink_list<[^>]*>" declaration "${text}")
if(NOT declaration)
  message(FATAL_ERROR "${list_file}: no 'using builtin_sinks = sink_list<...>' declaration")
endif()
string(REGEX MATCHALL "[a-z0-9_]+_traits" listed "${declaration}")
if(OMIT)
  list(REMOVE_ITEM listed ${OMIT})
endif()
file(GLOB headers RELATIVE ${SOURCE_DIR}/reference/include/sinkcheck/sink
     ${SOURCE_DIR}/reference/include/sinkcheck/sink/*.hpp)
set(missing "")
set(count 0)
foreach(header IN LISTS headers)
  string(REGEX REPLACE "\\.hpp$" "" name "${header}")
  if(name IN_LIST not_sinks)
    continue()
  endif()
  math(EXPR count "${count} + 1")
  if(NOT "${name}_traits" IN_LIST listed)
    string(APPEND missing "\n  reference/include/sinkcheck/sink/${header}: no ${name}_traits in builtin_sinks")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "builtin_sinks.cmake: no sink header under ${SOURCE_DIR}/reference/include/sinkcheck/sink")
endif()
if(missing)
  message(FATAL_ERROR "${list_file}: sink headers missing from builtin_sinks:${missing}\n"
                      "(add the traits to the list, or name the header in testkit/test/builtin_sinks.cmake's not_sinks with why)")
endif()
message(STATUS "builtin_sinks: all ${count} sink headers are in the list")
