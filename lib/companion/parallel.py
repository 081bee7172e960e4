"""`make repro` on every core: the notebook stages DVC would run, run side by side, each recorded in
its dvc.lock by `dvc commit`.

    python -m lib.companion.parallel [--jobs N] [TARGET ...]    # `make repro [PAPER=..] [JOBS=N]`

DVC runs a pipeline's stages one after another and holds one lock on the repository while it does,
so two `dvc repro` cannot share a workspace, and a second core sits idle. A notebook stage's command
(the runner) needs no such lock: it holds its own notebook's lock and stages its outputs apart. So
here the root checks run first (`dvc repro params infra data`); DVC says which notebook stages are
out of date; those that read their tables (a declaration's `reads`) are added; they run on N
workers, the longest (by its last time here) first and a reader only after what it reads; and
each one that succeeds is recorded at once with `dvc commit` (one at a time): the entry
`dvc repro` would have written, since a lock entry is the hashes of the stage's dependencies,
parameters and outputs. The ledger and the book follow
(`dvc repro --single-item claims report`, or, for a paper, their modules). Each run's output goes
to results/logs/<paper>__<stem>.log; a failed stage's tail is printed and the stages reading it
are skipped; the rest go on. Meanwhile a status line says which stages run, the cell of each
(of its code cells), the runs of its grid done and the time left, estimated from its committed
time (docs/timings.json, scaled by its sizes: lib.companion.cost); it updates in place on a
terminal, and is a plain line every PLAIN_EVERY_S seconds elsewhere (a CI log). It reads
lib.companion.progress; no time it shows reaches an output.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from lib.companion import papers, paths, progress

ROOT_STAGES = ("params", "infra", "data")
LEDGER_STAGES = ("claims", "report")
STATUS_EVERY_S = 1.0        # how often the status line is redrawn on a terminal
PLAIN_EVERY_S = 30.0        # how often it is printed as a plain line elsewhere


@dataclass
class Stage:
    """One notebook stage to run: its DVC address, its notebook and the stages it waits for."""

    target: str
    notebook: str
    after: set[str] = field(default_factory=set)


def dvc(*args: str, quiet: bool = False) -> subprocess.CompletedProcess:
    """Run the environment's dvc from the repository root."""
    return subprocess.run([sys.executable, "-m", "dvc", *args], cwd=paths.ROOT, text=True,
                          capture_output=quiet)


def target_of(notebook: str) -> str:
    """How DVC names a notebook's stage from the root: <its dvc.yaml>:<paper>-<stem>."""
    paper, stem = paths.split_notebook(notebook)
    return f"notebooks/{paper}/dvc.yaml:{paper}-{stem}"


def notebook_of(target: str) -> str | None:
    """The notebook of a notebook stage's DVC address; None for a root stage."""
    path, _, name = target.rpartition(":")
    if not path.startswith("notebooks/") or not path.endswith("/dvc.yaml"):
        return None
    paper = path.split("/")[1]
    return f"{paper}/{name[len(paper) + 1:]}"


def out_of_date(targets: list[str]) -> list[str]:
    """The notebooks whose stages DVC reports out of date (among `targets`, or all)."""
    done = dvc("status", "--json", *targets, quiet=True)
    if done.returncode != 0:
        raise RuntimeError(f"dvc status failed:\n{done.stderr[-2000:]}")
    found = [notebook_of(t) for t in json.loads(done.stdout or "{}")]
    return [n for n in found if n is not None]


def plan(stale: list[str], scope: list[str]) -> dict[str, Stage]:
    """The stages to run: the stale ones and, transitively, every notebook in `scope` that reads
    the tables of one; each waiting for those of its reads that also run."""
    readers: dict[str, list[str]] = {}
    for notebook in scope:
        paper = notebook.split("/")[0]
        for stem in papers.notebook_entry(notebook).reads:
            readers.setdefault(f"{paper}/{stem}", []).append(notebook)
    chosen, todo = set(), list(stale)
    while todo:
        notebook = todo.pop()
        if notebook not in chosen:
            chosen.add(notebook)
            todo.extend(readers.get(notebook, []))
    stages = {}
    for notebook in (n for n in scope if n in chosen):        # declaration order
        paper = notebook.split("/")[0]
        reads = {f"{paper}/{stem}" for stem in papers.notebook_entry(notebook).reads}
        stages[notebook] = Stage(target_of(notebook), notebook, reads & chosen)
    return stages


def last_wall_s(notebook: str) -> float:
    """The notebook's last recorded wall time on this machine (0 when none): the longest start
    first, so that one long stage does not run alone at the end."""
    from lib.companion import runner  # deferred: it imports papermill's stack
    try:
        return float(json.loads(runner.timing_file(notebook).read_text())["wall_s"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0.0


def log_file(notebook: str) -> Path:
    return paths.RESULTS / "logs" / f"{notebook.replace('/', '__')}.log"


def run_one(stage: Stage, commit_lock: threading.Lock) -> tuple[bool, float]:
    """Run a stage's notebook (its output to its log), then record the stage with `dvc commit`."""
    log = log_file(stage.notebook)
    log.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with log.open("w") as out:
        ran = subprocess.run([sys.executable, "-m", "lib.companion.runner",
                              str(paths.notebook_source(stage.notebook).relative_to(paths.ROOT))],
                             cwd=paths.ROOT, stdout=out, stderr=subprocess.STDOUT)
    if ran.returncode != 0:
        return False, time.perf_counter() - start
    with commit_lock:                            # DVC holds one lock on the repository
        committed = dvc("commit", "--force", "--quiet", stage.target, quiet=True)
    if committed.returncode != 0:
        with log.open("a") as out:
            out.write(f"\ndvc commit {stage.target} failed:\n{committed.stderr}")
        return False, time.perf_counter() - start
    return True, time.perf_counter() - start


def seconds(value: float) -> str:
    return f"{value:.0f} s" if value < 120 else f"{value / 60:.0f} min"


def describe(notebook: str, elapsed: float, estimate: float | None) -> str:
    """One running stage: its cell of its code cells, its grid's runs done, the time left (from
    its committed time) or, without a grid, the time so far of the time expected."""
    state = progress.state(notebook)
    parts = [notebook]
    if state.get("cells"):
        parts.append(f"cell {state.get('cell', 0)}/{state['cells']}")
    if state.get("runs"):
        done, total = state.get("runs_done", 0), state["runs"]
        parts.append(f"runs {done}/{total}")
        if estimate:
            parts.append(f"~{seconds(estimate * (total - done) / total)} left")
    elif estimate:
        parts.append(f"{seconds(elapsed)} of ~{seconds(estimate)}")
    return " ".join(parts)


class StatusLine:
    """The stages running now, on one line that updates in place on a terminal, or as a plain
    line every `every` seconds on anything else (a CI log)."""

    def __init__(self, stream=None, every: float = PLAIN_EVERY_S) -> None:
        self.stream = stream or sys.stdout
        self.tty = self.stream.isatty()
        self.every, self.last, self.drawn = every, time.monotonic(), False

    def show(self, running: dict[str, tuple[float, float | None]]) -> None:
        """`running`: notebook -> (when it started, monotonic; its estimated seconds)."""
        now = time.monotonic()
        text = "running: " + " | ".join(describe(n, now - t0, est)
                                        for n, (t0, est) in running.items())
        if self.tty:
            width = shutil.get_terminal_size().columns - 1
            cut = text if len(text) <= width else text[:width - 1] + "…"
            self.stream.write(f"\r\x1b[K{cut}")
            self.stream.flush()
            self.drawn = True
        elif now - self.last >= self.every:
            print(text, file=self.stream, flush=True)
            self.last = now

    def say(self, text: str) -> None:
        """A line of its own (a stage started or ended), the status line cleared first."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.drawn = False
        print(text, file=self.stream, flush=True)


def estimates(notebooks: list[str]) -> dict[str, float | None]:
    """Each notebook's expected seconds from its committed time (None when there is none)."""
    from lib.companion import cost, params  # deferred: the schemas of every paper
    try:
        raw = params.read_all()
    except params.ParamsError:
        return dict.fromkeys(notebooks)
    out = {}
    for notebook in notebooks:
        try:
            out[notebook] = cost.committed_estimate_s(notebook, raw)
        except params.ParamsError:
            out[notebook] = None
    return out


def run_all(stages: dict[str, Stage], jobs: int, status: StatusLine | None = None) -> list[str]:
    """Run the stages on `jobs` workers, each after those it waits for, the status line drawn
    meanwhile; the notebooks that failed or were skipped because what they read failed."""
    commit_lock = threading.Lock()
    waiting = dict(stages)
    running: dict[Future, Stage] = {}
    started: dict[str, tuple[float, float | None]] = {}
    expected = estimates(list(stages))
    status = status or StatusLine()
    failed: list[str] = []
    total, finished = len(stages), 0
    longest_first = sorted(waiting, key=lambda n: -last_wall_s(n))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        while waiting or running:
            for notebook in [n for n in longest_first if n in waiting]:
                stage = waiting[notebook]
                if stage.after & set(failed):
                    del waiting[notebook]
                    failed.append(notebook)
                    finished += 1
                    status.say(f"[{finished}/{total}] skipped {stage.target}: it reads a "
                               "failed stage")
                elif not stage.after & (set(waiting) | {s.notebook for s in running.values()}) \
                        and len(running) < jobs:
                    del waiting[notebook]
                    progress.clear(notebook)                  # a killed run's, if any
                    running[pool.submit(run_one, stage, commit_lock)] = stage
                    started[notebook] = (time.monotonic(), expected.get(notebook))
                    status.say(f"      start {stage.target}")
            if not running:
                continue
            done, _ = wait(running, timeout=STATUS_EVERY_S, return_when=FIRST_COMPLETED)
            if not done:
                status.show({s.notebook: started[s.notebook] for s in running.values()})
                continue
            for future in done:
                stage = running.pop(future)
                ok, took = future.result()
                finished += 1
                status.say(f"[{finished}/{total}] {'ok    ' if ok else 'FAILED'} {stage.target} "
                           f"({took:.0f} s)")
                if not ok:
                    failed.append(stage.notebook)
                    tail = log_file(stage.notebook).read_text(errors="replace")[-3000:]
                    print(f"--- {log_file(stage.notebook).relative_to(paths.ROOT)} (end) ---\n"
                          f"{tail}\n---", file=sys.stderr, flush=True)
    return failed


def scope_of(targets: list[str]) -> list[str]:
    """The notebooks the targets cover: a paper's dvc.yaml, one stage, or (none given) all."""
    if not targets:
        return papers.all_notebooks()
    out = []
    for target in targets:
        path, _, name = target.partition(":")
        parts = Path(path).parts
        if len(parts) != 3 or parts[0] != "notebooks" or parts[2] != "dvc.yaml":
            raise SystemExit(f"target {target!r}: allowed: notebooks/<paper>/dvc.yaml[:<stage>]")
        notebooks = papers.paper(parts[1]).notebook_ids()
        out += [n for n in notebooks if not name or target_of(n) == f"{path}:{name}"]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.parallel",
                                     description="run the out-of-date notebook stages on N cores")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="notebooks run at once (default: the cores)")
    parser.add_argument("targets", nargs="*", help="notebooks/<paper>/dvc.yaml[:<stage>]")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs {args.jobs}: allowed: 1 or more")
    scope = scope_of(args.targets)
    if dvc("repro", *ROOT_STAGES).returncode != 0:
        return 1
    stages = plan(out_of_date(args.targets), scope)
    print(f"{len(stages)} notebook stage(s) to run on {args.jobs} worker(s)", flush=True)
    failed = run_all(stages, args.jobs)
    if not args.targets:               # the whole pipeline: its ledger and book stages too
        for stage in LEDGER_STAGES:
            if dvc("repro", "--single-item", stage).returncode != 0:
                return 1
    if failed:
        print(f"{len(failed)} stage(s) failed or were skipped: {', '.join(failed)}; the last "
              "good outputs are kept (results/logs/ has each run's output)", file=sys.stderr)
        return 1
    return 0


def interruptible(argv: list[str] | None = None) -> int:
    """`main`, ended by Ctrl-C with status 130 and no traceback: the terminal sent every stage's
    runner the same Ctrl-C (each ends its kernel), and `make repro`'s wrapper says what it left
    in one line."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(interruptible())
