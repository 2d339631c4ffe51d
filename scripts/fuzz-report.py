#!/usr/bin/env python3
"""fuzz-report.py — the campaign report: OUT/report.md and OUT/report.svg from what
scripts/fuzz-campaign.sh left in OUT.

usage: scripts/fuzz-report.py OUT ROOT

Reads OUT/campaign.env, and per target OUT/<target>/summary.env, progress.tsv (libFuzzer's status
lines with the seconds since the start in front) and findings/*.txt, and the coverage files of
OUT/coverage/ (llvm-cov's summaries and annotated sources of reference/include). Writes one
Markdown page a person reads (per target: executions, exec/s, features and corpus size over
time, findings; the coverage of reference/ by the corpora, with every uncovered line) and one
plot of coverage features over time. Exit status: 0 written, 2 usage error or nothing to report.
"""
import json
import os
import re
import sys
from html import escape

STATUS = re.compile(r"#(\d+)\D.*?cov: (\d+) ft: (\d+) corp: (\d+)")
EXEC_S = re.compile(r"exec/s:? (\d+)")  # fork mode prints no colon
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
           "#7f7f7f", "#bcbd22"]


def read_env(path):
    values = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                key, _, value = line.rstrip("\n").partition("=")
                values[key] = value
    return values


def read_series(path):
    """[(seconds, runs, cov, features, corpus, exec/s)] from the stamped status lines."""
    series = []
    if not os.path.exists(path):
        return series
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            seconds, _, text = line.rstrip("\n").partition("\t")
            m = STATUS.search(text)
            if not m or not seconds.isdigit():
                continue
            e = EXEC_S.search(text)
            series.append((int(seconds), int(m.group(1)), int(m.group(2)), int(m.group(3)),
                           int(m.group(4)), int(e.group(1)) if e else 0))
    return series


def sample(series, n):
    """At most n points, evenly spread over time, always with the last one."""
    if len(series) <= n:
        return series
    end = series[-1][0] or 1
    picked, want = [], 0.0
    for point in series:
        if point[0] >= want:
            picked.append(point)
            want += end / (n - 1)
    if picked[-1] is not series[-1]:
        picked.append(series[-1])
    return picked


def coverage_totals(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)["data"][0]["totals"]


def percent(part):
    return f'{part["covered"]:,} of {part["count"]:,} ({part["percent"]:.2f} %)'


def uncovered_lines(show_path, root):
    """file:line: source for every line llvm-cov counted and found unexecuted."""
    out, current = [], None
    line_re = re.compile(r"^ *(\d+)\| *0\|(.*)$")
    with open(show_path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            raw = raw.rstrip("\n")
            if raw.startswith("/") and raw.endswith(":"):
                current = os.path.relpath(raw[:-1], root)
                continue
            m = line_re.match(raw)
            if m and current:
                out.append(f"{current}:{m.group(1)}: {m.group(2).strip()}")
    return sorted(set(out), key=lambda s: (s.split(":")[0], int(s.split(":")[1])))


def nice_step(span, count=5):
    """A round tick step (1, 2 or 5 times a power of ten) giving about count ticks over span."""
    raw = max(span, 1) / count
    power = 10 ** (len(str(int(raw))) - 1)
    for m in (1, 2, 5, 10):
        if raw <= m * power:
            return m * power
    return 10 * power


def plot(path, runs):
    """An SVG line chart: coverage features over seconds, one line per target."""
    width, height, left, right, top, bottom = 760, 420, 70, 170, 40, 50
    max_t = max([s[-1][0] for _, s in runs if s] + [1])
    max_f = max([p[3] for _, s in runs for p in s] + [1])
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(t):
        return left + plot_w * t / max_t

    def y(f):
        return top + plot_h * (1 - f / max_f)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{left}" y="22" font-size="14">libFuzzer coverage features over time, per target</text>']
    step = nice_step(max_f)
    for f in range(0, max_f + 1, step):
        parts.append(f'<line x1="{left}" y1="{y(f):.1f}" x2="{left + plot_w}" y2="{y(f):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y(f) + 4:.1f}" text-anchor="end">{f:,}</text>')
    step = nice_step(max_t)
    for t in range(0, max_t + 1, step):
        parts.append(f'<text x="{x(t):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{t}</text>')
    parts.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="black"/>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 10}" text-anchor="middle">seconds</text>')
    parts.append(f'<text transform="translate(16 {top + plot_h / 2}) rotate(-90)" text-anchor="middle">features (ft)</text>')
    for i, (name, series) in enumerate(runs):
        colour = COLOURS[i % len(COLOURS)]
        if series:
            points = " ".join(f"{x(p[0]):.1f},{y(p[3]):.1f}" for p in sample(series, 200))
            parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        ly = top + 14 + 18 * i
        parts.append(f'<line x1="{left + plot_w + 12}" y1="{ly - 4}" x2="{left + plot_w + 32}" y2="{ly - 4}" '
                     f'stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{left + plot_w + 38}" y="{ly}">{escape(name)}</text>')
    parts.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


def main(argv):
    if len(argv) != 3:
        print("usage: fuzz-report.py OUT ROOT", file=sys.stderr)
        return 2
    out, root = argv[1], os.path.abspath(argv[2])
    meta = read_env(os.path.join(out, "campaign.env"))
    targets = meta.get("targets", "").split()
    if not targets:
        print(f"fuzz-report: no campaign in {out} (no campaign.env)", file=sys.stderr)
        return 2

    runs = [(t, read_series(os.path.join(out, t, "progress.tsv"))) for t in targets]
    plot(os.path.join(out, "report.svg"), runs)

    cov = os.path.join(out, "coverage")
    md = ["# Fuzzing campaign report", ""]
    fork = meta.get("fork", "1")
    mode = "one process per target (no fork mode)" if fork == "1" else f"libFuzzer fork mode with {fork} workers"
    md.append(f'{meta.get("date", "?")}, commit {meta.get("commit", "?")}: {len(targets)} '
              f'target{"" if len(targets) == 1 else "s"}, '
              f'{meta.get("budget", "?")} s each, {mode} on a machine with {meta.get("cores", "?")} cores; '
              'clang 14 with ASan + UBSan and coverage instrumentation. Written by '
              '`scripts/fuzz-campaign.sh`; features (ft) are libFuzzer\'s coverage features, edges '
              '(cov) the instrumented edges it reached.')
    md += ["", "| target | executions | exec/s | features | corpus files | findings | lines of reference/ | branches |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for t in targets:
        s = read_env(os.path.join(out, t, "summary.env"))
        totals = coverage_totals(os.path.join(cov, f"{t}.summary.json"))
        lines = f'{totals["lines"]["percent"]:.2f} %' if totals else "-"
        branches = f'{totals["branches"]["percent"]:.2f} %' if totals else "-"
        md.append(f'| `{t}` | {int(s.get("runs") or 0):,} | {s.get("speed") or "?"} | '
                  f'{s.get("features") or "?"} | {s.get("corpus", "?")} | {s.get("findings", "?")} | '
                  f'{lines} | {branches} |')
    md += ["", "![features over time](report.svg)", ""]

    md += ["## Coverage of reference/ by the corpora", ""]
    totals = coverage_totals(os.path.join(cov, "all.summary.json"))
    if totals:
        md.append("Every target's final corpus (seeds, regression inputs and what the campaign added) "
                  "run once through the coverage-instrumented binaries, merged:")
        md += ["", f'- lines: {percent(totals["lines"])}',
               f'- branches: {percent(totals["branches"])}',
               f'- functions: {percent(totals["functions"])}', ""]
        with open(os.path.join(cov, "all.report.txt"), encoding="utf-8") as f:
            report = [line.rstrip() for line in f if line.strip() and not line.startswith("-")]
        md += ["<details><summary>per file under reference/include/sinkcheck/ (llvm-cov report)</summary>",
               "", "```"]
        md += [line.replace(root + "/", "") for line in report]
        md += ["```", "", "</details>", ""]
        missing = uncovered_lines(os.path.join(cov, "all.show.txt"), root)
        md.append(f"{len(missing)} lines of reference/ no input reached:")
        md += ["", "<details><summary>uncovered lines</summary>", "", "```"] + missing + ["```", "", "</details>", ""]
    else:
        md += ["No coverage was measured (a build without `-DSINKCHECK_COVERAGE=ON`, or `--no-coverage`).", ""]

    md += ["## Per target", ""]
    for t, series in runs:
        s = read_env(os.path.join(out, t, "summary.env"))
        md += [f"### {t}", ""]
        if series:
            md += ["| seconds | executions | exec/s | edges (cov) | features (ft) | corpus |",
                   "|---:|---:|---:|---:|---:|---:|"]
            for sec, n, edges, ft, corp, speed in sample(series, 12):
                md.append(f"| {sec} | {n:,} | {speed:,} | {edges:,} | {ft:,} | {corp:,} |")
            md.append("")
        else:
            md += ["(no status line in the log)", ""]
        findings_dir = os.path.join(out, t, "findings")
        notes = sorted(f for f in os.listdir(findings_dir) if f.endswith(".txt")) if os.path.isdir(findings_dir) else []
        if notes:
            md.append(f"{len(notes)} finding(s):")
            for note in notes:
                with open(os.path.join(findings_dir, note), encoding="utf-8", errors="replace") as f:
                    md += ["", "```", f.read().rstrip(), "```"]
            md.append("")
        else:
            md += [f'No finding (libFuzzer exit status {s.get("status", "?")}).', ""]

    with open(os.path.join(out, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
