"""Exact linear perceptron counts in rational arithmetic (spec §4 F1, §5 check 4; §8).

The batch perceptron from u_0 = 0 stays in span{b_i}: u_t = sum_i a_i b_i, so with the integer
Gram matrix G = B B^T each step is O(n^2) Fraction operations whatever d is. Ties (y_i h = 0) are
decided exactly: weight 1/2 (the GD limit, S(0) = 1/2) or weight 1 after the first step (the
author's Batch Perceptron).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

TIE_RULES = ("half", "author")


def gram(B: np.ndarray) -> list[list[Fraction]]:
    """G = B B^T as Fractions (B holds ints or Fractions)."""
    n = B.shape[0]
    return [[sum((Fraction(B[i, k]) * Fraction(B[j, k]) for k in range(B.shape[1])), Fraction(0))
             for j in range(n)] for i in range(n)]


def gram_dataset_a(d: int) -> list[list[Fraction]]:
    """Closed-form Gram matrix of data set A: [[d, d-1], [d-1, d-1]] (no O(d) work)."""
    return [[Fraction(d), Fraction(d - 1)], [Fraction(d - 1), Fraction(d - 1)]]


def _weight(z: Fraction, tie: str, t: int) -> Fraction:
    """Perceptron weight of a point with margin z at step t under the tie rule."""
    if z < 0:
        return Fraction(1)
    if z > 0:
        return Fraction(0)
    return Fraction(1, 2) if tie == "half" or t == 0 else Fraction(1)


def _margins(G, y, a) -> list[Fraction]:
    n = len(G)
    return [y[i] * sum(G[i][j] * a[j] for j in range(n)) for i in range(n)]


def perceptron_steps(G: list[list[Fraction]], y, tie: str = "half"):
    """Yield (t, coefficients a_t, margins z_t) of the batch perceptron (eta = 1) from u_0 = 0.

    tie = "half": weight 1/2 on exact ties (the GD / GP limit); "author": 1/2 at t = 0 only, then
    weight 1 on ties (Batch Perceptron of arXiv 2412.08424).
    """
    if tie not in TIE_RULES:
        raise ValueError(f"tie = {tie!r}; allowed: {TIE_RULES}")
    n, y = len(G), [int(v) for v in y]
    a, t = [Fraction(0)] * n, 0
    while True:
        z = _margins(G, y, a)
        yield t, list(a), z
        a = [a[i] + y[i] * _weight(z[i], tie, t) / n for i in range(n)]
        t += 1


def perceptron_count(G: list[list[Fraction]], y, tie: str = "half", max_iter: int = 10**7
                     ) -> int:
    """First t with y_i u_t^T b_i > 0 for all i (strict), exactly; raises past max_iter."""
    for t, _, z in perceptron_steps(G, y, tie):
        if all(zi > 0 for zi in z):
            return t
        if t >= max_iter:
            raise RuntimeError(f"perceptron_count: not separated within max_iter = {max_iter}")
