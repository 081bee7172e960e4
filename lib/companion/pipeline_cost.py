"""What the pipeline's notebook stages cost in CPU seconds, old code against new, side by side
on one machine in one run (bench/companion_stage_cost.py is its command line).

Each side runs the stages through its own tree's runner in a scratch tree of its own (`git
archive` of a revision, data pulled from the bundled remote), with this environment's Python,
under cpu_meter (user + system seconds of the runner and every process below it). The sides:
the old code with its own pins, optionally the old code with the new code's pins (so the pins'
part of a speed-up and the code's come apart), the new code, and the new code twice more under
MKL's verbose mode, once on each MKL branch (AVX2 and COMPATIBLE): the seconds MKL itself reports
for its calls (torch's matrix products and LAPACK) give their share of the stage and what
COMPATIBLE costs it. Stages run on N workers, longest first, a stage after the ones it reads
(in its side's tree); each result is written as it finishes, so an interrupted run keeps what
it measured and the next run of the same revisions measures only what is missing.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import threading
import traceback
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Callable

import yaml

from lib.companion import numerics, paths

KIND = "stage_cost"
METER = Path(__file__).with_name("cpu_meter.py")
MKL_LINE = re.compile(r"^MKL_VERBOSE (\w+)\(.*\) (\d+(?:\.\d+)?)(ns|us|ms|s) ")
UNIT_S = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
TOP_FUNCTIONS = 8
MARKER = ".stage_cost_commit"         # in a scratch tree: the commit it holds, written last


@dataclass(frozen=True)
class Side:
    """One way of running the stages: which tree (old or new code), which pins, and under
    which MKL branch with MKL's verbose log (None: the tree's own pins, no log)."""

    code: str                       # "old" or "new"
    new_pins: bool                  # the new tree's pins exported, the runner's left native
    mkl_cbwr: str | None = None     # MKL_CBWR for a verbose run: what MKL's calls cost there
    says: str = ""


SIDES: dict[str, Side] = {
    "old": Side("old", False, says="the old code with the pins it sets itself"),
    "old_new_pins": Side("old", True, says="the old code under the new code's pins "
                                            "(COMPANION_NUMERICS=native, the pins exported)"),
    "new": Side("new", False, says="the new code with the pins it sets itself"),
    "mkl_avx2": Side("new", True, "AVX2", "the new code, MKL_CBWR=AVX2, MKL_VERBOSE on"),
    "mkl_compatible": Side("new", True, "COMPATIBLE",
                           "the new code, MKL_CBWR=COMPATIBLE, MKL_VERBOSE on"),
}
DEFAULT_SIDES = ("old", "new", "mkl_avx2", "mkl_compatible")


# -- trees ------------------------------------------------------------------------------------

def commit_of(rev: str) -> str:
    """The full hash of a revision of this repository (SystemExit naming it if unknown)."""
    done = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                          cwd=paths.ROOT, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"revision {rev!r}: not a commit of this repository")
    return done.stdout.strip()


def environment() -> dict[str, str]:
    """What every side starts from: this environment without the pins, this Python's folder
    first on PATH (a stage's kernel runs `python`), a stage over its budget estimate run."""
    env = numerics.unpinned_env()
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["COMPANION_ACCEPT_COST"] = "1"
    return env


def run(cmd: list[str], cwd: Path) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=environment(), capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} in {cwd} exited {done.returncode}:\n"
                         f"{done.stderr[-3000:]}")
    return done.stdout


def tree_commit(root: Path) -> str | None:
    """The commit a scratch tree was built from (None: not a complete tree)."""
    marker = root / MARKER
    return marker.read_text().strip() if marker.exists() else None


def tree(commit: str, dst: Path, like: Path | None = None) -> Path:
    """`dst` holding the commit's files as a git repository of their own with data/ pulled
    from the bundled remote; kept for the next run (its commit in a marker file), rebuilt when
    the commit differs. `like`, a tree of the same commit, is copied (without its results)
    instead of building anew."""
    if tree_commit(dst) == commit:
        return dst
    shutil.rmtree(dst, ignore_errors=True)
    if like is not None and tree_commit(like) == commit:
        shutil.copytree(like, dst, symlinks=True, ignore=lambda folder, _: (
            ["results", MARKER] if Path(folder) == like else []))
    else:
        build(commit, dst)
    (dst / MARKER).write_text(commit + "\n")          # last: a tree cut short is built again
    return dst


def build(commit: str, dst: Path) -> None:
    """The commit's files (git archive) committed to a new repository, data/ pulled."""
    dst.mkdir(parents=True)
    tar = subprocess.run(["git", "archive", commit], cwd=paths.ROOT, capture_output=True,
                         check=True).stdout
    with tarfile.open(fileobj=BytesIO(tar)) as archive:
        archive.extractall(dst, filter="data")
    run(["git", "init", "-q"], dst)
    run(["git", "add", "-A"], dst)
    run(["git", "-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", commit], dst)
    run([sys.executable, "-m", "dvc", "pull", "-q", "data.dvc"], dst)


def declared(root: Path) -> dict[str, list[str]]:
    """Every notebook a tree declares ('<paper>/<stem>'), in declaration order, with the
    notebooks of its paper it reads."""
    out = {}
    for decl in sorted((root / "notebooks").glob("*/paper.yaml")):
        doc = yaml.safe_load(decl.read_text())
        short = doc["short"]
        for entry in doc["notebooks"]:
            out[f"{short}/{entry['stem']}"] = [f"{short}/{r}" for r in entry.get("reads") or []]
    return out


def new_pins(root: Path) -> dict[str, str]:
    """The pins a tree's runner sets (`python -m lib.companion.numerics` there prints them)."""
    pins = {}
    for line in run([sys.executable, "-m", "lib.companion.numerics"], root).splitlines():
        key, _, value = line.removeprefix("export ").partition("=")
        pins[key] = value.strip("'")
    return pins


def side_env(side: Side, pins: dict[str, str], mkl_log: Path | None) -> dict[str, str]:
    """The environment a side's runner starts in."""
    env = environment()
    if side.new_pins:
        env.update(pins)
        env[numerics.SWITCH] = "native"
    if side.mkl_cbwr:
        env.update(MKL_CBWR=side.mkl_cbwr, MKL_VERBOSE="1", MKL_VERBOSE_OUTPUT_FILE=str(mkl_log))
    return env


# -- which stages -----------------------------------------------------------------------------

def select(names: list[str], notebooks: list[str]) -> list[str]:
    """The notebooks that `names` pick, in declaration order: 'all', a paper, '<paper>/<stem>'
    or a prefix of one ('caffnet/02'); a name that picks none is refused, naming it."""
    picked = set()
    for name in names:
        hits = (notebooks if name == "all" else
                [n for n in notebooks if n.split("/")[0] == name or
                 ("/" in name and n.startswith(name))])
        if not hits:
            papers = sorted({n.split("/")[0] for n in notebooks})
            raise SystemExit(f"--stages {name!r}: no declared notebook; allowed: 'all', a paper "
                             f"({', '.join(papers)}), '<paper>/<stem>' or a prefix of one")
        picked.update(hits)
    return [n for n in notebooks if n in picked]


def with_readers_inputs(picked: list[str], reads: dict[str, list[str]]) -> list[str]:
    """`picked` and every notebook it reads, directly or not (each must run in the tree before
    its reader), in declaration order."""
    need, todo = set(), list(picked)
    while todo:
        n = todo.pop()
        if n not in need:
            need.add(n)
            todo += reads.get(n, [])
    return [n for n in reads if n in need]


# -- running on N workers ---------------------------------------------------------------------

@dataclass
class Job:
    """One side's runs of one stage (its repeats one after another: they share its tree)."""

    side: str
    notebook: str
    estimate_s: float = 0.0
    after: set[str] = field(default_factory=set)      # notebooks of the same side first


def plan(doc: dict, sides: list[str], declared_by: dict[str, dict[str, list[str]]],
         picked: list[str], repeats: int, estimates: dict[str, float],
         ran: Callable[[str, str], bool]) -> list[Job]:
    """The runs still to make: each side's picked stages (and the stages they read) that lack
    `repeats` good runs in `doc`, and a stage already measured whose tree lacks its outputs
    (`ran(side, notebook)` false) when a stage to run reads them, directly or not. A picked
    stage the side's code does not declare is recorded `absent`."""
    jobs = []
    for side in sides:
        reads = declared_by[SIDES[side].code]
        for n in picked:
            if n not in reads:
                record(doc, side, n, "absent", why=f"not declared at the {SIDES[side].code} code")
        want = with_readers_inputs([n for n in picked if n in reads], reads)
        to_run = {n for n in want if missing(doc, side, n, repeats)}
        while lost := {r for n in to_run for r in reads[n]
                       if r not in to_run and not ran(side, r)}:
            to_run |= lost
        jobs += [Job(side, n, estimates.get(n, 0.0), set(reads[n])) for n in want if n in to_run]
    return jobs


def order(jobs: list[Job], sides: list[str]) -> list[Job]:
    """Longest first; a stage's sides next to each other (they run side by side on two
    workers, under the same load)."""
    return sorted(jobs, key=lambda j: (-j.estimate_s, j.notebook, sides.index(j.side)))


def schedule(jobs: list[Job], workers: int, work: Callable[[Job], bool],
             skipped: Callable[[Job, str], None], stop: threading.Event | None = None) -> None:
    """Run `work(job)` on `workers` threads, in the given order, a job once every job of its
    side it comes `after` has succeeded (work returned True; an exception is printed and
    counts as a failure); a job whose input failed or was skipped is not run
    (`skipped(job, why)`). `stop` set, or an interrupt: nothing more starts, the running ones
    finish (a second interrupt does not wait), then the interrupt is raised again."""
    stop = stop or threading.Event()
    pending = list(jobs)
    done: dict[tuple[str, str], bool] = {}
    planned = {(j.side, j.notebook) for j in jobs}
    cond = threading.Condition()

    def ready(job: Job) -> bool | None:
        """True to start, False to skip, None to wait."""
        state = [done.get((job.side, a)) for a in job.after if (job.side, a) in planned]
        if any(s is False for s in state):
            return False
        return None if any(s is None for s in state) else True

    def worker() -> None:
        while True:
            with cond:
                while True:
                    if stop.is_set() or not pending:
                        cond.notify_all()
                        return
                    choice = next(((j, r) for j in pending if (r := ready(j)) is not None),
                                  None)
                    if choice:
                        break
                    cond.wait()
                job, go = choice
                pending.remove(job)
            ok = False
            if go:
                try:
                    ok = work(job)
                except Exception:            # one job's bug never stops the others
                    traceback.print_exc()
            else:
                skipped(job, "an input stage of its side failed or was skipped")
            with cond:
                done[(job.side, job.notebook)] = ok
                cond.notify_all()

    threads = [threading.Thread(target=worker, name=f"stage-cost-{i}", daemon=True)
               for i in range(max(1, workers))]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.5)
    except KeyboardInterrupt:
        stop.set()
        for t in threads:
            while t.is_alive():
                t.join(0.5)
        raise


# -- one measurement --------------------------------------------------------------------------

def mkl_seconds(lines) -> dict:
    """MKL's verbose log summed: calls and seconds, in all and per function (the most costly
    TOP_FUNCTIONS), from lines like `MKL_VERBOSE SGEMM(N,N,64,...) 17.12us CNR:OFF ...`."""
    per: dict[str, list] = {}
    for line in lines:
        m = MKL_LINE.match(line)
        if m:
            entry = per.setdefault(m[1], [0, 0.0])
            entry[0] += 1
            entry[1] += float(m[2]) * UNIT_S[m[3]]
    top = sorted(per.items(), key=lambda kv: -kv[1][1])[:TOP_FUNCTIONS]
    return {"calls": sum(c for c, _ in per.values()), "seconds": sum(s for _, s in per.values()),
            "by_function": {k: {"calls": c, "seconds": s} for k, (c, s) in top}}


def measure(root: Path, notebook: str, env: dict[str, str], log: Path, usage: Path,
            profile: str, running: set | None = None) -> dict:
    """One run of the stage's runner in `root` under cpu_meter; its usage (rc, cpu_s, ...).
    The meter's process is in `running` while it runs (to be ended on an interrupt)."""
    log.parent.mkdir(parents=True, exist_ok=True)
    usage.unlink(missing_ok=True)
    cmd = [sys.executable, "-I", str(METER), "--out", str(usage), "--",
           sys.executable, "-m", "lib.companion.runner", f"notebooks/{notebook}.py",
           "--profile", profile]
    running = set() if running is None else running
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
        running.add(proc)
        try:
            proc.wait()
        finally:
            running.discard(proc)
    if not usage.exists():                           # the meter itself was killed
        return {"rc": proc.returncode or -1, "cpu_s": None}
    result = json.loads(usage.read_text())
    usage.unlink()
    return result


# -- the results file -------------------------------------------------------------------------

def fresh_doc(old: dict, new: dict, machine: dict, profile: str) -> dict:
    return {"kind": KIND, "kernel": "the pipeline's notebook stages: CPU seconds (user + "
            "system) of each stage's runner and every process below it",
            "bound": "none: the old code's CPU seconds over the new code's, per stage and "
            "summed", "old": old, "new": new, "machine": machine, "profile": profile,
            "sides": [], "stages": {}}


def sides_of(names) -> list[dict]:
    """The doc's record of the sides measured, in SIDES order (a list: the JSON keeps it)."""
    return [{"name": s, "says": SIDES[s].says, "mkl_cbwr": SIDES[s].mkl_cbwr}
            for s in SIDES if s in set(names)]


def resumable(doc: dict | None, fresh: dict) -> bool:
    """A results file may be added to when it measured the same revisions, profile and CPU."""
    return bool(doc) and doc.get("kind") == KIND and all(
        doc.get(k) == fresh[k] for k in ("old", "new", "profile")) and \
        doc.get("machine", {}).get("cpu") == fresh["machine"]["cpu"]


def missing(doc: dict, side: str, notebook: str, repeats: int) -> int:
    """How many more runs the side's stage needs (a failed or skipped one is run again)."""
    entry = doc["stages"].get(notebook, {}).get(side)
    if not entry or entry.get("status") != "ok":
        return repeats
    return max(0, repeats - len(entry["samples"]))


def record(doc: dict, side: str, notebook: str, status: str, samples: list[dict] | None = None,
           why: str = "") -> None:
    """Put one side's outcome for a stage into the doc (samples added to those kept)."""
    entry = doc["stages"].setdefault(notebook, {}).setdefault(side, {"samples": []})
    if status == "ok":
        entry["samples"] = ([*entry["samples"], *samples] if entry.get("status") == "ok"
                            else list(samples or []))
    else:
        entry["samples"] = list(samples or [])
    entry["status"] = status
    entry.pop("why", None)
    if why:
        entry["why"] = why


def median_of(entry: dict | None, key: str) -> float | None:
    if not entry or entry.get("status") != "ok" or not entry["samples"]:
        return None
    if key == "mkl_s":
        return statistics.median(s["mkl"]["seconds"] for s in entry["samples"])
    return statistics.median(s[key] for s in entry["samples"])


RATIOS = (("old", "new"), ("old", "old_new_pins"), ("old_new_pins", "new"))


def summarise(doc: dict) -> dict:
    """Per stage: each side's median CPU seconds (and least), the ratios of RATIOS, MKL's share
    on each branch and what COMPATIBLE adds; the totals over the stages both sides of a ratio
    measured."""
    stages, sums = {}, {}
    for notebook, sides in doc["stages"].items():
        cpu = {s: median_of(e, "cpu_s") for s, e in sides.items()}
        cpu = {s: v for s, v in cpu.items() if v is not None}
        row: dict = {"cpu_s": cpu, "min_cpu_s": {s: min(x["cpu_s"] for x in sides[s]["samples"])
                                                  for s in cpu}}
        for a, b in RATIOS:
            if a in cpu and b in cpu and cpu[b] > 0:
                row[f"{a}_over_{b}"] = cpu[a] / cpu[b]
                total = sums.setdefault(f"{a}_over_{b}", {a: 0.0, b: 0.0, "stages": 0})
                total[a] += cpu[a]
                total[b] += cpu[b]
                total["stages"] += 1
        mkl = {s: median_of(sides.get(s), "mkl_s") for s in ("mkl_avx2", "mkl_compatible")}
        for s, seconds in mkl.items():
            if seconds is not None and cpu.get(s):
                row[f"{s}_share"] = seconds / cpu[s]
        if None not in mkl.values():
            extra = mkl["mkl_compatible"] - mkl["mkl_avx2"]
            row["compatible_extra_s"] = extra
            if cpu.get("new"):
                row["compatible_extra_over_new"] = extra / cpu["new"]
                total = sums.setdefault("compatible_extra", {"extra_s": 0.0, "new": 0.0,
                                                             "stages": 0})
                total["extra_s"] += extra
                total["new"] += cpu["new"]
                total["stages"] += 1
        stages[notebook] = row
    for key, total in sums.items():
        if key == "compatible_extra":
            total["ratio"] = total["extra_s"] / total["new"] if total["new"] else None
        else:
            a, b = key.split("_over_")
            total["ratio"] = total[a] / total[b] if total[b] else None
    return {"stages": stages, "totals": sums}


def save(doc: dict, target: Path) -> None:
    """Write the doc with its summary, atomically (an interrupt never leaves half a file)."""
    doc["summary"] = summarise(doc)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, target)


def table(doc: dict) -> str:
    """The summary as plain text: a row per stage, the totals after."""
    summary = doc.get("summary") or summarise(doc)
    sides = [s["name"] for s in doc["sides"]]
    head = ["stage", *sides, "old/new", "mkl share avx2", "mkl share compat", "compat extra s"]
    lines = ["  ".join(head)]

    def num(v, f="{:.1f}"):
        return "-" if v is None else f.format(v)
    for notebook, row in summary["stages"].items():
        lines.append("  ".join([notebook, *(num(row["cpu_s"].get(s)) for s in sides),
                                num(row.get("old_over_new"), "{:.2f}x"),
                                num(row.get("mkl_avx2_share"), "{:.0%}"),
                                num(row.get("mkl_compatible_share"), "{:.0%}"),
                                num(row.get("compatible_extra_s"))]))
    for key, total in summary["totals"].items():
        lines.append(f"total {key}: " + ", ".join(
            f"{k} {num(v, '{:.3g}')}" for k, v in total.items()))
    return "\n".join(lines)
