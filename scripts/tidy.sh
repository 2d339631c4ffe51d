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

# A file compiled into several targets (the replay main into every fuzz target, the runner's
# sources into fuzz_vectors too) has an entry per target, and clang-tidy checks the file once per
# entry: replay_main.cpp was checked 15 times. The database it reads keeps each file's first entry.
once="$build/once"
mkdir -p "$once"
mapfile -t chosen < <(python3 - "$build/compile_commands.json" "$once/compile_commands.json" "$root" "$ci" <<'PY'
import json, os, sys
database, once, root, ci = sys.argv[1], sys.argv[2], sys.argv[3] + os.sep, sys.argv[4] == "1"
chosen = {"sink_registry_test.cpp", "bon8_decoder_test.cpp", "instrument_test.cpp", "conform_decode_test.cpp",
          "conform_hostile_encoder.cpp"}
first = {}
for entry in json.load(open(database)):
    first.setdefault(os.path.normpath(os.path.join(entry["directory"], entry["file"])), entry)
with open(once, "w") as out:
    json.dump(list(first.values()), out, indent=1)
for f in first:
    rel = f[len(root):] if f.startswith(root) else f
    if rel.startswith("reference/test/consumer/"):
        continue
    tests = rel.startswith(("reference/", "conformance/test/"))
    if (tests and (not ci or os.path.basename(rel) in chosen)) or (
            not tests and rel.startswith(("conformance/", "tools/", "testkit/src/"))):
        print(rel)
PY
)
[ -s "$once/compile_commands.json" ] || { echo "tidy: could not read $build/compile_commands.json" >&2; exit 2; }
if [ ${#files[@]} -eq 0 ]; then
  files=("${chosen[@]}")
fi

mapfile -t files < <(printf '%s\n' "${files[@]}" | sort -u)
log="$build/tidy.log"
: >"$log"
start=$SECONDS
printf '%s\n' "${files[@]}" | (cd "$root" && xargs -P "$(nproc)" -n 1 \
  clang-tidy-14 -p "$once" --quiet 2>/dev/null) >>"$log" || true
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
