"""Plain-loop references of the vectorised kernels in lib/linear_rnns (tests and bench only).

Each function copies a definition from the spec with Python lists and exact arithmetic, written
without numpy broadcasting so that it shares no code path with the kernels it checks.
"""
from __future__ import annotations

from collections import deque


# --- scans (spec §5) -------------------------------------------------------------------------

def dense_matrix(kind: str, a, perm=None) -> list[list]:
    """One transition as a list-of-lists d x d matrix (column convention, A e_j = w_j e_p(j))."""
    if kind == "dense":
        return [list(row) for row in a]
    d = len(a)
    m = [[0] * d for _ in range(d)]
    for j in range(d):
        i = j if kind == "diagonal" else int(perm[j])
        m[i][j] = a[j]
    return m


def recurrence(kind: str, a, b, h0, perm=None) -> list[list]:
    """h_t = A_t h_{t-1} + b_t for t = 1..T, one step at a time; returns [h_1, ..., h_T]."""
    h = list(h0)
    out = []
    for t in range(len(b)):
        m = dense_matrix(kind, a[t], None if perm is None else perm[t])
        h = [sum((m[i][j] * h[j] for j in range(len(h))), 0) + b[t][i] for i in range(len(h))]
        out.append(h)
    return out


def matmul(x: list[list], y: list[list]) -> list[list]:
    """Plain triple loop."""
    return [[sum((x[i][k] * y[k][j] for k in range(len(y))), 0) for j in range(len(y[0]))]
            for i in range(len(x))]
