#!/bin/bash -eu
# OSS-Fuzz run_tests.sh for sinkcheck: the project's unit tests, run in the build container after
# build.sh, with the compiler and flags OSS-Fuzz set for the fuzzers ($CXX, $CXXFLAGS).
#
# Builds reference/test's unit tests and the fuzz targets against the replay main (no fuzzing
# engine) in $WORK/sinkcheck-tests, then runs the unit tests (label unit, without the install
# test) and every regression and seed replay (label fuzz-replay): the inputs in
# corpus/regressions/ are the bugs the fuzzers found, and none may come back. The source tree is
# not written to. Exit status: ctest's (0 when every test passed).
#
# SINKCHECK_RUN_TESTS="unit_test fuzz_target ..." builds and runs only those (the local
# simulation, fuzz/test/oss_fuzz_build.sh, uses one of each to stay short).

src_root=${SINKCHECK_SRC:-$SRC/sinkcheck}
build="$WORK/sinkcheck-tests"
jobs=${SINKCHECK_BUILD_JOBS:-$(nproc)}

# the fuzzers' coverage instrumentation needs the engine's runtime, which a test binary does not
# link: compile the tests with the sanitizer flags only
flags=""
for f in $CXXFLAGS; do
  case "$f" in
    -fsanitize=fuzzer-no-link|-fsanitize-coverage=*) ;;
    *) flags="$flags $f" ;;
  esac
done

CXXFLAGS="$flags" cmake --preset oss-fuzz-tests -S "$src_root" -B "$build" >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log" >&2; echo "run_tests.sh: configure failed" >&2; exit 1; }

selected=${SINKCHECK_RUN_TESTS:-}
if [ -z "$selected" ]; then
  targets=(sinkcheck_fuzzers)
  for t in "$src_root"/reference/test/*_test.cpp; do targets+=("$(basename "$t" .cpp)"); done
  cmake --build "$build" -j "$jobs" --target "${targets[@]}"
  exec ctest --test-dir "$build" -j "$jobs" --output-on-failure --timeout 900 -L 'unit|fuzz-replay' -LE install
fi

# a selection: unit test executables run directly (their CTest names are the GoogleTest names),
# fuzz targets through their CTest replay tests
cmake --build "$build" -j "$jobs" --target $selected
fuzzers=""
for t in $selected; do
  case "$t" in
    fuzz_*) fuzzers="$fuzzers|$t" ;;
    *) "$build/reference/test/$t" --gtest_brief=1 ;;
  esac
done
if [ -n "$fuzzers" ]; then
  ctest --test-dir "$build" --output-on-failure --timeout 900 -R "^(${fuzzers#|})_(replay|regressions)\$" \
    --no-tests=error
fi
