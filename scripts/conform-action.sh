#!/usr/bin/env bash
# conform-action.sh — what the GitHub Action (action.yml) runs: grades an encoder with
# `sinkcheck conform`, and writes the JUnit report, a shields.io endpoint badge, the step summary
# and the step outputs. Usable outside GitHub too (any CI): everything comes from the environment.
#
#   SINKCHECK             the program (default: sinkcheck on PATH)
#   SC_FORMAT             cbor msgpack ubjson bjdata bson bon8 (required)
#   SC_ENCODER            the encoder command, or linked:NAME (required)
#   SC_MODE               per-vector (default) or batch
#   SC_NOTATION           token (default), json or json-decimal: the notation the encoder reads
#   SC_LEVEL              exact (default), canonical or equivalent
#   SC_EXPECTED_FAILURES  the encoder's expected-failures list (optional)
#   SC_MAX_UNSUPPORTED    values the encoder may declare unsupported without being listed: N or
#                         P% (conform --max-unsupported; default 0), for the corpus and generated values
#   SC_FILTER             only vectors whose id matches this glob (optional)
#   SC_JOBS               vectors in flight (default 2)
#   SC_OUTPUT_DIR         where the files go (default sinkcheck-results)
#   SC_LABEL              the badge's label (default "sinkcheck FORMAT")
#   SC_GENERATE           also grade this many generated values (conform --generate; optional)
#   SC_SEED               their seed (default 1)
#   SC_SHARD              with SC_GENERATE, only shard I/N of the values (conform --shard); their
#                         report is then generated.json, which `sinkcheck conform --merge` joins
#   GITHUB_OUTPUT, GITHUB_STEP_SUMMARY   set by GitHub Actions; used when set
#
# Writes SC_OUTPUT_DIR/junit.xml (conform --report junit) — with SC_GENERATE also
# generated-junit.xml and FORMAT-generated.vectors (each class of failure, shrunk, as a vector
# ready for an expected-failures list or a corpus) — and SC_OUTPUT_DIR/badge.json
# ({"schemaVersion":1,"label":...,"message":"P/G pass, G/T graded","color":...}: T the vectors,
# G those graded (all but the ones the encoder declared unsupported), P those passing and not
# listed as expected failures), and the outputs conforms=true|false, passed=P, graded=G,
# total=T, unsupported=T-G, junit=PATH, badge=PATH.
# Exit status: conform's own — 0 conforms, 1 does not (corpus or generated values), 2 usage or
# input error (then no badge).
set -uo pipefail
tool=${SINKCHECK:-sinkcheck}
out=${SC_OUTPUT_DIR:-sinkcheck-results}
python=$(command -v python3 || true)

fail_usage() {
  echo "conform-action: $*" >&2
  exit 2
}
[ -n "${SC_FORMAT:-}" ] || fail_usage "SC_FORMAT (the action's input 'format') is required"
[ -n "${SC_ENCODER:-}" ] || fail_usage "SC_ENCODER (the action's input 'encoder') is required"
[ -n "$python" ] || fail_usage "python3 is needed to read the JUnit report"
mkdir -p "$out" || fail_usage "cannot create the output directory '$out'"

# what both runs share; --expected-failures and --filter apply to the corpus only
common=(conform --format "$SC_FORMAT" --encoder "$SC_ENCODER" --mode "${SC_MODE:-per-vector}"
  --level "${SC_LEVEL:-exact}" --jobs "${SC_JOBS:-2}")
[ -z "${SC_NOTATION:-}" ] || common+=(--notation "$SC_NOTATION")
[ -z "${SC_MAX_UNSUPPORTED:-}" ] || common+=(--max-unsupported "$SC_MAX_UNSUPPORTED")
corpus=(--report junit --output "$out/junit.xml")
[ -z "${SC_EXPECTED_FAILURES:-}" ] || corpus+=(--expected-failures "$SC_EXPECTED_FAILURES")
[ -z "${SC_FILTER:-}" ] || corpus+=(--filter "$SC_FILTER")

"$tool" "${common[@]}" "${corpus[@]}"
status=$?
generated_status=0
generated_report=
if [ "$status" -le 1 ] && [ -n "${SC_GENERATE:-}" ]; then
  generated=(--report junit --output "$out/generated-junit.xml")
  generated_report=$out/generated-junit.xml
  if [ -n "${SC_SHARD:-}" ]; then
    # a shard's JSON report is what --merge reads
    generated=(--report json --output "$out/generated.json" --shard "$SC_SHARD")
    generated_report=$out/generated.json
  fi
  "$tool" "${common[@]}" "${generated[@]}" --generate "$SC_GENERATE" --seed "${SC_SEED:-1}" \
    --save "$out/$SC_FORMAT-generated.vectors"
  generated_status=$?
fi
if [ "$status" -gt 1 ] || [ "$generated_status" -gt 1 ]; then
  echo "conform-action: sinkcheck conform exited $status (corpus), $generated_status (generated); no badge written" >&2
  exit 2
fi
[ "$generated_status" -eq 0 ] || status=1

"$python" - "$out/junit.xml" "$out/badge.json" "$status" "${SC_LABEL:-sinkcheck $SC_FORMAT}" \
  "$generated_report" <<'PY' || exit 2
import json
import os
import sys
import xml.etree.ElementTree as ET

junit, badge, status, label, generated = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]


def counts(path):
    """The run's figures, from the properties conform writes into its JUnit report (or from a
    shard's JSON report)."""
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        return {"total": doc["total"], "graded": doc["graded"], "passed": doc["graded"] - doc["failures"],
                "unsupported_undeclared": doc["unsupported_undeclared"], "failing": doc["failures"],
                "verdict": doc["verdict"]}
    suite = ET.parse(path).getroot().find("testsuite")
    props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    figures = {k: int(props[k]) for k in ("total", "graded", "passed", "unsupported_undeclared")}
    figures["failing"] = int(suite.get("failures", "0")) + int(suite.get("errors", "0"))
    figures["verdict"] = props["verdict"]
    return figures


c = counts(junit)
total, graded, passed = c["total"], c["graded"], c["passed"]
conforms = status == 0
message = f"{passed}/{graded} pass, {graded}/{total} graded"
if generated:
    g = counts(generated)
    message += f", {g['total']} generated: {g['failing']} failing, {g['graded']}/{g['total']} graded"
with open(badge, "w", encoding="utf-8") as f:
    json.dump({"schemaVersion": 1, "label": label, "message": message,
               "color": "brightgreen" if conforms else "red"}, f)
    f.write("\n")
lines = {"conforms": "true" if conforms else "false", "passed": passed, "graded": graded, "total": total,
         "unsupported": total - graded, "junit": junit, "badge": badge}
if os.environ.get("GITHUB_OUTPUT"):
    with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as f:
        f.writelines(f"{k}={v}\n" for k, v in lines.items())
if os.environ.get("GITHUB_STEP_SUMMARY"):
    with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as f:
        verdict = "conforms" if conforms else "does not conform"
        f.write(f"### {label}: {verdict}\n\n{passed} of {graded} graded vectors pass; {graded} of {total} graded "
                f"({total - graded} unsupported, {c['unsupported_undeclared']} of them not declared); "
                f"report: `{junit}`\n\n`{c['verdict']}`\n")
        if generated:
            f.write(f"\nGenerated values: `{g['verdict']}`\n")
print(f"conform-action: {label}: {message}, {'conforms' if conforms else 'does not conform'}")
PY
exit "$status"
