#!/usr/bin/env bash
# fuzz-campaign.sh — the fuzzing campaign: every libFuzzer target for a time budget each.
#
# Installs the Debian packages it needs when missing, builds the targets with clang 14,
# libFuzzer, AddressSanitizer, UndefinedBehaviorSanitizer and source-based coverage, runs each one
# (in libFuzzer's fork mode, one worker per core by default) on a scratch copy of its seed corpus
# (corpus/<target>/) and regression inputs (corpus/regressions/<target>/) with its dictionary,
# merges inputs that reach new coverage back into corpus/<target>/, minimises every finding, saves
# it with the command that reproduces it and keeps it as a regression input in
# corpus/regressions/<target>/ (named after what it found; ctest replays that folder in every
# build). Then it runs each target's final corpus once more to measure which lines and branches
# of reference/ it reaches, prints a summary table and writes the campaign report:
#   OUT/report.md    per target: executions, exec/s, features and corpus size over time, the
#                    findings, the coverage of reference/ (lines, branches, uncovered lines)
#   OUT/report.svg   coverage features over time, one line per target
# (scripts/fuzz-report.py; docs/fuzz-report.md is an example).
# Exit status: 0 no finding, 1 findings, 2 usage or build error.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/fuzz-campaign.sh [options]
  --time SECONDS    time budget per target (default 60, or $SINKCHECK_FUZZ_TIME)
  --fork N          run each target in libFuzzer fork mode with N workers (default: the number
                    of cores; 1 runs without fork mode)
  --targets "A B"   only these targets (default: every fuzz_* target that was built)
  --build DIR       build directory (default build/fuzz-campaign)
  --out DIR         logs, scratch corpora and findings (default out/fuzz)
  --no-merge        do not merge new inputs into corpus/<target>/
  --no-keep         do not copy minimised findings into corpus/regressions/<target>/
  --no-coverage     build without coverage instrumentation; the report then has no coverage
  --no-install      do not install missing Debian packages
  --no-build        use the targets already built in --build DIR
  -h, --help        this text
EOF
}

root=$(cd "$(dirname "$0")/.." && pwd)
budget=${SINKCHECK_FUZZ_TIME:-60}
fork=$(nproc)
targets=""
build="$root/build/fuzz-campaign"
out="$root/out/fuzz"
merge=1
keep=1
coverage=1
install=1
build_it=1
while [ $# -gt 0 ]; do
  case "$1" in
    --time) budget=$2; shift 2 ;;
    --fork|--jobs) fork=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --build) build=$(mkdir -p "$2" && cd "$2" && pwd); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-merge) merge=0; shift ;;
    --no-keep) keep=0; shift ;;
    --no-coverage) coverage=0; shift ;;
    --no-install) install=0; shift ;;
    --no-build) build_it=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "fuzz-campaign: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
case "$budget$fork" in
  *[!0-9]*) echo "fuzz-campaign: --time and --fork take whole numbers" >&2; exit 2 ;;
esac
[ "$fork" -ge 1 ] || { echo "fuzz-campaign: --fork takes 1 or more" >&2; exit 2; }

# --- packages -------------------------------------------------------------------------------
packages=(clang-14 libclang-rt-14-dev llvm-14 nlohmann-json3-dev libgtest-dev librapidcheck-dev cmake ninja-build
          python3 binutils ccache)
if [ "$install" = 1 ]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "fuzz-campaign: installing ${missing[*]}"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update
    "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
  fi
fi

# --- build ----------------------------------------------------------------------------------
if [ "$build_it" = 1 ]; then
  echo "fuzz-campaign: building libFuzzer targets (clang 14, ASan + UBSan, coverage $coverage) in $build"
  # paths relative to the checkout, so another clone's build (the sanitizer stage's) serves this one
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
  cov_flag=OFF
  [ "$coverage" = 0 ] || cov_flag=ON
  cmake --preset fuzz-campaign -S "$root" -B "$build" -DSINKCHECK_COVERAGE="$cov_flag" >"$build.configure.log" 2>&1 \
    || { cat "$build.configure.log" >&2; echo "fuzz-campaign: configure failed" >&2; exit 2; }
  cmake --build "$build" --target sinkcheck_fuzzers -j "$(nproc)" || { echo "fuzz-campaign: build failed" >&2; exit 2; }
fi

if [ -z "$targets" ]; then
  for src in "$root"/fuzz/fuzz_*.cpp; do
    name=$(basename "$src" .cpp)
    [ -x "$build/fuzz/$name" ] && targets="$targets $name"
  done
  targets=${targets# }  # the coverage pass takes the first word for the first target
fi
[ -n "$targets" ] || { echo "fuzz-campaign: no fuzz targets built" >&2; exit 2; }

# shellcheck source=fuzz-options.sh
source "$root/scripts/fuzz-options.sh"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# regression_name REPORT ARTIFACT: a file name saying what an input found (the first report line
# that names it), as corpus/regressions/README.md describes: kind-where, [a-z0-9_.-] only
regression_name() {
  local report=$1 artifact=$2 what
  what=$(sed -n 's/^==sinkcheck== MISMATCH \([a-z-]*\) in \([^:]*\): \([^ ]*\).* vs \([^ ]*\).*/\1-\2-\3-vs-\4/p' <<<"$report" | head -1)
  [ -n "$what" ] || what=$(sed -n 's/.*ERROR: AddressSanitizer: \([a-z-]*\).*/asan-\1/p' <<<"$report" | head -1)
  [ -n "$what" ] || what=$(grep -q 'ERROR: LeakSanitizer' <<<"$report" && echo lsan-leak || true)
  [ -n "$what" ] || what=$(sed -n 's/.*runtime error: \([a-z]*\) \([a-z]*\) \([a-z]*\).*/ubsan-\1-\2-\3/p' <<<"$report" | head -1)
  [ -n "$what" ] || what=${artifact%%-*}
  tr 'A-Z' 'a-z' <<<"$what" | sed 's/[^a-z0-9_.-]\{1,\}/-/g; s/^-//; s/-$//' | cut -c1-80
}

# keep_regression TARGET INPUT ARTIFACT REPORT: copies a minimised finding into
# corpus/regressions/TARGET/ (unless the same bytes are there already) and prints where
keep_regression() {
  local t=$1 input=$2 artifact=$3 report=$4 dir sum name existing
  dir="$root/corpus/regressions/$t"
  mkdir -p "$dir"
  sum=$(sha1sum "$input" | cut -c1-40)
  for existing in "$dir"/*; do
    [ -f "$existing" ] || continue
    if [ "$(sha1sum "$existing" | cut -c1-40)" = "$sum" ]; then
      echo "$existing (already there)"
      return 0
    fi
  done
  name="$(regression_name "$report" "$artifact")-${sum:0:8}"
  cp "$input" "$dir/$name"
  echo "$dir/$name"
}

# stamp FILE: passes its input through, and appends each libFuzzer status line ("#N ...") to
# FILE with the seconds since the run started in front, for the report's series over time
stamp() {
  local start=$SECONDS line
  : >"$1"
  while IFS= read -r line; do
    printf '%s\n' "$line"
    case "$line" in '#'[0-9]*) printf '%d\t%s\n' $((SECONDS - start)) "$line" >>"$1" ;; esac
  done
}

# --- run ------------------------------------------------------------------------------------
mkdir -p "$out"
summary="$out/summary.txt"
printf '%-14s %10s %8s %10s %8s %9s\n' target runs exec/s features corpus findings >"$summary"
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "budget=$budget"
  echo "fork=$fork"
  echo "cores=$(nproc)"
  echo "targets=$targets"
} >"$out/campaign.env"
# the coverage instrumentation writes a profile when a process exits: not while fuzzing
profile_off=/dev/null
total_findings=0
for t in $targets; do
  bin="$build/fuzz/$t"
  [ -x "$bin" ] || { echo "fuzz-campaign: $t was not built" >&2; exit 2; }
  work="$out/$t"
  rm -rf "$work/corpus" "$work/findings"
  mkdir -p "$work/corpus" "$work/findings"
  seeds="$root/corpus/$t"
  mkdir -p "$seeds"
  cp -r "$seeds"/. "$work/corpus"/ 2>/dev/null || true
  # the regression inputs are seeds too (READMEs aside)
  for input in "$root/corpus/regressions/$t"/*; do
    case "$(basename "$input")" in README*) continue ;; esac
    [ -f "$input" ] && cp "$input" "$work/corpus/regression-$(basename "$input")"
  done
  args=(-max_total_time="$budget" -print_final_stats=1 -artifact_prefix="$work/findings/")
  [ -f "$root/fuzz/$t.dict" ] && args+=(-dict="$root/fuzz/$t.dict")
  max_len=$(sed -n 's/^max_len *= *//p' "$root/fuzz/$t.options" 2>/dev/null || true)
  [ -n "$max_len" ] && args+=(-max_len="$max_len")
  [ "$fork" -gt 1 ] && args+=(-fork="$fork" -ignore_crashes=1)
  echo "fuzz-campaign: $t for ${budget}s"
  set +e
  LLVM_PROFILE_FILE=$profile_off with_options_env "$root/fuzz/$t.options" "$bin" "${args[@]}" "$work/corpus" 2>&1 |
    stamp "$work/progress.tsv" >"$work/fuzz.log"
  status=${PIPESTATUS[0]}
  set -e

  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/fuzz.log" | tail -1)
  progress=$(grep -E '^#[0-9]+.* ft: ' "$work/fuzz.log" | tail -1 || true)
  [ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$progress")
  # fork mode prints "exec/s N", without the colon
  [ -n "$speed" ] || speed=$(sed -n 's/.*exec\/s:\{0,1\} \([0-9]*\).*/\1/p' <<<"$progress")
  features=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$progress")

  if [ "$merge" = 1 ]; then
    # only inputs that add coverage are copied into the committed seed folder
    LLVM_PROFILE_FILE=$profile_off "$bin" -merge=1 "$seeds" "$work/corpus" >"$work/merge.log" 2>&1 || true
  fi
  corpus_size=$(find "$work/corpus" -type f | wc -l)

  findings=0
  # slow units are not failures (libFuzzer goes on); they are listed, not minimised
  for slow in "$work"/findings/slow-unit-*; do
    [ -f "$slow" ] && echo "fuzz-campaign: slow input in $t (not a failure): $slow"
  done
  for crash in "$work"/findings/crash-* "$work"/findings/leak-* "$work"/findings/timeout-* \
               "$work"/findings/oom-*; do
    [ -f "$crash" ] || continue
    case "$crash" in *.min|*.txt|*.log) continue ;; esac
    findings=$((findings + 1))
    minimised="$crash.min"
    LLVM_PROFILE_FILE=$profile_off "$bin" -minimize_crash=1 -runs=20000 -exact_artifact_path="$minimised" "$crash" \
      >"$crash.minimise.log" 2>&1 || true
    [ -f "$minimised" ] || cp "$crash" "$minimised"
    report=$(LLVM_PROFILE_FILE=$profile_off "$bin" "$minimised" 2>&1 || true)
    kept=""
    [ "$keep" = 0 ] || kept=$(keep_regression "$t" "$minimised" "$(basename "$crash")" "$report")
    {
      echo "target:     $t"
      echo "input:      $minimised ($(wc -c <"$minimised") bytes; original $crash)"
      echo "regression: ${kept:-(not kept: --no-keep)}"
      echo "reproduce:  $bin $minimised"
      echo "replay:     build/gcc/fuzz/$t $minimised   (g++ build, no libFuzzer)"
      echo "first lines of the report:"
      grep -A12 -m1 -E '==sinkcheck== MISMATCH|ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|runtime error|deadly signal' \
        <<<"$report" | sed 's/^/  /' || true
    } >"$crash.txt"
    echo "fuzz-campaign: finding in $t: $crash.txt"
  done
  [ "$status" -eq 0 ] || [ "$findings" -gt 0 ] || {
    echo "fuzz-campaign: $t exited with status $status without a saved input; log: $work/fuzz.log" >&2
    findings=1
  }
  total_findings=$((total_findings + findings))
  printf 'runs=%s\nspeed=%s\nfeatures=%s\ncorpus=%s\nfindings=%s\nstatus=%s\n' "${runs:-}" "${speed:-}" \
    "${features:-}" "$corpus_size" "$findings" "$status" >"$work/summary.env"
  printf '%-14s %10s %8s %10s %8s %9s\n' "$t" "${runs:-?}" "${speed:-?}" "${features:-?}" \
    "$corpus_size" "$findings" >>"$summary"
done

# --- coverage of reference/ by the final corpora ----------------------------------------------
cov="$out/coverage"
rm -rf "$cov"
if [ "$coverage" = 1 ] && readelf -S "$build/fuzz/${targets%% *}" 2>/dev/null | grep -q __llvm_covmap; then
  mkdir -p "$cov"
  objects=()
  for t in $targets; do
    bin="$build/fuzz/$t"
    # one pass over the corpus, nothing mutated; findings were handled above
    LLVM_PROFILE_FILE="$cov/$t.profraw" with_options_env "$root/fuzz/$t.options" "$bin" -runs=0 \
      "$out/$t/corpus" >"$cov/$t.log" 2>&1 || echo "fuzz-campaign: $t's coverage run failed (see $cov/$t.log)" >&2
    [ -f "$cov/$t.profraw" ] || continue
    llvm-profdata-14 merge -sparse "$cov/$t.profraw" -o "$cov/$t.profdata" 2>>"$cov/merge.log"
    llvm-cov-14 export -summary-only -instr-profile="$cov/$t.profdata" --compilation-dir="$build" "$bin" \
      "$root/reference/include" \
      >"$cov/$t.summary.json" 2>>"$cov/merge.log"
    objects+=(-object "$bin")
  done
  if [ ${#objects[@]} -gt 0 ]; then
    # targets instantiate some templates differently; llvm-profdata and llvm-cov warn about
    # those functions ("mismatched data", in coverage/merge.log) and count the first
    llvm-profdata-14 merge -sparse "$cov"/*.profraw -o "$cov/all.profdata" 2>>"$cov/merge.log"
    all=(-instr-profile="$cov/all.profdata" --compilation-dir="$build" "${objects[@]:1}")
    llvm-cov-14 export -summary-only "${all[@]}" "$root/reference/include" >"$cov/all.summary.json" 2>>"$cov/merge.log"
    llvm-cov-14 report "${all[@]}" "$root/reference/include" >"$cov/all.report.txt" 2>>"$cov/merge.log"
    llvm-cov-14 show -format=text "${all[@]}" "$root/reference/include" >"$cov/all.show.txt" 2>>"$cov/merge.log"
  fi
else
  echo "fuzz-campaign: no coverage (the build in $build is not instrumented, or --no-coverage)"
fi

echo
cat "$summary"
python3 "$root/scripts/fuzz-report.py" "$out" "$root" && echo "report: $out/report.md, $out/report.svg"
echo "logs, scratch corpora and findings: $out"
[ "$total_findings" -eq 0 ] || { echo "fuzz-campaign: $total_findings finding(s)"; exit 1; }
