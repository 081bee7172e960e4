"""The rules deciding calpro's statistical and qualitative claims (spec §3), fixed before the
run. The claims stage applies them (notebooks/calpro/claims.yaml names each claim's rule); their
thresholds are the constants here, the one place each is written. Each rule takes the evidence a
notebook recorded by name, one replicate (a training seed) per row, and decides on the seed
mean; tests/calpro/test_decisions.py checks each both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import stats

from lib.companion import rules

ID_SE_FACTOR = 3.0             # id_validity: coverage >= 1 - a - 3 SE (spec §3)
CLOSED_FORM_TOL = 0.03         # shift.vanilla_closed_form: |measured - C_Q| <= 0.03 (spec §3)
BASELINE_DROP = (0.15, 0.25)   # the paper's baselines lose 15-25 pp across modalities (C1)
PRIOR_DROP_MAX = 0.05          # shift.nig_drop: the prior-aware arm loses <= 5 pp (C1)
BLIND_DROP_MIN = 0.10          # shift.blind_fails: the blind NIG loses >= 10 pp (spec §3)
ERROR_RATIO_MAX = 0.7          # calibration error reduced by >= 30 % (C2's 30-50 %, low end)
RANK_MIN = 0.9                 # gap_grows: Spearman(level, gap) >= 0.9 (our threshold)
CONVERGED_REL = 0.05           # precondition: a loss fell < 5 % over its last quarter
TREND_LEVELS = 3               # precondition of a trend: a rank correlation over >= 3 levels
CONTROL_SE_FACTOR = 3.0        # control.concept_shift: gap > bound + 3 SE (spec §3's 3 SE)


def seed_mean(values: Sequence[float]) -> np.ndarray:
    """The mean over the seeds (rows) of per-seed values (one column per arm or level)."""
    return np.asarray(values, dtype=float).mean(axis=0)


def converged(tail: np.ndarray, rel: float = CONVERGED_REL) -> bool:
    """The precondition of a comparison: every run it rests on has trained, its full-batch loss
    no longer falling: over the last quarter of the epochs (`tail`, one per seed and arm, the
    epochs on the last axis), the median of the second half is not more than `rel` below the
    first half's (lib.companion.rules.converged); a tail of fewer than 4 epochs is too short to
    tell, so not converged."""
    t = np.asarray(tail, dtype=float)
    runs = t.reshape(-1, t.shape[-1])
    return runs.shape[1] >= 4 and all(rules.converged(r, share=1.0, rel=rel) for r in runs)


def trend_ready(tail: np.ndarray, level: Sequence[float], rel: float = CONVERGED_REL,
                levels: int = TREND_LEVELS) -> bool:
    """The precondition of a trend over levels: enough levels for a rank correlation, and every
    run it rests on converged (`converged`)."""
    return len(level) >= levels and converged(tail, rel)


def covers_every_arm(coverage: np.ndarray, variance: np.ndarray, a: float,
                     k: float = ID_SE_FACTOR) -> bool:
    """id_validity: for every arm (column), the seed mean of the ID coverage is at least
    1 - a - k SE, the SE of a mean of independent seeds whose coverages have the recorded
    variances (per seed: the calibration draw's Beta variance plus the test residues'
    binomial one)."""
    var = np.atleast_2d(np.asarray(variance, dtype=float))
    se = np.sqrt(var.sum(axis=0)) / var.shape[0]
    return bool(np.all(seed_mean(coverage) >= 1 - a - k * se))


def near_closed_form(coverage: Sequence[float], closed_form: float,
                     tol: float = CLOSED_FORM_TOL) -> bool:
    """shift.vanilla_closed_form: the seed-mean coverage under shift within tol of C_Q."""
    return abs(float(seed_mean(coverage)) - closed_form) <= tol


def drop_like_baselines(drop: Sequence[float], low: float = BASELINE_DROP[0],
                        high: float = BASELINE_DROP[1]) -> bool:
    """shift.vanilla_drop, shift.cqr_drop: the seed-mean drop (ID - shift) in [low, high]."""
    return low <= float(seed_mean(drop)) <= high


def drop_at_most(drop: Sequence[float], most: float = PRIOR_DROP_MAX) -> bool:
    """shift.nig_drop: the seed-mean drop at most `most`."""
    return float(seed_mean(drop)) <= most


def drop_at_least(drop: Sequence[float], least: float = BLIND_DROP_MIN) -> bool:
    """shift.blind_fails: the seed-mean drop at least `least`."""
    return float(seed_mean(drop)) >= least


def ordered_drops(drop_p0: Sequence[float], drop_p1: Sequence[float],
                  drop_p2: Sequence[float], drop_blind: Sequence[float]) -> bool:
    """ablation.prior_form (the spec's reading of the prototype): both feature-informed arms
    (p0, p1) lose less than the crude modulation p2, which loses less than the blind NIG."""
    p0, p1, p2, blind = (float(seed_mean(d)) for d in (drop_p0, drop_p1, drop_p2, drop_blind))
    return max(p0, p1) < p2 < blind


def narrower(width_diff: Sequence[float]) -> bool:
    """width.informative: the seed mean of width(prior arm) - width(vanilla) is negative."""
    if not len(width_diff):
        raise ValueError("narrower: one paired difference per seed")
    return float(seed_mean(width_diff)) < 0


def error_reduced(error_prior: Sequence[float], error_vanilla: Sequence[float],
                  ratio_max: float = ERROR_RATIO_MAX) -> bool:
    """calibration.conditional_error: seed-mean error of the prior arm <= ratio_max times
    vanilla's."""
    return float(seed_mean(error_prior)) <= ratio_max * float(seed_mean(error_vanilla))


def _spearman(level: Sequence[float], gap: Sequence[float]) -> float:
    """Spearman's rho of the seed-mean gap with the level; with two levels, +1 or -1 by the
    sign of the change."""
    g = seed_mean(np.atleast_2d(np.asarray(gap, dtype=float)))
    if len(level) > 2:
        return float(stats.spearmanr(level, g).statistic)
    return 1.0 if g[-1] > g[0] else -1.0


def grows(gap: np.ndarray, level: Sequence[float], rank_min: float = RANK_MIN) -> bool:
    """shift.gap_grows (and the width test): the seed-mean gap (one row per seed, one column
    per level) rises with the level, Spearman's rho >= rank_min."""
    return _spearman(level, gap) >= rank_min


def exceeds_bound(gap: Sequence[float], se: Sequence[float], bound: float,
                  k: float = CONTROL_SE_FACTOR) -> bool:
    """control.concept_shift: every (seed, arm) gap (one per row) exceeds the bound by more
    than k standard errors: the bound check rejects a shift the bound does not cover."""
    g, e = np.asarray(gap, dtype=float), np.asarray(se, dtype=float)
    return bool(np.all(g > bound + k * e))


def filtering_helps(success_filtered: Sequence[float], success_all: Sequence[float]) -> bool:
    """paper.docking (not run here: no docking software): the docking success of the poses the
    uncertainty keeps is above that of all poses, on the mean over replicates."""
    return float(seed_mean(success_filtered)) > float(seed_mean(success_all))
