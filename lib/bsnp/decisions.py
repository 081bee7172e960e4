"""The rules deciding bsnp's statistical claims (spec §3 NB2, NB3), fixed before the run. Pure
functions of measured numbers; tests/bsnp/test_decisions.py shows each both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

TRAINED_MNSE_MAX = 0.5       # precondition: a model beats the zero predictor (MNSE 1) by 2x
RESIDUAL_RATIO_MAX = 0.5     # A1: r2(BSNP) <= 0.5 r2(data)
SE_FACTOR = 2.0              # A2: MNSE(BSNP) < MNSE(data) - 2 se
ECP_LOW, ECP_HIGH = 0.85, 0.97   # A3: ECP90 in [0.85, 0.97]
COLLAPSE_ECP_DROP = 0.05     # A4: ECP(sample) < ECP(BSNP) - 0.05 ...
COLLAPSE_SIGMA_RATIO = 0.7   # ... and sigma(sample) / sigma(BSNP) < 0.7
OVERFIT_FIXED_MIN = 2.0      # A5: off/on >= 2 for the fixed arm ...
OVERFIT_STOCH_MAX = 1.3      # ... and off/on <= 1.3 for BSNP
GRAD_COS_MIN = 0.99          # A6: cosine of closed-form and MC gradients
NOISE_GROWTH_MAX = 5.0       # N1: MNSE(30%) <= 5 MNSE(0%)
CONTEXT_USE_MIN = 1.5        # N1's precondition: values shuffled cost >= 1.5x the MNSE
SPARSE_ECP_FLAG = 0.8        # N3: coverage at N_c = 3 flagged below 0.8


def trained(mnse: float) -> bool:
    """The model learned the task at all (MNSE well below the zero predictor's 1)."""
    return mnse <= TRAINED_MNSE_MAX


def residual_lowered(r2_bsnp: float, r2_data: float) -> bool:
    """A1: the physics term cuts the off-grid residual at least in half."""
    return r2_bsnp <= RESIDUAL_RATIO_MAX * r2_data


def standard_error(a: Sequence[float], b: Sequence[float]) -> float:
    """se of mean(a) - mean(b) over independent seeds (sample variances; 0 for one seed)."""
    var = [np.var(x, ddof=1) / len(x) if len(x) > 1 else 0.0 for x in (a, b)]
    return float(np.sqrt(sum(var)))


def lower_by_se(better: Sequence[float], worse: Sequence[float]) -> bool:
    """A2: mean(better) < mean(worse) - 2 se (needs two seeds a side)."""
    if min(len(better), len(worse)) < 2:
        raise ValueError("a standard error needs at least two seeds per arm")
    return float(np.mean(better)) < float(np.mean(worse)) - SE_FACTOR * \
        standard_error(better, worse)


def calibrated(ecp90: float) -> bool:
    """A3: ECP90 within [0.85, 0.97]."""
    return ECP_LOW <= ecp90 <= ECP_HIGH


def collapsed(ecp_sample: float, ecp_bsnp: float, sigma_sample: float,
              sigma_bsnp: float) -> bool:
    """A4: sample-level enforcement loses >= 0.05 coverage and 30% of the width."""
    return ecp_sample < ecp_bsnp - COLLAPSE_ECP_DROP and \
        sigma_sample / sigma_bsnp < COLLAPSE_SIGMA_RATIO


def overfits(off_fixed: float, on_fixed: float, off_stoch: float, on_stoch: float) -> bool:
    """A5: the fixed grid's residual between its points is >= 2x that at them, stochastic
    collocation's <= 1.3x."""
    return off_fixed / on_fixed >= OVERFIT_FIXED_MIN and off_stoch / on_stoch <= OVERFIT_STOCH_MAX


def graceful(noise: Sequence[float], mnse: Sequence[float]) -> bool:
    """N1: MNSE non-decreasing in noise and MNSE(max noise) <= 5 MNSE(min noise)."""
    order = np.argsort(noise)
    m = np.asarray(mnse, float)[order]
    return bool(np.all(np.diff(m) >= 0) and m[-1] <= NOISE_GROWTH_MAX * m[0])


def uses_context(mnse_real: float, mnse_shuffled: float) -> bool:
    """N1's precondition: permuting each task's context values among its own context points
    raises the MNSE at least 1.5-fold (the network reads the values, not only lam and the
    positions); a noise sweep of a model that ignores the values checks nothing."""
    return mnse_shuffled >= CONTEXT_USE_MIN * mnse_real


def sparse_advantage(ratio_small: float, ratio_large: float) -> bool:
    """N2: MNSE(BSNP) / MNSE(data) at the smallest context is < 1 and < the ratio at the
    largest."""
    return ratio_small < 1.0 and ratio_small < ratio_large


def sparse_covered(ecp90: float) -> bool:
    """N3: coverage at N_c = 3 not flagged (>= 0.8)."""
    return ecp90 >= SPARSE_ECP_FLAG


def pooled_mnse(rows: np.ndarray, err: int = 0, ref: int = 1) -> float:
    """MNSE pooled over the test tasks of `rows` (columns err, ref of evaluate.per_task): what a
    claim decided on tasks as replicates computes on each resample."""
    return float(rows[:, err].sum() / rows[:, ref].sum())


