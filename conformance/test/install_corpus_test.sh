#!/bin/bash
# install_corpus_test.sh CMAKE BUILD_DIR SINKCHECK — the conformance corpus is installed, and an
# installed `sinkcheck conform` finds it from its own location, with no --corpus, from any
# directory (before: the source tree's path was compiled in, and nothing was installed).
set -euo pipefail
cmake=$1 build=$2 tool=$3
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
"$cmake" --install "$build" --prefix "$prefix" --component sinkcheck_corpus >/dev/null
for f in $("$tool" formats); do  # every format the tool knows (format_table)
  test -f "$prefix/share/sinkcheck/conformance/$f.vectors" || { echo "FAIL: $f.vectors not installed"; exit 1; }
done
test ! -e "$prefix/share/sinkcheck/conformance/generator" || { echo "FAIL: the generator was installed"; exit 1; }
mkdir -p "$prefix/bin"
cp "$tool" "$prefix/bin/sinkcheck"
cd "$prefix"
report=$(env -u SINKCHECK_CORPUS "$prefix/bin/sinkcheck" conform --format bon8 --encoder linked:reference --report json)
want="\"corpus\": \"$prefix/share/sinkcheck/conformance\""
if ! grep -qF "$want" <<<"$report"; then
  echo "FAIL: the installed tool did not read the installed corpus; want $want in:"
  head -12 <<<"$report"
  exit 1
fi
echo "ok: $prefix/bin/sinkcheck graded against $prefix/share/sinkcheck/conformance"

# The action's script is installed beside the tool and runs with the installed tool on PATH.
"$cmake" --install "$build" --prefix "$prefix" --component tool >/dev/null
action="$prefix/bin/sinkcheck-conform-action"
test -x "$action" || { echo "FAIL: sinkcheck-conform-action not installed"; exit 1; }
env -u SINKCHECK PATH="$prefix/bin:$PATH" SC_FORMAT=bon8 SC_ENCODER=linked:reference SC_OUTPUT_DIR="$prefix/results" \
  "$action" >/dev/null 2>&1 || { echo "FAIL: sinkcheck-conform-action exited $?"; exit 1; }
grep -q '"color": *"brightgreen"' "$prefix/results/badge.json" ||
  { echo "FAIL: no green badge:"; cat "$prefix/results/badge.json"; exit 1; }
echo "ok: $action graded the reference: $(cat "$prefix/results/badge.json")"
