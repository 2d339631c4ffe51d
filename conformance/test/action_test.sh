#!/usr/bin/env bash
# The GitHub Action (action.yml) and its script (scripts/conform-action.sh) as another project's
# CI meets them: every input of action.yml reaches the script, a conforming encoder gets a green
# badge and the outputs, a broken one a red badge and exit 1, an expected-failures list makes it
# green again, values declared unsupported fail the run until they are tolerated (and the badge
# shows how many were graded), generated values find a planted bug, and usage errors write no badge.
#
#   action_test.sh SINKCHECK SINKCHECK_ENCODER HOSTILE_ENCODER SOURCE_DIR
set -uo pipefail
tool=$1
encoder=$2
hostile=$3
src=$4
python=/usr/bin/python3
script="$src/scripts/conform-action.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# 1. action.yml: every input is passed to the script as SC_*, and the script reads each one.
"$python" - "$src/action.yml" "$script" <<'PY' || fail "action.yml and conform-action.sh disagree"
import re, sys, yaml
action = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
script = open(sys.argv[2], encoding="utf-8").read()
steps = action["runs"]["steps"]
conform = next(s for s in steps if s.get("id") == "conform")
env = conform["env"]
bad = []
for name in action["inputs"]:
    if name in ("upload", "artifact-name"):  # the upload step's, not the script's
        continue
    var = "SC_" + name.upper().replace("-", "_")
    if env.get(var) != "${{ inputs.%s }}" % name:
        bad.append(f"input '{name}' is not passed as {var}")
    if "${" + var not in script:
        bad.append(f"conform-action.sh never reads {var}")
for out, spec in action["outputs"].items():
    if spec["value"] != "${{ steps.conform.outputs.%s }}" % out or f'"{out}"' not in script:
        bad.append(f"output '{out}' is not written by the script")
for s in steps:
    for path in re.findall(r'\$GITHUB_ACTION_PATH/([\w./-]+)', s.get("run", "")):
        try:
            open(f"{sys.argv[1].rsplit('/', 1)[0]}/{path}")
        except OSError:
            bad.append(f"step '{s['name']}' runs {path}, which does not exist")
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

run_action() {
  # run_action NAME VAR=VALUE...: the script in a fresh output dir; sets rc
  local name=$1
  shift
  mkdir -p "$work/$name"
  : >"$work/$name/github_output"
  : >"$work/$name/summary"
  env SINKCHECK="$tool" SC_OUTPUT_DIR="$work/$name/out" GITHUB_OUTPUT="$work/$name/github_output" \
    GITHUB_STEP_SUMMARY="$work/$name/summary" "$@" bash "$script" >"$work/$name/stdout" 2>"$work/$name/stderr"
  rc=$?
}
badge() { "$python" -c "import json,sys; b=json.load(open(sys.argv[1])); print(b['schemaVersion'], b['color'], b['message'])" "$1"; }
output() { sed -n "s/^$2=//p" "$work/$1/github_output"; }

# 2. The reference encoder conforms: green, P = G = T = the JUnit test cases.
run_action good SC_FORMAT=cbor SC_ENCODER="$encoder" SC_MODE=batch
[ "$rc" -eq 0 ] || fail "the reference encoder: exit $rc ($(cat "$work/good/stderr"))"
cases=$(grep -c '<testcase' "$work/good/out/junit.xml" 2>/dev/null)
[ "$(badge "$work/good/out/badge.json" 2>/dev/null)" = "1 brightgreen $cases/$cases pass, $cases/$cases graded" ] ||
  fail "the reference encoder's badge: $(cat "$work/good/out/badge.json" 2>/dev/null), want $cases/$cases green"
[ "$cases" -gt 100 ] || fail "only $cases test cases in the JUnit report"
[ "$(output good conforms)" = true ] && [ "$(output good passed)" = "$cases" ] &&
  [ "$(output good total)" = "$cases" ] && [ "$(output good unsupported)" = 0 ] ||
  fail "outputs of the reference run: $(tr '\n' ' ' <"$work/good/github_output")"
grep -q "sinkcheck cbor: conforms" "$work/good/summary" || fail "step summary: $(cat "$work/good/summary")"

# 3. An encoder that writes floats too wide: red, exit 1, fewer passing than graded.
run_action bad SC_FORMAT=cbor SC_ENCODER="$hostile float-width" SC_LABEL="my encoder"
[ "$rc" -eq 1 ] || fail "the float-width encoder: exit $rc, want 1"
read -r version color message <<<"$(badge "$work/bad/out/badge.json" 2>/dev/null)"
passed=${message%%/*}
graded=${message#*/}
graded=${graded%% *}
[ "$color" = red ] && [ "$passed" -lt "$graded" ] && [ "$graded" = "$cases" ] &&
  [ "${message#*, }" = "$cases/$cases graded" ] ||
  fail "the float-width encoder's badge: $color $message"
[ "$(output bad conforms)" = false ] || fail "outputs of the broken run: $(tr '\n' ' ' <"$work/bad/github_output")"
grep -q "my encoder: does not conform" "$work/bad/summary" || fail "step summary: $(cat "$work/bad/summary")"

# 4. Its failures as an expected-failures list: green again; the listed vectors are graded (and
#    fail as expected), so they stay in G and out of P.
"$tool" conform --format cbor --encoder "$hostile float-width" --write-expected-failures "$work/expected.txt" \
  --output /dev/null 2>/dev/null
run_action listed SC_FORMAT=cbor SC_ENCODER="$hostile float-width" SC_EXPECTED_FAILURES="$work/expected.txt"
read -r version color message <<<"$(badge "$work/listed/out/badge.json" 2>/dev/null)"
[ "$rc" -eq 0 ] && [ "$color" = brightgreen ] && [ "$message" = "$passed/$cases pass, $cases/$cases graded" ] ||
  fail "with the expected failures listed: exit $rc, badge $color $message, want $passed/$cases green"

# 5. cbor2 on the refusal vectors: it refuses 5 correctly and declares the 3 discarded values
#    unsupported (Python has none). Undeclared, they fail the run; tolerated by max-unsupported, the
#    run is green and the badge still says that 5 of 8 were graded.
cbor2="$python $src/conformance/adapters/python/cbor2_encoder.py"
run_action unsupported SC_FORMAT=cbor SC_ENCODER="$cbor2" SC_MODE=batch SC_FILTER='cbor/refuse/*'
[ "$rc" -eq 1 ] && [ "$(badge "$work/unsupported/out/badge.json" 2>/dev/null)" = "1 red 5/5 pass, 5/8 graded" ] ||
  fail "cbor2 with 3 undeclared unsupported: exit $rc, badge $(cat "$work/unsupported/out/badge.json" 2>/dev/null)"
grep -q "3 unsupported, 3 of them not declared" "$work/unsupported/summary" &&
  grep -q "3 unsupported not declared" "$work/unsupported/summary" ||
  fail "step summary of the undeclared run: $(cat "$work/unsupported/summary")"
run_action tolerated SC_FORMAT=cbor SC_ENCODER="$cbor2" SC_MODE=batch SC_FILTER='cbor/refuse/*' SC_MAX_UNSUPPORTED=3
[ "$rc" -eq 0 ] && [ "$(badge "$work/tolerated/out/badge.json" 2>/dev/null)" = "1 brightgreen 5/5 pass, 5/8 graded" ] ||
  fail "cbor2 with 3 unsupported tolerated: exit $rc, badge $(cat "$work/tolerated/out/badge.json" 2>/dev/null)"
[ "$(output tolerated graded)" = 5 ] && [ "$(output tolerated total)" = 8 ] &&
  [ "$(output tolerated unsupported)" = 3 ] ||
  fail "outputs of the tolerated run: $(tr '\n' ' ' <"$work/tolerated/github_output")"

# 6. Generated values find a planted bug (CBOR 24 with a one-byte head) that the corpus vectors
#    selected (floats only) do not reach: exit 1 from the generated values alone, and the
#    finding, shrunk to the value 24, saved as a vector.
run_action generated SC_FORMAT=cbor SC_ENCODER="$hostile cbor-24" SC_MODE=batch SC_FILTER='cbor/float/*' \
  SC_GENERATE=300 SC_SEED=5
[ "$rc" -eq 1 ] || fail "generated values against the cbor-24 encoder: exit $rc, want 1"
grep -q 'failures="0"' "$work/generated/out/junit.xml" || fail "the float vectors failed the cbor-24 encoder"
grep -q '^input: 24$' "$work/generated/out/cbor-generated.vectors" 2>/dev/null ||
  fail "the shrunk finding was not saved: $(head -c 300 "$work/generated/out/cbor-generated.vectors" 2>&1)"
[ -s "$work/generated/out/generated-junit.xml" ] || fail "no JUnit report of the generated values"
read -r version color message <<<"$(badge "$work/generated/out/badge.json" 2>/dev/null)"
case "$color $message" in
  "red "*" graded, 300 generated: "[1-9]*" failing, 300/300 graded") ;;
  *) fail "the badge of the generated run: $color $message" ;;
esac

# 6b. The matrix form: two shards of the generated values, each with its JSON report, joined by
#     --merge into the one run's verdict (exit 1: the planted bug is in the values of shard 1 or 2).
for shard in 1 2; do
  run_action "shard$shard" SC_FORMAT=cbor SC_ENCODER="$hostile cbor-24" SC_MODE=batch SC_FILTER='cbor/float/*' \
    SC_GENERATE=300 SC_SEED=5 SC_SHARD="$shard/2"
  [ -s "$work/shard$shard/out/generated.json" ] || fail "shard $shard/2 wrote no generated.json (exit $rc)"
done
"$tool" conform --merge "$work/shard1/out/generated.json" --merge "$work/shard2/out/generated.json" \
  --report json --output "$work/merged.json" 2>/dev/null
merged_rc=$?
"$python" - "$work/merged.json" <<'PY' || fail "the merged report of the two shards (exit $merged_rc)"
import json, sys
m = json.load(open(sys.argv[1], encoding="utf-8"))
assert m["total"] == 300 and m["conforms"] is False and m["failures"] > 0, m["verdict"]
assert "merged from 2 shards" in m["verdict"], m["verdict"]
PY
[ "$merged_rc" -eq 1 ] || fail "--merge of the two shards: exit $merged_rc, want 1"

# 7. Usage errors: exit 2, no badge.
run_action nofmt SC_ENCODER="$encoder"
[ "$rc" -eq 2 ] && grep -q "SC_FORMAT" "$work/nofmt/stderr" || fail "without SC_FORMAT: exit $rc"
run_action noprog SC_FORMAT=cbor SC_ENCODER="$work/no-such-encoder"
[ "$rc" -eq 2 ] && [ ! -e "$work/noprog/out/badge.json" ] || fail "a missing encoder: exit $rc, or a badge was written"

if [ "$failures" -ne 0 ]; then
  echo "action: $failures check(s) failed" >&2
  exit 1
fi
echo "action: all checks passed ($cases vectors, float-width $passed/$graded)"
