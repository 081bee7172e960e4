"""E7: multi-head self-attention, its latent symmetries and head matching (spec §2.1 attention row,
§4 E7; Ong 2026's head-permutation structure).

A head is (Q, K, V, O) with Q, K, V of shape (d, dh) and O of shape (dh, d); on tokens X (T, d)
    head(X) = softmax(X Q K^T X^T) X V,   MHSA(X) = sum_h head_h(X) O_h.
Latent symmetries: per head Q -> Q A, K -> K A^{-T}, V -> V B, O -> B^{-1} O, and head
permutations. Only M_h = Q_h K_h^T and R_h = V_h O_h are invariants. The group acts on token
features by an orthogonal t: MHSA(X t^T) = MHSA(X) t^T for a planted equivariant theta.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

Head = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]   # Q, K, V, O


def softmax(S: np.ndarray) -> np.ndarray:
    S = S - S.max(axis=-1, keepdims=True)
    E = np.exp(S)
    return E / E.sum(axis=-1, keepdims=True)


def head_outputs(X: np.ndarray, heads: list[Head]) -> list[np.ndarray]:
    """Z_h = softmax(X Q K^T X^T) X V for a batch X (B, T, d): list of (B, T, dh)."""
    out = []
    for Q, K, V, _ in heads:
        A = softmax(np.einsum("btd,de,fe,bsf->bts", X, Q, K, X))     # (B, T, T)
        out.append(A @ (X @ V))
    return out


def mhsa(X: np.ndarray, heads: list[Head]) -> np.ndarray:
    """(B, T, d) -> (B, T, d)."""
    return sum(Z @ O for Z, (_, _, _, O) in zip(head_outputs(X, heads), heads))


def eigen_split(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Orthonormal bases of the +1 and -1 eigenspaces of an orthogonal involution t."""
    w, U = np.linalg.eigh((t + t.T) / 2)
    return U[:, w > 0], U[:, w < 0]


def planted_mhsa(t: np.ndarray, dh: int, rng: np.random.Generator) -> list[Head]:
    """Three heads: h1 random, h2 = its t-conjugate (Q, K, V -> t^T ., O -> O t), h3 t-stable
    (columns in t's eigenspaces, one +1 and one -1 column each): t permutes h1 <-> h2, fixes h3."""
    d = t.shape[0]
    Q, K, V = (rng.normal(size=(d, dh)) for _ in range(3))
    O = rng.normal(size=(dh, d))
    h1 = (Q, K, V, O)
    h2 = (t.T @ Q, t.T @ K, t.T @ V, O @ t)
    plus, minus = eigen_split(t)

    def stable_cols():
        return np.column_stack([plus @ rng.normal(size=plus.shape[1]) for _ in range(dh // 2)]
                               + [minus @ rng.normal(size=minus.shape[1])
                                  for _ in range(dh - dh // 2)])
    Qs, Ks, Vs = stable_cols(), stable_cols(), stable_cols()
    Os = stable_cols().T                                               # rows in eigenspaces too
    return [h1, h2, (Qs, Ks, Vs, Os)]


def scramble(heads: list[Head], rng: np.random.Generator) -> tuple[list[Head], np.ndarray]:
    """Random per-head GL elements and a random head order; returns the heads and the order."""
    order = rng.permutation(len(heads))
    out = []
    for h in order:
        Q, K, V, O = heads[h]
        dh = Q.shape[1]
        A, B = (rng.normal(size=(dh, dh)) + 2 * np.eye(dh),
                rng.normal(size=(dh, dh)) + 2 * np.eye(dh))
        out.append((Q @ A, K @ np.linalg.inv(A).T, V @ B, np.linalg.inv(B) @ O))
    return out, order


def g_on_heads(heads: list[Head], t: np.ndarray) -> list[Head]:
    """Adjunction action: Q, K, V -> t^{-T} Q, t^{-T} K, t^{-T} V (input side), O -> O t^T."""
    tinvT = np.linalg.inv(t).T
    return [(tinvT @ Q, tinvT @ K, tinvT @ V, O @ t.T) for Q, K, V, O in heads]


@dataclass
class HeadMatch:
    perm: np.ndarray          # head h of the transformed parameter is head perm[h] of theta
    m_residual: float         # max relative Frobenius error of M_h
    C: list[np.ndarray]       # value maps: V'_h = V_{perm h} C_h
    v_residual: float
    o_residual: float         # O'_h = C_h^{-1} O_{perm h}
    gap: float                # second-best minus best relative M cost (uniqueness)


def match_heads(heads: list[Head], other: list[Head]) -> HeadMatch:
    """Hungarian matching of the invariants M_h = Q_h K_h^T, then per-head value maps."""
    M = [Q @ K.T for Q, K, _, _ in heads]
    Mo = [Q @ K.T for Q, K, _, _ in other]
    cost = np.array([[np.linalg.norm(a - b) / np.linalg.norm(b) for b in M] for a in Mo])
    _, perm = linear_sum_assignment(cost)
    masked = cost.copy()
    masked[np.arange(len(perm)), perm] = np.inf
    gap = (float((masked.min(axis=1) - cost[np.arange(len(perm)), perm]).min())
           if len(perm) > 1 else np.inf)
    C, vres, ores = [], 0.0, 0.0
    for h, p in enumerate(perm):
        V, O = heads[p][2], heads[p][3]
        Ch = np.linalg.lstsq(V, other[h][2], rcond=None)[0]
        vres = max(vres, float(np.linalg.norm(V @ Ch - other[h][2]) / np.linalg.norm(other[h][2])))
        ores = max(ores, float(np.linalg.norm(np.linalg.inv(Ch) @ O - other[h][3])
                               / np.linalg.norm(other[h][3])))
        C.append(Ch)
    return HeadMatch(perm, float(cost[np.arange(len(perm)), perm].max()), C, vres, ores, gap)


def latent_matrix(match: HeadMatch, dh: int) -> np.ndarray:
    """k(g) on the concatenated head outputs: block (perm h, h) = C_h, so Z' = Z k."""
    n = len(match.perm)
    K = np.zeros((n * dh, n * dh))
    for h, (p, Ch) in enumerate(zip(match.perm, match.C)):
        K[p * dh:(p + 1) * dh, h * dh:(h + 1) * dh] = Ch
    return K


def scrambled_pair(heads: list[Head], t: np.ndarray, rng: np.random.Generator):
    """(scrambled theta, g.theta) for one random scrambling."""
    scr, _ = scramble(heads, rng)
    return scr, g_on_heads(scr, t)


def cycle_type(perm: np.ndarray) -> tuple[int, int]:
    """(#fixed points, #2-cycles) of an involutive permutation."""
    fixed = int((perm == np.arange(len(perm))).sum())
    return fixed, (len(perm) - fixed) // 2


def scramble_reports(heads: list[Head], t: np.ndarray, X: np.ndarray, n: int, dh: int,
                     rng: np.random.Generator):
    """One row per random scrambling: every residual of the E7 construction."""
    import pandas as pd
    tinvT = np.linalg.inv(t).T
    base = mhsa(X, heads)
    rows = []
    for _ in range(n):
        scr, order = scramble(heads, rng)
        gth = g_on_heads(scr, t)
        m = match_heads(scr, gth)
        K = latent_matrix(m, dh)
        Z = np.concatenate(head_outputs(X, scr), -1)                      # (B, T, h dh)
        Zg = np.concatenate(head_outputs(X @ tinvT.T, scr), -1)
        Ocat = np.concatenate([O for *_, O in scr], 0)                     # (h dh, d)
        rel = lambda a, b: float(np.abs(a - b).max() / np.abs(b).max())   # noqa: E731
        rows.append({"order": tuple(order.tolist()), "perm": tuple(m.perm.tolist()),
                     "equivariance": rel(mhsa(X @ t.T, heads), base @ t.T),
                     "scramble": rel(mhsa(X, scr), base), "fibre": rel(mhsa(X, gth), base),
                     "m_residual": m.m_residual, "v_residual": m.v_residual,
                     "o_residual": m.o_residual,
                     "hom": float(np.abs(np.linalg.inv(K) @ np.linalg.inv(K)
                                         - np.eye(len(K))).max()),
                     "layer_heads": rel(Zg, Z @ K),
                     "layer_out": float(np.abs(K @ Ocat - Ocat @ tinvT).max() / np.abs(Ocat).max()),
                     "gap": m.gap, "cycle_type": cycle_type(m.perm)})
    return pd.DataFrame(rows)
