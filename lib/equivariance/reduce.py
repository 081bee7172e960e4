"""Weak identifiability in practice: Sussmann-style report, reduction to the submodel and the
lift of latent actions (spec §1.4, §1.7 step 5, §2.1 reducibility conditions, §5.5).

A neuron is *inactive* if its outgoing column (or its incoming row with bias) vanishes, and
*redundant* with a kept neuron r if its incoming row (with bias) is s times row r, where
act(s z) = s act(z) (s = ±1 for tanh, s > 0 for ReLU, s = 1 otherwise). Reduction keeps one
representative per redundant cluster and records linear maps alpha (d x d~) and alpha*
(d~ x d) with alpha* alpha = I such that W_i = alpha_i W~_i alpha*_{i-1}, b_i = alpha_i b~_i,
i.e. theta = beta(theta~), whenever the outgoing columns of a cluster are proportional.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lib.equivariance.mlp import Theta


def _rows(theta: Theta, i: int) -> np.ndarray:
    W, b = theta[i]
    return np.column_stack([W, b])                              # (d_i, d_{i-1} + 1)


def pair_distances(R: np.ndarray, kind: str) -> np.ndarray:
    """Relative distance between rows, up to the symmetry of `kind` (inf on the diagonal)."""
    norms = np.linalg.norm(R, axis=1)
    if kind in ("pos_monomial", "monomial"):
        R = R / np.where(norms > 0, norms, 1.0)[:, None]
        norms = np.ones(len(R))
    dist = np.linalg.norm(R[:, None, :] - R[None, :, :], axis=2)   # (d, d)
    if kind in ("signed_perm", "monomial"):
        dist = np.minimum(dist, np.linalg.norm(R[:, None, :] + R[None, :, :], axis=2))
    scale = np.maximum(norms[:, None], norms[None, :])
    dist = dist / np.where(scale > 0, scale, 1.0)
    np.fill_diagonal(dist, np.inf)
    return dist


def irreducibility_report(theta: Theta, kind: str) -> list[dict]:
    """Per hidden layer: min incoming norm, min outgoing norm (both relative to the layer's
    median) and min pairwise row distance up to symmetry. Small values flag reducibility."""
    out = []
    for i in range(len(theta) - 1):
        R = _rows(theta, i)
        inc = np.linalg.norm(R, axis=1)
        outg = np.linalg.norm(theta[i + 1][0], axis=0)
        out.append({"layer": i + 1, "width": len(R),
                    "min_in": float(inc.min() / np.median(inc)),
                    "min_out": float(outg.min() / np.median(outg)),
                    "min_pair": float(pair_distances(R, kind).min()) if len(R) > 1 else np.inf})
    return out


def _factor(r: np.ndarray, rep: np.ndarray, kind: str, tol: float) -> float | None:
    """s with r = s rep allowed by the kind, or None."""
    nrep = np.dot(rep, rep)
    if nrep == 0:
        return None
    s = float(np.dot(r, rep) / nrep)
    if kind == "perm" or kind == "gl":
        s = 1.0 if kind == "perm" else s
    elif kind == "signed_perm":
        s = float(np.sign(s)) if s != 0 else 1.0
    elif kind == "pos_monomial" and s <= 0:
        return None
    ok = np.linalg.norm(r - s * rep) <= tol * max(np.linalg.norm(r), np.linalg.norm(rep))
    return s if ok else None


@dataclass
class Reduction:
    """theta~ with alpha_i (d_i x d~_i) and alpha*_i (d~_i x d_i) per hidden layer."""

    small: Theta
    alphas: list[np.ndarray]
    alpha_stars: list[np.ndarray]
    removed_inactive: list[int]
    merged: list[int]
    column_residual: float                # > 0: some cluster's outgoing columns not proportional


def reduce(theta: Theta, kind: str, tol: float = 1e-9) -> Reduction:
    """Delete inactive neurons and merge redundant ones, layer by layer (spec §5.5)."""
    small = [(W.copy(), b.copy()) for W, b in theta]
    alphas, stars, n_dead, n_merged, col_res = [], [], [], [], 0.0
    for i in range(len(theta) - 1):
        R = _rows(small, i)
        Wn = small[i + 1][0]
        d = len(R)
        inc, outg = np.linalg.norm(R, axis=1), np.linalg.norm(Wn, axis=0)
        dead = ((outg <= tol * max(np.median(outg), 1e-300))
                | (inc <= tol * max(np.median(inc), 1e-300)))
        reps, members = [], []                                  # members[r] = [(j, s)]
        for j in np.nonzero(~dead)[0]:
            for r_idx, r in enumerate(reps):
                s = _factor(R[j], R[r], kind, tol)
                if s is not None:
                    members[r_idx].append((j, s))
                    break
            else:
                reps.append(j)
                members.append([(j, 1.0)])
        alpha, star = np.zeros((d, len(reps))), np.zeros((len(reps), d))
        cols = []
        for r_idx, group in enumerate(members):
            ctil = sum(s * Wn[:, j] for j, s in group)           # merged outgoing column
            nc = max(np.dot(ctil, ctil), 1e-300)
            for j, s in group:
                a = float(np.dot(Wn[:, j], ctil) / nc)
                col_res = max(col_res, float(np.linalg.norm(Wn[:, j] - a * ctil)
                                             / max(np.linalg.norm(Wn), 1e-300)))
                alpha[j, r_idx], star[r_idx, j] = s, a
            cols.append(ctil)
        keep = np.array(reps, dtype=int)
        small[i] = (small[i][0][keep], small[i][1][keep])
        small[i + 1] = (np.array(cols).T.reshape(Wn.shape[0], len(reps)), small[i + 1][1])
        alphas.append(alpha)
        stars.append(star)
        n_dead.append(int(dead.sum()))
        n_merged.append(d - int(dead.sum()) - len(reps))
    return Reduction(small, alphas, stars, n_dead, n_merged, col_res)


def beta(small: Theta, alphas: list[np.ndarray], stars: list[np.ndarray]) -> Theta:
    """beta(theta~): W_i = alpha_i W~_i alpha*_{i-1}, b_i = alpha_i b~_i (alpha_0, alpha_L = I)."""
    out = []
    L = len(small)
    for i, (W, b) in enumerate(small):
        if i > 0:
            W = W @ stars[i - 1]
        if i < L - 1:
            W, b = alphas[i] @ W, alphas[i] @ b
        out.append((W, b))
    return out


def beta_residual(theta: Theta, red: Reduction) -> float:
    """max relative distance between theta and beta(theta~): 0 iff theta is of the form beta(.)."""
    rebuilt = beta(red.small, red.alphas, red.alpha_stars)
    return float(max(np.linalg.norm(np.column_stack([W - W2, b - b2]))
                     / np.linalg.norm(np.column_stack([W, b]))
                     for (W, b), (W2, b2) in zip(theta, rebuilt)))
