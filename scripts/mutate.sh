#!/usr/bin/env bash
# mutate.sh — mutation testing: each mutant of a list (a realistic slip in reference/, in the
# conformance runner or the test kit's value builder, or in the kit's own checks, written as one
# exact replacement) is
# applied in turn to a scratch copy of this checkout (OUT/tree, never the checkout itself); the
# scratch copy is rebuilt with g++ -O1 (preset mutate, ccache, so only what the change touches
# recompiles) and the mutant's test layers run against it:
#   kit      the properties and the fuzz replays (ctest labels property, fuzz-replay): all that a
#            user's own sink or encoder gets;
#   unit     sinkcheck's own unit tests (label unit);
#   conform  the conformance runner's tests (label conformance), built from conformance/runner
#            alone: the layer of the runner's and the value builder's mutants.
# A mutant lists its layers (default kit, then unit); the next one runs only on what the one
# before let through unless --every-layer is given.
# Prints, per mutant, the layer that killed it and the first failing test, then the mutation
# score per layer; writes OUT/report.md and OUT/results.json, and each mutant's build and test
# log to OUT/logs/. Not part of CI: a full run takes hours on two cores.
#
#   bash scripts/mutate.sh [--out DIR] [--mutants FILE] [--every-layer] [--check] [ID...]
#
#   --out DIR       scratch copy, logs and report (default build/mutation for
#                   scripts/mutants.txt, build/mutation-NAME for scripts/mutants-NAME.txt)
#   --mutants FILE  the list (default scripts/mutants.txt; the runner and value builder's are in
#                   scripts/mutants-conform.txt, the kit's own checks' (properties, harness,
#                   instrumentation, growth rules, sink fuzzer; layer kit runs the gallery) in
#                   scripts/mutants-kit.txt; the format is in scripts/lib/mutate.py)
#   --every-layer   run all of a mutant's layers on it (a score for each layer on its own)
#   --check         only validate the list: every mutant applies exactly once
#   ID...           only these mutants
#
# Exit status: 0 each non-equivalent mutant was killed by its first layer; 1 a mutant survived
# its first layer or does not build; 2 usage error or a broken list; 3 the unmutated copy fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=
mutants="$root/scripts/mutants.txt"
extra=()
ids=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --mutants) mutants=${2:?--mutants needs a file}; shift 2 ;;
    --every-layer | --check) extra+=("$1"); shift ;;
    -h | --help) sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "mutate: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) ids+=("$1"); shift ;;
  esac
done
# one scratch directory per list: results.json keeps only the entries of the list it was run with
if [ -z "$out" ]; then
  name=$(basename "$mutants" .txt)
  out="$root/build/mutation${name#mutants}"
fi

if [[ " ${extra[*]-} " != *" --check "* ]]; then
  bash "$root/scripts/setup.sh"
fi
exec python3 "$root/scripts/lib/mutate.py" --root "$root" --mutants "$mutants" --work "$out" \
  ${extra[@]+"${extra[@]}"} ${ids[@]+--only "${ids[@]}"}
