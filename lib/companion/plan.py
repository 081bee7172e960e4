"""What `make repro` would run, in order, without running it, as a table: each stage, why it would
run, and its estimated seconds.

    python -m lib.companion.plan [TARGET ...]      # `make plan [PAPER=<paper>]`

The stages are those `dvc repro --dry` lists, made to work on a fresh clone: DVC 3's dry run first
asks its run cache whether it could restore each stage, which hashes every dependency, and aborts
on the first one missing (treeverse/dvc#9818): on a fresh clone, the first notebook stage, whose
params stamp (results/params/) is not there yet. No notebook stage can come from the run cache
anyway (their outputs persist), so here a stage with a missing dependency is simply one the run
cache cannot restore, and the plan goes on. Why: what `dvc status` says of the stage, in words
(its parameters, its notebook, the infrastructure, missing outputs...). Seconds: the stage's time
in docs/timings.json (the committed measurement) scaled by the sizes its schema says its cost
grows with, as lib.companion.cost scales a profile (the root stages take seconds, the book about
a minute; they are not in the table of times).
"""
from __future__ import annotations

import logging
import sys
from dataclasses import dataclass

from lib.companion import cost, papers, parallel, params, paths, timings

WIDTH = 100                       # a terminal's columns the table fits


@dataclass
class Step:
    """One stage the plan would run: its name as shown, why, and its estimated seconds."""

    stage: str
    why: str
    seconds: float | None


def would_run(targets: list[str]) -> list[tuple[str, str]]:
    """The DVC stages `dvc repro --dry` would run for `targets` (all when none), in order, each
    with why (`why`)."""
    from dvc.repo import Repo
    from dvc.stage import cache

    can_hash = cache._can_hash

    def can_hash_present(stage) -> bool:
        if any(dep.protocol == "local" and not dep.exists for dep in stage.deps):
            return False
        return can_hash(stage)

    cache._can_hash = can_hash_present
    logging.getLogger("dvc").setLevel(logging.WARNING)    # its "Running stage" lines: the table's
    try:
        with Repo(str(paths.ROOT)) as repo:
            stages = list(repo.reproduce(targets or None, dry=True))
            with repo.lock:
                return [(stage.addressing, why(stage)) for stage in stages]
    finally:
        cache._can_hash = can_hash


def what(path: str) -> str:
    """A dependency of a stage, in words (files of one folder of lib/ are one group)."""
    if path.startswith("results/params/"):
        return "its parameters"
    if path == "results/infra.ok":
        return "the infrastructure"
    if path.startswith("notebooks/") and path.endswith(".py"):
        return "its notebook"
    if path.startswith("notebooks/") and path.endswith("paper.yaml"):
        return "a paper's declaration"
    if path.endswith("params.yaml"):
        return "a params file"
    if path.startswith("lib/"):
        return "/".join(path.split("/")[:2])
    return path


def grouped(paths_changed: list[str]) -> str:
    """Changed dependencies in words, each group once, with its count when more than one."""
    groups: dict[str, int] = {}
    for path in paths_changed:
        groups[what(path)] = groups.get(what(path), 0) + 1
    return ", ".join(f"{g} ({n} files)" if n > 1 and "/" in g else g for g, n in groups.items())


def why(stage) -> str:
    """Why DVC would run a stage, from its status, in a few words."""
    reasons: list[str] = []
    for change in next(iter(stage.status().values()), []):
        if change == "always changed":
            reasons.append("runs every time")
        elif isinstance(change, dict) and "changed outs" in change:
            outs = change["changed outs"].values()
            reasons.append("outputs missing" if all(s in ("deleted", "not in cache")
                                                   for s in outs) else "outputs changed")
        elif isinstance(change, dict) and "changed deps" in change:
            deps = change["changed deps"]
            if all(s == "deleted" for s in deps.values()):
                reasons.append("its inputs are made first")
            else:
                reasons.append("changed: " + grouped(list(deps)))
        elif isinstance(change, dict) and "changed command" in change:
            reasons.append("its command changed")
    if not reasons:
        return "an input an earlier stage makes"
    return "never run here" if "its command changed" in reasons and \
        "outputs missing" in reasons else "; ".join(dict.fromkeys(reasons))


def steps(targets: list[str]) -> list[Step]:
    """The plan: each stage that would run, why, and its estimate."""
    raw = params.read_all()
    out = []
    for address, reason in would_run(targets):
        notebook = parallel.notebook_of(address)
        out.append(Step(notebook or address, reason,
                        cost.committed_estimate_s(notebook, raw) if notebook else None))
    return out


def cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def table(plan: list[Step], jobs: int = timings.CORES) -> str:
    """The plan as a table that fits WIDTH columns, with the estimated total on `jobs` cores."""
    if not plan:
        return "nothing to run: every stage is up to date"
    name_w = min(36, max(len(s.stage) for s in plan))
    why_w = WIDTH - name_w - 12
    lines = [f"{'stage':<{name_w}}  {'why it would run':<{why_w}}  {'est. s':>7}"]
    for s in plan:
        secs = "-" if s.seconds is None else f"{s.seconds:,.0f}"
        lines.append(f"{cut(s.stage, name_w):<{name_w}}  {cut(s.why, why_w):<{why_w}}  "
                     f"{secs:>7}")
    known = [s.seconds for s in plan if s.seconds is not None]
    notebooks = sum(1 for s in plan if "/" in s.stage)
    lines += [f"{len(plan)} stage(s), {notebooks} of them notebooks: about "
              f"{timings.fmt_time(timings.on_cores(known, jobs))} on {jobs} workers"
              + (f" ({notebooks - len(known)} without a time)" if notebooks > len(known)
                 else ""),
              "est. s: docs/timings.json, scaled by each schema's sizes; '-': a root stage "
              "(seconds)"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    targets = sys.argv[1:] if argv is None else argv
    for target in targets:
        paper = target.split("/")[1] if target.startswith("notebooks/") else None
        if paper is not None and paper not in papers.names():
            print(f"target {target!r}: no paper {paper!r}", file=sys.stderr)
            return 2
    try:
        plan = steps(targets)
    except params.ParamsError as err:
        print(f"the parameters are invalid:\n{err}{params.where_held()}", file=sys.stderr)
        return 2
    print(table(plan))
    return 0


if __name__ == "__main__":
    sys.exit(main())
