"""Region metrics on a grid (spec §3): TPR, FPR and IoU of an estimated union of intervals
against the true region R, and the oracle IoU, the best any union of basis supports can reach."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from lib.sbayfdnn import basis

Intervals = Sequence[tuple[float, float]]


def indicator(intervals: Intervals, grid: np.ndarray) -> np.ndarray:
    """Mask of the grid points inside any of the closed intervals."""
    mask = np.zeros(grid.shape, bool)
    for lo, hi in intervals:
        mask |= (grid >= lo) & (grid <= hi)
    return mask


def region_metrics(intervals: Intervals, support: tuple[float, float], grid: np.ndarray
                   ) -> dict[str, float]:
    """TPR = |Rhat & R| / |R|, FPR = |Rhat - R| / |T - R|, IoU = |Rhat & R| / |Rhat | R|, counted
    on the grid (an empty estimate has IoU 0)."""
    est, true = indicator(intervals, grid), indicator([support], grid)
    inter, union = (est & true).sum(), (est | true).sum()
    return {"tpr": inter / true.sum(), "fpr": (est & ~true).sum() / (~true).sum(),
            "iou": inter / union if union else 0.0}


def oracle_iou(J: int, degree: int, support: tuple[float, float], grid: np.ndarray
               ) -> tuple[float, tuple[int, ...]]:
    """Best grid IoU of a union of basis supports and the bases achieving it. Only contiguous
    runs of bases meeting R are searched: a basis missing R only adds false positives, and the
    supports of consecutive bases overlap, so a gap between chosen ones inside R can be filled
    (naive.oracle_iou checks this against every subset)."""
    knots = basis.clamped_knots(J, degree)
    meet = [j for j in range(J) if basis.support(j, knots, degree)[1] > support[0]
            and basis.support(j, knots, degree)[0] < support[1]]
    best, arg = 0.0, ()
    for a in range(len(meet)):
        for b in range(a, len(meet)):
            run = tuple(meet[a:b + 1])
            iou = region_metrics(basis.basis_support_intervals(run, knots, degree), support,
                                 grid)["iou"]
            if iou > best + 1e-15:
                best, arg = float(iou), run
    return best, arg
