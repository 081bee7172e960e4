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
- Published first-token schedule (S1): the first data token both initialises and counts as
  overwrite 1, which then reads the zero state; `run_program(..., schedule="first_token")`.
- DeltaNet: H(beta, k) = I - beta k k^T with unrestricted rational beta and unnormalised k. A
  program is a list of `Step`s (beta and the <= 2 non-zeros of k), run by rank-one updates
  h - beta k <k, h> (`apply`); `dense` gives a step's matrix where a claim needs the matrix.
- Products on DeltaNet: the state holds vec(P) (row-major) and each M acts as the 9 x 9 matrix
  kron(I_3, M^T), so the 694-step program updates P <- P M.
"""
from __future__ import annotations

from dataclasses import dataclass
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


def right_multiply_steps(M: np.ndarray, k: int, parity: int) -> list[tuple[int, dict]]:
    """The k n overwrites that set the inactive block to (active block) @ M, as (j, c) with c
    sparse ({coordinate: coefficient}); state 2 k n.

    Block layout: block p occupies coordinates p k n + i n + j for (i, j); parity = index of the
    active block. Destination (i, j) reads row i of the active block: c = M[:, j] there.
    """
    n = M.shape[0]
    act, ina = parity * k * n, (1 - parity) * k * n
    return [(ina + i * n + j, {act + i * n + l: M[l, j] for l in range(n)})
            for i in range(k) for j in range(n)]


def right_multiply_program(M: np.ndarray, k: int, parity: int) -> list[np.ndarray]:
    """The same overwrites as dense transition matrices A_{j,c} (state 2 k n)."""
    d = 2 * k * M.shape[0]
    prog = []
    for j, coef in right_multiply_steps(M, k, parity):
        c = np.zeros(d, dtype=object)
        for l, v in coef.items():
            c[l] = v
        prog.append(overwrite(d, j, c))
    return prog


def start_bias(X0: np.ndarray) -> np.ndarray:
    """The start token's bias: the initial block in block 0, zeros elsewhere (state 2 k n)."""
    k, n = X0.shape
    b = np.zeros(2 * k * n, dtype=object)
    b[:k * n] = X0.reshape(-1)
    return b


SCHEDULES = ("start_token", "first_token", "none")


def run_program(mats: list[np.ndarray], X0: np.ndarray,
                schedule: str = "start_token") -> np.ndarray:
    """Run the overwrite LRNN h_t = A_t h_{t-1} + b_t from h_0 = 0 on the pre-routed stream;
    returns the active block after the last matrix, shape (k, n).

    Each overwrite A_{j,c} is applied as the coordinate update h_j := <c, h> (the same linear
    map as the dense matrix, O(|c|) instead of O(d^2)). Python ints stay ints, exact.

    schedule:
      - "start_token": a start (BOS) token with A = I and b = start_bias(X0) before the first
        matrix, so the first overwrite reads X0 (the corrected schedule).
      - "first_token": the published timing, reconstructed from S1's description: the first data
        token both initialises (its bias writes X0) and counts as overwrite 1, h_1 = A_1 h_0 + b
        with h_0 = 0, so overwrite 1 (destination (0, 0)) reads the zero state; overwrites 2..9
        of the first matrix read X0.
      - "none": no initialisation at all; the state stays 0 (linear maps of 0).
    """
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule = {schedule!r}; allowed: {', '.join(SCHEDULES)}")
    k, n = X0.shape
    h = [0] * (2 * k * n)
    bias = list(start_bias(X0))
    if schedule == "start_token":
        h = bias
    first = schedule == "first_token"
    for t, M in enumerate(mats):
        for j, coef in right_multiply_steps(np.asarray(M, dtype=object), k, t % 2):
            h[j] = sum((v * h[l] for l, v in coef.items()), 0)
            if first:                                              # h_1 = A_1 h_0 + b_1
                h = [a + b for a, b in zip(h, bias)]
                first = False
    act = (len(mats) % 2) * k * n
    return np.array(h[act:act + k * n], dtype=object).reshape(k, n)


def run_in_place(mats: list[np.ndarray], X0: np.ndarray) -> np.ndarray:
    """Negative control, deliberately broken: the same overwrites X[i, j] := sum_l X[i, l] M[l, j]
    written into the block they read from (one k x n block, no second one to swap to), in the
    order of `right_multiply_steps`. Entry (i, j) then reads the already overwritten (i, l < j),
    so the result is X0 M_1 ... M_N only by accident (e.g. for diagonal M). Python ints stay
    ints; returns (k, n)."""
    X = [list(row) for row in np.asarray(X0, dtype=object)]
    for M in mats:
        M = np.asarray(M, dtype=object)
        n = M.shape[0]
        for i in range(len(X)):
            for j in range(n):
                X[i][j] = sum((X[i][l] * M[l, j] for l in range(n)), 0)
    return np.array(X, dtype=object)


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
    """H(beta, k) = I - beta k k^T as a dense d x d object matrix, exact."""
    k = np.asarray(k, dtype=object)
    return np.identity(d, dtype=object) * Fraction(1) - Fraction(beta) * np.outer(k, k)


def effective_beta(H: np.ndarray) -> Fraction:
    """beta |k|^2 of a Householder step H = I - beta k k^T: the trace of I - H (exact). Its
    eigenvalue along k is 1 - beta |k|^2, so DeltaNet's beta in [0, 2] with unit keys means
    effective beta in [0, 2]."""
    H = np.asarray(H, dtype=object)
    return Fraction(sum(1 - H[i, i] for i in range(H.shape[0])))


@dataclass(frozen=True)
class Step:
    """One step H(beta, k) = I - beta k k^T kept as beta and the non-zero entries of k (at most
    two in the programs below): applying it is the rank-one update h - beta k <k, h>."""

    beta: Fraction
    idx: tuple[int, ...]                                           # where k is non-zero
    val: tuple                                                     # k there (ints or Fractions)


def step(beta, key: dict) -> Step:
    """H(beta, k) with k given as {coordinate: value}; zero entries dropped."""
    items = sorted((i, v) for i, v in key.items() if v != 0)
    if not items:
        raise ValueError("a Householder key needs a non-zero entry")
    return Step(Fraction(beta), tuple(i for i, _ in items), tuple(v for _, v in items))


def dense(s: Step, d: int) -> np.ndarray:
    """The step's d x d matrix I - beta k k^T (for claims about the matrix itself)."""
    k = np.zeros(d, dtype=object)
    for i, v in zip(s.idx, s.val):
        k[i] = v
    return householder(d, s.beta, k)


def apply(prog: list[Step], h) -> np.ndarray:
    """Run a program on h by rank-one updates, exactly: O(|k|) per step, not O(d^2)."""
    h = list(h)
    for s in prog:
        dot = sum((v * h[i] for i, v in zip(s.idx, s.val)), 0)
        if dot:
            c = s.beta * dot
            for i, v in zip(s.idx, s.val):
                h[i] -= c * v
    return np.array(h, dtype=object)


def apply_dense(mats: list[np.ndarray], h) -> np.ndarray:
    """Run a program of dense transition matrices by h <- A h (the O(d^2)-per-step path)."""
    h = np.asarray(h, dtype=object)
    for A in mats:
        h = A.dot(h)
    return h


TRANSVECTION_MIDDLE = Fraction(1, 2)


def transvection(s: int, t: int, middle=TRANSVECTION_MIDDLE) -> list[Step]:
    """h_t += h_s in 3 Householder steps: H(2, e_s + e_t), H(1/2, e_s), H(1/3, e_s + 2 e_t).
    `middle` replaces the 1/2 (a negative control: any other value breaks it)."""
    return [step(2, {s: 1, t: 1}), step(middle, {s: 1}), step(Fraction(1, 3), {s: 1, t: 2})]


def scale(i: int, lam) -> Step:
    """h_i *= lam: H(1 - lam, e_i)."""
    return step(1 - Fraction(lam), {i: 1})


def scaled_add(s: int, t: int, lam, tmp: int) -> list[Step]:
    """h_t += lam h_s with tmp = 0 before and after: 8 steps."""
    return transvection(s, tmp) + [scale(tmp, lam)] + transvection(tmp, t) + [scale(tmp, 0)]


def matrix_program(M: np.ndarray) -> list[Step]:
    """Apply an n x n rational M to x (coords 0..n-1) with a 2n+1 state; result in 0..n-1.

    n+1 zeroings (outputs, tmp), n^2 scaled adds (8 each), n source zeroings, n copy-backs
    (3 each): 694 steps for n = 9 (spec §4.6). Afterwards coordinates n..2n-1 hold a copy of
    the result and tmp = 0, so programs can follow one another on the same state.
    """
    n = M.shape[0]
    tmp = 2 * n
    prog = [scale(n + i, 0) for i in range(n)] + [scale(tmp, 0)]
    for i in range(n):
        for j in range(n):
            prog += scaled_add(j, n + i, M[i, j], tmp)
    prog += [scale(j, 0) for j in range(n)]
    for j in range(n):
        prog += transvection(n + j, j)
    return prog


def right_multiply_embedding(M: np.ndarray) -> np.ndarray:
    """The (n^2 x n^2) column-convention matrix B with B vec(P) = vec(P M), vec row-major:
    (P M)[i, j] = sum_l P[i, l] M[l, j], so B = kron(I_n, M^T) (block diagonal, blocks M^T)."""
    n = M.shape[0]
    B = np.zeros((n * n, n * n), dtype=object)
    for i in range(n):
        B[i * n:(i + 1) * n, i * n:(i + 1) * n] = np.asarray(M, dtype=object).T
    return B


def deltanet_product(mats: list[np.ndarray]) -> tuple[np.ndarray, int]:
    """The iterated product M_1 M_2 ... M_N (left to right) by one DeltaNet state of 2 n^2 + 1
    coordinates: h_0 holds vec(I) (written by a start token, as for RWKV-7), then each M runs
    matrix_program(right_multiply_embedding(M)), P <- P M. Returns (P, Householder steps)."""
    n = mats[0].shape[0]
    h = [1 if i // n == i % n else 0 for i in range(n * n)] + [0] * (n * n + 1)
    steps = 0
    for M in mats:
        prog = matrix_program(right_multiply_embedding(M))
        h = apply(prog, h)
        steps += len(prog)
    return np.array(h[:n * n], dtype=object).reshape(n, n), steps


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
