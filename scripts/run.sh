#!/usr/bin/env bash
# The main job: installs what is missing and runs the fuzzing campaign over every target
# (scripts/fuzz-campaign.sh, one libFuzzer worker per core; arguments are passed on, see its
# --help), which ends with the campaign report: out/fuzz/report.md and out/fuzz/report.svg
# (executions, exec/s, features and corpus over time, findings, coverage of reference/). Before
# the campaign it checks the bundled sample documents with `sinkcheck check`: every sink, window
# and format against nlohmann 3.11.2, with round trips. Exit status: the campaign's (0 no finding,
# 1 a finding or a failed sample check, 2 usage or build error).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The tool is built as scripts/test.sh builds it (preset gcc, through ccache, paths hashed relative
# to the checkout): after a test run on this machine, or in CI's fresh-clone stage, its
# compilations come from the cache.
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
cmake --preset gcc >/dev/null
cmake --build build/gcc -j "$(nproc)" --target sinkcheck_cli
status=0
for doc in corpus/samples/*.json; do
  echo "== sinkcheck check $doc"
  build/gcc/tools/sinkcheck check "$doc" || status=1
done
if [ "$status" -ne 0 ]; then
  echo "sample check failed" >&2
  exit 1
fi
exec bash scripts/fuzz-campaign.sh "$@"
