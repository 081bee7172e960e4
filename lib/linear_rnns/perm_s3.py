"""The S3 permutation variant of iterated matrix multiplication (issue 44; the authors'
`imm_mod/gen_perm.py` in GitHub hongjianjiang/LinearRNN, read as the reference, code ours).

Each step draws a uniform element of S3 as its 3x3 permutation matrix M_t (row r has its 1 in
column p(r)); the label at step t is the index of P_t = M_1 ... M_t among the six permutations
in lexicographic order (`itertools.permutations(range(3))`, the released enumeration). Products
of permutation matrices stay permutation matrices, so int64 is exact at any length.

Two references computed independently of the matrix products:
- `automaton_labels`: the 6-state automaton of S3 (its multiplication table built from
  permutation tuples, never from matrices), stepped once per token;
- `pd_lrnn_labels`: a one-layer permutation-diagonal LRNN whose state is a one-hot vector over the
  six elements and whose transition for token g is the 6x6 permutation matrix of right
  multiplication by g (the regular representation): h_t = R(g_t) h_{t-1}, label argmax h_t. The
  paper's PD class holds it (diagonal = 1), so a PD LRNN solves S3 at every length.
A diagonal LRNN (commuting transitions) reads g h and h g alike, so it mislabels one of each
non-commuting ordered pair; `noncommuting_pairs` counts them against |G|^2 - |G| k(G).
"""
from __future__ import annotations

from itertools import permutations

import numpy as np

PERMS = np.array(list(permutations(range(3))))            # (6, 3): row i = (p(0), p(1), p(2))
MATS = np.zeros((6, 3, 3), dtype=np.int64)                 # (6, 3, 3) permutation matrices
MATS[np.arange(6)[:, None], np.arange(3), PERMS] = 1       # M[r, p(r)] = 1
N_CLASSES_S3 = 3                                           # classes: e, transpositions, 3-cycles


def _index(p: tuple[int, ...]) -> int:
    return [tuple(q) for q in PERMS.tolist()].index(tuple(p))


def table() -> np.ndarray:
    """(6, 6) MUL[a, b] = index of the element whose matrix is M_a M_b, from tuples: row r of
    M_a M_b has its 1 in column p_b(p_a(r))."""
    return np.array([[_index(tuple(PERMS[b][PERMS[a]])) for b in range(6)] for a in range(6)])


MUL = table()


def sample(n: int, lo: int, hi: int,
           rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n streams with lengths uniform in [lo, hi]: (tokens (n, T) in 0..5, padding beyond each
    length arbitrary; labels (n, T) from the exact matrix product; lengths (n,))."""
    length = rng.integers(lo, hi + 1, size=n)
    g = rng.integers(0, 6, size=(n, int(length.max())))                   # (n, T) element indices
    P = np.broadcast_to(np.eye(3, dtype=np.int64), (n, 3, 3)).copy()    # (n, 3, 3)
    labels = np.empty(g.shape, dtype=np.int64)
    flat = MATS.reshape(6, 9)
    for t in range(g.shape[1]):                                           # sequential in time
        P = P @ MATS[g[:, t]]                                             # (n, 3, 3), exact 0/1
        labels[:, t] = (P.reshape(n, 1, 9) == flat[None]).all(-1).argmax(-1)
    return g, labels, length


def automaton_labels(g: np.ndarray) -> np.ndarray:
    """(n, T) labels from the multiplication table: state_t = MUL[state_{t-1}, g_t], state_0 = e."""
    out = np.empty(g.shape, dtype=np.int64)
    state = np.full(g.shape[0], _index((0, 1, 2)))
    for t in range(g.shape[1]):
        state = MUL[state, g[:, t]]
        out[:, t] = state
    return out


def regular_representation() -> np.ndarray:
    """(6, 6, 6) R[g] with R[g][MUL[a, g], a] = 1: right multiplication by g on one-hot states."""
    R = np.zeros((6, 6, 6))
    for g in range(6):
        R[g, MUL[:, g], np.arange(6)] = 1.0
    return R


def pd_lrnn_labels(g: np.ndarray) -> np.ndarray:
    """(n, T) argmax of the PD LRNN's state h_t = R(g_t) h_{t-1} (float64), h_0 = one-hot(e)."""
    R = regular_representation()
    h = np.zeros((g.shape[0], 6))
    h[:, _index((0, 1, 2))] = 1.0
    out = np.empty(g.shape, dtype=np.int64)
    for t in range(g.shape[1]):
        h = np.einsum("nij,nj->ni", R[g[:, t]], h)                       # (n, 6)
        out[:, t] = h.argmax(-1)
    return out


def is_pd(R: np.ndarray) -> bool:
    """Every transition is a permutation matrix times a diagonal (here the identity diagonal)."""
    return bool(((R == 0) | (R == 1)).all() and (R.sum(-1) == 1).all() and (R.sum(-2) == 1).all())


def noncommuting_pairs() -> tuple[int, int]:
    """(enumerated, closed form) number of ordered pairs (a, b) with ab != ba:
    enumerated from the table, closed form |G|^2 - |G| k(G) with k(G) = 3 conjugacy classes."""
    return int((MUL != MUL.T).sum()), 6 * 6 - 6 * N_CLASSES_S3
