"""The CAffine layer (spec §1.2, paper eqs. 4 and 6) and HardNet-Aff (spec §1.3 E7), batched.

For every row subset g of A (1 <= |g| <= min(m, n)) the candidate is

    P_g = f - A_g^+ (A_g f - b_g) + (I - A_g^+ A_g) w,

and the output is f when A f <= b, else the nearest (Euclidean) feasible candidate. A candidate
is feasible when every row residual (A c - b)_i < tol (1 + |b_i| + sum_j |A_ij c_j|): the official
code's 1e-10, taken relative to the row's magnitude, since float64 rounding of A c alone exceeds an
absolute 1e-10 once |w| reaches ~1e3 (a property test found a feasible set refused at 1.4e-10;
on rows of magnitude ~1 the two rules agree). If no candidate
is feasible the constraint set is empty (Assumption 3.2 fails; spec §1.3 E1): the layer raises
`InfeasibleConstraints` naming the instances instead of returning a violating output.

Two entry points: `caffine_project` for input-dependent A (B, m, n) (one batched pinv per subset
size), and `caffine_project_fixed` for a fixed A, whose per-subset operators `subset_operators`
computes once. Shapes: f, w (B, n); A (B, m, n) or (m, n); b (B, m); candidates (B, K, n).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb

import torch

TOL = 1e-10          # feasibility threshold, relative to the row (official code: absolute; §1.2)
PINV_RTOL = 1e-10    # decision: singular values below 1e-10 * largest count as zero
FAR = 1e10           # added to the distance of an infeasible candidate (official code)


class InfeasibleConstraints(ValueError):
    """A(x) y <= b(x) has no solution for some inputs (no candidate is feasible)."""


@dataclass(frozen=True)
class Projection:
    """Output of the layer and what it chose."""

    y: torch.Tensor          # (B, n) the output
    index: torch.Tensor      # (B,) selected candidate, 0 = f itself
    rank: torch.Tensor       # (B,) rank of the selected A_g (0 for f)
    n_feasible: torch.Tensor  # (B,) feasible candidates


def row_subsets(m: int, n: int, eq_rows: tuple[int, ...] | None = None,
                free_rows: tuple[int, ...] | None = None) -> list[tuple[int, ...]]:
    """Row subsets of size 1..min(m, n), by size then lexicographically. With `eq_rows` (rows
    that must hold with equality, spec §1.3 E6) every subset contains them and adds at most
    n - len(eq_rows) of `free_rows` (default: all other rows; the mirrored -E rows of an
    equality pair add nothing and can be left out). `eq_rows` are assumed independent."""
    if m < 0 or n < 1:
        raise ValueError(f"need m >= 0 rows and n >= 1 outputs, got m = {m}, n = {n}")
    if eq_rows is None:
        return [g for k in range(1, min(m, n) + 1) for g in combinations(range(m), k)]
    eq = tuple(sorted(eq_rows))
    if len(eq) > n or any(not 0 <= i < m for i in eq):
        raise ValueError(f"eq_rows {eq_rows} must be at most n = {n} rows among 0..{m - 1}")
    rest = [i for i in (range(m) if free_rows is None else free_rows) if i not in eq]
    return [tuple(sorted(eq + g)) for k in range(0, n - len(eq) + 1)
            for g in combinations(rest, k) if eq + g]


def candidate_count(m: int, n: int) -> int:
    """K = 1 + sum_{k=1}^{min(m,n)} C(m, k) (f itself and one candidate per subset)."""
    return 1 + sum(comb(m, k) for k in range(1, min(m, n) + 1))


def _check(f: torch.Tensor, w: torch.Tensor, A: torch.Tensor, b: torch.Tensor) -> None:
    if f.ndim != 2 or w.shape != f.shape:
        raise ValueError(f"f and w must both be (B, n); got {tuple(f.shape)} and {tuple(w.shape)}")
    B, n = f.shape
    if A.shape[-1] != n or b.shape != (B, A.shape[-2]) or A.ndim not in (2, 3) \
            or (A.ndim == 3 and A.shape[0] != B):
        raise ValueError(f"A must be (B, m, {n}) or (m, {n}) and b (B, m); got A "
                         f"{tuple(A.shape)}, b {tuple(b.shape)} with B = {B}")
    for name, t in (("f", f), ("w", w), ("A", A), ("b", b)):
        if not torch.isfinite(t).all():
            raise ValueError(f"{name} holds non-finite values (NaN or inf): refusing to project")


def _select(f: torch.Tensor, cands: torch.Tensor, ranks: torch.Tensor, A: torch.Tensor,
            b: torch.Tensor, tol: float) -> Projection:
    """Nearest feasible candidate; cands (B, K, n) with f first, ranks (K,) or (B, K)."""
    Ab = A if A.ndim == 3 else A.expand(f.shape[0], *A.shape)
    resid = torch.einsum("bmn,bkn->bkm", Ab, cands) - b[:, None, :]    # (B, K, m)
    scale = 1 + b.abs()[:, None, :] + torch.einsum("bmn,bkn->bkm", Ab.abs(), cands.abs())
    feasible = (resid < tol * scale).all(-1) if resid.shape[-1] else torch.ones(
        cands.shape[:2], dtype=torch.bool)                               # (B, K)
    n_feasible = feasible.sum(-1)
    if (n_feasible == 0).any():
        bad = torch.nonzero(n_feasible == 0).flatten().tolist()
        raise InfeasibleConstraints(
            f"no candidate satisfies A y <= b for instance(s) {bad[:10]}"
            f"{' ...' if len(bad) > 10 else ''} of {f.shape[0]}: their constraint sets are empty "
            f"(worst row residual of the best candidate {resid[bad[0]].max(-1).values.min():.3g}); "
            "Assumption 3.2 requires C(x) non-empty for every input")
    dist = (cands - f[:, None, :]).norm(dim=-1) + FAR * (~feasible)
    index = dist.argmin(-1)                                                # (B,)
    y = cands.gather(1, index[:, None, None].expand(-1, 1, f.shape[1]))[:, 0]
    rk = ranks.expand(f.shape[0], -1) if ranks.ndim == 1 else ranks
    return Projection(y, index, rk.gather(1, index[:, None])[:, 0], n_feasible)


def caffine_project(f: torch.Tensor, w: torch.Tensor, A: torch.Tensor, b: torch.Tensor,
                    tol: float = TOL, subsets: list[tuple[int, ...]] | None = None) -> Projection:
    """The layer for input-dependent A (B, m, n): candidates of every subset, one pinv per size."""
    _check(f, w, A, b)
    B, m, n = A.shape
    subsets = row_subsets(m, n) if subsets is None else subsets
    cands, ranks = [f[:, None, :]], [torch.zeros(B, 1, dtype=torch.long)]
    eye = torch.eye(n, dtype=f.dtype)
    for k in sorted({len(g) for g in subsets}):
        idx = torch.tensor([g for g in subsets if len(g) == k])               # (C, k)
        Ag = A[:, idx]                                                        # (B, C, k, n)
        pinv = torch.linalg.pinv(Ag, rtol=PINV_RTOL)                          # (B, C, n, k)
        r = torch.einsum("bckn,bn->bck", Ag, f) - b[:, idx]                   # (B, C, k)
        null = eye - pinv @ Ag                                                # (B, C, n, n)
        cands.append(f[:, None] - torch.einsum("bcnk,bck->bcn", pinv, r)
                     + torch.einsum("bcij,bj->bci", null, w))
        ranks.append(torch.linalg.matrix_rank(Ag, rtol=PINV_RTOL))
    return _select(f, torch.cat(cands, 1), torch.cat(ranks, 1), A, b, tol)


@dataclass(frozen=True)
class SubsetOperators:
    """For a fixed A (m, n): per subset, A_g^+ scattered into m columns, and I - A_g^+ A_g."""

    A: torch.Tensor          # (m, n)
    M: torch.Tensor          # (S, n, m): M_g (A f - b) = A_g^+ (A_g f - b_g)
    N: torch.Tensor          # (S, n, n): null-space projector of A_g
    rank: torch.Tensor       # (S + 1,) rank of each candidate's A_g, 0 for f first


def subset_operators(A: torch.Tensor, subsets: list[tuple[int, ...]] | None = None
                     ) -> SubsetOperators:
    """Pseudo-inverses and null-space projectors of every subset of a fixed A, computed once."""
    m, n = A.shape
    subsets = row_subsets(m, n) if subsets is None else subsets
    M = torch.zeros(len(subsets), n, m, dtype=A.dtype)
    N = torch.empty(len(subsets), n, n, dtype=A.dtype)
    rank = torch.zeros(len(subsets) + 1, dtype=torch.long)
    for s, g in enumerate(subsets):
        Ag = A[list(g)]
        pinv = torch.linalg.pinv(Ag, rtol=PINV_RTOL)
        M[s][:, list(g)] = pinv
        N[s] = torch.eye(n, dtype=A.dtype) - pinv @ Ag
        rank[s + 1] = torch.linalg.matrix_rank(Ag, rtol=PINV_RTOL)
    return SubsetOperators(A, M, N, rank)


def caffine_project_fixed(f: torch.Tensor, w: torch.Tensor, ops: SubsetOperators,
                          b: torch.Tensor, tol: float = TOL) -> Projection:
    """The layer for a fixed A (ops from `subset_operators`) and input-dependent b (B, m)."""
    _check(f, w, ops.A, b)
    r = f @ ops.A.T - b                                                        # (B, m)
    cands = (f[:, None] - torch.einsum("snm,bm->bsn", ops.M, r)
             + torch.einsum("sij,bj->bsi", ops.N, w))                          # (B, S, n)
    return _select(f, torch.cat([f[:, None], cands], 1), ops.rank, ops.A, b, tol)


def hardnet_project(y: torch.Tensor, A: torch.Tensor, b_l: torch.Tensor, b_u: torch.Tensor
                    ) -> torch.Tensor:
    """HardNet-Aff: y + A^+ (ReLU(b_l - A y) - ReLU(A y - b_u)); A (m, n) or (B, m, n),
    b_l, b_u (B, m) (use -inf / inf for one-sided rows). Exact only when A has full row rank."""
    if A.ndim == 2:
        Ay = y @ A.T
        c = torch.relu(b_l - Ay) - torch.relu(Ay - b_u)
        return y + c @ torch.linalg.pinv(A, rtol=PINV_RTOL).T
    Ay = torch.einsum("bmn,bn->bm", A, y)
    c = torch.relu(b_l - Ay) - torch.relu(Ay - b_u)
    return y + torch.einsum("bnm,bm->bn", torch.linalg.pinv(A, rtol=PINV_RTOL), c)
