"""Which basis functions each method selects (spec §3): sBayFDNN by its PIP, the plain FDNN by an
ad-hoc share of the largest column norm, FLM + lasso by its non-zero coefficients."""
from __future__ import annotations

import numpy as np

from lib.sbayfdnn import prior


def column_norm2(W1: np.ndarray) -> np.ndarray:
    """Squared norms of the first-layer columns: (..., W, J) -> (..., J)."""
    return (W1 ** 2).sum(-2)


def by_pip(W1: np.ndarray, lam: float, s0: float, s1: float, cut: float
           ) -> tuple[np.ndarray, np.ndarray]:
    """PIPs of the columns of W1 (W, J) and the mask PIP > cut."""
    q = prior.pip(column_norm2(W1), W1.shape[-2], lam, s0, s1)
    return q, q > cut


def by_share_of_max(W1: np.ndarray, rel: float) -> np.ndarray:
    """Mask of the columns with ||w_j||^2 >= rel * max_j ||w_j||^2 (the plain FDNN's rule)."""
    n2 = column_norm2(W1)
    return n2 >= rel * n2.max(-1, keepdims=True)


def by_nonzero(coef: np.ndarray) -> np.ndarray:
    """Mask of the non-zero lasso coefficients."""
    return coef != 0
