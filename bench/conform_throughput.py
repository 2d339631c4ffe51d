#!/usr/bin/env python3
"""bench/conform_throughput.py — values per second of `sinkcheck conform --generate`.

Usage: conform_throughput.py [--values N] [--runs R] [--jobs 1,2] [--rows ROWS]
                             [--baseline BUILD_DIR [--baseline-adapters DIR]] BUILD_DIR

Runs each row R times (default 5) and prints, per row and --jobs value, the median values/s with
min-max: wall clock (what a user waits for) and per CPU-second of the runner and its encoder
processes together (user + system time of the whole process tree, from getrusage: on a machine
shared with other jobs it moves far less than the wall clock). With --baseline, the same rows
run with a second build (another commit's BUILD_DIR, its Python adapters from
--baseline-adapters, by default this tree's), interleaved run by run with the order flipping
each time, and each row adds the median ratio this/baseline of the paired runs, wall and CPU.

Rows (--rows, comma-separated; default all):
  cpp      sinkcheck-encoder, --mode batch (sinkcheck's own C++ encoder as a process)
  cbor2    conformance/adapters/python/cbor2_encoder.py, --mode batch, /usr/bin/python3
  msgpack  conformance/adapters/python/msgpack_encoder.py, --mode batch, MessagePack
  linked   linked:reference, in the runner's process

A run that ends in exit 1 (a finding: msgpack-python refuses ext types 128-255) is timed like
one that conforms; exit 2 stops the bench and prints the run's output. The machine's state
(cores, load average before and after) is printed with the figures: they mean little without
it. Standard library only.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"


def rows(adapters, build):
    return {
        "cpp": ("cbor", ["--mode", "batch", "--encoder", os.path.join(build, "conformance/runner/sinkcheck-encoder")]),
        "cbor2": (
            "cbor",
            ["--mode", "batch", "--level", "equivalent", "--encoder",
             "%s %s" % (PYTHON, os.path.join(adapters, "cbor2_encoder.py"))],
        ),
        "msgpack": (
            "msgpack",
            ["--mode", "batch", "--level", "equivalent", "--encoder",
             "%s %s" % (PYTHON, os.path.join(adapters, "msgpack_encoder.py"))],
        ),
        "linked": ("cbor", ["--encoder", "linked:reference"]),
    }


def run_once(build, adapters, row, values, jobs):
    """(wall seconds, CPU seconds of the process tree) of one run; exits on a failing run."""
    fmt, args = rows(adapters, build)[row]
    command = [os.path.join(build, "tools/sinkcheck"), "conform", "--generate", str(values), "--format", fmt,
               "--jobs", str(jobs)] + args
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: the encoder does not conform, a finding, still timed
        sys.exit("%s: exit %d\n%s%s" % (" ".join(command), done.returncode, done.stdout[-2000:], done.stderr[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def spread(xs):
    return "%8.0f (%.0f-%.0f)" % (statistics.median(xs), min(xs), max(xs))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build")
    p.add_argument("--values", type=int, default=50000)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--jobs", default="1,2")
    p.add_argument("--rows", default="cpp,cbor2,msgpack,linked")
    p.add_argument("--baseline")
    p.add_argument("--baseline-adapters")
    a = p.parse_args()
    adapters = os.path.join(HERE, "..", "conformance", "adapters", "python")
    base_adapters = a.baseline_adapters or adapters
    print("cores %d, load average before %s" % (os.cpu_count(), " ".join("%.2f" % x for x in os.getloadavg())))
    print("%d values per run, %d runs per row, CBOR default profile (MessagePack for msgpack)" % (a.values, a.runs))
    header = "%-8s %4s  %-26s %-26s" % ("row", "jobs", "values/s wall", "values per CPU-second")
    if a.baseline:
        header += "  %-26s %-26s %s" % ("baseline values/s wall", "baseline per CPU-second", "ratio wall, CPU")
    print(header)
    for row in a.rows.split(","):
        for jobs in [int(j) for j in a.jobs.split(",")]:
            wall, cpu, base_wall, base_cpu, ratio_wall, ratio_cpu = [], [], [], [], [], []
            for k in range(a.runs):
                sides = [("this", a.build, adapters)]
                if a.baseline:
                    sides.append(("base", a.baseline, base_adapters))
                    if k % 2 == 1:
                        sides.reverse()
                got = {}
                for name, build, adapter_dir in sides:
                    got[name] = run_once(build, adapter_dir, row, a.values, jobs)
                wall.append(a.values / got["this"][0])
                cpu.append(a.values / got["this"][1])
                if a.baseline:
                    base_wall.append(a.values / got["base"][0])
                    base_cpu.append(a.values / got["base"][1])
                    ratio_wall.append(got["base"][0] / got["this"][0])
                    ratio_cpu.append(got["base"][1] / got["this"][1])
            line = "%-8s %4d  %-26s %-26s" % (row, jobs, spread(wall), spread(cpu))
            if a.baseline:
                line += "  %-26s %-26s %.2fx, %.2fx" % (spread(base_wall), spread(base_cpu),
                                                       statistics.median(ratio_wall), statistics.median(ratio_cpu))
            print(line, flush=True)
    print("load average after %s" % " ".join("%.2f" % x for x in os.getloadavg()))


if __name__ == "__main__":
    main()
