"""Benchmark: the pipeline's own cost, CPU seconds per notebook stage, the old code against the
new side by side on this machine in one run, and the share of each stage's time that MKL's calls
(torch's matrix products, LAPACK) take on each MKL branch.

    python bench/companion_stage_cost.py [--old d88588a] [--new HEAD] [--stages all | <paper>
        | <paper>/<stem> ...] [--sides old new mkl_avx2 mkl_compatible] [--workers 2]
        [--repeats 1] [--work build/stage_cost] [--fresh]

Each side runs in a scratch tree of its own under --work (`git archive` of its revision, data
pulled from the bundled remote; kept between runs), with this environment's Python, through
its own tree's runner (default profile), under lib/companion/cpu_meter.py: user + system
seconds of the runner and every process below it. The sides (lib/companion/pipeline_cost.py):
`old` (the old code and its pins: d88588a pins MKL's COMPATIBLE branch), `old_new_pins` (the
old code under the new code's pins: with it, old/old_new_pins is what the pins changed and
old_new_pins/new what the code did), `new`, and `mkl_avx2` / `mkl_compatible` (the new code on
each MKL branch with MKL_VERBOSE: MKL's own seconds for its calls over the run's CPU seconds is
their share; COMPATIBLE's seconds less AVX2's are what that branch adds to the stage). The
verbose runs pay for the log (a file write per MKL call), so their CPU seconds are only the
denominators of their shares, never compared with the plain runs.

Stages run on --workers workers, longest first (docs/timings.json's last wall times), each
stage's sides next to each other so they share the load; a stage after the stages it reads (in
its side's tree, added to the set when not in it). Each result is written to
results/bench/companion_stage_cost.json as it finishes: a run interrupted (Ctrl-C) keeps what it
measured, and the next run with the same --old, --new and CPU measures only what is missing.
The whole default pipeline is about 2-3 CPU-hours for old + new, and about twice that with the
two MKL sides.

Bound: none; the figures are the ratios old/new per stage and summed.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path

from lib.companion import fingerprint, paths
from lib.companion import pipeline_cost as pc

NAME = "companion_stage_cost"


def estimates() -> dict[str, float]:
    """Each stage's last measured wall time (docs/timings.json): the longest start first."""
    try:
        stages = json.loads((paths.ROOT / "docs" / "timings.json").read_text())["stages"]
        return {n: float(t["wall_s"]) for n, t in stages.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def ran_in(root: Path, notebook: str) -> bool:
    """The tree holds the stage's outputs from a good run (a reader may read them)."""
    record = root / "results" / "runs" / f"{notebook}.json"
    try:
        return json.loads(record.read_text()).get("state") == "ok"
    except (OSError, ValueError):
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", default="d88588a", help="the old code's revision")
    parser.add_argument("--new", default="HEAD", help="the new code's revision")
    parser.add_argument("--stages", nargs="+", default=["all"],
                        help="'all', papers, '<paper>/<stem>'s (or prefixes)")
    parser.add_argument("--sides", nargs="+", default=list(pc.DEFAULT_SIDES),
                        choices=list(pc.SIDES))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1, help="runs per side and stage")
    parser.add_argument("--profile", default="default", choices=("smoke", "default"))
    parser.add_argument("--work", type=Path, default=paths.ROOT / "build" / "stage_cost",
                        help="where the scratch trees and logs stay between runs")
    parser.add_argument("--fresh", action="store_true", help="forget earlier measurements")
    args = parser.parse_args(argv)
    if args.workers < 1 or args.repeats < 1:
        raise SystemExit(f"--workers {args.workers}, --repeats {args.repeats}: each must be >= 1")
    sides = [s for s in pc.SIDES if s in args.sides]
    revs = {"old": {"rev": args.old, "commit": pc.commit_of(args.old)},
            "new": {"rev": args.new, "commit": pc.commit_of(args.new)}}
    codes = {pc.SIDES[s].code for s in sides}
    work = args.work.resolve()
    print(f"trees under {work} ...", flush=True)
    roots: dict[str, Path] = {}
    for s in sides:                   # a side's tree copied from the first of the same code
        like = next((r for t, r in roots.items() if pc.SIDES[t].code == pc.SIDES[s].code), None)
        roots[s] = pc.tree(revs[pc.SIDES[s].code]["commit"], work / s, like)
    decl = {code: pc.declared(next(roots[s] for s in sides if pc.SIDES[s].code == code))
            for code in codes}
    new_decl = decl.get("new") or pc.declared(pc.tree(revs["new"]["commit"], work / "new"))
    picked = pc.select(args.stages, list(new_decl))
    pins = pc.new_pins(next((roots[s] for s in sides if pc.SIDES[s].code == "new"), None)
                       or pc.tree(revs["new"]["commit"], work / "new"))

    target = paths.RESULTS / "bench" / f"{NAME}.json"
    machine = {"cpu": fingerprint.cpu()["model"], "cores": os.cpu_count()}
    doc = pc.fresh_doc(revs["old"], revs["new"], machine, args.profile)
    kept = None if args.fresh or not target.exists() else json.loads(target.read_text())
    if pc.resumable(kept, doc):
        doc = kept
        print(f"resuming {target} ({len(doc['stages'])} stage(s) recorded)")
    elif kept:
        print(f"{target} measured other revisions, profile or CPU: starting afresh")
    doc["sides"] = pc.sides_of([*(s["name"] for s in doc["sides"]), *sides])
    doc["pins"] = pins

    jobs = pc.plan(doc, sides, decl, picked, args.repeats, estimates(),
                   lambda side, n: ran_in(roots[side], n))
    jobs = pc.order(jobs, sides)
    print(f"{len(jobs)} run(s) of {len({j.notebook for j in jobs})} stage(s) on "
          f"{args.workers} worker(s), {args.repeats} repeat(s) each", flush=True)
    lock, stop, running = threading.Lock(), threading.Event(), set()

    def work_one(job: pc.Job) -> bool:
        side = pc.SIDES[job.side]
        base = work / "logs" / job.side / job.notebook.replace("/", "__")
        samples = []
        for _ in range(pc.missing(doc, job.side, job.notebook, args.repeats) or 1):
            mkl_log = base.with_suffix(".mkl") if side.mkl_cbwr else None
            if mkl_log:
                mkl_log.parent.mkdir(parents=True, exist_ok=True)
                mkl_log.unlink(missing_ok=True)
            usage = pc.measure(roots[job.side], job.notebook, pc.side_env(side, pins, mkl_log),
                               base.with_suffix(".log"), base.with_suffix(".usage.json"),
                               args.profile, running)
            if mkl_log:                  # no log: the stage called MKL not once
                with (mkl_log.open(errors="replace") if mkl_log.exists() else
                      open(os.devnull)) as lines:
                    usage["mkl"] = pc.mkl_seconds(lines)
                mkl_log.unlink(missing_ok=True)
            if usage["rc"] != 0 and stop.is_set():
                return False              # ended by the interrupt: nothing of it is recorded
            if usage["rc"] != 0:
                with lock:
                    pc.record(doc, job.side, job.notebook, "failed", [usage],
                              why=f"exit {usage['rc']}: see {base.with_suffix('.log')}")
                    pc.save(doc, target)
                print(f"FAILED {job.side} {job.notebook} (log: {base.with_suffix('.log')})",
                      flush=True)
                return False
            samples.append(usage)
            print(f"{job.side:>15} {job.notebook}: {usage['cpu_s']:.1f} CPU-s "
                  f"({usage['wall_s']:.1f} s wall)", flush=True)
        with lock:
            pc.record(doc, job.side, job.notebook, "ok", samples)
            pc.save(doc, target)
        return True

    def skipped(job: pc.Job, why: str) -> None:
        with lock:
            pc.record(doc, job.side, job.notebook, "skipped", why=why)
            pc.save(doc, target)

    def interrupted(*_) -> None:
        """Ctrl-C or SIGTERM: end the stages running (their meters pass it on), start none."""
        stop.set()
        for proc in list(running):
            proc.terminate()
        raise KeyboardInterrupt
    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    try:
        pc.schedule(jobs, args.workers, work_one, skipped, stop)
    except KeyboardInterrupt:
        print(f"interrupted: the finished stages are kept in {target}", file=sys.stderr)
        return 130
    finally:
        with lock:
            pc.save(doc, target)
    print(pc.table(doc))
    print(f"-> {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
