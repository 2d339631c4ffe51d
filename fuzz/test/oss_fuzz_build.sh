#!/usr/bin/env bash
# Runs the OSS-Fuzz and ClusterFuzzLite builds the way their base-builder image would (no Docker
# here: the environment variables set, clang, the engine's link flags) and checks what each one
# leaves in $OUT. One check per line of SINKCHECK_OSS_CHECKS (default: all of them):
#
#   libfuzzer  .clusterfuzzlite/build.sh (which runs fuzz/oss-fuzz/build.sh) with libFuzzer and
#              ASan: every target's binary, .options, .dict and <target>_seed_corpus.zip (the
#              seeds plus corpus/regressions/<target>/), and every binary runs its whole zip
#   cflite     every .github/workflows/cflite_*.yml: its trigger, mode and storage settings, and
#              for each sanitizer a workflow builds with (address, undefined, coverage) that
#              build, whose binaries must run their seeds (the coverage build must also leave
#              profiles that llvm-cov reads as coverage of reference/)
#   afl        the same build.sh with afl-clang-fast++ (AFL++'s driver instead of libFuzzer): the
#              binary runs its seeds, and afl-fuzz fuzzes it for a few seconds
#   honggfuzz  the same with hfuzz-clang++, and honggfuzz fuzzes it for a few seconds, when both
#              are on PATH (not a Debian package; otherwise the check says it was skipped)
#   centipede  built and laid out with the runner library CENTIPEDE_RUNNER names (likewise)
#   run_tests  fuzz/oss-fuzz/run_tests.sh with OSS-Fuzz's ASan flags: the seed and regression
#              replays of one target (SINKCHECK_RUN_TESTS="unit_test target ..." chooses)
#
# Every check but libfuzzer builds only the first target. With SINKCHECK_FUZZ_TARGETS="a b"
# only those targets are built and checked (CI builds two: fuzz_decode, plain and the quickest to
# compile, since every check builds the first target again, and fuzz_vectors, the one with extra
# sources; SINKCHECK_RUN_TESTS=fuzz_decode has run_tests build that one again rather than
# fuzz_vectors). Exit status: 0 all checks passed, 1 one failed, 2 usage error.
# usage: oss_fuzz_build.sh SOURCE_DIR SCRATCH_DIR [CXX]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: oss_fuzz_build.sh SOURCE_DIR SCRATCH_DIR [CXX]" >&2; exit 2; }
src=$(cd "$1" && pwd)
scratch=$2
compiler=${3:-clang++-14}
checks=${SINKCHECK_OSS_CHECKS:-libfuzzer cflite afl honggfuzz centipede run_tests}
rm -rf "$scratch"
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)

targets=${SINKCHECK_FUZZ_TARGETS:-}
if [ -z "$targets" ]; then
  for file in "$src"/fuzz/fuzz_*.cpp; do targets="$targets $(basename "$file" .cpp)"; done
fi
read -r first _ <<<"$targets"

status=0
fail() { echo "oss-fuzz: $*" >&2; status=1; }

# flags base-builder sets per sanitizer (infra/base-images/base-clang's SANITIZER_FLAGS_*)
ubsan_checks=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr
sanitizer_flags() {
  case "$1" in
    address) echo "-fsanitize=address -fsanitize-address-use-after-scope" ;;
    undefined) echo "-fsanitize=$ubsan_checks -fno-sanitize-recover=${ubsan_checks/unsigned-integer-overflow,/}" ;;
    coverage) echo "-fprofile-instr-generate -fcoverage-mapping -pthread -Wl,--no-as-needed -Wl,-ldl -Wl,-lm -Wno-unused-command-line-argument" ;;
    *) echo "oss-fuzz: unknown sanitizer '$1'" >&2; return 1 ;;
  esac
}

# build NAME BUILD_SH SANITIZER ENGINE CXX LINK TARGETS: a fresh $SRC, $OUT and $WORK under
# $scratch/NAME, the base-builder environment, and the build script
build() {
  local name=$1 script=$2 sanitizer=$3 engine=$4 cxx=$5 link=$6 which=$7 dir="$scratch/$1" flags
  mkdir -p "$dir/out" "$dir/work" "$dir/src"
  ln -s "$src" "$dir/src/sinkcheck"
  flags="-O1 -fno-omit-frame-pointer -gline-tables-only $(sanitizer_flags "$sanitizer")"
  [ "$engine" = libfuzzer ] && flags="$flags -fsanitize=fuzzer-no-link"
  echo "oss-fuzz: $name: $script, $engine, $sanitizer, $which"
  if ! env SRC="$dir/src" OUT="$dir/out" WORK="$dir/work" CC=clang-14 CXX="$cxx" \
       SANITIZER="$sanitizer" FUZZING_ENGINE="$engine" ARCHITECTURE=x86_64 FUZZING_LANGUAGE=c++ \
       CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE="$link" SINKCHECK_SRC="$src" \
       NLOHMANN_JSON_INCLUDE=/usr/include SINKCHECK_FUZZ_TARGETS="$which" AFL_QUIET=1 \
       bash "$src/$script" >"$dir/build.log" 2>&1; then
    fail "$name: $script failed"; tail -30 "$dir/build.log" >&2; return 1
  fi
}

# seeds_of DIR TARGET: unpacks the target's seed zip into DIR/work/seeds-TARGET, checks it holds
# corpus/TARGET and corpus/regressions/TARGET (READMEs aside) and sets seeds to that folder (empty
# when the target has neither)
seeds=""
seeds_of() {
  local dir=$1 t=$2 zip="$1/out/${2}_seed_corpus.zip" expected got
  seeds=""
  expected=0
  [ ! -d "$src/corpus/$t" ] || expected=$(find "$src/corpus/$t" -type f | wc -l)
  if [ -d "$src/corpus/regressions/$t" ]; then
    expected=$((expected + $(find "$src/corpus/regressions/$t" -maxdepth 1 -type f ! -name 'README*' | wc -l)))
  fi
  [ "$expected" -gt 0 ] || return 0
  [ -f "$zip" ] || { fail "$t: no ${t}_seed_corpus.zip"; return 0; }
  seeds="$dir/work/seeds-$t"
  rm -rf "$seeds" && mkdir -p "$seeds"
  unzip -q -o "$zip" -d "$seeds"
  got=$(find "$seeds" -type f | wc -l)
  [ "$got" -eq "$expected" ] || fail "$t: seed zip holds $got files, seeds and regression inputs are $expected"
}

# layout DIR TARGETS: the files OSS-Fuzz expects next to each binary
layout() {
  local dir=$1 t
  for t in $2; do
    [ -x "$dir/out/$t" ] || { fail "$t: no binary in \$OUT"; continue; }
    [ -f "$dir/out/$t.options" ] || fail "$t: no $t.options"
    if [ -f "$src/fuzz/$t.dict" ] && [ ! -f "$dir/out/$t.dict" ]; then fail "$t: dictionary not copied"; fi
  done
}

# run_seeds NAME DIR TARGETS: each libFuzzer-style binary runs its whole seed zip once
run_seeds() {
  local name=$1 dir=$2 t
  for t in $3; do
    [ -x "$dir/out/$t" ] || continue
    seeds_of "$dir" "$t"
    [ -n "$seeds" ] || continue
    if ! "$dir/out/$t" -runs=0 "$seeds" >"$dir/work/$t.log" 2>&1; then
      fail "$name: $t failed on its seed corpus"; tail -30 "$dir/work/$t.log" >&2
    else
      echo "oss-fuzz: $name: $t ok ($(find "$seeds" -type f | wc -l) seeds, $(grep -o 'cov: [0-9]*' "$dir/work/$t.log" | tail -1))"
    fi
  done
}

# workflow_value FILE KEY: the value of the first "KEY: value" line of a workflow
workflow_value() { sed -n "s/^ *$2: *//p" "$1" | head -1; }

check_workflows() {
  local wf mode sanitizers=""
  shopt -s nullglob
  local files=("$src"/.github/workflows/cflite_*.yml)
  [ ${#files[@]} -gt 0 ] || { fail "cflite: no .github/workflows/cflite_*.yml"; return; }
  for wf in "${files[@]}"; do
    local name
    name=$(basename "$wf")
    grep -q 'google/clusterfuzzlite/actions/build_fuzzers@' "$wf" || fail "cflite: $name does not build"
    grep -q 'google/clusterfuzzlite/actions/run_fuzzers@' "$wf" || fail "cflite: $name does not run"
    grep -q 'language: c++' "$wf" || fail "cflite: $name: language is not c++"
    grep -q 'storage-repo: https://' "$wf" || fail "cflite: $name keeps no corpus in a storage repository"
    mode=$(workflow_value "$wf" mode)
    case "$mode" in
      code-change) grep -q '^  pull_request:' "$wf" || fail "cflite: $name: code-change without pull_request" ;;
      batch|prune|coverage)
        grep -q "cron: '" "$wf" || fail "cflite: $name: $mode without a schedule"
        grep -q 'storage-repo-branch-coverage:' "$wf" || fail "cflite: $name: no coverage branch" ;;
      *) fail "cflite: $name: unknown mode '$mode'" ;;
    esac
    [ "$mode" != batch ] || grep -q 'parallel-fuzzing: true' "$wf" || fail "cflite: $name: batch without parallel fuzzing"
    [ "$mode" != coverage ] || [ "$(workflow_value "$wf" sanitizer)" = coverage ] ||
      fail "cflite: $name: coverage mode needs the coverage build"
    # the sanitizers: a matrix list, or the value of every "sanitizer:" line
    local s
    for s in $(sed -n 's/^ *sanitizer: *\[\(.*\)\]/\1/p' "$wf" | tr ',' ' ') \
             $(sed -n 's/^ *sanitizer: *\([a-z]*\) *$/\1/p' "$wf"); do
      case " $sanitizers " in *" $s "*) ;; *) sanitizers="$sanitizers $s" ;; esac
    done
    echo "oss-fuzz: cflite: $name: mode $mode"
  done
  for s in $sanitizers; do
    # address is the libfuzzer check's build of every target; the others build the first one
    if [ "$s" = address ] && [[ " $checks " == *" libfuzzer "* ]]; then continue; fi
    build "cflite-$s" .clusterfuzzlite/build.sh "$s" libfuzzer "$compiler" -fsanitize=fuzzer "$first" || continue
    layout "$scratch/cflite-$s" "$first"
    if [ "$s" = coverage ]; then
      export LLVM_PROFILE_FILE="$scratch/cflite-$s/work/profiles/%m.profraw"
      run_seeds "cflite-$s" "$scratch/cflite-$s" "$first"
      unset LLVM_PROFILE_FILE
      check_coverage "$scratch/cflite-$s" "$first"
    else
      # as ClusterFuzzLite runs them: unsigned wrap-around is instrumented but not reported
      UBSAN_OPTIONS=silence_unsigned_overflow=1:halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-} \
        run_seeds "cflite-$s" "$scratch/cflite-$s" "$first"
    fi
  done
}

# check_coverage DIR TARGET: the profiles the seeds left are coverage of reference/
check_coverage() {
  local dir=$1 t=$2 data="$1/work/all.profdata" line
  shopt -s nullglob
  local raw=("$dir"/work/profiles/*.profraw)
  [ ${#raw[@]} -gt 0 ] || { fail "cflite-coverage: $t left no profile"; return; }
  llvm-profdata-14 merge -sparse "${raw[@]}" -o "$data"
  line=$(llvm-cov-14 report -instr-profile="$data" "$dir/out/$t" "$src/reference/include" | tail -1)
  echo "oss-fuzz: cflite-coverage: reference/ from $t's seeds: $line"
  [[ "$line" == TOTAL* ]] || fail "cflite-coverage: no coverage of reference/ in the report"
}

check_afl() {
  command -v afl-clang-fast++ >/dev/null && command -v afl-fuzz >/dev/null ||
    { fail "afl: afl-clang-fast++ or afl-fuzz missing (Debian package afl++)"; return; }
  # Debian's afl-clang-fast++ maps -fsanitize=fuzzer to AFL++'s libFuzzer-compatible driver
  build afl fuzz/oss-fuzz/build.sh address afl afl-clang-fast++ -fsanitize=fuzzer "$first" || return
  local dir="$scratch/afl"
  layout "$dir" "$first"
  seeds_of "$dir" "$first"
  [ -n "$seeds" ] || return
  if ! find "$seeds" -type f -print0 | xargs -0 "$dir/out/$first" >"$dir/work/replay.log" 2>&1; then
    fail "afl: $first failed on its seeds"; tail -30 "$dir/work/replay.log" >&2; return
  fi
  # afl-fuzz refuses a caller's ASAN_OPTIONS (CI sets some) unless they leave symbolising off
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}symbolize=0:abort_on_error=1" \
    AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 \
    afl-fuzz -V 5 -i "$seeds" -o "$dir/work/afl" -- "$dir/out/$first" \
    >"$dir/work/afl-fuzz.log" 2>&1 || { fail "afl: afl-fuzz failed"; tail -30 "$dir/work/afl-fuzz.log" >&2; return; }
  local stats="$dir/work/afl/default/fuzzer_stats" execs crashes
  execs=$(sed -n 's/^execs_done *: *//p' "$stats")
  crashes=$(sed -n 's/^saved_crashes *: *//p' "$stats")
  [ "${execs:-0}" -gt 0 ] || fail "afl: afl-fuzz ran nothing"
  [ "${crashes:-0}" -eq 0 ] || fail "afl: afl-fuzz saved $crashes crash(es) in $dir/work/afl/default/crashes"
  echo "oss-fuzz: afl: $first ran its seeds; afl-fuzz: $execs executions in 5 s, ${crashes:-0} crashes"
}

# honggfuzz: hfuzz-clang++ links libhfuzz's main; each seed runs once (the binary reads the file
# named last), then honggfuzz fuzzes it for a few seconds. Neither honggfuzz nor centipede is a
# Debian package: without hfuzz-clang++ and honggfuzz on PATH the check says it was skipped.
check_honggfuzz() {
  if ! command -v hfuzz-clang++ >/dev/null || ! command -v honggfuzz >/dev/null; then
    echo "oss-fuzz: honggfuzz: skipped (hfuzz-clang++ and honggfuzz are not on PATH)"
    return
  fi
  build honggfuzz fuzz/oss-fuzz/build.sh address honggfuzz hfuzz-clang++ "" "$first" || return
  local dir="$scratch/honggfuzz" summary
  layout "$dir" "$first"
  seeds_of "$dir" "$first"
  [ -n "$seeds" ] || return
  if ! find "$seeds" -type f -print0 | xargs -0 -n 1 "$dir/out/$first" >"$dir/work/replay.log" 2>&1; then
    fail "honggfuzz: $first failed on its seeds"; tail -30 "$dir/work/replay.log" >&2; return
  fi
  honggfuzz --run_time 5 --threads 1 -v -i "$seeds" -W "$dir/work/hfuzz" -- "$dir/out/$first" \
    >"$dir/work/honggfuzz.log" 2>&1 || { fail "honggfuzz: honggfuzz failed"; tail -30 "$dir/work/honggfuzz.log" >&2; return; }
  summary=$(grep -o 'Summary iterations:[0-9]* .*crashes_count:[0-9]*' "$dir/work/honggfuzz.log" | tail -1 || true)
  [ -n "$summary" ] || { fail "honggfuzz: no summary"; tail -30 "$dir/work/honggfuzz.log" >&2; return; }
  [[ "$summary" == *crashes_count:0 ]] || fail "honggfuzz: crashes in $dir/work/hfuzz"
  echo "oss-fuzz: honggfuzz: $first ran its seeds; honggfuzz 5 s: $summary"
}

# centipede: built and laid out when its compiler setup is installed (CENTIPEDE_RUNNER names the
# runner library OSS-Fuzz links as $LIB_FUZZING_ENGINE); not a Debian package either
check_centipede() {
  if [ -z "${CENTIPEDE_RUNNER:-}" ] || [ ! -f "$CENTIPEDE_RUNNER" ]; then
    echo "oss-fuzz: centipede: skipped (no CENTIPEDE_RUNNER library)"
    return
  fi
  build centipede fuzz/oss-fuzz/build.sh address centipede "$compiler" "$CENTIPEDE_RUNNER" "$first" || return
  layout "$scratch/centipede" "$first"
  seeds_of "$scratch/centipede" "$first"
  echo "oss-fuzz: centipede: $first built"
}

check_run_tests() {
  local dir="$scratch/run_tests" selection=${SINKCHECK_RUN_TESTS:-} t flags
  if [ -z "$selection" ]; then
    # one target, preferring one with regression inputs; a unit test is left out by default, to
    # keep this check to one build (SINKCHECK_RUN_TESTS="counting_sink_test fuzz_vectors" adds one)
    selection=$first
    for t in $targets; do
      if [ -d "$src/corpus/regressions/$t" ]; then selection=$t; break; fi
    done
  fi
  mkdir -p "$dir/work" "$dir/src"
  ln -s "$src" "$dir/src/sinkcheck"
  flags="-O1 -fno-omit-frame-pointer -gline-tables-only $(sanitizer_flags address) -fsanitize=fuzzer-no-link"
  echo "oss-fuzz: run_tests: $selection"
  if env SRC="$dir/src" WORK="$dir/work" OUT="$dir/out" CC=clang-14 CXX="$compiler" SANITIZER=address \
       FUZZING_ENGINE=libfuzzer CFLAGS="$flags" CXXFLAGS="$flags" SINKCHECK_RUN_TESTS="$selection" \
       bash "$src/fuzz/oss-fuzz/run_tests.sh" >"$dir/run_tests.log" 2>&1; then
    echo "oss-fuzz: run_tests: passed ($(grep -cE '^\[ *PASSED|Passed' "$dir/run_tests.log") passing lines)"
  else
    fail "run_tests: run_tests.sh failed"; tail -40 "$dir/run_tests.log" >&2
  fi
}

for check in $checks; do
  case "$check" in
    libfuzzer)
      if build libfuzzer .clusterfuzzlite/build.sh address libfuzzer "$compiler" -fsanitize=fuzzer "$targets"; then
        layout "$scratch/libfuzzer" "$targets"
        run_seeds libfuzzer "$scratch/libfuzzer" "$targets"
        extra=$(find "$scratch/libfuzzer/out" -maxdepth 1 -type f -name 'fuzz_*' ! -name '*.*' | wc -l)
        echo "oss-fuzz: libfuzzer: $extra binaries in \$OUT"
      fi ;;
    cflite) check_workflows ;;
    afl) check_afl ;;
    honggfuzz) check_honggfuzz ;;
    centipede) check_centipede ;;
    run_tests) check_run_tests ;;
    *) echo "oss-fuzz: unknown check '$check'" >&2; exit 2 ;;
  esac
done
exit $status
