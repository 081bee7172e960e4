"""The checks of 01_projection_guarantee over the random families of spec §3.1, one call each.

`family_checks` runs the layer (random w and w scaled up), HardNet and the raw f on one family
and returns per-instance numbers; `certificate_checks` gives the w = 0 outputs their KKT and
SLSQP certificates; `equality_form_residual` checks eq. (8) on consistent equality systems.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import torch

from lib.caffnet import certificates, decisions, naive, problems, projection


def _t(a: np.ndarray) -> torch.Tensor:
    return torch.as_tensor(a, dtype=torch.float64)


def relative_violation(y: np.ndarray, A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """max_i (A y - b)_i / (1 + |b_i|), clipped at 0, per instance (spec §3.1 threshold form)."""
    r = (np.einsum("bmn,bn->bm", A, y) - b) / (1 + np.abs(b))
    return np.maximum(r, 0).max(1)


def family_checks(name: str, count: int, n_naive: int, w_scale: float,
                  rng: np.random.Generator) -> dict:
    """Per instance: violation of f, HardNet, CAffNet (w random, w scaled up to w_scale), the
    selected subset's rank, f feasible and returned bitwise, and fast minus naive."""
    A, b, f, w = problems.family_instances(name, count, rng)
    certificates.check_nonempty(A, b)
    big = w * (w_scale / problems.SCALE)
    out = projection.caffine_project(_t(f), _t(w), _t(A), _t(b))
    out_big = projection.caffine_project(_t(f), _t(big), _t(A), _t(b))
    hard = projection.hardnet_project(_t(f), _t(A), torch.full(b.shape, -torch.inf,
                                                               dtype=torch.float64), _t(b))
    y = out.y.numpy()
    f_feasible = np.all(np.einsum("bmn,bn->bm", A, f) - b < projection.TOL, axis=1)
    ref = naive.caffine_project(f[:n_naive], w[:n_naive], A[:n_naive], b[:n_naive])
    return {
        "family": name, "A": A, "b": b, "f": f, "w": w, "y": y,
        "viol_f": relative_violation(f, A, b),
        "viol_hardnet": relative_violation(hard.numpy(), A, b),
        "viol_caffnet": relative_violation(y, A, b),
        "viol_caffnet_big_w": relative_violation(out_big.y.numpy(), A, b),
        "n_feasible": out.n_feasible.numpy(), "rank": out.rank.numpy(),
        "f_feasible": f_feasible, "f_returned": np.all(y == f, axis=1),
        "naive_diff": float(np.abs(ref - y[:n_naive]).max()),
    }


def certificate_checks(fam: dict, count: int) -> tuple[float, float]:
    """w = 0 outputs on the first `count` instances: worst KKT residual (nnls) and worst
    | ||f - P|| - ||f - q_SLSQP|| |."""
    A, b, f = fam["A"][:count], fam["b"][:count], fam["f"][:count]
    P = projection.caffine_project(_t(f), torch.zeros(f.shape, dtype=torch.float64), _t(A),
                                   _t(b)).y.numpy()
    kkt = max(certificates.kkt_residual(f[i], P[i], A[i], b[i]) for i in range(count))
    dist = max(abs(np.linalg.norm(f[i] - P[i])
                   - np.linalg.norm(f[i] - certificates.slsqp_projection(f[i], A[i], b[i])))
               for i in range(count))
    return float(kkt), float(dist)


def summary(fams: list[dict]) -> pd.DataFrame:
    """One row per family: sizes, worst violations, HardNet's failure share, f passed through."""
    rows = []
    for d in fams:
        m, n, r, _ = problems.FAMILIES[d["family"]]
        rows.append({"family": d["family"], "m": m, "n": n, "rank": r,
                     "instances": len(d["f"]), "max_viol_f": d["viol_f"].max(),
                     "max_viol_hardnet": d["viol_hardnet"].max(),
                     "hardnet_share_violating": decisions.share_violating(d["viol_hardnet"]),
                     "max_viol_caffnet": d["viol_caffnet"].max(),
                     "max_viol_caffnet_big_w": d["viol_caffnet_big_w"].max(),
                     "f_feasible": int(d["f_feasible"].sum()),
                     "f_returned": int((d["f_feasible"] & d["f_returned"]).sum()),
                     "vertex_share": float((d["rank"] == n).mean()),
                     "naive_diff": d["naive_diff"]})
    return pd.DataFrame(rows)


def equality_form_residual(rng: np.random.Generator, count: int) -> float:
    """eq. (8): P = f - A^+(A f - b) + (I - A^+ A) w with b = A y0 (consistent), for full-rank,
    rank-deficient and wide A; worst ||A P - b||_inf / (1 + ||b||_inf)."""
    worst = 0.0
    for m, n, r in ((3, 5, 3), (6, 4, 2), (8, 3, 3), (5, 5, 1)):
        A = _t(rng.standard_normal((count, m, r)) @ rng.standard_normal((count, r, n)))
        b = torch.einsum("bmn,bn->bm", A, _t(rng.standard_normal((count, n))))
        f, w = _t(3 * rng.standard_normal((count, n))), _t(3 * rng.standard_normal((count, n)))
        pinv = torch.linalg.pinv(A, rtol=projection.PINV_RTOL)
        P = f - torch.einsum("bnm,bm->bn", pinv, torch.einsum("bmn,bn->bm", A, f) - b) \
            + torch.einsum("bij,bj->bi", torch.eye(n, dtype=torch.float64) - pinv @ A, w)
        res = (torch.einsum("bmn,bn->bm", A, P) - b).abs().amax(1) / (1 + b.abs().amax(1))
        worst = max(worst, float(res.max()))
    return worst


def full_row_rank_hardnet(rng: np.random.Generator, count: int) -> float:
    """HardNet on m <= n random full-row-rank A with random b_l <= b_u: worst violation."""
    worst = 0.0
    for m, n in ((1, 1), (2, 2), (3, 5), (2, 4)):
        A = _t(rng.standard_normal((count, m, n)))
        lo = _t(rng.standard_normal((count, m)))
        hi = lo + _t(rng.exponential(1.0, (count, m)))
        y = projection.hardnet_project(_t(3 * rng.standard_normal((count, n))), A, lo, hi)
        Ay = torch.einsum("bmn,bn->bm", A, y)
        v = torch.maximum(lo - Ay, Ay - hi).clamp(min=0).amax(1) / (1 + hi.abs().amax(1))
        worst = max(worst, float(v.max()))
    return worst


def clamp_gap(rng: np.random.Generator, count: int) -> float:
    """n = 1 (E4): the layer against clamp(f, max l, min u) for random bounds; worst |diff|."""
    lo = rng.standard_normal((count, 2))
    hi = lo.max(1, keepdims=True) + rng.exponential(1.0, (count, 2))
    f = 3 * rng.standard_normal((count, 1))
    b = np.concatenate([-lo, hi], 1)
    A = np.broadcast_to(np.array([[-1.0], [-1.0], [1.0], [1.0]]), (count, 4, 1)).copy()
    y = projection.caffine_project(_t(f), _t(rng.standard_normal((count, 1))), _t(A), _t(b)).y
    clamp = np.clip(f[:, 0], lo.max(1), hi.min(1))
    return float(np.abs(y.numpy()[:, 0] - clamp).max())
