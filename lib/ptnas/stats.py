"""Rank statistics of the miniature: Kendall τ-b, Spearman ρ and partial Kendall τ."""
from __future__ import annotations

import numpy as np
from scipy import stats


def kendall_tau(a: np.ndarray, b: np.ndarray) -> float:
    """Kendall τ-b of two score vectors (ties handled as scipy does)."""
    return float(stats.kendalltau(np.asarray(a), np.asarray(b)).statistic)


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman ρ of two score vectors."""
    return float(stats.spearmanr(np.asarray(a), np.asarray(b)).statistic)


def partial_kendall(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> float:
    """Kendall's partial τ of x and y given z: (τxy − τxz τyz) / √((1 − τxz²)(1 − τyz²))."""
    txy, txz, tyz = kendall_tau(x, y), kendall_tau(x, z), kendall_tau(y, z)
    return (txy - txz * tyz) / np.sqrt((1 - txz ** 2) * (1 - tyz ** 2))
