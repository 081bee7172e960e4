"""The decision rules several papers' claims use, written once.

Each is a pure function of measured numbers; the thresholds (a seed share, a margin, bounds) are
the caller's, fixed in its paper's decisions module. tests/test_rules.py checks each by hand.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


def seeds_needed(n_seeds: int, share: tuple[int, int]) -> int:
    """Seeds that must agree out of n: ceil(num n / den), a spec's "num of den seeds" generalised
    (integer arithmetic, so no rounding at exact multiples)."""
    num, den = share
    return -(-num * n_seeds // den)


def nonempty_finite(values: Sequence[float], what: str) -> np.ndarray:
    """values as a float array, refused when empty (a claim over nothing cannot fail) or when
    any entry is NaN or infinite (it would decide by accident)."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        raise ValueError(f"no {what} to decide on: a claim over nothing cannot fail")
    if not np.isfinite(arr).all():
        raise ValueError(f"{what} holds non-finite values: {arr.tolist()}")
    return arr


def within(value: float, lo: float, hi: float) -> bool:
    """lo <= value <= hi, closed at both ends."""
    return lo <= value <= hi


def not_worse(value: float, baseline: float, margin: float = 0.0) -> bool:
    """A lower-is-better value at most `margin` above the baseline's."""
    return bool(value <= baseline + margin)


def beyond(diffs: Sequence[float], k: float = 2.0, min_n: int = 3) -> bool:
    """Paired differences (oriented so that positive is the stated direction) shown positive:
    at least `min_n` of them and their mean more than k standard errors above zero."""
    d = nonempty_finite(diffs, "paired differences")
    if d.size < min_n:
        return False
    se = d.std(ddof=1) / np.sqrt(d.size)
    return bool(d.mean() - k * se > 0)


def opposite_beyond(diffs: Sequence[float], k: float = 2.0, min_n: int = 3) -> bool:
    """The stated direction's opposite shown: the differences' mean more than k standard errors
    below zero, over at least `min_n` of them (the power condition of a statistical deviation)."""
    return beyond(-nonempty_finite(diffs, "paired differences"), k, min_n)


def tail(curve: Sequence[float], share: float = 0.25) -> np.ndarray:
    """The last `share` of a curve (at least one point): what a final value is decided on."""
    c = nonempty_finite(curve, "curve points")
    return c[len(c) - max(1, int(round(share * len(c)))):]


def tail_median(curve: Sequence[float], share: float = 0.25) -> float:
    """The median of a curve's last quarter: a noisy curve's final value, never its last point."""
    return float(np.median(tail(curve, share)))


def converged(curve: Sequence[float], share: float = 0.25, rel: float = 0.05) -> bool:
    """A falling curve (a loss, an error) has stopped falling: over its last `share`, the median of
    the second half is not more than `rel` below the first half's. An arm that fails this has not
    trained, and a comparison it carries is inconclusive."""
    t = tail(curve, share)
    if t.size < 4:
        raise ValueError(f"a curve of {len(curve)} points has too short a tail to tell "
                         "convergence: record more points")
    half = t.size // 2
    first, second = float(np.median(t[:half])), float(np.median(t[half:]))
    return second >= first - rel * abs(first)


def evidence(samples: Sequence, decide: Callable[[Any], Any], single: str) -> dict:
    """A claim's evidence arguments (for `ledger.statistical(..., **evidence(...))`): the
    replicates with the rule deciding on them when there are two or more (the ledger resamples
    them for the decision's stability), else the rule's decision on the one replicate and what it
    rests on (`single`, e.g. "one seed (seed 0)": a profile that runs one seed)."""
    if len(samples) == 0:
        raise ValueError("no replicates to decide on: a claim over nothing cannot fail")
    if len(samples) >= 2:
        return {"samples": samples, "decide": decide}
    return {"holds": bool(decide(samples)), "rests_on": single}


def evidence_by_index(n: int, decide: Callable[[np.ndarray], Any],
                      what: str = "replicate") -> dict:
    """`evidence` for replicates held in several arrays at once: their indices 0..n-1 are the
    samples, and `decide` gets the indices a resample drew (one array of them)."""
    rows = np.arange(n)[:, None]                              # (n, 1): the ledger resamples rows
    return evidence(rows, lambda i: bool(decide(i[:, 0])),
                    f"one {what} (the profile's only one)")
