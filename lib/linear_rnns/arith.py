"""Arithmetic circuits over Q and Z: unrolled form, Q -> Z lift, bit growth (spec §2.6, §5, Thm 3).

- Unrolled (convolution) form: h_T = (A_T ... A_1) h_0 + sum_t (A_T ... A_{t+1}) b_t.
- Q -> Z lift: a rational is a pair (numerator, denominator) of integers; the correct sum is
  a/b + c/d = (ad + bc) / (bd). The paper's appendix prints the denominator as bc (spec §2.6,
  S1); `add_printed` implements that typo so that it can be shown to fail.
"""
from __future__ import annotations

from fractions import Fraction
from math import gcd

import numpy as np


def unrolled(A: list, b: list, h0) -> list:
    """h_T from the closed form, each suffix product built right to left (exact object arrays)."""
    T = len(A)
    d = len(h0)
    suffix = np.identity(d, dtype=object) * Fraction(1)            # A_T ... A_{t+1}
    total = np.zeros(d, dtype=object) * Fraction(0)
    for t in range(T - 1, -1, -1):
        total = total + suffix @ np.asarray(b[t], dtype=object)
        suffix = suffix @ np.asarray(A[t], dtype=object)
    return list(suffix @ np.asarray(h0, dtype=object) + total)


def add_pair(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    (a, b), (c, d) = x, y
    return a * d + b * c, b * d


def add_printed(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    """The printed (typo) formula: denominator bc instead of bd."""
    (a, b), (c, d) = x, y
    return a * d + b * c, b * c


def mul_pair(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    return x[0] * y[0], x[1] * y[1]


def _reduce(x: tuple[int, int]) -> tuple[int, int]:
    """Divide out the gcd (keeps the demo's integers small; the rule itself is unchanged)."""
    g = gcd(x[0], x[1]) or 1
    return x[0] // g, x[1] // g


def recurrence_pairs(A: list, b: list, h0: list, add=add_pair) -> list[tuple[int, int]]:
    """h_t = A_t h_{t-1} + b_t over (num, den) integer pairs with the given addition rule.

    Each state entry is gcd-reduced after every step: unreduced pairs grow by a factor ~d in
    bits per step (every sum multiplies d denominators).
    """
    h = [(Fraction(v).numerator, Fraction(v).denominator) for v in h0]
    for At, bt in zip(A, b):
        new = []
        for i in range(len(h)):
            acc = (Fraction(bt[i]).numerator, Fraction(bt[i]).denominator)
            for j in range(len(h)):
                acc = add(acc, mul_pair((Fraction(At[i][j]).numerator,
                                         Fraction(At[i][j]).denominator), h[j]))
            new.append(_reduce(acc))
        h = new
    return h


def max_product_bits(mats: np.ndarray) -> np.ndarray:
    """Max bits over the entries of each prefix product of integer matrices, (T,)."""
    P = np.identity(mats.shape[-1], dtype=object)
    out = []
    for M in mats:
        P = P @ M.astype(object)
        out.append(max(abs(int(v)).bit_length() for v in P.flat))
    return np.array(out)
