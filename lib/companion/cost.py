"""A plan before a run (issue 45): per stage of a profile, its sweep jobs and an estimate of its CPU
hours, scaled from the default profile's measured time by the sizes its schema declares (COST).

    python -m lib.companion.cost [--profile paper] [--paper P ...]   # `make plan PROFILE=paper`
    python -m lib.companion.cost --profile paper --guide              # the guide's table

A stage's estimate is its last default-profile wall time (results/timings/<paper>__<stem>.json)
times the cores that run kept busy (its `workers` when its grid ran on local processes), times
the product over its COST keys of (this profile's value / the timed run's value): cost linear in
each, as the runner's own budget check assumes. A COST key may be a property that counts fields
(ptnas's space size); the fields it counts, the schema's COST_INPUTS, are then in the scale. Sizes
the schema does not declare (widths, lengths, a model's depth) are not in the scale, so the
estimate of a stage whose profile grows them is low: such a row says so. Where no default timing
exists, or a timed size is zero, the row says that instead of a number. Wall hours divide the CPU
hours over min(jobs, workers) for a sweep.
"""
from __future__ import annotations

import argparse
import functools
import json
import sys
from dataclasses import dataclass

from lib.companion import generate, guide, papers, params

WRITER = "python -m lib.companion.cost --profile paper --guide"   # the guide block's marker


@dataclass
class Row:
    """One stage's plan: jobs, executor, the timed default run, the scale and the estimate."""

    notebook: str
    jobs: int
    executor: str
    workers: int
    measured_s: float | None
    scale: float | None
    cpu_h: float | None
    wall_h: float | None
    note: str


def jobs(cfg: params.NotebookParams) -> int:
    """The independent runs a notebook's grid hands to the sweep engine (1: one in-process run)."""
    counted = getattr(cfg, "jobs", None)
    return int(counted()) if callable(counted) else 1


def executor_of(cfg: params.NotebookParams) -> tuple[str, int]:
    """Where a notebook's grid runs and how many runs at once (`inline`, 1 without a grid)."""
    kind = getattr(cfg, "executor", getattr(cfg, "sweep_executor", "inline"))
    return kind, int(getattr(cfg, "workers", 1)) if kind in ("local", "slurm") else 1


def timed(notebook: str) -> dict | None:
    """The notebook's last timed default-profile run on this machine, or None."""
    from lib.companion import runner  # deferred: it imports papermill's stack
    try:
        doc = json.loads(runner.timing_file(notebook).read_text())
    except (OSError, ValueError):
        return None
    return doc if doc.get("profile") == "default" and "wall_s" in doc else None


@functools.lru_cache(maxsize=1)
def schema_defaults() -> dict:
    """The parameters as the schemas give them (what the committed times were measured with)."""
    return generate.defaults()


def committed(notebook: str) -> dict | None:
    """The notebook's time in docs/timings.json (the committed default-profile measurement),
    with the sizes it was measured at: recorded there, else the schema's default ones."""
    from lib.companion import runner, timings
    try:
        entry = json.loads(timings.SNAPSHOT.read_text())["stages"][notebook]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(entry, dict) or entry.get("profile") != "default":
        return None
    sizes = entry.get("sizes") or runner.sizes(params.validate(
        notebook, params.merge(schema_defaults(), notebook, "default")))
    return {**entry, "sizes": sizes}


def committed_estimate_s(notebook: str, raw: dict) -> float | None:
    """A notebook stage's wall seconds here: its committed time (docs/timings.json) scaled by
    its sizes in the params files' profile (`raw`); None without a committed time."""
    row = plan_row(notebook, raw.get("profile", "default"), raw, committed(notebook))
    return None if row.wall_h is None else row.wall_h * 3600


def plan_row(notebook: str, profile: str, raw: dict | None = None,
             doc: dict | None = None) -> Row:
    """The plan of one stage in `profile` (its values as the params files hold them; `raw`: the
    params files already read), scaled from `doc` (a timed default-profile run; default: the
    last one on this machine)."""
    from lib.companion import runner
    raw = params.read_all() if raw is None else raw
    cfg, base = (params.validate(notebook, params.merge(raw, notebook, p, None))
                 for p in (profile, "default"))
    kind, workers = executor_of(cfg)
    n_jobs = jobs(cfg)
    row = Row(notebook, n_jobs, kind, workers, None, None, None, None, "")
    doc = timed(notebook) if doc is None else doc
    if doc is None:
        row.note = "no default-profile timing (run the stage once: make repro)"
        return row
    now, then = runner.sizes(cfg), doc.get("sizes") or {}
    if set(now) != set(then):
        row.note = "the timed run's sizes are not the schema's COST keys (re-time it)"
        return row
    zero = [k for k, v in then.items() if v <= 0]
    if zero:
        row.note = f"timed with {', '.join(zero)} = 0: no scale"
        return row
    row.measured_s = float(doc["wall_s"])
    row.scale = runner.scale(now, then)
    busy = executor_of(base)[1]                    # cores the timed default run kept busy
    row.cpu_h = row.measured_s * busy * row.scale / 3600
    row.wall_h = row.cpu_h / max(1, min(n_jobs, workers))
    counted = set(now) | set(getattr(type(cfg), "COST_INPUTS", ()))   # in the scale
    unscaled = sorted(k for k in cfg.section_keys()
                      if k not in counted and getattr(cfg, k) != getattr(base, k)
                      and k not in ("executor", "workers", "sweep_executor", "device"))
    if unscaled:
        row.note = f"also changed, not in the scale: {', '.join(unscaled)}"
    return row


def plan(profile: str, paper_names: list[str] | None = None) -> list[Row]:
    """Every stage of the named papers (all when none), in declaration order."""
    chosen = [papers.paper(p) for p in paper_names] if paper_names else papers.all_papers()
    raw = params.read_all()
    return [plan_row(n, profile, raw) for p in chosen for n in p.notebook_ids()]


def hours(value: float | None) -> str:
    return "-" if value is None else f"{value:,.2f}" if value < 100 else f"{value:,.0f}"


def table(rows: list[Row], profile: str, markdown: bool = False) -> str:
    """The plan as a text table (or a Markdown one), with the total over the stages estimated."""
    head = ["stage", "jobs", "executor", "default s", "scale", "CPU h", "wall h", "note"]
    body = [[r.notebook, str(r.jobs), f"{r.executor} x{r.workers}" if r.workers > 1 else r.executor,
             "-" if r.measured_s is None else f"{r.measured_s:.0f}",
             "-" if r.scale is None else f"{r.scale:,.3g}", hours(r.cpu_h), hours(r.wall_h),
             r.note] for r in rows]
    known = [r for r in rows if r.cpu_h is not None]
    missing = len(rows) - len(known)
    body.append([f"total ({profile}, {len(known)} of {len(rows)} stages estimated)",
                 str(sum(r.jobs for r in rows)), "", "", "",
                 hours(sum(r.cpu_h for r in known)), hours(sum(r.wall_h for r in known)),
                 f"{missing} stage(s) without an estimate" if missing else ""])
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        return "\n".join(lines + ["| " + " | ".join(c.replace("|", "\\|") for c in b) + " |"
                                  for b in body])
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head) - 1)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(x, widths)) + "  " + x[-1]
                     for x in [head, *body]).rstrip()


def write_guide(text: str) -> None:
    """Replace the table between the cost-plan markers of the guide's page on sweeps
    (docs/guide/sweeps.md)."""
    page = guide.page("sweeps")
    try:
        page.write_text(generate.with_block(page.read_text(), "cost-plan", text, by=WRITER,
                                            where=generate.rel(page)))
    except (OSError, ValueError) as err:
        raise SystemExit(str(err)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.cost",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="paper", choices=params.PROFILES)
    parser.add_argument("--paper", action="append", default=None,
                        help="a declared paper (repeatable; default: all)")
    parser.add_argument("--guide", action="store_true",
                        help="write the Markdown table into docs/guide/sweeps.md between its "
                             "markers")
    args = parser.parse_args(argv)
    for name in args.paper or []:
        if name not in papers.names():
            parser.error(f"--paper {name!r}: allowed: one of {', '.join(papers.names())}")
    rows = plan(args.profile, args.paper)
    if args.guide:
        write_guide(table(rows, args.profile, markdown=True))
    print(table(rows, args.profile))
    return 0


if __name__ == "__main__":
    sys.exit(main())
