"""The rules deciding calpro's claims, with the spec's thresholds (spec §3), fixed before the
run. Pure functions of measured numbers; tests/calpro/test_decisions.py shows each both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import stats

SE_FACTOR = 3.0             # id_validity, bound.* : "3 SE" everywhere the spec says it
CLOSED_FORM_TOL = 0.03      # shift.vanilla_closed_form: |measured - C_Q| <= 0.03
BASELINE_DROP = (0.15, 0.25)   # the paper's baselines lose 15-25 pp across modalities (C1)
PRIOR_DROP_MAX = 0.05       # shift.nig_drop: the prior-aware arm loses <= 5 pp (C1)
BLIND_DROP_MIN = 0.10       # shift.blind_fails: the blind NIG loses >= 10 pp
ERROR_RATIO_MAX = 0.7       # calibration error reduced by >= 30 % (C2's 30-50 %, low end)
PIVOT_ATOL = 1e-6           # bound.pivotal_oracle: quadrature + Brent to 1e-6
RANK_MIN = 0.9              # NB2 shift.gap_grows: Spearman(p, gap) >= 0.9
PRIOR_ARM = "p1"            # the prior-aware arm the C1/C5 claims are about (spec §1.4 P1)


def covers(coverage: float, a: float, se: float) -> bool:
    """Coverage >= 1 - a - 3 SE (the finite-sample theorem, read through sampling error)."""
    return coverage >= 1 - a - SE_FACTOR * se


def seed_mean_se(variances: Sequence[float]) -> float:
    """Standard error of a mean over seeds whose coverages are independent with these variances
    (per seed: the calibration draw's Beta variance plus the test residues' binomial one)."""
    v = np.asarray(variances, dtype=float)
    return float(np.sqrt(v.sum()) / v.size)


def covers_seeds(coverages: Sequence[float], a: float, variances: Sequence[float]) -> bool:
    """id_validity for one arm: the seed mean of coverage >= 1 - a - 3 SE, the SE counting both
    the calibration draw and the test sampling of every seed (`seed_mean_se`)."""
    return covers(float(np.mean(coverages)), a, seed_mean_se(variances))


def near(measured: float, expected: float, tol: float) -> bool:
    return abs(measured - expected) <= tol


def ordered_drops(drops: dict[str, float]) -> bool:
    """The spec's reading of the ablation: both feature-informed arms (p0, p1) lose less than
    the crude modulation p2, which loses less than the blind NIG."""
    return max(drops["p0"], drops["p1"]) < drops["p2"] < drops["blind"]


def narrower(paired_diff: Sequence[float]) -> bool:
    """Mean over seeds of width(prior arm) - width(vanilla) on ordered residues is negative."""
    if not len(paired_diff):
        raise ValueError("narrower: one paired difference per seed")
    return sum(paired_diff) / len(paired_diff) < 0


def error_reduced(err_prior: float, err_vanilla: float) -> bool:
    return err_prior <= ERROR_RATIO_MAX * err_vanilla


def grows(levels: Sequence[float], gaps: Sequence[float]) -> tuple[float, bool]:
    """Spearman rank correlation of the gap with the shift level, and whether it is >= 0.9."""
    rho = float(stats.spearmanr(levels, gaps).statistic) if len(levels) > 2 else (
        1.0 if gaps[-1] > gaps[0] else -1.0)
    return rho, rho >= RANK_MIN
