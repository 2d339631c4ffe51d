#!/usr/bin/env bash
# coverage.sh — clang source-based coverage of reference/ from the whole test suite.
#
# Builds with clang 14 and -fprofile-instr-generate -fcoverage-mapping (build/coverage), runs the
# unit tests, the properties, the conformance self-tests and the fuzz corpora in replay mode
# under CTest, merges the profiles and writes, for reference/include/ (and the instrumentation
# and sink registry of testkit/ that the product was measured with before they moved there) only:
#   DIR/coverage/summary.txt     per-file and total line / branch / function coverage
#   DIR/coverage/uncovered.txt   every line no test reached, as file:line: source
#   DIR/coverage/html/index.html the annotated sources
# then compares the totals with the committed floor (.ci/coverage-floor).
# Exit status: 0 at or above the floor, 1 below it or a test failed, 2 usage or build error.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  cat <<'USAGE'
usage: scripts/coverage.sh [--build DIR] [--report-only] [--no-install]
  --build DIR     build directory (default build/coverage)
  --report-only   do not configure, build or test: report the profiles already in DIR/profiles
                  (for a build configured with -DSINKCHECK_COVERAGE=ON whose tests ran with
                  LLVM_PROFILE_FILE=DIR/profiles/%4m.profraw, as scripts/test.sh does)
  --no-install    do not install missing Debian packages
USAGE
}

build="$root/build/coverage"
report_only=0
install=1
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --report-only) report_only=1; shift ;;
    --no-install) install=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "coverage: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

[ "$install" = 1 ] && bash "$root/scripts/setup.sh"
for tool in clang++-14 llvm-profdata-14 llvm-cov-14 readelf; do
  command -v "$tool" >/dev/null || { echo "coverage: $tool not found (bash scripts/setup.sh installs it)" >&2; exit 2; }
done

profiles="$build/profiles"
status=0
if [ "$report_only" = 0 ]; then
  cmake --preset coverage -S "$root" -B "$build" >"$build.configure.log" 2>&1 \
    || { cat "$build.configure.log" >&2; echo "coverage: configure failed" >&2; exit 2; }
  cmake --build "$build" -j "$(nproc)" || { echo "coverage: build failed" >&2; exit 2; }
  rm -rf "$profiles"
  LLVM_PROFILE_FILE="$profiles/%4m.profraw" ctest --test-dir "$build" -j "$(nproc)" --output-on-failure \
    --timeout 900 || status=1
fi

shopt -s nullglob
raw=("$profiles"/*.profraw)
if [ ${#raw[@]} -eq 0 ]; then
  echo "coverage: no profiles in $profiles (was the build configured with -DSINKCHECK_COVERAGE=ON?)" >&2
  exit 2
fi
out="$build/coverage"
rm -rf "$out" && mkdir -p "$out"
llvm-profdata-14 merge -sparse "${raw[@]}" -o "$out/all.profdata"

# every instrumented executable of the build (those carrying a coverage map)
objects=()
while IFS= read -r f; do
  if readelf -S "$f" 2>/dev/null | grep -q __llvm_covmap; then
    objects+=(-object "$f")
  fi
done < <(find "$build" -type f -perm -u+x ! -name '*.so' ! -path '*/CMakeFiles/*' | sort)
if [ ${#objects[@]} -eq 0 ]; then
  echo "coverage: no instrumented executables under $build" >&2
  exit 2
fi
# the product, and the instrumentation and registry the product's own tests run it through: the
# sources the build instruments (cmake/coverage-sources.txt)
sources=()
while read -r s; do
  case "$s" in ''|'#'*) continue ;; esac
  sources+=("$root/$s")
done <"$root/cmake/coverage-sources.txt"
# a path that no longer exists would be left out with only a warning of llvm-cov, and the floor
# compared with another set of files
for s in "${sources[@]}"; do
  [ -e "$s" ] || { echo "coverage: $s does not exist (moved? update cmake/coverage-sources.txt)" >&2; exit 2; }
done
# paths in the coverage maps are relative to the build directory when ccache compiled them
# (CMakePresets.json, clang-instrumented)
cov=(-instr-profile="$out/all.profdata" --compilation-dir="$build" "${objects[@]:1}")

llvm-cov-14 report "${cov[@]}" "${sources[@]}" >"$out/summary.txt"
llvm-cov-14 show "${cov[@]}" -format=html -output-dir="$out/html" -show-branches=count "${sources[@]}" >/dev/null
llvm-cov-14 show "${cov[@]}" -format=text "${sources[@]}" \
  | awk -v root="$root/" '
      /^\/.*:$/ { file = substr($0, 1, length($0) - 1); sub(root, "", file); next }
      match($0, /^ *[0-9]+\| *0\|/) {
        split($0, parts, "|"); line = parts[1] + 0
        src = substr($0, index($0, parts[3]))
        key = file ":" line
        if (!(key in seen)) { seen[key] = 1; print key ": " src }
      }' >"$out/uncovered.txt"
llvm-cov-14 export -summary-only "${cov[@]}" "${sources[@]}" >"$out/summary.json"

read -r lines branches < <(python3 - "$out/summary.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["data"][0]["totals"]
print(f'{t["lines"]["percent"]:.2f} {t["branches"]["percent"]:.2f}')
PY
)
sed 's/^/  /' "$out/summary.txt" | tail -n 25
echo "coverage of reference/: lines $lines %, branches $branches % ($(wc -l <"$out/uncovered.txt") uncovered lines listed in $out/uncovered.txt; HTML in $out/html/index.html)"

floor_file="$root/.ci/coverage-floor"
if [ -f "$floor_file" ]; then
  read -r floor_lines floor_branches < <(grep -v '^#' "$floor_file" | head -n 1)
  if python3 -c "import sys; sys.exit(0 if float('$lines') >= float('$floor_lines') and float('$branches') >= float('$floor_branches') else 1)"; then
    echo "coverage: at or above the floor (lines $floor_lines %, branches $floor_branches %)"
  else
    echo "coverage: BELOW the floor in $floor_file (lines $floor_lines %, branches $floor_branches %)" >&2
    status=1
  fi
fi
exit "$status"
