"""Automata used as reference models (spec §2.7): DFA, deterministic WFA, WFA over Q, S5 / A5.

Runs here are direct (table lookups, one transition per symbol, exact arithmetic); the linear RNN
constructions in `permutation_diagonal.py` and `wfa.py` are checked against them.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np


@dataclass(frozen=True)
class DFA:
    """delta (n, |Sigma|) next states, q0, accepting (n,) bool."""

    delta: np.ndarray
    q0: int
    accepting: np.ndarray


@dataclass(frozen=True)
class DWFA:
    """Deterministic WFA: delta (n, |Sigma|), weights (n, |Sigma|) Fractions, q0, final eta (n,)."""

    delta: np.ndarray
    weight: np.ndarray
    q0: int
    eta: np.ndarray


@dataclass(frozen=True)
class WFA:
    """WFA over Q: alpha (n,), M (|Sigma|, n, n), eta (n,), object arrays of Fractions."""

    alpha: np.ndarray
    M: np.ndarray
    eta: np.ndarray


def random_dfa(n: int, sigma: int, rng: np.random.Generator) -> DFA:
    return DFA(rng.integers(0, n, size=(n, sigma)), int(rng.integers(0, n)),
               rng.random(n) < 0.5)


def random_dwfa(n: int, sigma: int, rng: np.random.Generator) -> DWFA:
    w = np.vectorize(Fraction, otypes=[object])(rng.integers(-3, 4, (n, sigma)),
                                                 rng.integers(1, 4, (n, sigma)))
    eta = np.vectorize(Fraction, otypes=[object])(rng.integers(-2, 3, n), 1)
    return DWFA(rng.integers(0, n, size=(n, sigma)), w, int(rng.integers(0, n)), eta)


def random_wfa(n: int, sigma: int, rng: np.random.Generator) -> WFA:
    def frac(shape):
        return np.vectorize(Fraction, otypes=[object])(rng.integers(-2, 3, shape),
                                                        rng.integers(1, 3, shape))
    return WFA(frac(n), frac((sigma, n, n)), frac(n))


def random_words(count: int, sigma: int, max_len: int, rng: np.random.Generator,
                 min_len: int = 0) -> list[list[int]]:
    lens = rng.integers(min_len, max_len + 1, count)
    return [list(rng.integers(0, sigma, int(L))) for L in lens]


def run_dfa(dfa: DFA, word: list[int]) -> int:
    """Final state after one transition per symbol."""
    q = dfa.q0
    for a in word:
        q = int(dfa.delta[q, a])
    return q


def run_dwfa(dwfa: DWFA, word: list[int]) -> Fraction:
    """f(w) = eta[q_T] * product of the weights along the unique run."""
    q, acc = dwfa.q0, Fraction(1)
    for a in word:
        acc *= dwfa.weight[q, a]
        q = int(dwfa.delta[q, a])
    return acc * dwfa.eta[q]


def run_wfa(wfa: WFA, word: list[int]) -> Fraction:
    """f(w) = alpha^T M_{w_1} ... M_{w_T} eta, a row vector pushed left to right."""
    row = list(wfa.alpha)
    n = len(row)
    for a in word:
        row = [sum((row[i] * wfa.M[a][i][j] for i in range(n)), Fraction(0)) for j in range(n)]
    return sum((row[j] * wfa.eta[j] for j in range(n)), Fraction(0))


# --- groups -------------------------------------------------------------------------------------

def symmetric_group(n: int) -> np.ndarray:
    """All n! permutations as rows (p[i] = image of i)."""
    return np.array(list(itertools.permutations(range(n))), dtype=np.int64)


def is_even(p) -> bool:
    """Parity by counting inversions."""
    p = list(p)
    return sum(p[i] > p[j] for i in range(len(p)) for j in range(i + 1, len(p))) % 2 == 0


def alternating_group(n: int) -> np.ndarray:
    return np.array([p for p in symmetric_group(n) if is_even(p)], dtype=np.int64)


def compose_word(perms: np.ndarray, word: list[int]) -> tuple[int, ...]:
    """sigma_T o ... o sigma_1 applied pointwise (later acts after earlier)."""
    cur = list(range(perms.shape[1]))
    for a in word:
        cur = [int(perms[a][c]) for c in cur]
    return tuple(cur)


def general_linear_f2(n: int) -> list[tuple[int, ...]]:
    """GL(n, F_2): invertible 0/1 matrices (flattened row-major), by rank over F_2."""
    out = []
    for code in range(2 ** (n * n)):
        m = [[(code >> (i * n + j)) & 1 for j in range(n)] for i in range(n)]
        rows, rank = [r[:] for r in m], 0
        for c in range(n):
            piv = next((r for r in range(rank, n) if rows[r][c]), None)
            if piv is None:
                continue
            rows[rank], rows[piv] = rows[piv], rows[rank]
            for r in range(n):
                if r != rank and rows[r][c]:
                    rows[r] = [a ^ b for a, b in zip(rows[r], rows[rank])]
            rank += 1
        if rank == n:
            out.append(tuple(v for r in m for v in r))
    return out


def commutator_subgroup_size(elements: list, compose, identity) -> int:
    """|[G, G]|: close the set of commutators a^-1 b^-1 a b under composition."""
    inverse = {}
    for a in elements:
        for b in elements:
            if compose(a, b) == identity:
                inverse[a] = b
                break
    gens = {compose(compose(inverse[a], inverse[b]), compose(a, b))
            for a in elements for b in elements}
    group = set(gens)
    while True:
        grown = group | {compose(a, b) for a in group for b in gens}
        if grown == group:
            return len(group)
        group = grown


def perm_compose(p: tuple, q: tuple) -> tuple:
    """p after q."""
    return tuple(p[q[i]] for i in range(len(q)))


def f2_matmul(n: int):
    """Multiplication of flattened n x n matrices over F_2."""
    def mul(a: tuple, b: tuple) -> tuple:
        return tuple(sum(a[i * n + k] * b[k * n + j] for k in range(n)) % 2
                     for i in range(n) for j in range(n))
    return mul
