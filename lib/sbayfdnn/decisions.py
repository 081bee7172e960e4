"""The rules deciding sbayfdnn's statistical claims (spec §3, NB2 R1-R6 and NB3 C1-C2).

Each takes numbers a notebook measured and returns whether the claim holds; thresholds are
arguments whose defaults are the named constants below, fixed in advance from the spec. Nothing
here trains or reads files (tests/sbayfdnn/test_decisions.py checks each rule on hand inputs).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from lib.companion.rules import beyond, nonempty_finite

MIN_TPR = 0.9             # spec R1: median TPR >= 0.9 for every link
IOU_SLACK = 0.20          # spec R2: median IoU >= oracle IoU - 0.20
MAX_FPR = 0.15            # spec R2: FPR <= 0.15
NONLINEAR_MSE_RATIO = 0.5  # spec R4: median MSE sBayFDNN / FLM <= 0.5 (sin, square)
LINEAR_MSE_FACTOR = 5.0   # spec R5: sBayFDNN MSE <= 5 x FLM MSE (linear link)
FDNN_MSE_FACTOR = 1.5     # spec R6: median MSE(sBayFDNN) <= 1.5 x median MSE(FDNN)
COVERAGE_RANGE = (0.8, 0.97)  # spec C2: 90% coverage in [0.8, 0.97]
LEARNED_MSE = 0.5         # a model "learned" when its median test MSE is below half the
                          # standardised response variance (the precondition of R6)


def median(values: Sequence[float]) -> float:
    """Median of a non-empty finite sample."""
    return float(np.median(nonempty_finite(values, "values")))


def covers(tprs: Sequence[float], least: float = MIN_TPR) -> bool:
    """R1 for one link: median TPR >= least."""
    return median(tprs) >= least


def tight(ious: Sequence[float], fprs: Sequence[float], oracle: float,
          slack: float = IOU_SLACK, max_fpr: float = MAX_FPR) -> bool:
    """R2 for one link: median IoU >= oracle - slack and median FPR <= max_fpr."""
    return median(ious) >= oracle - slack and median(fprs) <= max_fpr


def above(ours: Sequence[float], other: Sequence[float]) -> bool:
    """R3 for one link: median of ours strictly above the median of other."""
    return median(ours) > median(other)


def ratio_at_most(ours: Sequence[float], other: Sequence[float], factor: float) -> bool:
    """R4-R6: median(ours) <= factor x median(other)."""
    return median(ours) <= factor * median(other)


def non_decreasing(values: Sequence[float]) -> bool:
    """C1 (SNR 1): a sequence of medians never falls."""
    arr = nonempty_finite(values, "medians")
    return bool((np.diff(arr) >= 0).all())


def decreasing(values: Sequence[float]) -> bool:
    """C1 (SNR 5): a sequence of medians falls at every step."""
    arr = nonempty_finite(values, "medians")
    return bool((np.diff(arr) < 0).all())


def in_range(value: float, bounds: tuple[float, float] = COVERAGE_RANGE) -> bool:
    """C2: a coverage inside the closed range."""
    v = float(nonempty_finite([value], "value")[0])
    return bounds[0] <= v <= bounds[1]


def improves(first: Sequence[float], last: Sequence[float], k: float = 2.0) -> bool:
    """C1: a metric paired by replication rose from the first n to the last: the mean of
    last − first more than k standard errors above zero over >= 3 replications."""
    return beyond(np.asarray(last, dtype=float) - np.asarray(first, dtype=float), k)


def not_shown_rising(first: Sequence[float], last: Sequence[float], k: float = 2.0) -> bool:
    """C1: a metric paired by replication is not shown to rise from the first n to the last
    (last − first not beyond k standard errors above zero)."""
    return not beyond(np.asarray(last, dtype=float) - np.asarray(first, dtype=float), k)
