"""The released IMM-over-Z generator's labelling rule (`imm_unbound/gen.py`), reconstructed in
numpy int64, against exact labels (spec §10 addendum; issue 44).

The released rule: P = I, then P = P @ M for each 3 x 3 matrix M over {-1, 0, 1} in numpy
int64, label 1 iff P[0, 0] == 0. Entries of a product of T such matrices reach 3^(T-1), past
2^63 from T = 41 on, and numpy integer matmul wraps silently: it computes P mod 2^64 (a ring
homomorphism Z -> Z/2^64). So a true zero is always labelled 1, and a non-zero entry divisible
by 2^64 is labelled 1 too: every wrong label is a false 1. Products of singular-mod-2 matrices
pick up factors of 2 as T grows, which is why such entries occur at the released lengths (its
defaults T_train = 300, T_gap = 100 reach T = 500).

Our code written from that description (the authors' file read as the reference, not copied).
The exact labels keep row 0 of P in Python ints (row 0 of P M depends on row 0 of P only).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from lib.linear_rnns import tasks


def released_labels(mats: np.ndarray) -> np.ndarray:
    """The released rule on a batch, (n, T, 3, 3) int64 -> (n,) int64 labels [P_T[0, 0] == 0],
    P = P @ M in int64 (wrapping silently, as numpy does)."""
    n, T = mats.shape[:2]
    P = np.broadcast_to(np.identity(3, dtype=np.int64), (n, 3, 3)).copy()  # (n, 3, 3)
    for t in range(T):
        P = P @ mats[:, t]                                         # (n, 3, 3) int64, mod 2^64
    return (P[:, 0, 0] == 0).astype(np.int64)


def exact_first_entry(mats: np.ndarray) -> np.ndarray:
    """(P_T)[0, 0] in Python ints, (n, T, 3, 3) -> (n,) object: row 0 of P carried exactly."""
    n, T = mats.shape[:2]
    row = np.zeros((n, 3), dtype=object)                           # (n, 3) row 0 of P = e_0
    row[:, 0] = 1
    for t in range(T):
        M = mats[:, t].astype(object)                              # (n, 3, 3) Python ints
        row = np.einsum("nk,nkj->nj", row, M)                      # (n, 3) exact
    return row[:, 0]


def wrap_audit(n: int, T: int, rng: np.random.Generator) -> pd.DataFrame:
    """n seeded streams of T uniform matrices over {-1, 0, 1}: the released int64 label, the
    exact label, our generator's label (`tasks.imm_z_paper`'s rule, int64 only while T <= 39)
    and the exact entry's 2-adic valuation (how many factors of 2 it carries; >= 64 with a
    non-zero entry is a wrapped label). One row per stream."""
    mats = rng.integers(-1, 2, (n, T, 3, 3)).astype(np.int64)      # (n, T, 3, 3)
    p00 = exact_first_entry(mats)
    exact = np.array([int(v == 0) for v in p00], dtype=np.int64)
    twos = [((int(v) & -int(v)).bit_length() - 1) if v != 0 else -1 for v in p00]
    return pd.DataFrame(dict(stream=np.arange(n), T=T, released_label=released_labels(mats),
                             exact_label=exact,
                             ours_label=tasks._e00_is_zero(mats).astype(np.int64),
                             p00_bits=[abs(int(v)).bit_length() for v in p00],
                             p00_twos=twos))
