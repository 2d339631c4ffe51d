#!/usr/bin/env bash
# The test command: installs what is missing (what the g++ build needs first, the rest during
# that build), then
#   1. builds everything with g++ and warnings as errors;
#   2. checks the layout of every C++ file against .clang-format, and runs every test of the g++
#      build (build/gcc), the examples/ project against this tree installed into a scratch prefix
#      among them (label examples);
#   3. builds everything with clang 14, AddressSanitizer + UndefinedBehaviorSanitizer
#      (LeakSanitizer on, halt on the first error), libFuzzer and source-based coverage, runs every
#      test again but the sweeps (label sweep) and the broken-sink gallery (label gallery), and
#      reports the coverage of reference/ against .ci/coverage-floor (build/clang-asan);
#   4. runs clang-tidy over conformance/, tools/ and the reference/ units that instantiate every
#      header (scripts/tidy.sh --ci; without --ci it takes every unit of reference/ too);
#   5. runs every fuzzer for a bounded number of runs;
#   6. clones the repository into an empty directory and runs the README's main-job command
#      there with a short fuzzing budget (scripts/fresh-machine.sh).
# Each stage prints its wall time. Exit status: 0 when every stage passed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=$(nproc)

# What the g++ build needs is installed first; the rest (clang and LLVM 14, afl++, Go, Rust, the
# Python encoders: about 1.3 GB on a new machine) installs while g++ compiles, and the stages from
# the format check on wait for it. On the way out the script waits for apt-get too, so that a
# stage that fails does not leave an install half done.
bash scripts/setup.sh --build
rest_log=$(mktemp /tmp/sinkcheck-setup.XXXXXX)
bash scripts/setup.sh >"$rest_log" 2>&1 &
rest_pid=$!
trap 'wait "$rest_pid" 2>/dev/null || true; rm -f "$rest_log"' EXIT
rest_of_setup() {
  local status=0
  wait "$rest_pid" || status=$?
  cat "$rest_log"
  [ "$status" -eq 0 ] || echo "test: scripts/setup.sh (the packages installed during the g++ build) failed: $status" >&2
  return "$status"
}

declare -a timings=()
stage() {
  local name=$1; shift
  local start=$SECONDS
  echo "=== ${name}"
  "$@"
  timings+=("$(printf '%-24s %5d s' "$name" $((SECONDS - start)))")
  echo "=== ${name}: done in $((SECONDS - start)) s"
}

# LeakSanitizer is part of ASan's defaults; no suppression file is used
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# Both builds are configured from CMakePresets.json (presets gcc and clang-asan, which say why
# each flag is there).
# ccache (scripts/setup.sh installs it; the gcc and clang-asan presets name it as launcher): a
# rerun compiles only what changed, and the fresh-machine stage's builds (the tool with g++, the
# fuzz targets with the clang-asan flags, CMakePresets.json's clang-instrumented) come from this
# run's. Paths are hashed relative to the checkout, so another clone hits the same entries; the
# clang build records its paths relative to the build directory (-ffile-compilation-dir=.), so a
# cached object's coverage map and line tables hold in any clone.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true
else
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=)
fi

stage "configure gcc" cmake --preset gcc "${launcher[@]}"
stage "build gcc" cmake --build build/gcc -j "$jobs"
stage "rest of setup" rest_of_setup
stage "format check" bash scripts/format.sh --check
stage "test gcc" ctest --test-dir build/gcc --output-on-failure -j "$jobs" --timeout 900

# The libFuzzer runs (label fuzz) are left to stage 5, which runs the same targets longer; the
# simulated OSS-Fuzz build compiles two targets (a quick plain one and the one with extra sources),
# and its run_tests.sh check builds the quick one through CMake (SINKCHECK_OSS_RUN_TESTS: the one
# with regression inputs compiles four runner sources a second time, for the same script path).
# The unit and conformance tests are compiled unoptimised in both builds
# (SINKCHECK_UNIT_TEST_FLAGS). The sweeps (label sweep: one check repeated over the whole corpus
# or many values through process encoders, conformance/runner/CMakeLists.txt) ran in the g++
# stage; under the sanitizers they would take about half of this stage's tests' time to go
# through code the smaller tests run. The
# broken-sink gallery (label gallery: each deliberately broken sink must be caught by a property)
# judges the properties' power, not memory safety, and every one of its sinks is caught in the
# g++ stage; under the sanitizers it took 632 of this stage's 1,600 test-seconds, and it is not
# built here (preset clang-asan: SINKCHECK_GALLERY=OFF). Coverage counters go into the sources the
# coverage report measures only (cmake/coverage-sources.txt).
profiles="$root/build/clang-asan/profiles"
stage "configure clang-asan" cmake --preset clang-asan "${launcher[@]}"
stage "build clang-asan" cmake --build build/clang-asan -j "$jobs"
rm -rf "$profiles"
stage "test clang-asan" env LLVM_PROFILE_FILE="$profiles/%4m.profraw" \
  ctest --test-dir build/clang-asan --output-on-failure -j "$jobs" --timeout 900 -LE '^(fuzz|sweep|gallery)$'
stage "coverage" bash scripts/coverage.sh --report-only --no-install --build build/clang-asan

stage "clang-tidy" bash scripts/tidy.sh --ci

# 5,000 runs per target keep this stage to a few minutes on 2 cores; nightly runs use more
stage "fuzz (bounded runs)" env SINKCHECK_FUZZ_CI_RUNS="${SINKCHECK_FUZZ_CI_RUNS:-5000}" \
  LLVM_PROFILE_FILE="$root/build/clang-asan/fuzz-profiles/%4m.profraw" \
  bash scripts/fuzz-ci.sh "$root/build/clang-asan"

# One second per target: the stage shows that the README's main job runs from a clean clone and
# writes its report (each target still runs a thousand inputs or more); stage 5 is the fuzzing.
stage "fresh machine" bash scripts/fresh-machine.sh --main-only --budget "${SINKCHECK_FRESH_BUDGET:-1}"

echo "=== wall time per stage"
printf '  %s\n' "${timings[@]}"
echo "all stages passed in $SECONDS s"
