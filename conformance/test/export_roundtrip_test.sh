#!/usr/bin/env bash
# The exported corpus as a consumer meets it: `sinkcheck corpus export --json` validates against
# corpus/conformance/export.schema.json (and a broken export does not), and grading from the
# export gives every vector the same verdict as grading from the .vectors files — for the
# reference encoder in every format, and for the Python encoders, which see key order and
# integer/double spelling in the wire text.
#
#   export_roundtrip_test.sh SINKCHECK SINKCHECK_ENCODER SOURCE_DIR
set -euo pipefail
tool=$1
encoder=$2
src=$3
python=/usr/bin/python3
schema="$src/corpus/conformance/export.schema.json"
validate="$src/conformance/test/validate_export.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

formats=$("$tool" formats | tr '\n' ' ')  # every format the tool knows (format_table), on one line
for f in $formats; do
  "$tool" corpus export --json --format "$f" --corpus "$src/corpus/conformance" --output "$work/$f.json"
done
# Two validators at a time: the six exports together are about 70 MB of JSON.
printf '%s\n' $formats | xargs -P 2 -I{} "$python" "$validate" "$schema" "$work/{}.json"

# A broken export must fail both the schema and the loader, naming the vector.
"$python" - "$work/cbor.json" "$work/broken.json" <<'PY'
import json, sys
sys.setrecursionlimit(20000)  # cbor/nesting/array-1000: Python's default limit is 1000 frames
doc = json.load(open(sys.argv[1], encoding="utf-8"))
doc["vectors"] = doc["vectors"][:3]
doc["vectors"][1]["input"] = {"$float": "nope"}
json.dump(doc, open(sys.argv[2], "w", encoding="utf-8"))
PY
if "$python" "$validate" "$schema" "$work/broken.json" 2>"$work/schema.err"; then
  echo "FAIL: the schema accepted a vector whose input is {\"\$float\": \"nope\"}" >&2
  exit 1
fi
grep -q '#/vectors/1/input' "$work/schema.err" || { cat "$work/schema.err" >&2; exit 1; }
status=0
"$tool" conform --format cbor --encoder "$encoder" --corpus "$work/broken.json" 2>"$work/load.err" || status=$?
if [ "$status" -ne 2 ] || ! grep -q 'broken.json#/vectors/1: input: ' "$work/load.err"; then
  echo "FAIL: loading the broken export gave exit $status:" >&2
  cat "$work/load.err" >&2
  exit 1
fi

# name | formats | encoder | level
runs=(
  "reference|$formats|$encoder|exact"
  "cbor2|cbor|$python $src/conformance/adapters/python/cbor2_encoder.py|exact"
  "cbor2-canonical|cbor|$python $src/conformance/adapters/python/cbor2_encoder.py --canonical|canonical"
  "msgpack-python|msgpack|$python $src/conformance/adapters/python/msgpack_encoder.py|exact"
)
compared=0
for run in "${runs[@]}"; do
  IFS='|' read -r name formats enc level <<<"$run"
  for f in $formats; do
    for source in vectors export; do
      corpus="$src/corpus/conformance"
      [ "$source" = export ] && corpus="$work/$f.json"
      "$tool" conform --format "$f" --level "$level" --mode batch --jobs 2 --encoder "$enc" --corpus "$corpus" \
        --report json --output "$work/$name.$f.$source.json" || [ $? -eq 1 ]
    done
    n=$("$python" - "$work/$name.$f.vectors.json" "$work/$name.$f.export.json" <<'PY'
import json, sys
def verdicts(path):
    report = json.load(open(path, encoding="utf-8"))
    return [(v["id"], v["result"], v.get("difference", "")) for v in report["vectors"]]
a, b = verdicts(sys.argv[1]), verdicts(sys.argv[2])
if a != b:
    for x, y in zip(a, b):
        if x != y:
            print(f"FAIL: {x} from the .vectors files, {y} from the export", file=sys.stderr)
            break
    else:
        print(f"FAIL: {len(a)} verdicts from the .vectors files, {len(b)} from the export", file=sys.stderr)
    sys.exit(1)
print(len(a))
PY
)
    echo "$name $f ($level): $n verdicts identical from the .vectors files and from the export"
    compared=$((compared + n))
  done
done
echo "export round trip: $compared verdicts compared"
