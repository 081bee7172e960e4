"""Timing for bench/ scripts: medians of repeated runs, written to results/bench/<name>.json.

Benchmarks compare a kernel with its naive reference on the same inputs after checking that
they agree (`compare`); tests never time anything. Repeats alternate between the runs so that
load on a shared machine falls on both alike.
"""
from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Callable

from lib.companion import paths


def median_times(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median wall time in seconds of each run over `repeats` alternating repetitions."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(ts) for name, ts in times.items()}


def compare(name: str, kernel: str, runs: dict[str, Callable[[], object]],
            agree: Callable[[object, object], bool], repeats: int, **meta) -> dict:
    """The common benchmark: `runs` holds the reference, then the fast kernel. Refuses to time
    kernels whose outputs `agree` rejects; writes medians and the reference/fast ratio."""
    (ref, run_ref), (fast, run_fast) = runs.items()
    if not agree(run_ref(), run_fast()):
        raise SystemExit(f"{name}: {ref} and {fast} disagree: not timing a wrong kernel")
    medians = median_times(runs, repeats)
    ratio = f"ratio_{ref}_over_{fast}"
    out = {"kernel": kernel, "repeats": repeats, **meta, "median_s": medians,
           ratio: medians[ref] / medians[fast]}
    target = write(name, out)
    print(f"{ref} {medians[ref]:.3f} s, {fast} {medians[fast]:.3f} s, "
          f"ratio {out[ratio]:.1f}x -> {target}")
    return out


def write(name: str, result: dict) -> Path:
    """Write one benchmark's result as results/bench/<name>.json and return the path."""
    target = paths.RESULTS / "bench" / f"{name}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    return target
