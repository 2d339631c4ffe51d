#!/usr/bin/env bash
# fuzz-ci.sh — bounded fuzzing for CI: every libFuzzer target for a fixed number of runs.
#
# usage: scripts/fuzz-ci.sh [BUILD_DIR]
# BUILD_DIR is a build configured with clang, -DSINKCHECK_FUZZ=ON and -DSINKCHECK_SANITIZE=ON
# (scripts/test.sh passes build/clang-asan); without it, build-fuzz is configured and built
# here. Each target starts from a scratch copy of its seed corpus with a fixed seed, so a run is
# reproducible; SINKCHECK_FUZZ_CI_RUNS sets the runs per target (default 20000). Prints runs,
# exec/s and coverage features per target. Exit status: 0 when no target found anything.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-}
runs=${SINKCHECK_FUZZ_CI_RUNS:-20000}
min_speed=${SINKCHECK_FUZZ_CI_MIN_EXECS:-1000}

if [ -z "$build" ]; then
  build="$root/build-fuzz"
  cmake --preset fuzz-ci -S "$root" -B "$build" >/dev/null
  cmake --build "$build" --target sinkcheck_fuzzers -j "$(nproc)"
fi

# shellcheck source=fuzz-options.sh
source "$root/scripts/fuzz-options.sh"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0
slow=0
ran=0
printf '%-14s %8s %8s %10s %9s %s\n' target runs exec/s cpu-exec/s features result
for src in "$root"/fuzz/fuzz_*.cpp; do
  t=$(basename "$src" .cpp)
  bin="$build/fuzz/$t"
  if [ ! -x "$bin" ]; then
    echo "fuzz-ci: $t was not built in $build" >&2
    failed=$((failed + 1))
    continue
  fi
  mkdir -p "$scratch/$t/corpus" "$scratch/$t/findings"
  cp -r "$root/corpus/$t"/. "$scratch/$t/corpus"/ 2>/dev/null || true
  args=(-runs="$runs" -seed=1 -print_final_stats=1 -artifact_prefix="$scratch/$t/findings/")
  [ -f "$root/fuzz/$t.dict" ] && args+=(-dict="$root/fuzz/$t.dict")
  max_len=$(sed -n 's/^max_len *= *//p' "$root/fuzz/$t.options" 2>/dev/null || true)
  [ -n "$max_len" ] && args+=(-max_len="$max_len")
  log="$scratch/$t/fuzz.log"
  result=ok
  TIMEFORMAT='%U %S'
  { time with_options_env "$root/fuzz/$t.options" "$bin" "${args[@]}" "$scratch/$t/corpus" >"$log" 2>&1 ||
    result=FINDING; } 2>"$scratch/$t/cpu"
  done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  features=$(grep -E '^#[0-9]+.* ft: ' "$log" | tail -1 | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
  # exec/s per CPU second as well: on a shared machine the wall-clock rate mostly measures the load
  cpu_speed=$(awk -v runs="${done_runs:-0}" '{ t = $1 + $2; if (t > 0) printf "%d", runs / t; else print "?" }' "$scratch/$t/cpu")
  if [ "$result" = ok ] && [ "${speed:-0}" -lt "$min_speed" ] && [ "${cpu_speed:-0}" -lt "$min_speed" ]; then
    result="ok (below $min_speed exec/s)"
    slow=$((slow + 1))
  fi
  printf '%-14s %8s %8s %10s %9s %s\n' "$t" "${done_runs:-?}" "${speed:-?}" "${cpu_speed:-?}" "${features:-?}" "$result"
  ran=$((ran + 1))
  if [ "$result" = FINDING ]; then
    failed=$((failed + 1))
    echo "---- $t log (last 60 lines); saved inputs:" "$scratch/$t/findings"/* >&2
    tail -60 "$log" >&2
    mkdir -p "$root/out/fuzz-ci"
    cp "$scratch/$t/findings"/* "$root/out/fuzz-ci/" 2>/dev/null || true
    echo "---- reproduce: $bin $root/out/fuzz-ci/<file>" >&2
  fi
done
[ "$slow" -eq 0 ] || echo "fuzz-ci: $slow target(s) below $min_speed exec/s (a loaded machine, or a regression)"
echo "fuzz-ci: $((ran - failed)) passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$ran" -gt 0 ]
