"""Plain-loop references for lib/spike_htr: tests, claims and bench/ use them as the independent
computation. Python floats and ints, straight from the definitions (spec §1.4, §1.5)."""
from __future__ import annotations

import math

import numpy as np

from lib.spike_htr.alphabet import BLANK


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(v - top) for v in values))


def ctc_nll_naive(log_probs: np.ndarray, labels: list[int]) -> float:
    """-log p(y | x) for one line, log_probs (L, C): the α recursion over the extended label
    (∅, y1, ∅, ..., yU, ∅) in float64 log space, one position and one state at a time."""
    L = len(log_probs)
    ext = [BLANK]
    for y in labels:
        ext += [y, BLANK]
    S = len(ext)
    alpha = [-math.inf] * S
    alpha[0] = float(log_probs[0][ext[0]])
    if S > 1:
        alpha[1] = float(log_probs[0][ext[1]])
    for t in range(1, L):
        new = [-math.inf] * S
        for s in range(S):
            terms = [alpha[s]]
            if s >= 1:
                terms.append(alpha[s - 1])
            if s >= 2 and ext[s] != BLANK and ext[s] != ext[s - 2]:
                terms.append(alpha[s - 2])
            new[s] = _logsumexp(terms) + float(log_probs[t][ext[s]])
        alpha = new
    return -_logsumexp(alpha[-2:] if S > 1 else alpha[-1:])


def greedy_naive(log_probs: np.ndarray) -> list[int]:
    """Argmax per position by a loop, then merge repeats and drop blanks, one symbol at a time."""
    out, previous = [], None
    for row in log_probs:
        best = max(range(len(row)), key=lambda c: (row[c], -c))
        if best != previous and best != BLANK:
            out.append(best)
        previous = best
    return out


def levenshtein_naive(a, b) -> int:
    """The textbook (|a| + 1) x (|b| + 1) table in Python ints."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1,
                              table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return table[-1][-1]


def topr_naive(blank: list[float], r: float) -> list[int]:
    """Positions kept by top-r: sort by blank probability (ties by position), take ceil(r L),
    return them in increasing order."""
    L = len(blank)
    k = math.ceil(r * L - 1e-9)
    order = sorted(range(L), key=lambda i: (blank[i], i))
    return sorted(order[:k])


def mixer_macs_naive(shapes: list[tuple[int, int, int]]) -> int:
    """Multiply-adds of a list of matmuls (m, k, n), one product of three Python ints each."""
    total = 0
    for m, k, n in shapes:
        total += m * k * n
    return total

