#!/usr/bin/env bash
# The benchmark command: builds the benchmarks in Release with g++ (build-bench-gcc) and with
# clang++-14 (build-bench-clang), runs every row of bench/README.md (rows 1, 3, 4, 5, 11, 12, 13,
# 14 and 15 with both compilers, the others with g++; rows 1, 11, 12, 14 and 16 once more with
# the heap kept, with both compilers),
# runs the perf gate, and writes docs/bench/results.md and docs/bench/ratios.svg from what the
# runs printed.
#
#   scripts/bench.sh [--quick]      --quick: 3 repetitions, short timings (a smoke run only)
#
# Environment: SINKCHECK_BENCH_REPS (default 15; the method asks for at least 11).
# The raw output of each run is kept next to the results (docs/bench/raw-*.tsv).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

reps=${SINKCHECK_BENCH_REPS:-15}
quick=()
if [ "${1:-}" = "--quick" ]; then
  quick=(--quick)
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/bench.sh [--quick]" >&2
  exit 2
fi
if [ ${#quick[@]} -eq 0 ] && [ "$reps" -lt 11 ]; then
  echo "bench.sh: SINKCHECK_BENCH_REPS=$reps; the method needs at least 11 repetitions" >&2
  exit 2
fi

out=docs/bench
mkdir -p "$out"
targets=(bench_encoders bench_peers bench_sinks bench_utf8 bench_tool sinkcheck_cli bench_fault_cost perf_gate)

build() {  # build PRESET DIR (CMakePresets.json: Release, warnings not errors, and why)
  cmake --preset "$1" > /dev/null
  cmake --build "$2" --target "${targets[@]}" -j 2
}

compiler_label() {  # the compiler's name and version, for the tables
  "$1" --version | head -n 1 | sed -E 's/ \(.*\)//; s/^Debian //'
}

echo "=== build (g++, clang++-14)"
build bench-gcc build-bench-gcc
build bench-clang build-bench-clang
gcc_label=$(compiler_label g++)
clang_label=$(compiler_label clang++-14)

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
fault_before=$(build-bench-gcc/bench/bench_fault_cost)
started=$(date -u '+%Y-%m-%d %H:%M UTC')

run() {  # run NAME BINARY LABEL [ARGS...]
  local name=$1 binary=$2 label=$3
  shift 3
  echo "=== $name"
  "$binary" "${quick[@]}" --reps "$reps" --compiler "$label" "$@" | tee "$out/raw-$name.tsv"
}

run encoders-gcc build-bench-gcc/bench/bench_encoders "$gcc_label"
run sinks-gcc build-bench-gcc/bench/bench_sinks "$gcc_label"
run peers-gcc build-bench-gcc/bench/bench_peers "$gcc_label"
run encoders-clang build-bench-clang/bench/bench_encoders "$clang_label" --only 1 --only 5 --only 11 --only 14
run peers-clang build-bench-clang/bench/bench_peers "$clang_label"
run sinks-clang build-bench-clang/bench/bench_sinks "$clang_label" --only 3 --only 4
run utf8-gcc build-bench-gcc/bench/bench_utf8 "$gcc_label"
run utf8-clang build-bench-clang/bench/bench_utf8 "$clang_label"
run tool-gcc build-bench-gcc/bench/bench_tool "$gcc_label" --sinkcheck build-bench-gcc/tools/sinkcheck
run tool-clang build-bench-clang/bench/bench_tool "$clang_label" --sinkcheck build-bench-clang/tools/sinkcheck
# Rows 1, 11, 14 and 16 again with glibc told to keep freed memory (bench/paired.hpp, keep_heap):
# the same encoders in a long-running process, without the page faults that every call from a
# trimmed heap (the default, cold_heap) pays for its fresh vector (row 11's nlohmann side, too).
kept_rows=(--only 1 --only 11 --only 14 --only 16 --keep-heap)
run encoders-gcc-heap-kept build-bench-gcc/bench/bench_encoders "$gcc_label, heap kept" "${kept_rows[@]}"
run encoders-clang-heap-kept build-bench-clang/bench/bench_encoders "$clang_label, heap kept" "${kept_rows[@]}"
run peers-gcc-heap-kept build-bench-gcc/bench/bench_peers "$gcc_label, heap kept" --keep-heap
run peers-clang-heap-kept build-bench-clang/bench/bench_peers "$clang_label, heap kept" --keep-heap

echo "=== perf gate (callgrind)"
gate_log=$out/raw-perf-gate.txt
: > "$gate_log"
for dir in build-bench-gcc build-bench-clang; do
  echo "-- $dir" >> "$gate_log"
  # -V shows the table of a passing test too; its lines come prefixed with the test's number
  ctest --test-dir "$dir" -L perf-gate -V 2>&1 | sed -n 's/^[0-9][0-9]*: //p' |
    grep -v -E '^(Test command|Working Directory|Test timeout|Environment)' >> "$gate_log" || true
done
cat "$gate_log"

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
fault_after=$(build-bench-gcc/bench/bench_fault_cost)
machine=$out/raw-machine.md
{
  echo "- command: \`scripts/bench.sh${quick:+ --quick}\` with SINKCHECK_BENCH_REPS=$reps, started $started"
  caches=$(lscpu | sed -n 's/^L\([123][di]*\) cache: *\(.*\)/L\1 \2/p' | paste -sd ';' | sed 's/;/; /g')
  echo "- CPU: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores online); caches: ${caches:-not reported by lscpu}"
  echo "- memory: $(free -g | awk '/^Mem:/ {print $2 " GiB"}'); kernel $(uname -r); $(ldd --version | head -n 1)"
  echo "- compilers: $gcc_label (build-bench-gcc), $clang_label (build-bench-clang); CMake Release (-O3 -DNDEBUG)"
  echo "- load average (1, 5, 15 min) before: $load_before; after: $load_after (2 cores shared with other jobs)"
  echo "- page faults (bench/fault_cost.cpp) before: $fault_before; after: $fault_after"
  echo "- every timed call starts from a heap trimmed back to the kernel, except in the runs labelled \"heap kept\" (bench/README.md, Method)"
} > "$machine"

python3 bench/report.py --machine "$machine" --notes bench/results_notes.md --gate "$gate_log" \
  --md "$out/results.md" --svg "$out/ratios.svg" "$out"/raw-{encoders,peers,sinks,utf8,tool}-gcc.tsv \
  "$out"/raw-{encoders,peers,sinks,utf8,tool}-clang.tsv "$out"/raw-{encoders,peers}-{gcc,clang}-heap-kept.tsv
echo "=== wrote $root/$out/results.md and $root/$out/ratios.svg"
