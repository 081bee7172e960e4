"""Single-layer LRNN = WFA over Q, Hankel ranks, and the thresholding gap (spec §4.7, Thm 13).

A one-layer LRNN with A(sigma) = M_sigma^T (column convention on the state h = r^T), b = 0,
h_0 = alpha and readout eta^T h_T computes f(w) = alpha^T M_{w_1} ... M_{w_T} eta exactly.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from lib.linear_rnns import scan
from lib.linear_rnns.automata import WFA


def lrnn_values(wfa: WFA, words: list[list[int]]) -> np.ndarray:
    """f(w) for a batch of words via the dense affine scan (identity-padded), exact."""
    n = len(wfa.alpha)
    L = max(1, max(len(w) for w in words))
    eye = np.empty((n, n), dtype=object)
    eye[...] = Fraction(0)
    for i in range(n):
        eye[i, i] = Fraction(1)
    trans = np.stack([m.T for m in wfa.M] + [eye])                 # (|Sigma| + 1, n, n), last = pad
    sym = np.full((L, len(words)), len(wfa.M), dtype=np.int64)      # (L, B)
    for b, w in enumerate(words):
        sym[:len(w), b] = w
    a = trans[sym]                                                 # (L, B, n, n)
    bias = np.empty((L, len(words), n), dtype=object)
    bias[...] = Fraction(0)
    total, _ = scan.reduce_tree(scan.Pairs("dense", a, bias))
    h = scan.apply(total, wfa.alpha)[0]                            # (B, n)
    return h @ wfa.eta


def exact_rank(m) -> int:
    """Rank by Gaussian elimination over Fractions."""
    rows = [[Fraction(v) for v in r] for r in m]
    rank, cols = 0, len(rows[0]) if rows else 0
    for c in range(cols):
        piv = next((r for r in range(rank, len(rows)) if rows[r][c] != 0), None)
        if piv is None:
            continue
        rows[rank], rows[piv] = rows[piv], rows[rank]
        for r in range(len(rows)):
            if r != rank and rows[r][c] != 0:
                f = rows[r][c] / rows[rank][c]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[rank])]
        rank += 1
    return rank


def all_words(sigma: int, max_len: int) -> list[list[int]]:
    out, layer = [[]], [[]]
    for _ in range(max_len):
        layer = [w + [a] for w in layer for a in range(sigma)]
        out += layer
    return out


def hankel(values: dict, prefixes: list, suffixes: list) -> list[list]:
    """H[u, v] = f(uv) from a dict word-tuple -> value."""
    return [[values[tuple(u + v)] for v in suffixes] for u in prefixes]


def score_matrix(N: int) -> list[list[Fraction]]:
    """F(s, t) = 1/2 - (s - t)^2 for s, t in 1..N (spec §4.7)."""
    return [[Fraction(1, 2) - (s - t) ** 2 for t in range(1, N + 1)] for s in range(1, N + 1)]
