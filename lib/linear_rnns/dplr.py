"""DPLR constructions: RWKV-7 overwrites, the IMM and WFA compilers, DeltaNet Householder
programs, and the router obstruction (spec §4.6, Thm 5-6).

Column convention h' = A h + b throughout.

- Overwrite A_{j,c} = I - e_j (e_j - c)^T (identity plus rank one): h'_j = <c, h>, other
  coordinates unchanged (c_j = 0). RWKV-7 with w = 1, a = e_j, kappa = e_j - c (S1).
- Right-multiplication compiler: a k x n block state X (active) and a second block (inactive);
  for a matrix M, k n overwrites inactive[i, j] <- sum_l active[i, l] M[l, j], then the roles of
  the blocks swap (the parity of the matrix index is part of the pre-routed instruction). IMM:
  k = n = 3, state 18; WFA: k = 1 (row vector r_t = r_{t-1} M_{w_t}), state 2n.
- The product must start from X = I (IMM) or X = alpha^T (WFA): an LRNN state starts at 0, so a
  start token whose bias writes the initial block is needed (the start-token initialisation fix).
- DeltaNet: H(beta, k) = I - beta k k^T with unrestricted rational beta and unnormalised k.
"""
from __future__ import annotations

from fractions import Fraction
from math import gcd

import numpy as np


def overwrite(d: int, j: int, c) -> np.ndarray:
    """A = I - e_j (e_j - c)^T as an object matrix (requires c_j = 0)."""
    c = np.asarray(c, dtype=object)
    if c[j] != 0:
        raise ValueError("overwrite needs c_j = 0")
    A = np.identity(d, dtype=object) * Fraction(1)
    e = np.zeros(d, dtype=object)
    e[j] = 1
    return A - np.outer(e, e - c)


def right_multiply_program(M: np.ndarray, k: int, parity: int) -> list[np.ndarray]:
    """k n overwrites that set the inactive block to (active block) @ M; state 2 k n.

    Block layout: block p occupies coordinates p k n + i n + j for (i, j); parity = index of the
    active block.
    """
    n = M.shape[0]
    d = 2 * k * n
    act, ina = parity * k * n, (1 - parity) * k * n
    prog = []
    for i in range(k):
        for j in range(n):
            c = np.zeros(d, dtype=object)
            for l in range(n):
                c[act + i * n + l] = M[l, j]
            prog.append(overwrite(d, ina + i * n + j, c))
    return prog


def start_bias(X0: np.ndarray) -> np.ndarray:
    """The start token's bias: the initial block in block 0, zeros elsewhere (state 2 k n)."""
    k, n = X0.shape
    b = np.zeros(2 * k * n, dtype=object)
    b[:k * n] = X0.reshape(-1)
    return b


def run_program(mats: list[np.ndarray], X0: np.ndarray, with_start: bool = True) -> np.ndarray:
    """Run the LRNN: optional start token (A = I, b = start_bias), then per matrix its overwrites.

    Returns the active block after the last matrix, shape (k, n). Without the start token the
    state starts at 0 (the LRNN convention), as an uncorrected schedule would.
    """
    k, n = X0.shape
    h = np.zeros(2 * k * n, dtype=object) * Fraction(0)
    if with_start:
        h = h + start_bias(X0)
    for t, M in enumerate(mats):
        for A in right_multiply_program(np.asarray(M, dtype=object), k, t % 2):
            h = A.dot(h)
    act = (len(mats) % 2) * k * n
    return h[act:act + k * n].reshape(k, n)


def imm_program_int(mats: np.ndarray) -> np.ndarray:
    """Vectorised IMM via overwrites in int64 for a batch: mats (B, N, 3, 3) -> (B, 3, 3).

    Each overwrite only changes one coordinate, so it is applied as that coordinate's dot
    product (the same linear map as A_{j,c} h); exact while |values| < 2^63.
    """
    B, N = mats.shape[:2]
    h = np.zeros((B, 18), dtype=np.int64)
    h[:, :9] = np.identity(3, dtype=np.int64).reshape(-1)          # start token
    for t in range(N):
        act, ina = (t % 2) * 9, (1 - t % 2) * 9
        for i in range(3):
            for j in range(3):
                # c has M[l, j] at active (i, l); h'_{ina + 3i + j} = <c, h>
                h[:, ina + 3 * i + j] = (h[:, act + 3 * i:act + 3 * i + 3]
                                         * mats[:, t, :, j]).sum(1)
    act = (N % 2) * 9
    return h[:, act:act + 9].reshape(B, 3, 3)


# --- DeltaNet generalized Householder programs -------------------------------------------------

def householder(d: int, beta, k) -> np.ndarray:
    """H(beta, k) = I - beta k k^T, exact."""
    k = np.asarray(k, dtype=object)
    return np.identity(d, dtype=object) * Fraction(1) - Fraction(beta) * np.outer(k, k)


def effective_beta(H: np.ndarray) -> Fraction:
    """beta |k|^2 of a Householder step H = I - beta k k^T: the trace of I - H (exact). Its
    eigenvalue along k is 1 - beta |k|^2, so DeltaNet's beta in [0, 2] with unit keys means
    effective beta in [0, 2]."""
    H = np.asarray(H, dtype=object)
    return Fraction(sum(1 - H[i, i] for i in range(H.shape[0])))


def unit(d: int, i: int) -> np.ndarray:
    e = np.zeros(d, dtype=object)
    e[i] = 1
    return e


def transvection(d: int, s: int, t: int) -> list[np.ndarray]:
    """h_t += h_s in 3 Householder steps: H(2, e_s + e_t), H(1/2, e_s), H(1/3, e_s + 2 e_t)."""
    return [householder(d, 2, unit(d, s) + unit(d, t)), householder(d, Fraction(1, 2), unit(d, s)),
            householder(d, Fraction(1, 3), unit(d, s) + 2 * unit(d, t))]


def scale(d: int, i: int, lam) -> np.ndarray:
    """h_i *= lam: H(1 - lam, e_i)."""
    return householder(d, 1 - Fraction(lam), unit(d, i))


def scaled_add(d: int, s: int, t: int, lam, tmp: int) -> list[np.ndarray]:
    """h_t += lam h_s with tmp = 0 before and after: 8 steps."""
    return transvection(d, s, tmp) + [scale(d, tmp, lam)] + transvection(d, tmp, t) + \
        [scale(d, tmp, 0)]


def matrix_program(M: np.ndarray) -> list[np.ndarray]:
    """Apply an n x n rational M to x (coords 0..n-1) with a 2n+1 state; result in 0..n-1.

    n+1 zeroings (outputs, tmp), n^2 scaled adds (8 each), n source zeroings, n copy-backs
    (3 each): 694 steps for n = 9 (spec §4.6).
    """
    n = M.shape[0]
    d, tmp = 2 * n + 1, 2 * n
    prog = [scale(d, n + i, 0) for i in range(n)] + [scale(d, tmp, 0)]
    for i in range(n):
        for j in range(n):
            prog += scaled_add(d, j, n + i, M[i, j], tmp)
    prog += [scale(d, j, 0) for j in range(n)]
    for j in range(n):
        prog += transvection(d, n + j, j)
    return prog


def apply_program(prog: list[np.ndarray], h: np.ndarray) -> np.ndarray:
    for A in prog:
        h = A.dot(h)
    return h


# --- the router obstruction -------------------------------------------------------------------

def euler_phi(m: int) -> int:
    """phi(m) by counting units (no factorisation)."""
    return sum(gcd(k, m) == 1 for k in range(1, m + 1))


def finite_orders(entries: list[Fraction], max_order: int) -> dict[int, int]:
    """Orders <= max_order of all 2x2 matrices with the given entries: {order: count}.

    float64 powers find candidates (diverging ones are dropped), each confirmed exactly.
    """
    entries = sorted(set(entries))
    vals = np.array([float(v) for v in entries])
    grid = np.stack(np.meshgrid(vals, vals, vals, vals, indexing="ij"), -1).reshape(-1, 2, 2)
    idx = np.stack(np.meshgrid(*[np.arange(len(vals))] * 4, indexing="ij"), -1).reshape(-1, 4)
    P = grid.copy()
    order = np.zeros(len(grid), dtype=np.int64)
    eye = np.identity(2)
    for k in range(1, max_order + 1):
        hit = (order == 0) & (np.abs(P - eye).max(axis=(1, 2)) < 1e-9)
        order[hit] = k
        P = P @ grid                                               # (matrices, 2, 2) A^(k+1)
        P[np.abs(P).max(axis=(1, 2)) > 1e6] = np.nan               # diverged: infinite order
    out: dict[int, int] = {}
    for m, row in zip(order[order > 0], idx[order > 0]):
        A = np.array([entries[r] for r in row], dtype=object).reshape(2, 2)
        Pm = np.identity(2, dtype=object) * Fraction(1)
        for _ in range(int(m)):
            Pm = Pm.dot(A)
        if (Pm == np.identity(2, dtype=object)).all():              # exact confirmation
            out[int(m)] = out.get(int(m), 0) + 1
    return dict(sorted(out.items()))
