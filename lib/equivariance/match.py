"""Neuron matching: the layer-by-layer recursion of spec §1.7 step 2 and §5.2.

`match_rows(A, B, kind)` finds the monomial k with A ≈ k B (rows = neurons, bias appended as the
last column) by a Hungarian assignment on a kind-specific cost. It returns k, the relative
residual ||A - k B||_F / ||B||_F and the assignment gap (smallest per-row margin between the
best and second-best candidate, relative): a gap near 0 flags ties, i.e. a non-trivial stabilizer.
`relate(theta, theta2, kind)` solves theta2 = k.theta layer by layer.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from lib.equivariance.mlp import Theta
from lib.equivariance.sym import Monomial


def _unit(M: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    norms = np.linalg.norm(M, axis=1)
    return M / np.where(norms > 0, norms, 1.0)[:, None], norms


def _sqdist(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """(rows of A, rows of B) squared distances, (d, d)."""
    return np.maximum((A ** 2).sum(1)[:, None] + (B ** 2).sum(1)[None, :] - 2 * A @ B.T, 0.0)


def cost_matrix(A: np.ndarray, B: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """cost[j, l] of sending row l of B to row j of A, and the sign to use for that pair."""
    if kind == "perm":
        return _sqdist(A, B), np.ones((len(A), len(B)))
    if kind == "signed_perm":
        plus, minus = _sqdist(A, B), _sqdist(A, -B)
        return np.minimum(plus, minus), np.where(minus < plus, -1.0, 1.0)
    if kind == "pos_monomial":
        Au, _ = _unit(A)
        Bu, _ = _unit(B)
        return _sqdist(Au, Bu), np.ones((len(A), len(B)))
    if kind == "monomial":
        Au, _ = _unit(A)
        Bu, _ = _unit(B)
        plus, minus = _sqdist(Au, Bu), _sqdist(Au, -Bu)
        return np.minimum(plus, minus), np.where(minus < plus, -1.0, 1.0)
    raise ValueError(f"unknown matching kind {kind!r}")


def match_rows(A: np.ndarray, B: np.ndarray, kind: str) -> tuple[Monomial, float, float]:
    """k with A ≈ k B, the relative residual and the assignment gap."""
    cost, sign = cost_matrix(A, B, kind)
    rows, cols = linear_sum_assignment(cost)                  # rows = arange(d)
    perm = cols
    scale = sign[rows, cols]
    if kind in ("pos_monomial", "monomial"):
        nb = np.linalg.norm(B[perm], axis=1)
        scale = scale * np.linalg.norm(A, axis=1) / np.where(nb > 0, nb, 1.0)
    k = Monomial(perm, scale)
    residual = float(np.linalg.norm(A - k.left(B)) / max(np.linalg.norm(B), 1e-300))
    gap = assignment_gap(cost, perm)
    return k, residual, gap


def assignment_gap(cost: np.ndarray, perm: np.ndarray) -> float:
    """min over rows of (second-best cost - assigned cost), relative to the median cost."""
    if cost.shape[1] < 2:
        return float("inf")
    d = len(perm)
    assigned = cost[np.arange(d), perm]
    other = cost.copy()
    other[np.arange(d), perm] = np.inf
    scale = max(float(np.median(cost)), 1e-300)
    return float(np.min(other.min(axis=1) - assigned) / scale)


@dataclass
class Relation:
    """Result of relate: latent symmetries, per-layer residuals and gaps, final consistency."""

    ks: list[Monomial]
    residuals: list[float]
    gaps: list[float]
    final_residual: float

    @property
    def max_residual(self) -> float:
        return max(self.residuals + [self.final_residual])


def relate(theta: Theta, theta2: Theta, kind: str) -> Relation:
    """Solve theta2 = k.theta layer by layer: [W2_i k_{i-1}, b2_i] = k_i [W_i, b_i]; the last
    layer is the consistency check W2_L k_{L-1} = W_L, b2_L = b_L (spec §1.7 step 2)."""
    ks, res, gaps = [], [], []
    prev = None
    L = len(theta)
    for i in range(L):
        W2, b2 = theta2[i]
        W, b = theta[i]
        W2k = W2 if prev is None else prev.right(W2)
        if i == L - 1:
            final = float(np.linalg.norm(np.column_stack([W2k - W, b2 - b]))
                          / max(np.linalg.norm(np.column_stack([W, b])), 1e-300))
            break
        k, r, gap = match_rows(np.column_stack([W2k, b2]), np.column_stack([W, b]), kind)
        ks.append(k)
        res.append(r)
        gaps.append(gap)
        prev = k
    return Relation(ks, res, gaps, final)


def stabilizer_order(theta: Theta, kind: str, atol: float = 1e-12) -> int:
    """#{k in K_1 : k.theta = theta} for a one-hidden-layer net, by brute force over all signed
    permutations (tanh) or permutations (others) of a hidden layer of width <= 7; positive
    scalings other than 1 never fix a row with a nonzero entry, so ReLU reduces to permutations."""
    import itertools

    W, b = theta[0]
    R = np.column_stack([W, b])
    C = theta[1][0]
    signs = [(1.0, -1.0)] * len(R) if kind == "signed_perm" else [(1.0,)] * len(R)
    count = 0
    for perm in itertools.permutations(range(len(R))):
        p = np.array(perm)
        for s in itertools.product(*signs):
            s = np.array(s)
            if (np.abs(s[:, None] * R[p] - R).max() <= atol
                    and np.abs(C[:, p] * s[None, :] - C).max() <= atol):
                count += 1
    return count
