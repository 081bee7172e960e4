"""Sampled rates with Wilson score intervals (issue 17: every sampled rate of notebooks 03 and 09).

A rate k/n from n independent trials is reported with the Wilson score interval at a stated
confidence level (`scipy.stats.binomtest(k, n).proportion_ci(method="wilson")`, the interval S1's
sensitivity audit prints at 95%). Where several intervals are read as one test (does every cell
contain its expected value?), the family is Bonferroni-corrected: each interval at level
1 - alpha / m for m cells.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import binomtest

LEVEL = 0.95      # one interval (S1 prints 95% Wilson intervals)


def wilson(k, n, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper Wilson bounds of k successes in n trials, elementwise over arrays."""
    k, n = np.broadcast_arrays(np.asarray(k), np.asarray(n))
    if not (0 < level < 1):
        raise ValueError(f"level {level} must lie strictly between 0 and 1")
    if (n < 1).any() or (k < 0).any() or (k > n).any():
        raise ValueError(f"need 0 <= k <= n and n >= 1; got k={k.tolist()}, n={n.tolist()}")
    lo, hi = np.empty(k.shape), np.empty(k.shape)
    for idx in np.ndindex(k.shape):
        ci = binomtest(int(k[idx]), int(n[idx])).proportion_ci(confidence_level=level,
                                                               method="wilson")
        lo[idx], hi[idx] = ci.low, ci.high
    return lo, hi


def bonferroni_level(m: int, alpha: float = 0.05) -> float:
    """Per-interval level of a family of m intervals with family-wise error at most alpha."""
    if m < 1:
        raise ValueError(f"a family needs at least one interval, got m = {m}")
    return 1 - alpha / m


def with_wilson(df: pd.DataFrame, k: str, n: str, prefix: str,
                level: float = LEVEL) -> pd.DataFrame:
    """df with columns <prefix>_wilson_lo / _hi for the rate df[k] / df[n] (a copy)."""
    out = df.copy()
    out[f"{prefix}_wilson_lo"], out[f"{prefix}_wilson_hi"] = wilson(out[k].to_numpy(),
                                                                    out[n].to_numpy(), level)
    return out
