#!/usr/bin/env bash
# The adapter helpers read the JSON notation as they read the tokens. `--notation json` sends
# every double as its bits ({"$float": "0x..."}) and `--notation json-decimal` in decimal; the
# Python helper (sinkcheck_protocol.py) and the Node helper (sinkcheck_protocol.js) must give
# every corpus vector, and every generated value (random double bits among them), the verdict
# they give it from the token notation. The Node encoders run when scripts/lib/encoders.sh has
# installed them in NODE_DIR (the results scripts do; the C++ build never does).
#
#   json_notation_test.sh SINKCHECK SOURCE_DIR NODE_DIR
set -euo pipefail
tool=$1
src=$2
node_dir=$3
python=/usr/bin/python3
adapters="$src/conformance/adapters/python"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What the encoder reads: the double 0.1 by its bits, or in decimal (the encoder echoes its input
# as the reason it declares the vector unsupported).
echo_input="sh -c 'cat >&2; echo >&2; exit 77'"
for case in "json|{\"\$float\":\"0x3fb999999999999a\"}" "json-decimal|0.1"; do
  notation=${case%%|*}
  want=${case#*|}
  "$tool" conform --format cbor --notation "$notation" --filter cbor/float/0.1 --encoder "$echo_input" \
    --report json --output "$work/echo.json" 2>/dev/null || true
  got=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["vectors"][0]["detail"])' "$work/echo.json")
  if [ "$got" != "declared unsupported: $want" ]; then
    echo "FAIL: --notation $notation sent cbor/float/0.1 as '$got', expected '$want'" >&2
    exit 1
  fi
  echo "--notation $notation sends 0.1 as $want"
done

# name | format | level | encoder
runs=(
  "cbor2|cbor|exact|$python $adapters/cbor2_encoder.py"
  "msgpack-python|msgpack|exact|$python $adapters/msgpack_encoder.py"
  "pymongo-bson|bson|equivalent|$python $adapters/bson_encoder.py"
)
if [ -d "$node_dir/node_modules" ]; then
  runs+=(
    "node-cbor|cbor|equivalent|/usr/bin/node $node_dir/node_encoder.js --library cbor"
  )
  # The copy in NODE_DIR must be the helper under test.
  cmp -s "$src/conformance/adapters/node/sinkcheck_protocol.js" "$node_dir/sinkcheck_protocol.js" ||
    cp "$src/conformance/adapters/node/sinkcheck_protocol.js" "$node_dir/sinkcheck_protocol.js"
else
  echo "Node encoders not installed in $node_dir: the Node helper is not run (scripts/lib/encoders.sh installs them)"
fi

compared=0
for run in "${runs[@]}"; do
  IFS='|' read -r name format level encoder <<<"$run"
  for source in corpus generated; do
    # Generated values at the equivalent level: their bytes are the exact level's.
    extra=(--level "$level")
    [ "$source" = generated ] && extra=(--generate 1000 --seed 11 --level equivalent)
    for notation in token json json-decimal; do
      "$tool" conform --format "$format" --mode batch --jobs 2 --notation "$notation" \
        --encoder "$encoder" "${extra[@]}" --report json --output "$work/$notation.json" 2>"$work/stderr" ||
        [ $? -eq 1 ] || { cat "$work/stderr" >&2; exit 1; }
    done
    n=$("$python" - "$work/token.json" "$work/json.json" "$work/json-decimal.json" <<'PY'
import json, sys
def verdicts(path):
    return [(v["id"], v["result"], v.get("difference", "")) for v in json.load(open(path, encoding="utf-8"))["vectors"]]
token = verdicts(sys.argv[1])
for path in sys.argv[2:]:
    other = verdicts(path)
    if len(other) != len(token):
        sys.exit(f"FAIL: {len(token)} verdicts from the tokens, {len(other)} from {path}")
    for a, b in zip(token, other):
        if a != b:
            sys.exit(f"FAIL: {a} from the tokens, {b} from {path}")
print(len(token))
PY
)
    echo "$name $format ($source): $n verdicts identical from token, json and json-decimal"
    compared=$((compared + n))
  done
done
echo "json notation: $compared verdicts compared"
