"""Mutation testing: applies each mutant of a mutants file to a scratch copy of the repository,
rebuilds what the change touches and runs the test layers against it.

A mutants file is a list of entries, each a header line `[id]` followed by `key = value` lines:

    [vector-window-one-long]
    file = reference/include/sinkcheck/sink/detail/vector_writer.hpp
    find = window_size_ - position
    replace = window_size_ + 1 - position
    why = the zero-filled window reaches one byte past its size
    layers = (optional: the layers to run, in order, comma-separated; default kit,unit)
    equivalent = (only for a mutant that cannot change behaviour: the reason)

`file` is under reference/, conformance/ or testkit/. `find` must occur exactly once in `file`
(a mutant that no longer applies is an error in the list, never skipped); in `find` and
`replace`, `\\n` stands for a line break. Lines starting with `#` are comments.

Layers: `kit` (the properties and the fuzz replays: ctest labels property and fuzz-replay),
`unit` (the unit tests: label unit, without the install test), `conform` and `conform-full`.
Both conform layers are built from conformance/runner alone, so a mutant of the runner or of
the value builder recompiles the runner library and its test programs, not the whole kit.
`conform` is the runner's GoogleTest cases (label conformance) without the ones that push the
whole corpus through processes, notations and exports (the corpus, export, notation, hostile
encoder and mode-agreement suites: two thirds of the label's time, and none of them about a
verdict the others do not check); `conform-full` is the whole label but the third-party
adapters' pinned counts (which depend on the library versions installed, not on the runner):
the corpus suites and the shell and Python tests (the judge against cbor2 and msgpack-python,
the GitHub Action, the export round trip, the kit's encoder check). A mutant runs its layers in the order it lists them and is killed by the first one
with a failing test; `--every-layer` runs all of its layers instead. The unmutated copy runs
every layer some selected mutant lists. The report names, per mutant, the layer and the first
failing test.

Exit status: 0 every non-equivalent mutant was killed by its first layer; 1 some survived it
(or did not build); 2 usage error or a broken mutants file; 3 the unmutated copy fails to build
or fails a test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

LAYERS = {
    # name: (ctest label options, build directories whose `all` targets the layer runs)
    "kit": (["-L", "^(property|fuzz-replay)$"], ["property", "fuzz"]),
    "unit": (["-L", "^unit$", "-LE", "^install$"], ["reference/test"]),
    "conform": (["-L", "^conformance$", "-E", r"^(conform_|(ConformCorpus|CorpusExport|JsonNotation|Hostile)\.|"
                 r"Harness\.PerVectorAndBatchModesAgree|Command\.PythonEncodersGiveTheSameVerdicts)"],
                ["conformance/runner"]),
    "conform-full": (["-L", "^conformance$", "-E", "^conform_adapter_"], ["conformance/runner"]),
}
DEFAULT_LAYERS = ["kit", "unit"]
KEYS = {"file", "find", "replace", "why", "layers", "equivalent"}
MUTABLE = ("reference/", "conformance/", "testkit/")


class ListError(Exception):
    pass


@dataclass
class Mutant:
    ident: str
    line: int
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def file(self) -> str:
        return self.fields["file"]

    @property
    def find(self) -> str:
        return self.fields["find"].replace("\\n", "\n")

    @property
    def replace(self) -> str:
        return self.fields["replace"].replace("\\n", "\n")

    @property
    def layers(self) -> list[str]:
        given = self.fields.get("layers")
        return [name.strip() for name in given.split(",")] if given else list(DEFAULT_LAYERS)


def read_mutants(path: Path, root: Path) -> list[Mutant]:
    mutants: list[Mutant] = []
    seen: set[str] = set()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ListError(f"{path}: cannot read: {error}") from error
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line or line.lstrip().startswith("#"):
            continue
        header = re.fullmatch(r"\[([a-z0-9][a-z0-9-]*)\]", line)
        if header:
            ident = header.group(1)
            if ident in seen:
                raise ListError(f"{path}:{number}: mutant '{ident}' is listed twice")
            seen.add(ident)
            mutants.append(Mutant(ident, number))
            continue
        entry = re.fullmatch(r"([a-z]+) = (.*)", line)
        if not entry:
            raise ListError(f"{path}:{number}: expected '[id]' or 'key = value', got: {line}")
        if not mutants:
            raise ListError(f"{path}:{number}: '{entry.group(1)}' before the first '[id]'")
        key, value = entry.groups()
        if key not in KEYS:
            raise ListError(f"{path}:{number}: unknown key '{key}' (keys: {', '.join(sorted(KEYS))})")
        if key in mutants[-1].fields:
            raise ListError(f"{path}:{number}: '{key}' given twice for '{mutants[-1].ident}'")
        mutants[-1].fields[key] = value
    if not mutants:
        raise ListError(f"{path}: no mutants")
    for mutant in mutants:
        where = f"{path}:{mutant.line}: mutant '{mutant.ident}'"
        for key in ("file", "find", "replace", "why"):
            if key not in mutant.fields:
                raise ListError(f"{where} has no '{key}'")
        if not mutant.file.startswith(MUTABLE):
            raise ListError(f"{where}: file {mutant.file} is not under {', '.join(MUTABLE)}")
        unknown = [name for name in mutant.layers if name not in LAYERS]
        if unknown or not mutant.layers or len(set(mutant.layers)) != len(mutant.layers):
            raise ListError(f"{where}: layers '{mutant.fields.get('layers', '')}' is not a list of "
                            f"distinct layers among {', '.join(LAYERS)}")
        if mutant.find == mutant.replace:
            raise ListError(f"{where}: 'replace' equals 'find'")
        target = root / mutant.file
        try:
            source = target.read_text(encoding="utf-8")
        except OSError as error:
            raise ListError(f"{where}: cannot read {mutant.file}: {error}") from error
        count = source.count(mutant.find)
        if count != 1:
            raise ListError(f"{where}: 'find' occurs {count} times in {mutant.file}, not once")
    return mutants


def run(command: list[str], cwd: Path, log: Path, env: dict[str, str] | None = None,
        timeout: int | None = None) -> int:
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(command)}\n")
        out.flush()
        try:
            return subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  env=env, timeout=timeout, check=False).returncode
        except subprocess.TimeoutExpired:
            out.write(f"timed out after {timeout} s\n")
            return 124


def copy_tree(root: Path, tree: Path) -> None:
    """Copies the tracked files of the checkout (as they are in the work tree) into tree."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True,
                            check=True).stdout.decode().split("\0")
    wanted = {name for name in listed if name}
    for name in sorted(wanted):
        source = root / name
        if not source.is_file():
            continue
        destination = tree / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        if not destination.exists() or destination.read_bytes() != source.read_bytes():
            shutil.copy2(source, destination)
    for path in sorted(tree.rglob("*"), reverse=True):
        relative = path.relative_to(tree).as_posix()
        if relative == "build" or relative.startswith("build/"):
            continue
        if path.is_file() and relative not in wanted:
            path.unlink()


class Runner:
    def __init__(self, tree: Path, build: Path, logs: Path, jobs: int, timeout: int):
        self.tree, self.build, self.logs = tree, build, logs
        self.jobs, self.timeout = jobs, timeout
        self.env = dict(os.environ, CCACHE_BASEDIR=str(tree), CCACHE_NOHASHDIR="true")

    def configure(self, log: Path) -> bool:
        return run(["cmake", "--preset", "mutate"], self.tree, log, self.env) == 0

    def layer(self, name: str, log: Path) -> tuple[str, str]:
        """Builds and runs one layer: ('pass'|'fail'|'build', first failing test or '')."""
        labels, folders = LAYERS[name]
        targets = [f"{folder}/all" for folder in folders]
        built = run(["cmake", "--build", str(self.build), "-j", str(self.jobs), "--target",
                     *targets], self.tree, log, self.env)
        if built != 0:
            return "build", ""
        report = log.with_suffix(f".{name}.xml")
        report.unlink(missing_ok=True)
        status = run(["ctest", "--test-dir", str(self.build), "-j", str(self.jobs),
                      "--timeout", str(self.timeout), "--stop-on-failure", "--output-on-failure",
                      "--output-junit", str(report), *labels], self.tree, log, self.env)
        if status == 0:
            return "pass", ""
        return "fail", first_failure(report)


def first_failure(report: Path) -> str:
    try:
        text = report.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no report)"
    for match in re.finditer(r'<testcase name="([^"]*)"[^>]*status="(fail|failed)"', text):
        return match.group(1)
    for match in re.finditer(r'<testcase name="([^"]*)"[^>]*>\s*<failure', text):
        return match.group(1)
    return "(see log)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--mutants", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--every-layer", action="store_true")
    parser.add_argument("--check", action="store_true", help="validate the list and stop")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=int, default=600)
    args = parser.parse_args()

    root = args.root.resolve()
    try:
        mutants = read_mutants(args.mutants, root)
    except ListError as error:
        print(f"mutate: {error}", file=sys.stderr)
        return 2
    listed = {m.ident for m in mutants}
    if args.only:
        unknown = sorted(set(args.only) - {m.ident for m in mutants})
        if unknown:
            print(f"mutate: no mutant named {', '.join(unknown)} in {args.mutants}",
                  file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m.ident in args.only]
    if args.check:
        print(f"mutate: {len(mutants)} mutants in {args.mutants}, each applies once")
        return 0

    work = args.work.resolve()
    tree, logs = work / "tree", work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    tree.mkdir(parents=True, exist_ok=True)
    copy_tree(root, tree)
    runner = Runner(tree, tree / "build" / "mutate", logs, args.jobs, args.timeout)

    baseline = logs / "baseline.log"
    baseline.unlink(missing_ok=True)
    if not runner.configure(baseline):
        print(f"mutate: configuring the scratch copy failed; see {baseline}", file=sys.stderr)
        return 3
    # the layers the selected mutants run, in the order they first appear
    wanted = list(dict.fromkeys(name for m in mutants for name in m.layers))
    for name in wanted:
        started = time.monotonic()
        verdict, test = runner.layer(name, baseline)
        if verdict != "pass":
            print(f"mutate: the unmutated copy fails layer {name} ({verdict} {test}); "
                  f"see {baseline}", file=sys.stderr)
            return 3
        print(f"baseline {name}: passes ({time.monotonic() - started:.0f} s)", flush=True)

    # a run of some mutants updates their entries and keeps the others' from earlier runs
    running = {m.ident for m in mutants}
    results = [o for o in load_results(work) if o.get("id") in listed - running]
    for index, mutant in enumerate(mutants, start=1):
        target = tree / mutant.file
        original = target.read_text(encoding="utf-8")
        log = logs / f"{mutant.ident}.log"
        log.unlink(missing_ok=True)
        started = time.monotonic()
        target.write_text(original.replace(mutant.find, mutant.replace, 1), encoding="utf-8")
        outcome = {"id": mutant.ident, "file": mutant.file, "why": mutant.fields["why"],
                   "equivalent": mutant.fields.get("equivalent", ""), "plan": mutant.layers,
                   "layers": {}}
        try:
            for name in mutant.layers:
                verdict, test = runner.layer(name, log)
                outcome["layers"][name] = [verdict, test]
                if verdict != "pass" and not args.every_layer:
                    break
        finally:
            target.write_text(original, encoding="utf-8")
        outcome["seconds"] = round(time.monotonic() - started)
        results.append(outcome)
        print(f"[{index}/{len(mutants)}] {mutant.ident}: {describe(outcome)} "
              f"({outcome['seconds']} s)", flush=True)
        write_report(work, results)
    return summarise(work, results, args.every_layer)


def load_results(work: Path) -> list[dict]:
    try:
        earlier = json.loads((work / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return earlier if isinstance(earlier, list) else []


def killer(outcome: dict) -> str:
    # the layers in the order they ran (JSON objects keep their order)
    for name, (verdict, _) in outcome["layers"].items():
        if verdict == "build":
            return "build"
        if verdict == "fail":
            return name
    return "survived"


def describe(outcome: dict) -> str:
    layer = killer(outcome)
    if layer == "build":
        return "does not build"
    if layer == "survived":
        return "SURVIVED" + (" (equivalent)" if outcome["equivalent"] else "")
    return f"killed by {layer}: {outcome['layers'][layer][1]}"


def write_report(work: Path, results: list[dict]) -> None:
    (work / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    lines = ["| mutant | file | killed by | first failing test | s |", "|---|---|---|---|---|"]
    for outcome in results:
        layer = killer(outcome)
        test = outcome["layers"].get(layer, ["", ""])[1] if layer in LAYERS else ""
        shown = layer if layer != "survived" or not outcome["equivalent"] else "equivalent"
        lines.append(f"| {outcome['id']} | {outcome['file'].removeprefix('reference/include/')}"
                     f" | {shown} | {test} | {outcome['seconds']} |")
    (work / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def summarise(work: Path, results: list[dict], every_layer: bool) -> int:
    counted = [o for o in results if not o["equivalent"] and killer(o) != "build"]
    broken = [o["id"] for o in results if killer(o) == "build"]
    print(f"\nmutants: {len(results)} run, {len(results) - len(counted) - len(broken)} "
          f"equivalent, {len(broken)} do not build")
    if counted:
        for name in LAYERS:
            # each layer's score over the mutants that list it
            planned = [o for o in counted if name in plan(o)]
            if not planned:
                continue
            if every_layer:
                kills = sum(1 for o in planned if o["layers"].get(name, ["pass"])[0] == "fail")
                label = f"{name} layer alone"
            else:
                kills = sum(1 for o in planned if killer(o) == name)
                label = f"first killed by {name}"
            print(f"  {label}: {kills} of {len(planned)} ({100.0 * kills / len(planned):.1f} %)")
        survivors = [o["id"] for o in counted if killer(o) == "survived"]
        killed = len(counted) - len(survivors)
        print(f"  killed by some layer: {killed} of {len(counted)} "
              f"({100.0 * killed / len(counted):.1f} %)")
        if survivors:
            print(f"  survivors: {', '.join(survivors)}")
    print(f"report: {work / 'report.md'}")
    first_missed = [o for o in counted if killer(o) != plan(o)[0]]
    return 1 if first_missed or broken else 0


def plan(outcome: dict) -> list[str]:
    """The layers a mutant listed (results of earlier versions: the default)."""
    return outcome.get("plan") or list(DEFAULT_LAYERS)


if __name__ == "__main__":
    sys.exit(main())
