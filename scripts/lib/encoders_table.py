"""The table of encoders, conformance/adapters/encoders.txt, and what each encoder declares
unsupported, conformance/adapters/declared/NAME.txt, for the results scripts.

    encoders_table.py declared TABLE NAME FORMAT DIR

writes the corpus vectors NAME declares unsupported in FORMAT as an expected-failures list,
DIR/NAME.FORMAT.expected, with the lines of the declaration file kept in place (so the runner's
FILE:LINE errors point at the same line there), and prints two lines: that list's path (empty
when nothing is declared) and the budget of generated values (`--max-unsupported`, 0 when none).
"""

import os
import re
import sys

FIELDS = ("name", "formats", "level", "encoder", "mode", "title", "how")


def read_table(path):
    """One dict per encoder, in the table's order; formats as a list."""
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("|")
            if len(fields) != len(FIELDS):
                raise SystemExit("%s:%d: %d fields, expected %d (%s)" % (path, number, len(fields), len(FIELDS),
                                                                         " | ".join(FIELDS)))
            row = dict(zip(FIELDS, fields))
            row["formats"] = row["formats"].split()
            rows.append(row)
    return rows


# A budget as `conform --max-unsupported` takes it: a count, or a share with at most three decimals.
BUDGET = re.compile(r"^(?:[0-9]+|(?:[0-9]|[1-9][0-9]|100)(?:\.[0-9]{1,3})?%)$")


def declared_path(table_path, name):
    return os.path.join(os.path.dirname(table_path), "declared", name + ".txt")


def read_declared(table_path, row):
    """What the encoder of `row` declares unsupported, from conformance/adapters/declared/NAME.txt
    (no file: nothing). Lines:

        VECTOR-ID  # reason                      a corpus vector, in the expected-failures form
        generated FORMAT BUDGET  # reason        generated values: conform --max-unsupported BUDGET

    Every entry needs its reason, a vector's format must be one the encoder writes, a format has at
    most one budget. Returns {"vectors": {format: [(line, id, reason)]}, "generated": {format: (line,
    budget, reason)}, "path": path, "lines": number of lines}."""
    path = declared_path(table_path, row["name"])
    declared = {"vectors": {}, "generated": {}, "path": path, "lines": 0}
    if not os.path.exists(path):
        return declared
    seen = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            declared["lines"] = number
            text, _, reason = line.rstrip("\n").partition("#")
            words = text.split()
            if not words:
                continue
            where = "%s:%d" % (path, number)
            reason = reason.strip()
            if not reason:
                raise SystemExit("%s: '%s' has no reason: write it after '#'" % (where, text.strip()))
            if words[0] == "generated":
                if len(words) != 3 or not BUDGET.match(words[2]):
                    raise SystemExit("%s: expected 'generated FORMAT BUDGET # reason', BUDGET a count or a share "
                                     "such as 2.5%%, not '%s'" % (where, text.strip()))
                fmt, budget = words[1], words[2]
                if fmt not in row["formats"]:
                    raise SystemExit("%s: %s does not write %s (conformance/adapters/encoders.txt: %s)" % (
                        where, row["name"], fmt, " ".join(row["formats"])))
                if fmt in declared["generated"]:
                    raise SystemExit("%s: a second budget for %s (the first is on line %d): one per format, its "
                                     "reason naming every cause" % (where, fmt, declared["generated"][fmt][0]))
                declared["generated"][fmt] = (number, budget, reason)
                continue
            if len(words) != 1:
                raise SystemExit("%s: expected 'VECTOR-ID # reason' or 'generated FORMAT BUDGET # reason', not "
                                 "'%s'" % (where, text.strip()))
            vid = words[0]
            fmt = vid.split("/", 1)[0]
            if fmt not in row["formats"]:
                raise SystemExit("%s: %s is not a vector of a format %s writes (%s)" % (
                    where, vid, row["name"], " ".join(row["formats"])))
            if vid in seen:
                raise SystemExit("%s: %s is declared twice (first on line %d)" % (where, vid, seen[vid]))
            seen[vid] = number
            declared["vectors"].setdefault(fmt, []).append((number, vid, reason))
    return declared


def write_declared(table_path, name, fmt, out_dir):
    rows = [row for row in read_table(table_path) if row["name"] == name]
    if not rows:
        raise SystemExit("%s: no encoder '%s'" % (table_path, name))
    declared = read_declared(table_path, rows[0])
    vectors = declared["vectors"].get(fmt, [])
    list_path = ""
    if vectors:
        list_path = os.path.join(out_dir, "%s.%s.expected" % (name, fmt))
        by_line = {number: (vid, reason) for number, vid, reason in vectors}
        with open(list_path, "w") as f:
            for number in range(1, declared["lines"] + 1):
                vid, reason = by_line.get(number, ("", ""))
                # Other lines stay, empty, so that the runner's FILE:LINE is the declaration's line.
                f.write("%s  # unsupported: %s\n" % (vid, reason) if vid else "\n")
    generated = declared["generated"].get(fmt)
    print(list_path)
    print(generated[1] if generated else "0")


if __name__ == "__main__":
    if len(sys.argv) != 6 or sys.argv[1] != "declared":
        raise SystemExit(__doc__)
    write_declared(*sys.argv[2:6])
