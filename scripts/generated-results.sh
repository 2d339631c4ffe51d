#!/usr/bin/env bash
# Regenerates docs/conformance-generated.md: every third-party encoder of the table
# conformance/adapters/encoders.txt graded on N generated values (`sinkcheck conform --generate N
# --seed 1`, default profile) in every format it writes, at its honest level, with each class of
# failure shrunk to a minimal value and judged.
#
#   bash scripts/generated-results.sh [BUILD_DIR] [N] [NAME...]     (default build/gcc, 100000)
#   bash scripts/generated-results.sh --document [BUILD_DIR]          (rewrite the document only)
#
# NAME... runs only those encoders of the table (`reference` and `nlohmann` only when named);
# the document is written from every encoder's last summary in BUILD_DIR/generated-results/,
# each with the number of values it ran, so a slow encoder can be run with a smaller N and the
# document says so. The levels are the table's; each run may declare as many values unsupported
# as the encoder's budget in conformance/adapters/declared/NAME.txt (`--max-unsupported`; 0
# without one), beyond which it does not conform. Builds and installs the npm, Go, Perl, Ruby
# and Qt encoders as scripts/conformance-results.sh does (scripts/lib/encoders.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
document_only=false
if [ "${1:-}" = --document ]; then
  document_only=true
  shift
fi
build=${1:-build/gcc}
values=${2:-100000}
shift $(($# < 2 ? $# : 2))
python=/usr/bin/python3
seed=1
out="$build/generated-results"
case $values in
  '' | 0 | *[!0-9]*)
    echo "generated-results: N must be a positive count of values, not '$values'" >&2
    exit 2
    ;;
esac

names=("$@")
for wanted in "${names[@]}"; do
  grep -q "^$wanted|" conformance/adapters/encoders.txt || {
    echo "generated-results: no encoder '$wanted' in conformance/adapters/encoders.txt" >&2
    exit 2
  }
done

source scripts/lib/encoders.sh
write_document() {
  PYTHONPATH="$root/scripts/lib" "$python" "$root/scripts/lib/generated_document.py" "$out" \
    "$root/docs/conformance-generated.md" "$root/conformance/adapters/encoders.txt"
}
if $document_only; then
  write_document
  exit
fi
build_encoders "$root" "$build"
tool="$build/tools/sinkcheck"
mkdir -p "$out"
node_dir=$(install_node_encoders "$root" "$build")
install_debian_encoders "$root" "$build"
read_encoders "$root" "$build" "$python" "$node_dir"

selected() {
  local name=$1 wanted
  if [ ${#names[@]} -gt 0 ]; then
    for wanted in "${names[@]}"; do
      [ "$wanted" = "$name" ] && return 0
    done
    return 1
  fi
  case $name in reference | nlohmann) return 1 ;; esac
}

for run in "${runs[@]}"; do
  IFS='|' read -r name formats level encoder mode <<<"$run"
  selected "$name" || continue
  for f in $formats; do
    graded_level=$level
    mode_options "$mode" "$encoder"
    # The budget of unsupported values the encoder declares (conformance/adapters/declared/).
    declared_unsupported "$root" "$python" "$name" "$f" "$out"
    report="$out/$name.$f.report.json"
    echo "== $name $f ($graded_level, $values values, --max-unsupported $declared_budget)" >&2
    start=$(date +%s.%N)
    # Exit status 1 (failures found) is an expected outcome.
    "$tool" conform --format "$f" --level "$graded_level" "${mode_option[@]}" --jobs 2 --encoder "$encoder" \
      --generate "$values" --seed "$seed" --max-unsupported "$declared_budget" --save "$out/$f-$name.vectors" \
      --report json --output "$report" || [ $? -eq 1 ]
    end=$(date +%s.%N)
    # The report lists the first values of each class and counts the rest; keep what the
    # document needs.
    "$python" - "$report" "$out/$name.$f.json" "$start" "$end" "$level" <<'PY'
import json
import sys

report_path, summary_path, start, end, table_level = sys.argv[1:6]
with open(report_path) as f:
    r = json.load(f)
g = r["generated"]
representatives = {finding["id"] for finding in g["findings"]}
summary = {
    "format": r["format"],
    "level": r["level"],
    "table_level": table_level,
    "encoder": r["encoder"],
    "seed": g["seed"],
    "profile": g["profile"],
    "values": g["values"],
    "redrawn": g["redrawn"],
    "wall_seconds": float(end) - float(start),
    "shrink_seconds": g["shrink_seconds"],
    "counts": r["counts"],
    "failing": r["failures"],
    "conforms": r["conforms"],
    "verdict": r["verdict"],
    "max_unsupported": r["max_unsupported"],
    "unsupported_undeclared": r["unsupported_undeclared"],
    # The answers of the unsupported values the report lists (the first of them, not all).
    "unsupported_reasons": {},
    "findings": g["findings"],
    "representatives": [v for v in r["vectors"] if v["id"] in representatives],
}
for v in r["vectors"]:
    if v["result"] == "unsupported":
        reason = v.get("detail", "").replace("declared unsupported: ", "")
        summary["unsupported_reasons"][reason] = summary["unsupported_reasons"].get(reason, 0) + 1
with open(summary_path, "w") as f:
    json.dump(summary, f, indent=1, sort_keys=True)
PY
    rm -f "$report"
  done
done

write_document
