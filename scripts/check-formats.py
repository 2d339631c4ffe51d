#!/usr/bin/env python3
"""scripts/check-formats.py — every format of format_table has every part that is a file.

format_table (reference/include/sinkcheck/options.hpp, read through scripts/lib/formats.py) is
the one list of formats. The C++ that branches on a format is held to it by the compiler (switches
without a default under -Wswitch, static_asserts); CMake, the scripts and the shell tests read
the table. What neither can see is a file a format must come with, or a document that must name
it: this check lists, for each row, each part that is missing, as PATH: what is wrong. The
parts (docs/testkit.md, "Adding a format to sinkcheck"):

  reference/include/sinkcheck/format/NAME.hpp    the encoder
  corpus/conformance/NAME.vectors                 the conformance vectors
  fuzz/fuzz_NAME.cpp, .dict, .options             the differential fuzz target and its settings
  corpus/fuzz_NAME/                               its seeds (at least one file)
  fuzz/README.md                                  names fuzz_NAME
  docs/formats.md                                 a section "## TITLE"
  README.md, action.yml                           name TITLE; action.yml's format input names NAME
  scripts/conform-action.sh                       names NAME among SC_FORMAT's values
  corpus/conformance/export.schema.json           NAME in the format enum and the id pattern
  conformance/adapters/encoders.txt               the reference row writes every format, the
                                                  nlohmann row every oracle format
  bench/perf_gate_thresholds.txt                  an oracle format: a threshold per compiler,
                                                  for the fixed and the text document

Usage: check-formats.py [--root DIR] [--extra NAME:TITLE[:oracle]]... [--hide PATH]...

--extra adds a row to the table, in memory, as a seventh format would; --hide makes a file or
folder look absent: the tests that the check catches what it should use them
(reference/test/CMakeLists.txt). Exit status: 0 every part present, 1 one is missing (each
printed), 2 usage error or a table that cannot be read. Standard library only.
"""

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import formats  # noqa: E402


class Tree:
    """The source tree as the check sees it: hidden paths absent, files read once."""

    def __init__(self, root, hidden):
        self.root = root
        self.hidden = {os.path.normpath(h) for h in hidden}
        self.cache = {}

    def _hidden(self, rel):
        rel = os.path.normpath(rel)
        return any(rel == h or rel.startswith(h + os.sep) for h in self.hidden)

    def exists(self, rel):
        return not self._hidden(rel) and os.path.exists(os.path.join(self.root, rel))

    def entries(self, rel):
        if not self.exists(rel) or not os.path.isdir(os.path.join(self.root, rel)):
            return []
        return [e for e in os.listdir(os.path.join(self.root, rel)) if not self._hidden(os.path.join(rel, e))]

    def text(self, rel):
        if rel not in self.cache:
            self.cache[rel] = None
            if self.exists(rel):
                with open(os.path.join(self.root, rel), encoding="utf-8") as f:
                    self.cache[rel] = f.read()
        return self.cache[rel]


def encoders_rows(text):
    """encoders.txt's rows: name -> the formats it writes."""
    out = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("|")
        if len(fields) >= 2:
            out[fields[0].strip()] = fields[1].split()
    return out


def thresholds(text):
    """perf_gate_thresholds.txt: the (compiler, format) pairs it sets."""
    out = set()
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 3 and not line.startswith("#"):
            out.add((fields[0], fields[1]))
    return out


def check(tree, rows):
    problems = []

    def need(path, what):
        problems.append("%s: %s" % (path, what))

    names = [r["name"] for r in rows]
    oracle = [r["name"] for r in rows if r["oracle"]]
    for r in rows:
        name, title = r["name"], r["title"]
        for path, what in [
            ("reference/include/sinkcheck/format/%s.hpp" % name, "the encoder"),
            ("corpus/conformance/%s.vectors" % name, "the conformance vectors"),
            ("fuzz/fuzz_%s.cpp" % name, "the differential fuzz target"),
            ("fuzz/fuzz_%s.dict" % name, "the fuzz target's dictionary"),
            ("fuzz/fuzz_%s.options" % name, "the fuzz target's options"),
        ]:
            if not tree.exists(path):
                need(path, "missing: %s of %s" % (what, name))
        seeds = "corpus/fuzz_%s" % name
        if not [e for e in tree.entries(seeds) if not e.startswith("README")]:
            need(seeds + "/", "no seed for fuzz_%s" % name)
        for path, needle, what in [
            ("fuzz/README.md", "fuzz_%s" % name, "does not name fuzz_%s" % name),
            ("docs/formats.md", "\n## %s\n" % title, "has no section '## %s'" % title),
            ("README.md", title, "does not name %s" % title),
            ("action.yml", title, "does not name %s" % title),
            ("scripts/conform-action.sh", name, "does not name %s among SC_FORMAT's values" % name),
        ]:
            text = tree.text(path)
            if text is None:
                need(path, "missing")
            elif needle not in text:
                need(path, what)
        action = tree.text("action.yml") or ""
        described = re.search(r"^  format:\n(?:    .*\n)*?    description: (.*)$", action, re.M)
        if described and not re.search(r"\b%s\b" % re.escape(name), described.group(1)):
            need("action.yml", "the format input's description does not name %s" % name)

    schema_text = tree.text("corpus/conformance/export.schema.json")
    if schema_text is None:
        need("corpus/conformance/export.schema.json", "missing")
    else:
        vector = json.loads(schema_text)["$defs"]["vector"]["properties"]
        if vector["format"]["enum"] != names:
            need("corpus/conformance/export.schema.json",
                 "the format enum is %s, format_table has %s" % (vector["format"]["enum"], names))
        pattern = re.compile(vector["id"]["pattern"])
        for name in names:
            if not pattern.match(name + "/x"):
                need("corpus/conformance/export.schema.json", "the id pattern refuses %s/..." % name)

    table = tree.text("conformance/adapters/encoders.txt")
    if table is None:
        need("conformance/adapters/encoders.txt", "missing")
    else:
        writes = encoders_rows(table)
        for encoder, expected in [("reference", names), ("nlohmann", oracle)]:
            if writes.get(encoder) != expected:
                need("conformance/adapters/encoders.txt",
                     "the %s row writes %s; format_table gives %s" % (encoder, writes.get(encoder), expected))

    gate = tree.text("bench/perf_gate_thresholds.txt")
    if gate is None:
        need("bench/perf_gate_thresholds.txt", "missing")
    else:
        set_ = thresholds(gate)
        for compiler in ("GNU", "Clang"):
            for name in oracle:
                for document in (name, name + ":text"):
                    if (compiler, document) not in set_:
                        need("bench/perf_gate_thresholds.txt", "no %s threshold for %s" % (compiler, document))
    return problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="Every format of format_table has every part.")
    parser.add_argument("--root", default=os.path.dirname(here))
    parser.add_argument("--extra", action="append", default=[], metavar="NAME:TITLE[:oracle]")
    parser.add_argument("--hide", action="append", default=[], metavar="PATH")
    args = parser.parse_args()
    try:
        rows = formats.rows(args.root)
    except (OSError, ValueError) as e:
        print("check-formats: %s" % e, file=sys.stderr)
        return 2
    for extra in args.extra:
        parts = extra.split(":")
        if len(parts) not in (2, 3) or not re.fullmatch(r"[a-z0-9_]+", parts[0]) or (len(parts) == 3 and parts[2] != "oracle"):
            print("check-formats: --extra is NAME:TITLE or NAME:TITLE:oracle, not '%s'" % extra, file=sys.stderr)
            return 2
        rows.append({"name": parts[0], "title": parts[1], "oracle": len(parts) == 3,
                     "container_shape": False, "root_object": False, "patches_lengths": False})
    problems = check(Tree(args.root, args.hide), rows)
    for p in problems:
        print(p)
    if problems:
        print("check-formats: %d part(s) missing for %d format(s) of format_table" % (len(problems), len(rows)))
        return 1
    print("check-formats: %d formats, every part present" % len(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
