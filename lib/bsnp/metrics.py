"""Evaluation metrics of the release (spec §1.6): MNSE, Gaussian NLL, ECP, reliability curve."""
from __future__ import annotations

import numpy as np
from scipy import stats


def mnse(mu: np.ndarray, y: np.ndarray, batch: int = 50) -> float:
    """sum (mu - y)^2 / sum y^2 pooled over consecutive batches of tasks, averaged over batches.
    mu, y: (T, N)."""
    err = ((mu - y) ** 2).sum(1)
    ref = (y ** 2).sum(1)
    starts = range(0, len(y), batch)
    return float(np.mean([err[s:s + batch].sum() / ref[s:s + batch].sum() for s in starts]))


def gaussian_nll(mu: np.ndarray, var: np.ndarray, y: np.ndarray) -> float:
    """Mean of -log N(y; mu, var) over all points."""
    return float(np.mean(0.5 * np.log(2 * np.pi * var) + 0.5 * (y - mu) ** 2 / var))


def ecp(mu: np.ndarray, sd: np.ndarray, y: np.ndarray, level: float = 0.9) -> float:
    """Share of points inside the central `level` band mu +- z sd (z = 1.645 at 0.9)."""
    z = stats.norm.ppf(0.5 + level / 2)
    return float(np.mean(np.abs(y - mu) <= z * sd))


def reliability_curve(mu: np.ndarray, sd: np.ndarray, y: np.ndarray,
                      levels: np.ndarray) -> np.ndarray:
    """Empirical coverage at each nominal level: (len(levels),)."""
    return np.array([ecp(mu, sd, y, float(lv)) for lv in levels])
