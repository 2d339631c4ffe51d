"""Writes docs/conformance-generated.md from the summaries scripts/generated-results.sh leaves in
BUILD_DIR/generated-results/, with a verdict for each class of failure.

    generated_document.py SUMMARY_DIR DOCUMENT TABLE
"""
import json
import os
import re
import sys

from difference_classes import explain
from encoders_table import read_declared, read_table

out_dir, doc_path, table_path = sys.argv[1:4]

# Verdicts per (encoder, format, class): the minimal input the verdict was written for, and the
# verdict. A class whose representative is another input is shown as not judged yet, so a
# verdict cannot outlive the finding it judged.
FLOAT_WIDTH = ("Legitimate: the same double in binary64; %s leaves the width to the encoder, this one always writes "
               "binary64, nlohmann 3.11.2 binary32 when exact (conformance-results.md, `float width`).")
CBOR_FLOAT_WIDTH = (FLOAT_WIDTH % "RFC 8949 §3.3") + " RFC 8949 §4.1 preferred serialization is neither: `f90000`."
MSGPACK_FLOAT_WIDTH = FLOAT_WIDTH % "the MessagePack spec (float format family)"
MSGPACK_MINUS_ZERO = ("Bug, the corpus finding `-0.0 written as the integer 0`: -0 is a float (MessagePack spec, float "
                      "format family; IEEE 754 keeps its sign); the library's integer test accepts it and writes `00`, "
                      "losing the sign and the type.")
CBOR_TAG_HEAD = ("Legitimate, and the encoder's bytes are RFC 8949 §4.1's preferred serialization: the tag in the "
                 "one-byte head `c0`+n; nlohmann 3.11.2 always writes `d8 xx` (formats.md §2, item 3). Same value.")
VERDICTS = {
    ("msgpack-cxx", "msgpack", "integer packing of whole doubles"): (
        "0.0", "Legitimate choice, lossy for the type: pack_double writes a double with an integral value as an "
        "integer (the MessagePack spec leaves a number's form to the encoder), so a reader gets the integer 0, not a "
        "float; for -0.0 the sign is lost too (conformance-results.md, `integer packing of whole doubles`)."),
    ("msgpack-cxx", "msgpack", "float width"): ("-249.75", MSGPACK_FLOAT_WIDTH),
    ("libcbor", "cbor", "float width"): ("0.0", CBOR_FLOAT_WIDTH),
    ("libcbor", "cbor", "tag head width"): ("h''#0", CBOR_TAG_HEAD),
    ("cbor2", "cbor", "float width"): ("0.0", CBOR_FLOAT_WIDTH),
    ("cbor2", "cbor", "tag head width"): ("h''#0", CBOR_TAG_HEAD),
    ("cbor2-canonical", "cbor", "float width"): (
        "65504.0", "Bug, the corpus finding `65504.0 as binary32` grown to a whole binade: RFC 8949 §4.2.1 (with "
        "§4.1's preferred serialization) asks for the shortest float that keeps the value, and 65504.0, the largest "
        "finite binary16, is `f97bff` (Appendix A). cbor2 5.4.6's C encoder (_cbor2) writes each of the 2,048 "
        "binary16 values of the top binade (32768 <= |v| <= 65504) as binary32 (`fa477fe000` here); its "
        "pure-Python encoder writes `f97bff`."),
    ("msgpack-python", "msgpack", "float width"): ("0.0", MSGPACK_FLOAT_WIDTH),
    ("msgpack-python", "msgpack", "refuses a valid value"): (
        "h''#128", "Legitimate: the MessagePack spec (ext format family) gives applications the types 0..127 and "
        "reserves -128..-1 for predefined ones; ExtType takes 0..127 only, nlohmann writes subtype 128 as the reserved "
        "type -128 (conformance-results.md, `refuses a valid value`)."),
    ("pybj", "bjdata", "malformed output"): (
        "5e-324", "Same root cause as the corpus finding `every multi-byte number big-endian` (pybj 0.2.6 writes "
        "BJData Draft 1; Draft 2 is little-endian): pybj writes a subnormal double as high-precision `H` with its "
        "exact decimal expansion (legitimate in itself) and its 757-byte length as `u` big-endian `02f5`, which a "
        "Draft 2 reader takes for 62,722 bytes."),
    ("pybj", "bjdata", "different value: float"): (
        "1.0", "Same root cause as the corpus finding `every multi-byte number big-endian` (pybj 0.2.6 writes BJData "
        "Draft 1; Draft 2 is little-endian): 1.0 as `D` with its bytes big-endian (`443ff0000000000000`), which a "
        "Draft 2 reader takes for the subnormal 3.04e-319."),
    ("pybj", "bjdata", "different value: integer"): (
        "-129", "Same root cause as the corpus finding `every multi-byte number big-endian`: -129 as `I` (int16) "
        "big-endian `ff7f`, which a Draft 2 (little-endian) reader takes for 32767."),
    ("pybj", "bjdata", "length or structure"): (
        '["' + "d" * 198 + "...", "Same root cause as the corpus finding `every multi-byte number big-endian`: a "
        "string of 256 bytes gets its length as `u` (uint16) big-endian `0100`, which a Draft 2 reader takes for 1, "
        "so the rest of the string is read as further elements (the report cuts the input at 200 characters)."),
    ("pybj", "bjdata", "different type"): (
        '{"_ArrayData_":[],"_ArraySize_":[],"_ArrayType_":"int8"}', "Legitimate, the corpus finding `JData ND-array "
        "annotations written as objects`: nlohmann 3.11.2's to_bjdata turns this object into an optimized N-D array "
        "(`5b2469235b5d`); pybj writes it as the object it is."),
    ("pybj", "bjdata", "integer packing of whole doubles"): (
        '{"_ArrayData_":[0,0],"_ArraySize_":[2,1],"_ArrayType_":"single"}', "Legitimate, the same root cause as "
        "`different type` (the corpus finding `JData ND-array annotations written as objects`): nlohmann's to_bjdata "
        "writes an N-D array of singles, whose data are the floats 0.0; pybj writes the object, with `_ArrayData_` "
        "holding the integers the input gave."),
    ("node-cbor", "cbor", "malformed output"): (
        '["' + "a" * 198 + "...", "Bug, the corpus finding `output cut at 16 KiB` (hildjj/node-cbor issue 170, open): "
        "cbor.encode() returns what its stream buffered, here the first 16,385 bytes of an array of long strings, so "
        "the output ends early and does not decode; nothing is thrown (the report cuts the input at 200 characters)."),
    ("cbor-x", "cbor", "different value: binary"): (
        "h''#4294967296", "Bug, the corpus finding `tag numbers truncated to 32 bits`: tag 2^32 is written as tag 0 "
        "(`da00000000`); RFC 8949 §3.4 tag numbers take the full 64-bit argument of §3."),
    ("cbor-x", "cbor", "integer packing of whole doubles"): (
        "-0.0", "Bug, the corpus finding `-0.0 written as the integer 0`: -0 is a float apart from 0 in JavaScript "
        "(Object.is) and in CBOR (RFC 8949 §3.3; Appendix A: `f98000`); cbor-x writes `00`, losing sign and type."),
    ("node-cbor", "cbor", "refuses a valid value"): (
        "h''#4294967295", "Bug, the corpus finding `tag numbers from 2^32-1 up refused`: RFC 8949 §3.4 tag numbers "
        "take the full 64-bit argument of §3."),
    ("msgpackr", "msgpack", "refuses a valid value"): (
        "h''#0", "Bug, the corpus finding `ext type 0 refused`: addExtension rejects type 0 (\"Extension has no "
        "type\", a falsy test) although 0..127 are the application's ext types (MessagePack spec, ext format family)."),
    ("msgpackr", "msgpack", "integer packing of whole doubles"): ("-0.0", MSGPACK_MINUS_ZERO),
    ("msgpack-javascript", "msgpack", "refuses a valid value"): (
        "[" * 101 + "]" * 99 + "...", "Legitimate default, documented, the corpus finding `nesting beyond 100 refused`: "
        "`maxDepth` is 100; the value (arrays nested more than 100 deep; the report cuts the input at 200 "
        "characters) is valid."),
    ("msgpack-javascript", "msgpack", "integer packing of whole doubles"): ("-0.0", MSGPACK_MINUS_ZERO),
    ("cbor-xs", "cbor", "integer packing of whole doubles"): (
        "0.0", "Legitimate, documented choice, the corpus finding `whole doubles written as integers`: CBOR::XS writes "
        "a Perl number whose value is whole and fits 32 bits as an integer (0.0 as `00`), so a reader gets an integer, "
        "not the float (for -0.0 the sign is lost too: the corpus finding `-0.0 written as the integer 0`, a bug)."),
}


def cell(text, limit=60):
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[:limit] + "…"


def actual(v):
    if v.get("actual_hex"):
        return "`%s`" % cell(v["actual_hex"])
    detail = v.get("detail", "")
    return cell(detail.split("; ", 1)[-1] if detail.startswith("shrunk") else detail, 90) or v["result"]


def expected(v):
    if v.get("expected_hex"):
        return "`%s`" % cell(v["expected_hex"])
    return "refusal %s" % v.get("expected_error", "")


encoders = read_table(table_path)
summaries = []
for row in encoders:
    for fmt in row["formats"]:
        path = os.path.join(out_dir, "%s.%s.json" % (row["name"], fmt))
        if os.path.exists(path):
            with open(path) as f:
                summaries.append((row, json.load(f)))
if not summaries:
    sys.exit("generated-results: no summary in %s" % out_dir)

INTRO = """# Generated values against third-party encoders

Generated by `bash scripts/generated-results.sh` (do not edit by hand; the verdicts live in
`scripts/lib/generated_document.py`). Every third-party encoder of `conformance/adapters/encoders.txt`
(the encoders and versions of [conformance-results.md](conformance-results.md)) was graded on
generated values — `sinkcheck conform --generate N --seed 1`, default profile, two jobs; see
[conformance.md](conformance.md), "Generated values" — in every format it writes, at its honest
level. Each class of failure (the runner's difference class) was shrunk to a minimal value, shown
below with the reference's bytes, the encoder's bytes or error, and a verdict: a bug, against the
paragraph of the specification it breaks, or a legitimate choice. Times are wall-clock seconds of
the whole run (shrinking included) on a shared 2-core machine and vary between runs; the values,
classes and minimal values are deterministic for the seed and N. Each class's representative is
also saved as a `.vectors` entry (`--save`) in `BUILD_DIR/generated-results/FORMAT-ENCODER.vectors`,
which `sinkcheck conform --corpus FILE` grades again.
"""

lines = INTRO.split("\n")
w = lines.append
w("| encoder | format | level | values | seconds | values/s | unsupported | declared budget | failing values | "
  "classes | conforms |")
w("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
seen_classes = set()
for row, s in summaries:
    for finding in s["findings"]:
        explain(finding["difference"])  # stops on a class the document cannot explain
        seen_classes.add(finding["difference"])
    level = s["level"] if s["level"] == s["table_level"] else "%s (table: %s)" % (s["level"], s["table_level"])
    rate = s["values"] / s["wall_seconds"] if s["wall_seconds"] > 0 else 0
    w("| %s | %s | %s | %d | %.1f | %.0f | %d | %s | %d | %d | %s |" % (
        row["name"], s["format"], level, s["values"], s["wall_seconds"], rate, s["counts"]["unsupported"],
        s["max_unsupported"], s["failing"], len(s["findings"]), "yes" if s["conforms"] else "no"))
w("")
w("`failing values` counts every value the encoder did not get right at that level (at the exact level")
w("that includes equal values in other bytes). Unsupported values (an adapter declaring a value it")
w("cannot be asked for, such as a whole double in JavaScript) are not failures, but a run conforms only")
w("when they stay within the budget the encoder declares, with its reason, in")
w("`conformance/adapters/declared/NAME.txt` (`--max-unsupported`; 0 without one): docs/conformance.md,")
w("\"Unsupported values\".")
w("")
w("## Classes per encoder")
stale = []
for row, s in summaries:
    w("")
    w("### %s, %s" % (row["name"], s["format"]))
    w("")
    w("%s; %d values at the %s level, %d redrawn (refused by the reference in the default profile)." % (
        row["title"], s["values"], s["level"], s["redrawn"]))
    budget = read_declared(table_path, row)["generated"].get(s["format"])
    if budget is not None:
        w("")
        w("Declared in `conformance/adapters/declared/%s.txt`: up to %s of the values unsupported, because %s." % (
            row["name"], budget[1], budget[2]))
    w("")
    w("Verdict: %s" % s["verdict"])
    # Reasons that differ only in the value they name (a JavaScript adapter names the double) are
    # one reason: counted together, shown by their most frequent wording.
    groups = {}
    for reason, n in sorted(s.get("unsupported_reasons", {}).items(), key=lambda item: (-item[1], item[0])):
        group = groups.setdefault(re.sub(r"-?[0-9][0-9.e+-]*", "#", reason), [reason, 0, 0])
        group[1] += n
        group[2] += 1
    if s["counts"]["unsupported"]:
        # The report lists the first unsupported values and counts the rest.
        w("")
        w("Declared unsupported by the adapter: %d values; the answers of the %d the report lists:" % (
            s["counts"]["unsupported"], sum(n for _, n, _ in groups.values())))
        w("")
    for example, n, wordings in groups.values():
        shown_as = "for example: %s (%d different values)" % (example, wordings) if wordings > 1 else example
        w("- %d: %s" % (n, shown_as))
    if not s["findings"]:
        w("")
        w("No failure.")
        continue
    by_id = {v["id"]: v for v in s["representatives"]}
    w("")
    w("| class | values | minimal input | expected | actual | shrinking | verdict |")
    w("|---|---:|---|---|---|---|---|")
    for finding in s["findings"]:
        v = by_id[finding["id"]]
        judged = VERDICTS.get((row["name"], s["format"], finding["difference"]))
        if judged is None:
            verdict = "not judged yet"
        elif judged[0] != finding["input"]:
            verdict = "not judged yet (the verdict was written for `%s`)" % cell(judged[0], 40)
            stale.append("%s %s %s" % (row["name"], s["format"], finding["difference"]))
        else:
            verdict = judged[1]
        shrinking = "%d → %d choice bytes, %d steps%s" % (finding["original_bytes"], finding["shrunk_bytes"],
                                                         finding["steps"],
                                                         " (step limit)" if finding["steps_exhausted"] else "")
        w("| %s | %d | `%s` | %s | %s | %s | %s |" % (finding["difference"], finding["values"], cell(finding["input"]),
                                                   expected(v), actual(v), shrinking, verdict))
w("")
w("## The classes")
w("")
w("What each class of difference found above means (docs/conformance.md, \"Results\").")
w("")
w("| class | meaning |")
w("|---|---|")
for difference in sorted(seen_classes):
    w("| %s | %s |" % (difference, explain(difference).replace("|", "\\|")))
w("")
with open(doc_path, "w") as f:
    f.write("\n".join(lines))
print("wrote", doc_path)
for entry in stale:
    print("generated-results: the verdict of %s was written for another minimal value" % entry, file=sys.stderr)
