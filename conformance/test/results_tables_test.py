#!/usr/bin/python3
"""results_tables_test.py ROOT — the tables the results scripts read are well formed, and their
readers reject what is not (scripts/lib/encoders_table.py, scripts/lib/difference_classes.py).

* Every row of conformance/adapters/encoders.txt parses; every conformance/adapters/declared/
  NAME.txt names an encoder of the table, parses, declares only vectors that exist in the corpus
  of a format the encoder writes, each with its reason.
* A declaration file with a missing reason, a vector of another format, a second budget, a budget
  out of range, a vector twice or a malformed line is refused, naming the file and line.
* The list written for a run keeps each entry on its line, with `unsupported:` before the reason.
* Every difference class the runner gives has an explanation, and an unknown class stops.
"""

import contextlib
import io
import os
import re
import sys
import tempfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))

import difference_classes  # noqa: E402
import encoders_table  # noqa: E402
import formats  # noqa: E402

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def refused(table, row, text):
    """The SystemExit message read_declared gives for a declaration file holding text."""
    with open(encoders_table.declared_path(table, row["name"]), "w") as f:
        f.write(text)
    try:
        encoders_table.read_declared(table, row)
    except SystemExit as e:
        return str(e)
    return None


# The real tables.
table = os.path.join(ROOT, "conformance", "adapters", "encoders.txt")
rows = encoders_table.read_table(table)
names = {row["name"] for row in rows}
ids = {}
for fmt in [row["name"] for row in formats.rows(ROOT)]:
    with open(os.path.join(ROOT, "corpus", "conformance", fmt + ".vectors")) as f:
        ids[fmt] = set(re.findall(r"^id: (\S+)$", f.read(), re.M))
declared_dir = os.path.join(ROOT, "conformance", "adapters", "declared")
for entry in sorted(os.listdir(declared_dir)):
    if entry.endswith(".txt"):
        check(entry[:-4] in names, "declared/%s names no encoder of encoders.txt" % entry)
checked = 0
for row in rows:
    declared = encoders_table.read_declared(table, row)
    for fmt, entries in declared["vectors"].items():
        for number, vid, reason in entries:
            checked += 1
            check(vid in ids[fmt], "%s:%d: %s is no vector of the corpus" % (declared["path"], number, vid))
            check(reason.strip() != "", "%s:%d: no reason" % (declared["path"], number))
check(checked > 100, "only %d declared vectors read: the files were not found" % checked)
check("qt-cbor" in names, "the Qt encoder is not in encoders.txt")

# The reader's refusals, on a table of one encoder in a scratch directory.
with tempfile.TemporaryDirectory() as scratch:
    os.mkdir(os.path.join(scratch, "declared"))
    scratch_table = os.path.join(scratch, "encoders.txt")
    with open(scratch_table, "w") as f:
        f.write("# one encoder\nx|cbor msgpack|equivalent|enc|batch|X|x\n")
    row = encoders_table.read_table(scratch_table)[0]
    path = encoders_table.declared_path(scratch_table, "x")
    cases = [
        ("cbor/int/0\n", ":1: 'cbor/int/0' has no reason"),
        ("# a comment\ncbor/int/0 #   \n", ":2: 'cbor/int/0' has no reason"),
        ("bson/int/0 # why\n", ":1: bson/int/0 is not a vector of a format x writes (cbor msgpack)"),
        ("generated cbor 1% # a\ngenerated cbor 2 # b\n", ":2: a second budget for cbor (the first is on line 1)"),
        ("generated cbor 101% # a\n", ":1: expected 'generated FORMAT BUDGET # reason'"),
        ("generated cbor 1.2345% # a\n", ":1: expected 'generated FORMAT BUDGET # reason'"),
        ("generated bson 1 # a\n", ":1: x does not write bson"),
        ("cbor/int/0 # a\n\ncbor/int/0 # b\n", ":3: cbor/int/0 is declared twice (first on line 1)"),
        ("cbor/int/0 cbor/int/1 # a\n", ":1: expected 'VECTOR-ID # reason' or 'generated FORMAT BUDGET # reason'"),
    ]
    for text, wanted in cases:
        message = refused(scratch_table, row, text)
        check(message is not None and message.startswith(path) and wanted in message,
              "%r: wanted '%s%s…', got %r" % (text, path, wanted, message))

    # Accepted: both kinds of entry, budgets as counts and shares.
    good = "# x\ncbor/int/0   # no zero here\n\ngenerated cbor 12.5%  # a share\nmsgpack/int/1 # one\ngenerated msgpack 7 # a count\n"
    check(refused(scratch_table, row, good) is None, "a well-formed declaration file was refused")
    declared = encoders_table.read_declared(scratch_table, row)
    check(declared["vectors"] == {"cbor": [(2, "cbor/int/0", "no zero here")], "msgpack": [(5, "msgpack/int/1", "one")]},
          "vectors read as %r" % declared["vectors"])
    check(declared["generated"] == {"cbor": (4, "12.5%", "a share"), "msgpack": (6, "7", "a count")},
          "budgets read as %r" % declared["generated"])

    # The run's list: the entry on its own line, the others empty; the budget printed after it.
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        encoders_table.write_declared(scratch_table, "x", "cbor", scratch)
    list_path = os.path.join(scratch, "x.cbor.expected")
    check(out.getvalue() == "%s\n12.5%%\n" % list_path, "write_declared printed %r" % out.getvalue())
    with open(list_path) as f:
        lines = f.read().split("\n")
    check(lines[:6] == ["", "cbor/int/0  # unsupported: no zero here", "", "", "", ""], "the list is %r" % lines)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        encoders_table.write_declared(scratch_table, "x", "msgpack", scratch)
    check(out.getvalue().endswith("\n7\n"), "msgpack's budget printed as %r" % out.getvalue())
    os.remove(path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        encoders_table.write_declared(scratch_table, "x", "cbor", scratch)
    check(out.getvalue() == "\n0\n", "without a file: %r" % out.getvalue())

# Every class the runner gives (conformance/runner/src/run.cpp: value_class's kinds, item_class,
# the results --generate groups by) has an explanation; an unknown one stops.
runner_classes = ["different value: " + k for k in ("integer", "float", "string", "binary", "boolean")] + [
    "different value", "different type", "integer packing of whole doubles", "integer beyond 64 bits",
    "length or structure", "writes a value it must refuse", "refuses a valid value", "refuses for another reason",
    "malformed output", "nondeterministic output", "float width", "integer width", "head width", "tag head width",
    "tag encoding", "indefinite length", "key order", "other", "crash", "timeout", "harness-error"]
for name in runner_classes:
    try:
        check(difference_classes.explain(name).strip() != "", "class '%s' has an empty explanation" % name)
    except SystemExit:
        failures.append("class '%s' has no explanation" % name)
with open(os.path.join(ROOT, "conformance", "runner", "src", "run.cpp")) as f:
    source = f.read()
# The literal classes in the source: item_class's returns, classified{...}/{...} results and
# assignments to a result's difference.
item_class = re.search(r"\nstd::string item_class\(.*?\n}\n", source, re.S)
check(item_class is not None, "run.cpp has no item_class() to read the classes from")
literal = set(re.findall(r'return "([^"]+)"', item_class.group(0) if item_class else ""))
literal |= set(re.findall(r'(?:classified\{|return \{)"([^"]+)"', source))
literal |= set(re.findall(r'difference = "([^"]+)"', source))
check(len(literal) >= 15, "only %d classes found in run.cpp: %s" % (len(literal), sorted(literal)))
for name in literal:
    check(name in difference_classes.EXPLAIN, "run.cpp gives the class '%s', which has no explanation" % name)
try:
    difference_classes.explain("no such class")
    failures.append("an unknown class was explained")
except SystemExit as e:
    check("'no such class'" in str(e), "the message names the class: %s" % e)

for message in failures:
    print("FAIL:", message)
print("%d failures; %d declared vectors checked against the corpus" % (len(failures), checked))
sys.exit(1 if failures else 0)
