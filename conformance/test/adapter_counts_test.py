#!/usr/bin/python3
"""adapter_counts_test.py [OPTION...] SINKCHECK FORMAT ENCODER EXPECT FILTER... — a third-party
adapter still grades as it did: `sinkcheck conform` runs ENCODER (a command line or linked:NAME)
at the equivalent level on the vectors matching the FILTER globs, and the count of every result
class must be exactly what EXPECT says (`pass=3,refused-correctly=1`; a class it does not name
must be 0). A broken adapter (a library call renamed, a conversion lost, a refusal turned into an
error) moves a vector to another class, and the test prints every vector with its result.

Options, before the arguments:
  --notation json     send the JSON notation (conform --notation json)
  --requires 'CMD'    a shell command that fails when the adapter's language or library is not
                      installed: then the test is skipped (exit 77, CTest's SKIP_RETURN_CODE)
                      with CMD in the message; repeatable
  --prepare 'CMD'     a shell command run after the requirements hold (building the adapter);
                      its failure fails the test
"""

import json
import os
import subprocess
import sys
import tempfile


SKIPPED = 77


def main(argv):
    argv = list(argv)
    notation = None
    requires = []
    prepare = []
    while len(argv) > 2 and argv[1] in ("--notation", "--requires", "--prepare"):
        option, value = argv[1], argv[2]
        del argv[1:3]
        if option == "--notation":
            notation = value
        else:
            (requires if option == "--requires" else prepare).append(value)
    for command in requires:
        if subprocess.run(["/bin/sh", "-c", command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
            print("SKIP: the adapter's language or library is not installed (%s failed); "
                  "scripts/conformance-results.sh installs it" % command)
            return SKIPPED
    for command in prepare:
        status = subprocess.run(["/bin/sh", "-c", command], check=False).returncode
        if status:
            print("FAIL: %s exited with status %d" % (command, status))
            return 1
    if len(argv) < 6:
        sys.stderr.write(__doc__)
        return 2
    tool, fmt, encoder, expect_text = argv[1:5]
    filters = argv[5:]
    expect = {}
    for item in expect_text.split(","):
        name, _, n = item.partition("=")
        if not n.isdigit():
            sys.stderr.write("EXPECT: %r is not RESULT=COUNT\n" % item)
            return 2
        expect[name] = int(n)
    fd, report_path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        command = [tool, "conform", "--format", fmt, "--level", "equivalent", "--encoder", encoder]
        if not encoder.startswith("linked:"):
            command += ["--mode", "batch"]
        if notation:
            command += ["--notation", notation]
        for f in filters:
            command += ["--filter", f]
        command += ["--report", "json", "--output", report_path]
        status = subprocess.run(command, stderr=subprocess.PIPE, check=False)
        if status.returncode not in (0, 1):
            sys.stderr.write(status.stderr.decode("utf-8", "replace"))
            print("FAIL: sinkcheck conform exited with status %d" % status.returncode)
            return 1
        with open(report_path) as f:
            report = json.load(f)
    finally:
        os.unlink(report_path)
    unknown = set(expect) - set(report["counts"])
    if unknown:
        print("FAIL: no result class %s" % ", ".join(sorted(unknown)))
        return 1
    got = {k: v for k, v in report["counts"].items() if v}
    want = {k: v for k, v in expect.items() if v}
    for v in report["vectors"]:
        print("%-18s %s  %s" % (v["result"], v["id"], v.get("detail", "")[:100]))
    if got != want:
        print("FAIL: counts %s, expected %s" % (json.dumps(got, sort_keys=True), json.dumps(want, sort_keys=True)))
        return 1
    print("ok: %s on %d vectors: %s" % (encoder, len(report["vectors"]), json.dumps(got, sort_keys=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
