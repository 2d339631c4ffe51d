#!/usr/bin/env bash
# afl-build.sh — the fuzz targets built with AFL++ instead of libFuzzer, and one short run.
#
# Uses fuzz/oss-fuzz/build.sh unchanged with afl-clang-fast++ (Debian package afl++) as the
# compiler and -fsanitize=fuzzer as the engine, which AFL++ maps to its libFuzzer-compatible
# driver; then fuzzes one target (default fuzz_decode) for a few seconds under afl-fuzz.
# usage: scripts/afl-build.sh [TARGET] [SECONDS]     output: build-afl/
# SINKCHECK_FUZZ_TARGETS="..." limits which targets are built (default: all).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
target=${1:-fuzz_decode}
seconds=${2:-30}

if ! command -v afl-clang-fast++ >/dev/null || ! command -v afl-fuzz >/dev/null; then
  echo "afl-build: installing afl++"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update
  "${sudo_cmd[@]}" apt-get install -y --no-install-recommends afl++ clang-14 nlohmann-json3-dev zip
fi

build="$root/build-afl"
rm -rf "$build/out" "$build/work"
mkdir -p "$build/out" "$build/work" "$build/src"
SRC="$build/src" OUT="$build/out" WORK="$build/work" SINKCHECK_SRC="$root" \
  NLOHMANN_JSON_INCLUDE=/usr/include CXX=afl-clang-fast++ CXXFLAGS="-O1 -g" \
  LIB_FUZZING_ENGINE="-fsanitize=fuzzer" AFL_QUIET=1 \
  bash "$root/fuzz/oss-fuzz/build.sh"
echo "afl-build: built $(find "$build/out" -maxdepth 1 -type f -name 'fuzz_*' ! -name '*.*' | wc -l) targets in $build/out"

findings="$build/findings-$target"
rm -rf "$findings"
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
dict=()
[ -f "$root/fuzz/$target.dict" ] && dict=(-x "$root/fuzz/$target.dict")
afl-fuzz -V "$seconds" -i "$root/corpus/$target" -o "$findings" "${dict[@]}" -- "$build/out/$target" \
  >"$build/afl-$target.log" 2>&1 || { tail -30 "$build/afl-$target.log" >&2; exit 1; }
stats="$findings/default/fuzzer_stats"
grep -E '^(execs_done|execs_per_sec|corpus_count|saved_crashes|saved_hangs|bitmap_cvg) ' "$stats"
crashes=$(sed -n 's/^saved_crashes *: *//p' "$stats")
[ "${crashes:-0}" -eq 0 ] || { echo "afl-build: $crashes crash(es) in $findings/default/crashes" >&2; exit 1; }
