"""The scenarios of the miniature (spec §1.5, §3.1): random constraint families, the 1-D
piecewise bounds (pwc) and the 3 -> 5 optimisation proxy (opt) with its reference solver."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

# --- random instance families of spec §3.1: (m, n, rank, kind) --------------------------------
FAMILIES = {
    "over_complete": (8, 3, 3, "generic"),
    "rank_deficient": (6, 4, 2, "lowrank"),
    "rank_one": (4, 3, 1, "lowrank"),
    "equality_pairs": (11, 5, 5, "pairs"),
    "control_like": (13, 2, 2, "generic"),
}
TIGHT_SHARE = 0.3   # spec §3.1: about 30% of the slacks are 0, so faces are tight
SCALE = 3.0         # f, w ~ N(0, 3^2)
START_SCALE = 3.0   # reference solver: random starts v ~ N(0, 3^2) in the null space of C


def family_instances(name: str, count: int, rng: np.random.Generator):
    """A (B, m, n), b (B, m), f, w (B, n): feasible by construction, b = A y0 + s, s >= 0."""
    m, n, r, kind = FAMILIES[name]
    if kind == "lowrank":
        A = rng.standard_normal((count, m, r)) @ rng.standard_normal((count, r, n))
    elif kind == "pairs":
        E = rng.standard_normal((count, 3, n))
        A = np.concatenate([E, -E, rng.standard_normal((count, m - 6, n))], axis=1)
    else:
        A = rng.standard_normal((count, m, n))
    y0 = rng.standard_normal((count, n))
    s = rng.exponential(1.0, (count, m)) * (rng.random((count, m)) >= TIGHT_SHARE)
    if kind == "pairs":
        s[:, :6] = 0.0          # E y = E y0 exactly
    b = np.einsum("bmn,bn->bm", A, y0) + s
    f = SCALE * rng.standard_normal((count, n))
    w = SCALE * rng.standard_normal((count, n))
    return A, b, f, w


# --- pwc: 1-D piecewise target and bounds (spec §1.5 table) ------------------------------------
def pwc_target(x: np.ndarray) -> np.ndarray:
    """f*(x) on [-2, 2], four pieces."""
    s = np.sin(np.pi * (x + 1) / 2)
    with np.errstate(divide="ignore"):          # 3 / x^2 is evaluated at x = 0 and discarded
        last = 3 / x ** 2 - 2
    return np.select([x <= -1, x <= 0, x <= 1],
                     [-5 * s - 2, -2.0 + 0 * x, 2 - 9 * (x - 2 / 3) ** 2], last)


def pwc_bounds(x: np.ndarray) -> np.ndarray:
    """(len(x), 4) columns l1, l2, u1, u2 (intervals [l1, u1] and [l2, u2])."""
    s = np.sin(np.pi * (x + 1) / 2)
    with np.errstate(divide="ignore"):
        pieces = [
            (x <= -1, [5 * s ** 2 - 3, 5 * s ** 8 - 2, -3 * s + 0.2, -3 * s ** 3 + 1]),
            (x <= 0, [-2 + 0 * x, -3 + 0 * x, -2 + 0 * x, 2 + 0 * x]),
            (x <= 1, [(4 - 9 * (x - 2 / 3) ** 2) * x - 2.5, (5 - 4 * (x - 1 / 6) ** 2) * x - 2.5,
                      3 - 4 * (x - 0.5) ** 2, 3 - 4 * (x - 0.8) ** 2]),
            (np.ones_like(x, dtype=bool), [3 / x ** 3 - 2.5, 1.5 / x ** 3 - 16 / 9,
                                           2 + 0 * x, 2.5 + 0 * x]),
        ]
    out = np.full((len(x), 4), np.nan)
    done = np.zeros(len(x), dtype=bool)
    for mask, cols in pieces:
        sel = mask & ~done
        out[sel] = np.stack(cols, 1)[sel]
        done |= sel
    assert np.isfinite(out).all()
    return out


# pwc rows as A y <= b with n = 1: -y <= -l1, -y <= -l2, y <= u1, y <= u2
PWC_A = np.array([[-1.0], [-1.0], [1.0], [1.0]])


def pwc_b(bounds: np.ndarray) -> np.ndarray:
    return np.stack([-bounds[:, 0], -bounds[:, 1], bounds[:, 2], bounds[:, 3]], 1)


def pwc_violation(y: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """max(l - y, y - u, 0) over the four bounds, per point (y broadcast on the last axis)."""
    lo, hi = bounds[:, :2].max(1), bounds[:, 2:].min(1)
    return np.maximum(np.maximum(lo - y, y - hi), 0.0)


# --- opt: min 1/2 y^T Q y + p^T sin y  s.t.  G y <= h, C y = x (spec §1.5) ----------------------
@dataclass(frozen=True)
class OptInstance:
    Q: np.ndarray   # (5, 5) diagonal
    p: np.ndarray   # (5,)
    G: np.ndarray   # (5, 5)
    h: np.ndarray   # (5,)
    C: np.ndarray   # (3, 5)


def make_instance(seed: int = 1) -> OptInstance:
    """The official code's instance: legacy stream numpy.random.seed(seed), in this order."""
    rs = np.random.RandomState(seed)
    Q = np.diag(rs.rand(5))
    p = rs.rand(5)
    G = rs.randn(5, 5)
    C = rs.randn(3, 5)
    h = np.abs(G @ np.linalg.pinv(C)).sum(1)
    return OptInstance(Q, p, G, h, C)


def objective(inst: OptInstance, y: np.ndarray) -> np.ndarray:
    """1/2 y^T Q y + p^T sin(y) per row of y (B, 5)."""
    return 0.5 * np.einsum("bi,ij,bj->b", y, inst.Q, y) + np.sin(y) @ inst.p


def residuals(inst: OptInstance, y: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: worst inequality violation max (G y - h)_+ and worst |C y - x|."""
    ineq = np.maximum(y @ inst.G.T - inst.h, 0).max(1)
    eq = np.abs(y @ inst.C.T - x).max(1)
    return ineq, eq


def reference_solve(inst: OptInstance, x: np.ndarray, n_starts: int,
                    rng: np.random.Generator) -> np.ndarray:
    """Reference optimum per input (B, 3) -> (B, 5): y = C^+ x + Z v over the 2-D null space
    of C, SLSQP with the inequalities from v = 0 (feasible: C^+ x is) and n_starts - 1 random
    starts; the best feasible result is kept."""
    Cp = np.linalg.pinv(inst.C)
    _, _, Vt = np.linalg.svd(inst.C)
    Z = Vt[3:].T                                               # (5, 2) basis of ker C
    out = np.full((x.shape[0], 5), np.nan)
    starts = np.vstack([np.zeros((1, 2)), START_SCALE * rng.standard_normal((n_starts - 1, 2))])
    for i, xi in enumerate(x):
        y0 = Cp @ xi

        def fun(v, y0=y0):
            y = y0 + Z @ v
            grad = Z.T @ (inst.Q @ y + inst.p * np.cos(y))
            return 0.5 * y @ inst.Q @ y + inst.p @ np.sin(y), grad

        cons = [{"type": "ineq", "fun": lambda v, y0=y0: inst.h - inst.G @ (y0 + Z @ v),
                 "jac": lambda v: -inst.G @ Z}]
        best, best_val = None, np.inf
        for v0 in starts:
            res = minimize(fun, v0, jac=True, constraints=cons, method="SLSQP",
                           options={"ftol": 1e-13, "maxiter": 300})
            y = y0 + Z @ res.x
            if np.all(inst.G @ y - inst.h <= 1e-9) and res.fun < best_val:
                best, best_val = y, res.fun
        out[i] = best
    if not np.isfinite(out).all():
        raise RuntimeError("the reference solver found no feasible point for some input")
    return out
