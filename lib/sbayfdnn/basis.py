"""The functional embedding of spec §1.2: clamped B-splines on [0, 1], basis scores by the
trapezoid rule, and the map from selected basis indices to merged intervals of [0, 1]."""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from scipy.interpolate import BSpline


def clamped_knots(J: int, degree: int) -> np.ndarray:
    """k+1 copies of each end point and J-k-1 equally spaced interior knots (J+k+1 in all)."""
    if J < degree + 1:
        raise ValueError(f"J = {J} basis functions need J >= degree + 1 = {degree + 1}")
    inner = np.linspace(0.0, 1.0, J - degree + 1)
    return np.r_[np.zeros(degree), inner, np.ones(degree)]


def bspline_basis(t: np.ndarray, J: int, degree: int) -> np.ndarray:
    """B_1..B_J of the given degree at the points t in [0, 1]: (len(t), J); t = 1 belongs to the
    last basis function (scipy's design matrix closes the last knot interval)."""
    return BSpline.design_matrix(np.asarray(t, float), clamped_knots(J, degree), degree).toarray()


def trapezoid_weights(t: np.ndarray) -> np.ndarray:
    """Weights w with sum_i w_i f(t_i) the trapezoid rule on the grid t."""
    dt = np.diff(t)
    w = np.zeros_like(t, dtype=float)
    w[:-1] += dt / 2
    w[1:] += dt / 2
    return w


def scores(X: np.ndarray, t: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Basis scores xi_ij = int X_i B_j dt by the trapezoid rule: X (..., T), B (T, J) -> (..., J).
    """
    return X @ (trapezoid_weights(t)[:, None] * B)


def support(j: int, knots: np.ndarray, degree: int) -> tuple[float, float]:
    """The support [t_j, t_{j+k+1}] of basis j (0-based)."""
    return float(knots[j]), float(knots[j + degree + 1])


def basis_support_intervals(selected: Iterable[int], knots: np.ndarray, degree: int
                            ) -> list[tuple[float, float]]:
    """Union of the supports of the selected bases, overlapping or touching intervals merged,
    in increasing order (spec §1.2 region estimate)."""
    merged: list[list[float]] = []
    for lo, hi in sorted(support(j, knots, degree) for j in set(selected)):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [(lo, hi) for lo, hi in merged]


def functional_weights(W1: np.ndarray, B: np.ndarray) -> np.ndarray:
    """beta_k(t) = sum_j W_kj B_j(t) for every unit k: W1 (units, J), B (T, J) -> (units, T)."""
    return W1 @ B.T
