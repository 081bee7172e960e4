"""Canonical forms of MLP parameters up to latent symmetries (spec §5.3, E2).

Layer by layer: undo the previous layer's k on the columns, then normalise each row
r_j = (W_i[j], b_i[j]) (tanh: sign so that u.r_j > 0; ReLU: divide by ||r_j||; GELU: nothing),
then sort rows by (u.r_j, v.r_j) for fixed pseudo-random vectors u, v. Returns theta_c and the k
with k.theta = theta_c. Sorting is fragile when keys are close: verify with matching.
"""
from __future__ import annotations

import numpy as np

from lib.equivariance.mlp import Theta
from lib.equivariance.sym import Monomial, apply_K

_KEY_SEED = 20260121   # fixed: the canonical form must not depend on the caller's randomness


def _keys(dim: int) -> tuple[np.ndarray, np.ndarray]:
    gen = np.random.default_rng(_KEY_SEED + dim)
    return gen.normal(size=dim), gen.normal(size=dim)


def canonicalize(theta: Theta, kind: str) -> tuple[Theta, list[Monomial]]:
    """(theta_c, k) with theta_c = k.theta in canonical form."""
    ks: list[Monomial] = []
    prev = None
    for i in range(len(theta) - 1):
        W, b = theta[i]
        if prev is not None:
            W = prev.right_inv(W)
        R = np.column_stack([W, b])                             # (d_i, d_{i-1} + 1)
        u, v = _keys(R.shape[1])
        if kind == "signed_perm":
            scale = np.where(R @ u < 0, -1.0, 1.0)
        elif kind == "pos_monomial":
            n = np.linalg.norm(R, axis=1)
            scale = 1.0 / np.where(n > 0, n, 1.0)
        elif kind == "perm":
            scale = np.ones(len(R))
        else:
            raise ValueError(f"no canonical form for kind {kind!r}")
        Rn = scale[:, None] * R
        order = np.lexsort((Rn @ v, Rn @ u))                    # primary key u.r
        prev = Monomial(order, scale[order])
        ks.append(prev)
    return apply_K(theta, ks), ks


def canonical_distance(theta: Theta, theta2: Theta, kind: str) -> float:
    """max relative distance between the canonical forms, layer by layer."""
    a, _ = canonicalize(theta, kind)
    b, _ = canonicalize(theta2, kind)
    return float(max(np.linalg.norm(np.column_stack([W - W2, c - c2]))
                     / np.linalg.norm(np.column_stack([W, c]))
                     for (W, c), (W2, c2) in zip(a, b)))
