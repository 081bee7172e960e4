"""PD (permutation-diagonal / column one-hot) linear RNNs: the NC^1 side (spec §4.5, Thm 7-8).

- DFA -> one-layer PD LRNN: A(sigma)[delta(q, sigma), q] = 1, h_0 = e_{q0}, b = 0; then
  h_T = e_{delta*(q0, w)} and y = sum_{q in F} h_T[q] > 1/2 accepts.
- DWFA -> PD (Thm 8): A(sigma)[delta(q, sigma), q] = weight(q, sigma), f(w) = eta^T h_T, accept
  iff f(w) > 0.
- S5: the 5 x 5 permutation matrix state S_t = P(sigma_t) S_{t-1}, S_0 = I (a PD pair with w = 1).

Words of different lengths are batched by identity padding, and h_T comes from the balanced tree
reduction of the PD pairs (scan.reduce_tree): a composed map plus per-column weight products,
the NC^1-style evaluator of spec §4.5.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from lib.linear_rnns import scan
from lib.linear_rnns.automata import DFA, DWFA


def _pairs(delta: np.ndarray, weight: np.ndarray, words: list[list[int]]) -> scan.Pairs:
    """Per-symbol PD pairs of a batch of words, identity-padded: (L, B, n) perm and weights."""
    n = delta.shape[0]
    L = max(1, max(len(w) for w in words))
    sym = np.full((L, len(words)), -1, dtype=np.int64)             # (L, B), -1 = padding
    for b, w in enumerate(words):
        sym[:len(w), b] = w
    pad = sym < 0
    perm = delta.T[np.clip(sym, 0, None)]                      # (L, B, n): perm[j] = delta(j, a)
    perm[pad] = np.arange(n)
    w = weight.T[np.clip(sym, 0, None)]                            # (L, B, n)
    w[pad] = 1 if weight.dtype != object else Fraction(1)
    b = np.zeros(w.shape, dtype=w.dtype)
    if w.dtype == object:
        b[...] = Fraction(0)
    return scan.Pairs("pd", w, b, perm)


def final_states(delta: np.ndarray, weight: np.ndarray, q0: int, words: list[list[int]]):
    """h_T = A(w_T) ... A(w_1) e_{q0} for every word, by a balanced tree of PD combines."""
    total, counts = scan.reduce_tree(_pairs(delta, weight, words))
    n = delta.shape[0]
    h0 = np.zeros(n, dtype=weight.dtype)
    if weight.dtype == object:
        h0[...] = Fraction(0)
    h0[q0] = 1
    return scan.apply(total, h0)[0], counts                        # (B, n)


def dfa_accepts(dfa: DFA, words: list[list[int]]) -> np.ndarray:
    """One-layer PD LRNN decision y = sum_{q in F} h_T[q] > 1/2, (B,) bool."""
    n, s = dfa.delta.shape
    h, _ = final_states(dfa.delta, np.ones((n, s)), dfa.q0, words)
    return h @ dfa.accepting.astype(float) > 0.5


def dwfa_values(dwfa: DWFA, words: list[list[int]]) -> np.ndarray:
    """f(w) = eta^T h_T exactly (object array of Fractions)."""
    h, _ = final_states(dwfa.delta, dwfa.weight, dwfa.q0, words)
    return h @ dwfa.eta


def permutation_products(perms: np.ndarray, words: list[list[int]]) -> np.ndarray:
    """S5-style word problem: the composed permutation of each word, (B, n) (image of each i)."""
    n = perms.shape[1]
    delta = perms.T                                                # delta[q, a] = perms[a][q]
    x = _pairs(delta, np.ones((n, len(perms)), dtype=np.int64), words)
    total, _ = scan.reduce_tree(x)
    return total.perm[0]                                           # (B, n)


def is_column_one_hot(m: np.ndarray) -> bool:
    """At most one non-zero per column, for a stack (..., d, d) of matrices."""
    return bool(((m != 0).sum(axis=-2) <= 1).all())
