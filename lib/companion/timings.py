"""How long `make repro` and `make test` take: each stage's last wall time (the runner's records
under results/timings/), the paper totals against the budgets, and the committed snapshot that
the README's stated times are generated from.

    python -m lib.companion.timings                      # the table of the last runs
    python -m lib.companion.timings --ran NAME           # only the stages the timed command
                        # NAME ran (`make repro` ends with this one), their papers' totals
    python -m lib.companion.timings run NAME -- CMD ...  # run CMD, record its wall time as NAME
    python -m lib.companion.timings run NAME --rebuild-on-failure -- CMD ...
                        # and when CMD fails or is interrupted (Ctrl-C), rebuild the ledger and
                        # the book, then exit non-zero (what `make repro` promises)
    python -m lib.companion.timings --write --note TEXT  # snapshot the table into docs/timings.json

Wall-clock values never enter a DVC output; the snapshot is a measurement, committed with the
machine and the date it was taken on, so a README time is always one the table holds.
"""
from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from lib.companion import papers, paths

SNAPSHOT = paths.TIMINGS_SNAPSHOT
BUDGET_S = 180        # ../shared/DESIGN.md: default profile <= 3 minutes per paper, 2 idle cores
ALLOWANCE_S = 300     # up to 5 minutes where a headline needs the size (its schema says why)
CORES = 2             # the budget's machine: `make repro` runs a paper's stages on both cores
IN_DEPTH = ("gd_perceptron", "equivariance", "linear_rnns")   # "all three in minutes, not hours"


def commands_dir() -> Path:
    """results/timings/commands: the last wall time of each timed command."""
    return paths.timings_dir() / "commands"


def command_file(name: str) -> Path:
    return commands_dir() / f"{name}.json"


def stage_file(notebook: str) -> Path:
    from lib.companion import runner
    return runner.timing_file(notebook)


def read(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def collect() -> dict:
    """The last runs: {"stages": {notebook: {"profile", "wall_s", "sizes", "finished"} or None},
    "commands": {...}}."""
    stages = {}
    for nid in papers.all_notebooks():
        doc = read(stage_file(nid))
        stages[nid] = {"profile": doc["profile"], "wall_s": doc["wall_s"],
                       "sizes": doc.get("sizes"), "finished": doc.get("finished")} \
            if doc and isinstance(doc.get("wall_s"), (int, float)) else None
    folder = commands_dir()
    commands = {f.stem: {"wall_s": d["wall_s"], "exit": d["exit"]}
                for f in sorted(folder.glob("*.json")) if (d := read(f))} \
        if folder.exists() else {}
    return {"stages": stages, "commands": commands}


def on_cores(times: list[float], cores: int = CORES) -> float:
    """The wall time of independent stages run longest first on `cores` workers, each taking
    the next stage as soon as it is free (what `make repro` does, lib.companion.parallel)."""
    free = [0.0] * cores
    for t in sorted(times, reverse=True):
        free[free.index(min(free))] += t
    return max(free)


def paper_totals(stages: dict) -> dict[str, dict]:
    """Per paper: stages measured, stages declared, summed wall time (one core), its time on
    the budget's two cores, and the budget and allowance it is held to (none in depth)."""
    out = {}
    for p in papers.all_papers():
        times = [stages[n]["wall_s"] for n in p.notebook_ids() if stages.get(n)]
        miniature = p.short not in IN_DEPTH
        out[p.short] = {"measured": len(times), "stages": len(p.notebook_ids()),
                        "wall_s": round(sum(times), 2), "cores_s": round(on_cores(times), 2),
                        "budget_s": BUDGET_S if miniature else None,
                        "allowance_s": ALLOWANCE_S if miniature else None}
    return out


def verdict(total: dict) -> str:
    """A paper's time on two cores against its budget: within, within the allowance (a
    headline needed it), over; empty when in depth or not measured."""
    if not total["budget_s"] or not total["measured"]:
        return ""
    if total["cores_s"] <= total["budget_s"]:
        return "within"
    return "within allowance" if total["cores_s"] <= total["allowance_s"] else "over"


def minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f}"


def fmt_time(seconds: float) -> str:
    """How the README states a time: seconds below ten minutes, minutes above."""
    return f"{seconds:.0f} s" if seconds < 600 else f"{minutes(seconds)} min"


def stated_times(text: str) -> list[str]:
    """Every time a text states ("12.9 minutes", "40 s"), normalised as `fmt_time` writes it."""
    import re
    units = {"s": "s", "sec": "s", "seconds": "s", "second": "s",
             "min": "min", "minute": "min", "minutes": "min", "h": "h", "hours": "h", "hour": "h"}
    pattern = r"(\d+(?:\.\d+)?)\s*(" + "|".join(sorted(units, key=len, reverse=True)) + r")\b"
    return [f"{m.group(1)} {units[m.group(2)]}" for m in re.finditer(pattern, text)]


def moment(stamp: object) -> float | None:
    """A record's "finished" time (UTC, to the second) as seconds since the epoch."""
    import calendar
    try:
        return calendar.timegm(time.strptime(str(stamp), "%Y-%m-%dT%H:%M:%SZ"))
    except ValueError:
        return None


def ran_during(doc: dict, name: str) -> list[str] | None:
    """The stages whose last run finished while the timed command `name` ran (None when it
    has no record)."""
    command = read(command_file(name))
    end = moment(command.get("finished")) if command else None
    if end is None or not isinstance(command.get("wall_s"), (int, float)):
        return None
    start = end - command["wall_s"] - 1                  # the records' times are to the second
    return [n for n, rec in doc["stages"].items()
            if rec and (t := moment(rec.get("finished"))) is not None and start <= t <= end + 1]


def table(doc: dict, only: list[str] | None = None) -> str:
    """A plain-text table: every stage (or those in `only`, with their papers' totals), each
    paper's total against its budget, the commands."""
    shown = doc["stages"] if only is None else {n: doc["stages"][n] for n in only}
    lines = [f"{'stage':<48} {'profile':<8} {'wall s':>8}"]
    for nid, rec in shown.items():
        lines.append(f"{nid:<48} {rec['profile']:<8} {rec['wall_s']:>8.1f}" if rec
                     else f"{nid:<48} {'':<8} {'not run':>8}")
    touched = {n.split("/")[0] for n in shown}
    lines += ["", f"{'paper':<16} {'stages':>7} {'1 core s':>9} {f'{CORES} cores s':>10} "
              f"{'budget':>10}"]
    for short, t in paper_totals(doc["stages"]).items():
        if short not in touched:
            continue
        budget = f"{t['budget_s']}/{t['allowance_s']} s" if t["budget_s"] else "-"
        lines.append(f"{short:<16} {t['measured']:>3}/{t['stages']:<3} {t['wall_s']:>9.1f} "
                     f"{t['cores_s']:>10.1f} {budget:>10}  {verdict(t)}".rstrip())
    total = sum(r["wall_s"] for r in shown.values() if r)
    lines.append(f"{'all stages' if only is None else 'these stages':<16} {'':>7} "
                 f"{total:>8.1f} {minutes(total):>6}")
    for name, c in doc["commands"].items():
        lines.append(f"{name:<24} {c['wall_s']:>8.1f} s  {minutes(c['wall_s'])} min"
                     + ("" if c["exit"] == 0 else f"  (exit {c['exit']})"))
    return "\n".join(lines)


# what a failed or interrupted run is followed by: (module run with this python, what it writes)
REBUILD = (("lib.companion.ledger", "results/CLAIMS.md"),
           ("lib.companion.report", "results/report/index.html"))
INTERRUPTED = 130     # how a shell reports a command ended by Ctrl-C (128 + SIGINT)


def call(command: list[str]) -> tuple[int, bool]:
    """Run `command` to its end and return (status, whether Ctrl-C came meanwhile). A Ctrl-C
    reaches the command itself (it is in the terminal's process group); here it is only noted,
    so that what follows a failure still runs, with no traceback of ours."""
    seen: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        try:
            child = subprocess.Popen(command)
        except OSError as err:
            print(f"cannot run {command[0]}: {err.strerror or err}", file=sys.stderr)
            return 127, bool(seen)
        while True:
            try:
                status = child.wait()
                break
            except KeyboardInterrupt:    # a handler of a library: keep waiting for the command
                seen.append(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)
    status = INTERRUPTED if status == -signal.SIGINT else status
    return status, bool(seen) or status == INTERRUPTED


def record(name: str, command: list[str], status: int, wall_s: float) -> None:
    """Write the command's wall time and status; a results/ that cannot be written is said in
    one line (the command's own status still stands)."""
    out = command_file(name)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"command": " ".join(command), "exit": status,
                                   "wall_s": round(wall_s, 1),
                                   "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                             time.gmtime())}))
    except OSError as err:
        print(f"the wall time of {name} is not recorded: cannot write {err.filename or out}: "
              f"{err.strerror or err} (make results/ writable: `chmod -R u+w results`)",
              file=sys.stderr)


def rebuild(interrupted: bool) -> None:
    """After a failed or interrupted run: the ledger, then the book, each from what the stages
    left (a stage that did not finish shows its claims as `error`), their output held back so
    that the run's end is one line (a rebuild that fails shows its own)."""
    how = "was interrupted (Ctrl-C)" if interrupted else "failed (above)"
    for module, shows in REBUILD:
        done = subprocess.run([sys.executable, "-m", module], capture_output=True, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stdout[-3000:] + done.stderr[-3000:])
            print(f"the run {how}: rebuilding the ledger and the book from what it left, python "
                  f"-m {module} failed too (above): {shows} may be stale", file=sys.stderr)
            return
    print(f"the run {how}: rebuilding the ledger and the book from what it left, the book "
          "(results/report/index.html) and results/CLAIMS.md show the stage that did not finish "
          "and its claims as error; the last good outputs are kept", file=sys.stderr)


def run_timed(name: str, command: list[str], rebuild_on_failure: bool = False) -> int:
    """Run `command`, record its wall time and exit status as `name`, return the status; with
    `rebuild_on_failure`, a failed or interrupted command is followed by the ledger and book
    rebuild, and the status is 130 after Ctrl-C, else the command's (1 at least)."""
    start = time.perf_counter()
    status, interrupted = call(command)
    record(name, command, status, time.perf_counter() - start)
    if rebuild_on_failure and (status != 0 or interrupted):
        rebuild(interrupted)
        return INTERRUPTED if interrupted else status
    return status


def snapshot(note: str) -> dict:
    """The table of the last runs with what they were measured on, as docs/timings.json holds."""
    doc = collect()
    missing = [n for n, r in doc["stages"].items() if r is None]
    if missing:
        raise SystemExit(f"not every stage has a timing (run `make repro` first): {missing}")
    commands = {k: c for k, c in doc["commands"].items() if c["exit"] == 0}   # a failed run's
    stages = {n: {"profile": r["profile"], "wall_s": r["wall_s"], "sizes": r["sizes"] or {}}
              for n, r in doc["stages"].items()}        # sizes: what cost.py scales them by
    return {"note": note, "measured": time.strftime("%Y-%m-%d", time.gmtime()),  # time says nothing
            "stages": stages, "commands": commands, "papers": paper_totals(doc["stages"]),
            "all_stages_s": round(sum(r["wall_s"] for r in doc["stages"].values()), 1)}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["run"]:
        flag = argv[2:3] == ["--rebuild-on-failure"]
        rest = argv[3 + flag:]
        if len(argv) < 4 + flag or argv[2 + flag] != "--" or not rest:
            print("usage: python -m lib.companion.timings run NAME [--rebuild-on-failure] -- "
                  "CMD ...", file=sys.stderr)
            return 2
        return run_timed(argv[1], rest, rebuild_on_failure=flag)
    parser = argparse.ArgumentParser(prog="python -m lib.companion.timings",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"snapshot into {SNAPSHOT.name}")
    parser.add_argument("--note", default="",
                        help="the machine and load it was measured on (the times table's first "
                             "line reads 'Measured <date>: <note>.')")
    parser.add_argument("--ran", metavar="NAME",
                        help="only the stages the timed command NAME ran (make repro's end)")
    args = parser.parse_args(argv)
    if args.write:
        if not args.note:
            parser.error("--write needs --note (the machine and load the times were taken on)")
        SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        SNAPSHOT.write_text(json.dumps(snapshot(args.note), indent=1) + "\n")
        print(f"wrote {SNAPSHOT.relative_to(paths.ROOT)}")
    doc = collect()
    if args.ran:
        ran = ran_during(doc, args.ran)
        if ran is None:
            print(f"{args.ran} has no timed run: the table of every stage's last run follows")
        elif not ran:
            print(f"no notebook stage ran in {args.ran}: its outputs were up to date "
                  "(`python -m lib.companion.timings` lists every stage's last run)")
            return 0
        else:
            print(f"the {len(ran)} notebook stage(s) {args.ran} ran (`python -m "
                  "lib.companion.timings` lists every stage's last run):")
        print(table(doc, ran))
        return 0
    print(table(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
