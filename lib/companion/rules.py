"""The decision rules several papers' claims use, written once.

Each is a pure function of measured numbers; the thresholds (a seed share, a margin, bounds) are
the caller's, fixed in its paper's decisions module. tests/test_rules.py checks each by hand.
"""
from __future__ import annotations

from collections.abc import Sequence

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
