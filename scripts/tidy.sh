#!/usr/bin/env bash
# tidy.sh — clang-tidy 14 with the committed .clang-tidy over every translation unit of
# reference/ (its tests, which instantiate every header), testkit/src/, conformance/ and tools/;
# findings in the headers of reference/include/sinkcheck/, of the kit's instrumentation, registry
# and sink list, of conformance/ and of tools/ count (HeaderFilterRegex).
#
# usage: scripts/tidy.sh [--build DIR] [--ci] [FILE...]
#   --build DIR  where the compile database is configured (default build/tidy; configure only,
#                nothing is compiled)
#   --ci         every unit of conformance/ but its tests, of tools/ and of testkit/src/; of the
#                tests of reference/ and conformance/ only those that between them instantiate
#                every header (sink_registry_test, bon8_decoder_test, instrument_test;
#                conform_decode_test and conform_hostile_encoder, which include the two headers
#                of conformance/test/): the same headers checked in less time
#   FILE...      only these translation units (paths relative to the repository)
# Exit status: 0 clean, 1 findings (each printed as file:line:col: message [check]), 2 usage
# error, configure failure or clang-tidy-14 missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/tidy"
files=()
ci=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --ci) ci=1; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "tidy: unknown option '$1'" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
command -v clang-tidy-14 >/dev/null || { echo "tidy: clang-tidy-14 not found (bash scripts/setup.sh installs it)" >&2; exit 2; }

cmake --preset tidy -S "$root" -B "$build" >"$build.configure.log" 2>&1 \
  || { cat "$build.configure.log" >&2; echo "tidy: configure failed" >&2; exit 2; }

if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(python3 - "$build/compile_commands.json" "$root" "$ci" <<'PY'
import json, os, sys
root, ci = sys.argv[2] + os.sep, sys.argv[3] == "1"
chosen = {"sink_registry_test.cpp", "bon8_decoder_test.cpp", "instrument_test.cpp", "conform_decode_test.cpp",
          "conform_hostile_encoder.cpp"}
for entry in json.load(open(sys.argv[1])):
    f = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    rel = f[len(root):] if f.startswith(root) else f
    if rel.startswith("reference/test/consumer/"):
        continue
    tests = rel.startswith(("reference/", "conformance/test/"))
    if (tests and (not ci or os.path.basename(rel) in chosen)) or (
            not tests and rel.startswith(("conformance/", "tools/", "testkit/src/"))):
        print(rel)
PY
  )
fi

# a unit compiled into two targets is in the compile database twice: checked once
mapfile -t files < <(printf '%s\n' "${files[@]}" | sort -u)
log="$build/tidy.log"
: >"$log"
start=$SECONDS
printf '%s\n' "${files[@]}" | (cd "$root" && xargs -P "$(nproc)" -n 1 \
  clang-tidy-14 -p "$build" --quiet 2>/dev/null) >>"$log" || true
findings=$(grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error):' "$log" | sed "s|^$root/||" | sort -u || true)
if [ -n "$findings" ]; then
  echo "$findings"
  echo "tidy: $(echo "$findings" | wc -l) finding(s) in ${#files[@]} translation units ($((SECONDS - start)) s); full output in $log" >&2
  exit 1
fi
if grep -q "error:" "$log"; then
  cat "$log" >&2
  echo "tidy: clang-tidy failed (see above)" >&2
  exit 2
fi
echo "tidy: clean — ${#files[@]} translation units in $((SECONDS - start)) s"
