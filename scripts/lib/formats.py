#!/usr/bin/env python3
"""scripts/lib/formats.py — the formats, read from format_table (reference/include/sinkcheck/options.hpp).

The table is the one list of formats; the build reads it through cmake/SinkcheckFormats.cmake,
the scripts and tests through this file, the C++ directly. Run: prints every format's name, one
per line, in enum order (--oracle: only those nlohmann 3.11.2 writes; --titles: the titles).
Imported: rows(root) gives the rows as dicts. Exit status: 0, or 2 when the table cannot be read.
Standard library only.
"""

import argparse
import os
import re
import sys

TABLE = os.path.join("reference", "include", "sinkcheck", "options.hpp")
_BOOL = r"(true|false)"
_ROW = re.compile(r'^ *\{format::([a-z0-9_]+), *"([a-z0-9_]+)", *"([^"]+)", *' + r", *".join([_BOOL] * 4) + r"\},")
COLUMNS = ("oracle", "container_shape", "root_object", "patches_lengths")


def rows(root):
    """format_table's rows: name, title and the boolean columns; raises ValueError if unreadable."""
    path = os.path.join(root, TABLE)
    out = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not re.match(r"^ *\{format::", line):
                continue
            m = _ROW.match(line)
            if not m:
                raise ValueError("%s:%d: a format_table row this script cannot read" % (path, number))
            if m.group(1) != m.group(2):
                raise ValueError("%s:%d: format::%s is named \"%s\"; the name must be the identifier"
                                 % (path, number, m.group(1), m.group(2)))
            row = {"name": m.group(2), "title": m.group(3)}
            row.update({c: m.group(4 + i) == "true" for i, c in enumerate(COLUMNS)})
            out.append(row)
    if not out:
        raise ValueError("%s: no format_table rows" % path)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="The formats of format_table, one per line.")
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(here)), help="the source tree (default: this script's)")
    parser.add_argument("--oracle", action="store_true", help="only the formats nlohmann 3.11.2 writes")
    parser.add_argument("--titles", action="store_true", help="print titles instead of names")
    args = parser.parse_args()
    try:
        table = rows(args.root)
    except (OSError, ValueError) as e:
        print("formats.py: %s" % e, file=sys.stderr)
        return 2
    for row in table:
        if args.oracle and not row["oracle"]:
            continue
        print(row["title"] if args.titles else row["name"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
