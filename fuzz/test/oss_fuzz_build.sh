#!/usr/bin/env bash
# Runs fuzz/oss-fuzz/build.sh the way OSS-Fuzz's base-builder would (no Docker here): the
# environment variables set, clang, -fsanitize=fuzzer; then checks the $OUT layout OSS-Fuzz
# expects and that every binary runs its whole seed corpus. With SINKCHECK_FUZZ_TARGETS="a b"
# only those targets are built and checked (CI builds two: one plain, and fuzz_vectors, the one
# with extra sources).
# usage: oss_fuzz_build.sh SOURCE_DIR SCRATCH_DIR [CXX]
set -euo pipefail
src=$(cd "$1" && pwd)
scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch/out" "$scratch/work" "$scratch/src"

export SRC="$scratch/src" OUT="$scratch/out" WORK="$scratch/work"
export CC=${CC:-clang-14} CXX=${3:-clang++-14}
export SANITIZER=address FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64 FUZZING_LANGUAGE=c++
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
export SINKCHECK_SRC="$src" NLOHMANN_JSON_INCLUDE=/usr/include

bash "$src/fuzz/oss-fuzz/build.sh"

status=0
fail() { echo "oss-fuzz layout: $*" >&2; status=1; }
targets=${SINKCHECK_FUZZ_TARGETS:-}
if [ -z "$targets" ]; then
  for file in "$src"/fuzz/fuzz_*.cpp; do targets="$targets $(basename "$file" .cpp)"; done
fi
for t in $targets; do
  [ -x "$OUT/$t" ] || { fail "$t: no binary in \$OUT"; continue; }
  [ -f "$OUT/$t.options" ] || fail "$t: no $t.options"
  if [ -f "$src/fuzz/$t.dict" ] && [ ! -f "$OUT/$t.dict" ]; then fail "$t: dictionary not copied"; fi
  if [ -d "$src/corpus/$t" ]; then
    zip="$OUT/${t}_seed_corpus.zip"
    [ -f "$zip" ] || { fail "$t: no ${t}_seed_corpus.zip"; continue; }
    seeds="$WORK/seeds-$t"
    mkdir -p "$seeds"
    unzip -q -o "$zip" -d "$seeds"
    expected=$(find "$src/corpus/$t" -type f | wc -l)
    got=$(find "$seeds" -type f | wc -l)
    [ "$got" -eq "$expected" ] || fail "$t: seed zip holds $got files, corpus/$t has $expected"
    if ! "$OUT/$t" -runs=0 "$seeds" >"$WORK/$t.log" 2>&1; then
      fail "$t: failed on its seed corpus"; tail -30 "$WORK/$t.log" >&2
    else
      echo "oss-fuzz layout: $t ok ($got seeds, $(grep -o 'cov: [0-9]*' "$WORK/$t.log" | tail -1))"
    fi
  fi
done
extra=$(find "$OUT" -maxdepth 1 -type f -name 'fuzz_*' ! -name '*.zip' ! -name '*.dict' ! -name '*.options' | wc -l)
echo "oss-fuzz layout: $extra binaries in \$OUT"
exit $status
