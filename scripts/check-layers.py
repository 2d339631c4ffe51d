#!/usr/bin/env python3
"""scripts/check-layers.py — which folder may include which (README.md, "Layout").

Reads every tracked C++ source and header (every one outside build folders, out of a checkout), resolves each #include to the file it names (beside
the including file, under an include root, or under the including folder, as the builds'
include paths do) and fails when a folder includes a folder that ALLOWED below does not list
for it, or when the folders' includes form a cycle. ALLOWED is the one statement of the layers
(README.md, "Layout", draws it): reference includes nothing; testkit, reference; the runner
(with the encoder half of the kit), testkit and reference; everything else sits on those.

Usage: check-layers.py [--root DIR] [--plant FILE:HEADER]...

--plant FILE:HEADER adds an include of HEADER to FILE, in memory, before the check: the test
that the check catches a back-edge plants one (reference/test/CMakeLists.txt). Exit status: 0
when every include is allowed, 1 when one is not (each printed as FILE:LINE), 2 on a usage error.
Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys

# Folders, most specific first: a file belongs to the first whose path it starts with.
FOLDERS = [
    "conformance/runner",
    "conformance/adapters",
    "conformance/test",
    "reference/test",
    "reference",
    "testkit",
    "property",
    "fuzz",
    "tools",
    "bench",
    "corpus",
    "examples",
]

# What each folder may include besides itself.
ALLOWED = {
    "reference": set(),
    "testkit": {"reference"},
    "conformance/runner": {"reference", "testkit"},
    "conformance/adapters": {"reference", "testkit", "conformance/runner"},
    "conformance/test": {"reference", "testkit", "conformance/runner", "conformance/adapters"},
    "reference/test": {"reference", "testkit"},
    "property": {"reference", "testkit", "reference/test"},  # the unit tests' helpers (test_support.hpp)
    "fuzz": {"reference", "testkit", "conformance/runner", "conformance/test"},
    "tools": {"reference", "testkit", "conformance/runner"},
    "bench": {"reference", "testkit"},
    "corpus": {"reference", "testkit", "conformance/runner"},
    "examples": {"reference", "testkit", "conformance/runner"},
}

# The include roots: `#include "sinkcheck/..."` or <sinkcheck/...> finds a header under one.
INCLUDE_ROOTS = ["reference/include", "testkit/include", "conformance/runner/include"]

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCES = (".hpp", ".cpp", ".h", ".cpp.in", ".hpp.in")


def folder_of(path):
    for f in FOLDERS:
        if path == f or path.startswith(f + "/"):
            return f
    return None


def resolve(root, including, name, angle, tracked):
    """The tracked file an include names, or None (a system or third-party header)."""
    candidates = []
    if not angle:
        candidates.append(os.path.normpath(os.path.join(os.path.dirname(including), name)))
    candidates += [r + "/" + name for r in INCLUDE_ROOTS]
    own = folder_of(including)
    if own is not None and not angle:
        candidates.append(own + "/" + name)
    for c in candidates:
        if c in tracked:
            return c
    if angle:
        return None
    # Reached through a target's include directories (fuzz_linked_teeth reads conformance/test):
    # a unique tracked file whose path ends with the name.
    ends = [t for t in tracked if t.endswith("/" + name)]
    return ends[0] if len(ends) == 1 else None


def files_of(root):
    """The tracked files of a checkout, or every file outside build folders and .git of a tree
    that is not one (a source archive)."""
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files"], check=True, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        return set(listed.stdout.split("\n")) - {""}
    except (OSError, subprocess.CalledProcessError):
        found = set()
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d != ".git" and not d.startswith("build")]
            for name in filenames:
                found.add(os.path.relpath(os.path.join(dirpath, name), root))
        return found


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p.add_argument("--plant", action="append", default=[], metavar="FILE:HEADER")
    a = p.parse_args()
    root = a.root
    tracked = files_of(root)
    if not tracked:
        print("check-layers: no source file under %s" % root, file=sys.stderr)
        return 2
    planted = {}
    for plant in a.plant:
        file, sep, header = plant.partition(":")
        if not sep or file not in tracked:
            print("check-layers: --plant FILE:HEADER names a tracked FILE, not '%s'" % plant, file=sys.stderr)
            return 2
        planted.setdefault(file, []).append('#include "%s"' % header)

    bad = []
    edges = {}
    for path in sorted(tracked):
        if not path.endswith(SOURCES):
            continue
        src = folder_of(path)
        if src is None:
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
        except OSError as e:
            print("check-layers: %s: %s" % (path, e), file=sys.stderr)
            return 2
        lines += planted.get(path, [])
        for number, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = resolve(root, path, m.group(2), m.group(1) == "<", tracked)
            dst = folder_of(target) if target else None
            if dst is None or dst == src:
                continue
            edges.setdefault(src, set()).add(dst)
            if dst not in ALLOWED[src]:
                bad.append("%s:%d: %s includes %s (%s); %s may include %s" % (
                    path, number, src, target, dst, src, ", ".join(sorted(ALLOWED[src])) or "nothing"))
    for b in bad:
        print(b)
    cycle = find_cycle(edges)
    if cycle:
        print("check-layers: the folders' includes form a cycle: " + " -> ".join(cycle))
    if bad or cycle:
        return 1
    print("check-layers: %d folders, %d edges between them, each allowed; no cycle" % (
        len(edges), sum(len(v) for v in edges.values())))
    return 0


def find_cycle(edges):
    """A cycle among the folders, as a list from one folder back to itself, or None."""
    state = {}
    stack = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


if __name__ == "__main__":
    sys.exit(main())
