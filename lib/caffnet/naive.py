"""Plain references for lib/caffnet/projection.py: one instance and one subset at a time, numpy
and scipy in float64 (spec §4). `lstsq` gives the min-norm correction A_g^+ (A_g f - b_g) and
`null_space` an orthonormal basis Z of ker A_g, so (I - A_g^+ A_g) w = Z Z^T w: factorizations
independent of the fast path's batched torch pinv."""
from __future__ import annotations

from itertools import combinations

import numpy as np
from scipy.linalg import lstsq, null_space

from lib.caffnet.projection import FAR, TOL


def caffine_project(f: np.ndarray, w: np.ndarray, A: np.ndarray, b: np.ndarray,
                    tol: float = TOL) -> np.ndarray:
    """Output of the layer for f, w (B, n), A (B, m, n), b (B, m), looping over everything."""
    B, m, n = A.shape
    out = np.full((B, n), np.nan)
    for i in range(B):
        cands = [f[i]]
        for k in range(1, min(m, n) + 1):
            for g in combinations(range(m), k):
                Ag, bg = A[i, list(g)], b[i, list(g)]
                corr = lstsq(Ag, Ag @ f[i] - bg, cond=1e-10)[0]
                Z = null_space(Ag, rcond=1e-10)
                cands.append(f[i] - corr + Z @ (Z.T @ w[i]))
        best, best_d = None, np.inf
        for c in cands:
            d = np.linalg.norm(c - f[i]) + (0.0 if np.all(A[i] @ c - b[i] < tol) else FAR)
            if d < best_d:
                best, best_d = c, d
        out[i] = best
    assert np.isfinite(out).all()
    return out


def hardnet_project(y: np.ndarray, A: np.ndarray, b_l: np.ndarray, b_u: np.ndarray) -> np.ndarray:
    """HardNet-Aff per sample: y + lstsq(A, c) with c = ReLU(b_l - A y) - ReLU(A y - b_u)."""
    out = np.full_like(y, np.nan)
    for i in range(y.shape[0]):
        Ai = A[i] if A.ndim == 3 else A
        Ay = Ai @ y[i]
        c = np.maximum(b_l[i] - Ay, 0) - np.maximum(Ay - b_u[i], 0)
        out[i] = y[i] + np.linalg.lstsq(Ai, c, rcond=None)[0]
    return out
