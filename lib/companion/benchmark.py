"""Timing for bench/ scripts: cost curves over a size axis, written to results/bench/<name>.json.

A benchmark runs a naive reference and our kernel (and any peer) side by side at each size of
its axis, after checking that they agree there (`curve`); tests never time anything. Repeats
alternate between the sides so that load on a shared machine falls on all alike. A side whose
time at one size passes the cap is not run at larger sizes: the cap is recorded, nothing is
extrapolated. glibc's fastbins are turned off first (`no_fastbins`): otherwise one side's many
small frees are coalesced at the next side's first larger allocation and billed to it (measured
on bsnp: its batched residual took 12 ms right after the finite-difference loop, 0.7 ms alone).
Each side's growth exponent is the least-squares slope of log time on log size
over the upper half of its measured sizes, and each point carries the time the machine's own
measured rates allow for the work it does (`Bound`, `machine`), so the gap is a number.
"""
from __future__ import annotations

import ctypes
import json
import math
import os
import statistics
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Callable

import numpy as np

from lib.companion import paths

Run = Callable[[], object]


def median_times(runs: dict[str, Run], repeats: int) -> dict[str, float]:
    """Median wall time in seconds of each run over `repeats` alternating repetitions."""
    return {name: statistics.median(ts) for name, ts in _samples(runs, repeats).items()}


@dataclass(frozen=True)
class Bound:
    """The work one run does: floating-point operations (in `dtype`, float64 or float32) and
    bytes it must move at least."""

    flops: float = 0.0
    bytes: float = 0.0
    dtype: str = "float64"

    def seconds(self, rates: dict) -> float:
        """The least time this work takes at the machine's measured one-thread rates."""
        gemm = rates["gemm32_flops_per_s" if self.dtype == "float32" else "gemm_flops_per_s"]
        return max(self.flops / gemm, self.bytes / rates["copy_bytes_per_s"])


@cache
def machine() -> dict:
    """This machine's one-thread rates, measured now: float64 and float32 GEMM (n = 1024,
    torch) and a 64 MiB numpy copy (read + write). The benchmarks run on one thread (the house
    rule), so a kernel's bound is against one core; `cores` says how many the machine has."""
    import torch
    from threadpoolctl import threadpool_limits
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    gemm = {}
    for dtype in (torch.float64, torch.float32):
        a = torch.randn(1024, 1024, dtype=dtype)
        gemm[dtype] = 2 * 1024**3 / median_times({"gemm": lambda: a @ a}, 5)["gemm"]
    torch.set_num_threads(threads)
    src = np.ones(8 * 2**20)
    dst = np.empty_like(src)
    with threadpool_limits(1):
        copy = median_times({"copy": lambda: np.copyto(dst, src)}, 5)["copy"]
    return {"gemm_flops_per_s": gemm[torch.float64], "gemm32_flops_per_s": gemm[torch.float32],
            "copy_bytes_per_s": 2 * src.nbytes / copy, "cores": os.cpu_count()}


def no_fastbins() -> None:
    """mallopt(M_MXFAST, 0) where the C library is glibc, so each side pays for its own frees;
    elsewhere nothing (the allocator differs and so does the effect)."""
    try:
        ctypes.CDLL(None).mallopt(1, 0)          # M_MXFAST = 1
    except (AttributeError, OSError):
        pass


def aten_ops(run: Run) -> int:
    """How many aten ops `run` dispatches (every op torch executes, nested ones included),
    counted by a TorchDispatchMode: with `tiny_op_s`, the dispatch floor of a run of tiny ops."""
    from torch.utils._python_dispatch import TorchDispatchMode  # a private module of torch

    class Count(TorchDispatchMode):
        ops = 0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            Count.ops += 1
            return func(*args, **(kwargs or {}))

    with Count():
        run()
    return Count.ops


def tiny_op_s(shape: tuple[int, ...] = (32, 32), dtype: str = "float32") -> float:
    """Median time of one elementwise aten op (a * a) on a tensor of `shape`: what a kernel made
    of many such ops pays per op whatever the arithmetic."""
    import torch
    a = torch.ones(shape, dtype=getattr(torch, dtype))
    return median_times({"op": lambda: [torch.mul(a, a) for _ in range(1000)]}, 5)["op"] / 1000


def growth_exponent(sizes: list[float], seconds: list[float]) -> tuple[float | None, list]:
    """Slope of log time on log size over the upper half (geometrically) of the sizes, and the
    sizes it was fitted on; None with fewer than two such points."""
    if len(sizes) < 2:
        return None, []
    mid = math.sqrt(min(sizes) * max(sizes))
    pts = [(s, t) for s, t in zip(sizes, seconds) if s >= mid]
    if len(pts) < 2:
        pts = list(zip(sizes, seconds))[-2:]
    x, y = np.log([p[0] for p in pts]), np.log([p[1] for p in pts])
    return float(np.polyfit(x, y, 1)[0]), [pts[0][0], pts[-1][0]]


def _samples(runs: dict[str, Run], repeats: int) -> dict[str, list[float]]:
    """`repeats` alternating wall-time samples of each side."""
    samples: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name in runs:
            start = time.perf_counter()
            runs[name]()
            samples[name].append(time.perf_counter() - start)
    return samples


def curve(axis: str, sizes: list[int], prepare: Callable[[int], dict[str, Run]],
          agree: Callable[[object, object], bool], *, repeats: int = 3, cap_s: float = 2.0,
          bound: Callable[[int, str], Bound] | None = None, label: str = "") -> dict:
    """Time every side that `prepare(size)` returns (reference first) at each size, ascending.

    At each size every live side runs once and each is checked against the first live one with
    `agree(first_output, output)`: a disagreement stops the benchmark before anything is timed.
    A side whose median passes `cap_s` (or whose checking run alone does) is recorded there and
    not run at larger sizes. `bound(size, side)` gives the work of one run, for the bound time.
    """
    no_fastbins()
    rates = machine() if bound else None
    sides: dict[str, dict] = {}
    capped: dict[str, int] = {}
    checked = []
    for size in sorted(sizes):
        runs = {k: v for k, v in prepare(size).items() if k not in capped}
        if not runs:
            break
        outputs, first = {}, {}
        for name, run in runs.items():
            start = time.perf_counter()
            outputs[name] = run()
            first[name] = time.perf_counter() - start
        ref = next(iter(runs))
        for name in list(runs)[1:]:
            if not agree(outputs[ref], outputs[name]):
                raise SystemExit(f"{label or axis} = {size}: {ref} and {name} disagree: "
                                 "not timing a wrong kernel")
        if len(runs) > 1:
            checked.append(size)
        over = {name for name, t in first.items() if t > cap_s}
        samples = _samples({k: v for k, v in runs.items() if k not in over}, repeats)
        for name in runs:
            med = first[name] if name in over else statistics.median(samples[name])
            side = sides.setdefault(name, {"sizes": [], "median_s": [], "samples": [],
                                           "bound_s": []})
            side["sizes"].append(size)
            side["median_s"].append(med)
            side["samples"].append(1 if name in over else repeats)
            if bound:
                side["bound_s"].append(bound(size, name).seconds(rates))
            if med > cap_s:
                capped[name] = size
        print(f"{label or 'curve'} {axis}={size}: " +
              ", ".join(f"{k} {sides[k]['median_s'][-1]:.3g} s" for k in runs) +
              (f" (capped: {', '.join(k for k in runs if k in capped)})"
               if any(k in capped for k in runs) else ""), flush=True)
    return summarise(axis, sorted(sizes), sides, capped, checked, cap_s, repeats)


def summarise(axis: str, sizes: list[int], sides: dict[str, dict], capped: dict[str, int],
              checked: list[int], cap_s: float, repeats: int) -> dict:
    """The curve's record: every point, each side's exponent, the ratio at the largest size
    where the reference and each other side were both timed."""
    for side in sides.values():
        side["exponent"], side["fit_sizes"] = growth_exponent(side["sizes"], side["median_s"])
        if not side["bound_s"]:
            del side["bound_s"]
    names = list(sides)
    ref = names[0]
    ratios, common = {}, {}
    for name in names[1:]:
        shared = sorted(set(sides[ref]["sizes"]) & set(sides[name]["sizes"]))
        if shared:
            at = shared[-1]
            t_ref = sides[ref]["median_s"][sides[ref]["sizes"].index(at)]
            t = sides[name]["median_s"][sides[name]["sizes"].index(at)]
            ratios[f"{ref}_over_{name}"], common[name] = t_ref / t, at
    return {"axis": axis, "reference": ref, "sizes": sizes, "cap_s": cap_s, "repeats": repeats,
            "sides": sides, "capped_after": capped, "agreement_checked_at": checked,
            "largest_common_size": common, "ratio_at_largest_common": ratios}


def write_curves(name: str, kernel: str, bound: str, curves: dict[str, dict], **meta) -> Path:
    """Write one benchmark (its curves, what they are bounded by, this machine's rates) as
    results/bench/<name>.json, print each curve's summary and return the path."""
    out = {"kernel": kernel, "bound": bound, "machine": machine(), **meta, "curves": curves}
    for label, c in curves.items():
        exps = ", ".join(f"{k} {fmt_exp(s['exponent'])}" for k, s in c["sides"].items())
        ref, ratio = c["reference"], c["ratio_at_largest_common"]
        ratios = ", ".join(f"{ref}/{side} {ratio[f'{ref}_over_{side}']:.3g}x at {c['axis']} = {at}"
                           for side, at in c["largest_common_size"].items())
        print(f"{label}: exponents {exps}; {ratios or 'no common size'}")
    target = write(name, out)
    print(f"-> {target}")
    return target


def fmt_exp(e: float | None) -> str:
    return "n/a" if e is None else f"{e:.2f}"


def write(name: str, result: dict) -> Path:
    """Write one benchmark's result as results/bench/<name>.json and return the path."""
    target = paths.RESULTS / "bench" / f"{name}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    return target
