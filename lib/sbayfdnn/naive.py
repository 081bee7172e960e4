"""Plain references for lib/sbayfdnn (spec §4), written from the definitions with loops, in
float64 or exact rational arithmetic; tests and bench/ import them, notebooks never do.

- `bspline_basis`: the Cox-de Boor recursion, point by point and basis by basis.
- `pip`: the posterior of r_j from the two Gaussian densities of a column, entry by entry.
- `basis_support_intervals`: the union of supports by a sweep over sorted endpoints.
- `region_metrics`: lengths of intersections and unions by exact interval arithmetic.
- `oracle_iou`: the best IoU over every subset of the bases meeting R (Fractions).
- `fit_map`: the MAP fits one model at a time, each with its own Adam, no vmap.
"""
from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import numpy as np
import torch

from lib.sbayfdnn import basis, prior


def bspline_basis(t: np.ndarray, J: int, degree: int) -> np.ndarray:
    """B_j(t) by Cox-de Boor (0/0 := 0); t = 1 is put in the last non-empty knot interval."""
    knots = basis.clamped_knots(J, degree)
    out = np.full((len(t), J), np.nan)
    last = max(i for i in range(len(knots) - 1) if knots[i] < knots[i + 1])
    for a, x in enumerate(t):
        N = [0.0] * (len(knots) - 1)                      # degree 0
        for i in range(len(knots) - 1):
            if knots[i] <= x < knots[i + 1] or (i == last and x == knots[i + 1]):
                N[i] = 1.0
        for k in range(1, degree + 1):
            for i in range(len(knots) - 1 - k):
                left = right = 0.0
                if knots[i + k] > knots[i]:
                    left = (x - knots[i]) / (knots[i + k] - knots[i]) * N[i]
                if knots[i + k + 1] > knots[i + 1]:
                    right = (knots[i + k + 1] - x) / (knots[i + k + 1] - knots[i + 1]) * N[i + 1]
                N[i] = left + right
        out[a] = N[:J]
    assert np.isfinite(out).all()
    return out


def pip(norm2: np.ndarray, W: int, lam: float, s0: float, s1: float) -> np.ndarray:
    """P(slab | w) for a column w with W equal entries of squared norm norm2, from the sum over
    entries of the two log densities and Bayes' rule in log space."""
    out = np.full(len(norm2), np.nan)
    for a, n2 in enumerate(norm2):
        w = math.sqrt(n2 / W)
        log1 = math.log(lam)
        log0 = math.log(1 - lam)
        for _ in range(W):
            log1 += -0.5 * math.log(2 * math.pi * s1) - w * w / (2 * s1)
            log0 += -0.5 * math.log(2 * math.pi * s0) - w * w / (2 * s0)
        top = max(log1, log0)
        out[a] = math.exp(log1 - top) / (math.exp(log1 - top) + math.exp(log0 - top))
    return out


def basis_support_intervals(selected, knots: np.ndarray, degree: int
                            ) -> list[tuple[float, float]]:
    """The union of the supports, by counting open intervals along the sorted endpoints (a start
    sorts before an end at the same point, so touching intervals merge)."""
    events = []
    for j in set(selected):
        events += [(knots[j], 0), (knots[j + degree + 1], 1)]
    out, depth, start = [], 0, None
    for x, kind in sorted(events):
        if kind == 0:
            if depth == 0:
                start = x
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                out.append((start, x))
    return out


def _length(intervals) -> Fraction:
    return sum((Fraction(hi) - Fraction(lo) for lo, hi in intervals), Fraction(0))


def _intersect(intervals, lo: Fraction, hi: Fraction) -> list[tuple[Fraction, Fraction]]:
    out = []
    for a, b in intervals:
        a, b = max(Fraction(a), lo), min(Fraction(b), hi)
        if a < b:
            out.append((a, b))
    return out


def region_metrics(intervals, support: tuple) -> dict[str, Fraction]:
    """TPR, FPR and IoU of disjoint intervals against R on [0, 1], by exact lengths."""
    lo, hi = Fraction(str(support[0])), Fraction(str(support[1]))   # 0.2 -> 1/5 exactly
    inter = _length(_intersect(intervals, lo, hi))
    est = _length(intervals)
    union = est + (hi - lo) - inter
    return {"tpr": inter / (hi - lo), "fpr": (est - inter) / (1 - (hi - lo)),
            "iou": inter / union if union else Fraction(0)}


def oracle_iou(J: int, degree: int, support: tuple) -> tuple[Fraction, tuple[int, ...]]:
    """Best exact IoU over every non-empty subset of the bases whose support meets R, with knots
    as Fractions (j / (J - degree))."""
    m = J - degree
    knots = [Fraction(0)] * degree + [Fraction(i, m) for i in range(m + 1)] + [Fraction(1)] * degree
    lo, hi = Fraction(str(support[0])), Fraction(str(support[1]))
    meet = [j for j in range(J) if knots[j + degree + 1] > lo and knots[j] < hi]
    best, arg = Fraction(-1), ()
    for size in range(1, len(meet) + 1):
        for sub in combinations(meet, size):
            iou = region_metrics(basis_support_intervals(sub, knots, degree), support)["iou"]
            if iou > best:
                best, arg = iou, sub
    return best, arg


def fit_map(Z: torch.Tensor, y: torch.Tensor, priors, init: dict, spec, steps: int, lr: float
            ) -> tuple[dict, torch.Tensor]:
    """The B fits of model.fit_map in a loop, each model its own tensors and its own Adam; the
    objective written out with explicit layers. Returns stacked parameters and training MSEs."""
    finals, mses = [], []
    for b in range(Z.shape[0]):
        p = {k: v[b].clone().requires_grad_(True) for k, v in init.items()}
        opt = torch.optim.Adam(list(p.values()), lr=lr)

        def out(q):
            h1 = torch.relu(torch.nn.functional.linear(Z[b], q["W1"], q["b1"]))
            h2 = torch.relu(torch.nn.functional.linear(h1, q["W2"], q["b2"]))
            return torch.nn.functional.linear(h2, q["W3"], q["b3"]).reshape(-1)

        for _ in range(steps):
            opt.zero_grad()
            norm2 = (p["W1"] ** 2).sum(0)
            if priors[b] == "ss":   # -log(lam N1 + (1 - lam) N0), log-sum-exp by hand
                a, c = prior.log_components(norm2, p["W1"].shape[0], spec.lam, spec.s0, spec.s1)
                top = torch.maximum(a, c)
                pen = -(top + torch.log(torch.exp(a - top) + torch.exp(c - top))).sum()
            else:
                pen = norm2.sum() / (2 * spec.gauss_var)
            rest = sum((p[k] ** 2).sum() for k in ("b1", "W2", "b2", "W3", "b3")) / 2
            loss = ((y[b] - out(p)) ** 2).sum() / (2 * spec.s2) + pen + rest
            loss.backward()
            opt.step()
        with torch.no_grad():
            finals.append({k: v.detach() for k, v in p.items()})
            mses.append(((y[b] - out(p)) ** 2).mean())
    return {k: torch.stack([f[k] for f in finals]) for k in init}, torch.stack(mses)
