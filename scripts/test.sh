#!/usr/bin/env bash
# The test command: installs what is missing, then builds and tests everything twice —
# g++ with warnings as errors, and clang 14 with AddressSanitizer + UndefinedBehaviorSanitizer
# (LeakSanitizer on) and the libFuzzer binaries (benchmarks only in the first) — and finally
# runs the fuzzers briefly.
# Build trees: build/gcc and build/clang-asan. Exit status: 0 when every stage passed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=$(nproc)

bash scripts/setup.sh

stage() {
  local name=$1; shift
  local start=$SECONDS
  echo "=== ${name}"
  "$@"
  echo "=== ${name}: done in $((SECONDS - start)) s"
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

stage "configure gcc" cmake -S . -B build/gcc -G Ninja -DCMAKE_CXX_COMPILER=g++ -DSINKCHECK_WERROR=ON
stage "build gcc" cmake --build build/gcc -j "$jobs"
stage "test gcc" ctest --test-dir build/gcc --output-on-failure -j "$jobs" --timeout 900

stage "configure clang-asan" cmake -S . -B build/clang-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 \
  -DSINKCHECK_WERROR=ON -DSINKCHECK_SANITIZE=ON -DSINKCHECK_FUZZ=ON -DSINKCHECK_BUILD_BENCH=OFF
stage "build clang-asan" cmake --build build/clang-asan -j "$jobs"
stage "test clang-asan" ctest --test-dir build/clang-asan --output-on-failure -j "$jobs" --timeout 900

if [ -f scripts/fuzz-ci.sh ]; then
  # 5,000 runs per target keep this stage to a few minutes on 2 cores; nightly runs use more
  stage "fuzz (bounded runs)" env SINKCHECK_FUZZ_CI_RUNS="${SINKCHECK_FUZZ_CI_RUNS:-5000}" \
    bash scripts/fuzz-ci.sh "$root/build/clang-asan"
fi
echo "all stages passed"
