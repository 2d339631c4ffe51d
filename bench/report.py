#!/usr/bin/env python3
"""bench/report.py — turns the benchmark executables' tab-separated output into
docs/bench/results.md (tables of medians with min-max) and an SVG plot of every paired ratio.

Usage: report.py --machine FILE --notes FILE --md OUT.md --svg OUT.svg RAW.tsv...

Each RAW line is either
  ratio  row compiler name median min max reps A_MB/s B_MB/s goal verdict
  value  row compiler name measured bound verdict
as printed by bench/paired.hpp (emit_ratio, emit_value). Anything else (the perf gate's table)
is ignored here. Standard library only: the machine has no matplotlib.
"""

import argparse
import html
import math
import os
import sys

ROWS = {
    "1": ("reference encoder + vector_sink vs nlohmann 3.11.2 to_<fmt>, fresh vector", ">= 2.00x"),
    "2": ("heap allocations per encode, fresh vector", "<= ceil(log2(n/64)) + 2, none per key"),
    "3": ("windowed vs full-resize vector sink, sink alone, 1-16 MB, fresh and reused", ">= 1.15x"),
    "4": ("the same, reused vector larger than the last-level cache", ">= 1.00x"),
    "5": ("windowed vs full-resize vector sink, whole encoder", ">= 1.00x"),
    "6": ("9-byte records through a sink vs one memcpy of the same bytes", ">= 0.65x"),
    "7": ("seekable vs seekless memory writer, append only", ">= 0.97x (<= 3 % slower)"),
    "8": ("chunked sink vs one growing vector and vs fixed 2 KiB chunks", "report; chunks = 6 + ceil((n - 129,024) / 65,536)"),
    "9": ("string sink, exact growth out of the short buffer vs 2x minimum", "first allocation = size + 1"),
    "10": ("our encoders through nlohmann's virtual output adapter vs through vector_sink", "report"),
    "11": ("floor: encoder time / time of a bare walk of the same DOM (A: the walk; on text documents the walk "
           "also checks every string for UTF-8)",
           "<= 1.30 for the reference on objects"),
    "12": ("reference vs peers writing the same format (msgpack-cxx, libcbor, libbson)", ">= 1.00x"),
    "13": ("the UTF-8 check alone: utf8_invalid_at (widest of AVX2, SSSE3, scalar) vs the scalar scan it replaced",
           ">= 4 GB/s on CJK (3-byte) text"),
    "14": ("row 1 on text documents (ASCII, Latin, Cyrillic, CJK, emoji, mixed; short and long strings)",
           ">= 1.00x"),
    "15": ("`sinkcheck encode FILE` vs nlohmann's parse + to_<fmt> of the same JSON file, a process each "
           "(A: nlohmann)", "<= 1.20"),
    "16": ("long strings written in vector_sink's room, checked as they are copied, vs checked, then written",
           ">= 1.00x"),
}


def read(paths):
    ratios, values = [], []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if fields[0] == "ratio" and len(fields) == 12:
                    _, row, comp, name, med, lo, hi, reps, a, b, goal, verdict = fields
                    ratios.append(dict(row=row, compiler=comp, name=name, median=float(med), min=float(lo),
                                       max=float(hi), reps=int(reps), a=a, b=b, goal=goal, verdict=verdict))
                elif fields[0] == "value" and len(fields) == 7:
                    _, row, comp, name, measured, bound, verdict = fields
                    values.append(dict(row=row, compiler=comp, name=name, measured=measured, bound=bound,
                                       verdict=verdict))
    return ratios, values


def row_key(row):
    return int(row)


def summary(ratios, values, compilers):
    lines = ["| # | comparison | goal | " + " | ".join(compilers) + " |",
             "|---|---|---|" + "---|" * len(compilers)]
    for row in sorted(ROWS, key=row_key):
        title, goal = ROWS[row]
        cells = []
        for comp in compilers:
            rs = [r for r in ratios if r["row"] == row and r["compiler"] == comp]
            vs = [v for v in values if v["row"] == row and v["compiler"] == comp]
            if rs:
                gated = [r for r in rs if r["goal"] != "-"]
                pool = gated or rs
                worst = min(pool, key=lambda r: r["median"])
                best = max(pool, key=lambda r: r["median"])
                met = sum(1 for r in gated if r["verdict"] == "met")
                text = f"{worst['median']:.2f}-{best['median']:.2f}x (medians)"
                if gated:
                    text += f"; goal met {met}/{len(gated)}"
                bounded = [v for v in vs if v["verdict"] in ("met", "missed")]
                if bounded:  # row 13: speed-ups as ratios, its goal in GB/s as values
                    text += f"; bound met {sum(1 for v in bounded if v['verdict'] == 'met')}/{len(bounded)}"
                cells.append(text)
            elif vs:
                gated = [v for v in vs if v["verdict"] in ("met", "missed")]
                met = sum(1 for v in gated if v["verdict"] == "met")
                cells.append(f"bound met {met}/{len(gated)}" if gated else "reported")
            else:
                cells.append("not run")
        lines.append(f"| {row} | {title} | {goal} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ratio_table(rows):
    out = ["| comparison (A vs B) | compiler | median | min-max | A MB/s | B MB/s | goal | verdict |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['name']} | {r['compiler']} | **{r['median']:.3f}** | {r['min']:.3f}-{r['max']:.3f} | "
                   f"{r['a']} | {r['b']} | {r['goal']} | {r['verdict']} |")
    return "\n".join(out)


def value_table(rows):
    out = ["| quantity | compiler | measured | bound | verdict |", "|---|---|---|---|---|"]
    for v in rows:
        out.append(f"| {v['name']} | {v['compiler']} | {v['measured']} | {v['bound']} | {v['verdict']} |")
    return "\n".join(out)


def svg(ratios, compilers, path):
    """A dot plot: one line per comparison, the median as a dot, min-max as a whisker, the goal as
    a red tick; x is the ratio on a log scale from 0.1 to 10."""
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
    names = []
    for r in ratios:
        key = (r["row"], r["name"])
        if key not in names:
            names.append(key)
    names.sort(key=lambda k: row_key(k[0]))  # stable: keeps the run's order within a row
    left, right, top, line_h = 560, 40, 50, 16
    plot_w = 480
    height = top + line_h * len(names) + 50
    width = left + plot_w + right
    lo, hi = math.log10(0.1), math.log10(10)

    def x(v):
        v = min(max(v, 0.1), 10)
        return left + (math.log10(v) - lo) / (hi - lo) * plot_w

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{left}" y="18" font-size="13">Paired ratio time(B)/time(A): above 1, A is faster '
             f'(median, min-max whisker; red tick: goal)</text>']
    for i, comp in enumerate(compilers):
        parts.append(f'<circle cx="{left + 10 + i * 90}" cy="34" r="4" fill="{colors[i % len(colors)]}"/>'
                     f'<text x="{left + 18 + i * 90}" y="38">{html.escape(comp)}</text>')
    for tick in (0.1, 0.2, 0.5, 1, 2, 5, 10):
        tx = x(tick)
        parts.append(f'<line x1="{tx:.1f}" y1="{top - 6}" x2="{tx:.1f}" y2="{top + line_h * len(names)}" '
                     f'stroke="{"#888" if tick == 1 else "#ddd"}"/>')
        parts.append(f'<text x="{tx:.1f}" y="{top + line_h * len(names) + 14}" text-anchor="middle">{tick:g}</text>')
    for n, (row, name) in enumerate(names):
        y = top + n * line_h + line_h / 2
        parts.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{html.escape(row + ": " + name[:86])}</text>')
        for i, comp in enumerate(compilers):
            for r in ratios:
                if r["row"] == row and r["name"] == name and r["compiler"] == comp:
                    dy = y + (i - (len(compilers) - 1) / 2) * 4
                    c = colors[i % len(colors)]
                    parts.append(f'<line x1="{x(r["min"]):.1f}" y1="{dy:.1f}" x2="{x(r["max"]):.1f}" y2="{dy:.1f}" stroke="{c}"/>')
                    parts.append(f'<circle cx="{x(r["median"]):.1f}" cy="{dy:.1f}" r="3" fill="{c}"/>')
                    if r["goal"] != "-":
                        gx = x(float(r["goal"].lstrip("<=")))
                        parts.append(f'<line x1="{gx:.1f}" y1="{y - 6:.1f}" x2="{gx:.1f}" y2="{y + 6:.1f}" stroke="red" stroke-width="2"/>')
    parts.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--machine", required=True)
    ap.add_argument("--notes", required=True)
    ap.add_argument("--gate", default=None)
    ap.add_argument("--md", required=True)
    ap.add_argument("--svg", required=True)
    ap.add_argument("raw", nargs="+")
    args = ap.parse_args()
    ratios, values = read(args.raw)
    if not ratios and not values:
        sys.exit("report.py: no benchmark lines in " + ", ".join(args.raw))
    compilers = []
    for item in ratios + values:
        if item["compiler"] not in compilers:
            compilers.append(item["compiler"])
    svg(ratios, compilers, args.svg)
    with open(args.machine, encoding="utf-8") as f:
        machine = f.read().strip()
    with open(args.notes, encoding="utf-8") as f:
        notes = f.read().strip()
    md = ["# sinkcheck benchmarks: results",
          "",
          "Generated by `scripts/bench.sh` (do not edit: rerun it). Every comparison runs A and B "
          "interleaved in one process; the figure is the median over the repetitions of "
          "time(B)/time(A), with min-max: above 1, A is faster. Times are thread CPU time "
          "(bench/paired.hpp says why); MB/s are for context only.",
          "",
          "## Machine and run",
          "",
          machine,
          "",
          "## Summary",
          "",
          summary(ratios, values, compilers),
          "",
          f"![paired ratios]({os.path.basename(args.svg)})",
          ""]
    if args.gate and os.path.exists(args.gate):
        with open(args.gate, encoding="utf-8") as f:
            md += ["## Perf gate (callgrind instruction counts, deterministic)", "", "```",
                   f.read().strip(), "```", ""]
    md += [notes, ""]
    for row in sorted(ROWS, key=row_key):
        title, goal = ROWS[row]
        rs = [r for r in ratios if r["row"] == row]
        vs = [v for v in values if v["row"] == row]
        if not rs and not vs:
            continue
        md += [f"## Row {row}: {title}", "", f"Goal: {goal}.", ""]
        if rs:
            md += [ratio_table(rs), ""]
        if vs:
            md += [value_table(vs), ""]
    with open(args.md, "w", encoding="utf-8") as f:
        f.write("\n".join(md))


if __name__ == "__main__":
    main()
