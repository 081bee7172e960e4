"""The rules deciding bsnp's statistical claims (spec §3 NB2, NB3), fixed before the run. The
claims stage applies them (notebooks/bsnp/claims.yaml names each claim's rule and its
precondition); their thresholds are the constants here, the one place each is written. Each rule
takes the evidence a notebook recorded by name, one replicate per row: a training seed, or a
test task of one trained seed (MNSE then pooled over the tasks drawn: summed squared error over
summed squared target). tests/bsnp/test_decisions.py checks each both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from lib.companion import rules

TRAINED_MNSE_MAX = 0.5       # precondition: a model beats the zero predictor (MNSE 1) by 2x
CONVERGED_REL = 0.05         # precondition of A2: the loss fell < 5 % over its last quarter
RESIDUAL_RATIO_MAX = 0.5     # A1: r2(BSNP) <= 0.5 r2(data)
SE_FACTOR = 2.0              # A2: MNSE(BSNP) < MNSE(data) - 2 se
OPPOSITE_SEEDS = 3           # A2's opposite: shown only over >= 3 seeds
ECP_LOW, ECP_HIGH = 0.85, 0.97   # A3: ECP90 in [0.85, 0.97]
COLLAPSE_ECP_DROP = 0.05     # A4: ECP(sample) < ECP(BSNP) - 0.05 ...
COLLAPSE_SIGMA_RATIO = 0.7   # ... and sigma(sample) / sigma(BSNP) < 0.7
OVERFIT_FIXED_MIN = 2.0      # A5: off/on >= 2 for the fixed arm ...
OVERFIT_STOCH_MAX = 1.3      # ... and off/on <= 1.3 for BSNP
NOISE_GROWTH_MAX = 5.0       # N1: MNSE(30%) <= 5 MNSE(0%)
CONTEXT_USE_MIN = 1.5        # N1's precondition: values shuffled cost >= 1.5x the MNSE
CONTEXT_GAIN_MAX = 0.5       # NB3 prior-only baseline: MNSE(N_c) <= 0.5 MNSE(empty context)
SPARSE_ECP_FLAG = 0.8        # N3: coverage at N_c = 3 flagged below 0.8


def mean(values: Sequence[float]) -> float:
    return float(np.mean(np.asarray(values, dtype=float)))


def pooled(err: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """MNSE pooled over the tasks (rows) of each column: summed squared error over summed
    squared target."""
    e, r = (np.asarray(v, dtype=float) for v in (err, ref))
    return e.sum(axis=0) / r.sum(axis=0)


def trained(run_mnse: Sequence[float], mnse_max: float = TRAINED_MNSE_MAX) -> bool:
    """Precondition: every run the claim rests on learned the task at all (MNSE well below the
    zero predictor's 1)."""
    return bool(np.all(np.asarray(run_mnse, dtype=float) <= mnse_max))


def flat_tail(tail: Sequence[float], rel: float = CONVERGED_REL) -> bool:
    """A loss curve's last quarter (`tail`) has stopped falling: the median of its second half
    is not more than `rel` below its first half's (lib.companion.rules.converged); a tail of
    fewer than 4 points is too short to tell, so not converged."""
    return len(tail) >= 4 and rules.converged(tail, share=1.0, rel=rel)


def seeds_comparable(mnse_bsnp: Sequence[float], tail_bsnp: np.ndarray,
                     tail_data: np.ndarray, run_mnse: Sequence[float],
                     mnse_max: float = TRAINED_MNSE_MAX, rel: float = CONVERGED_REL) -> bool:
    """A2's precondition: every learned-decoder run learned, two seeds or more (a standard
    error), and every A2 run's loss converged (one tail per seed and arm)."""
    return (trained(run_mnse, mnse_max) and len(mnse_bsnp) >= 2
            and all(flat_tail(t, rel) for t in (*tail_bsnp, *tail_data)))


def residual_lowered(r2_bsnp: Sequence[float], r2_data: Sequence[float],
                     ratio_max: float = RESIDUAL_RATIO_MAX) -> bool:
    """A1: the physics term cuts the seed-mean off-grid residual at least in half."""
    return mean(r2_bsnp) <= ratio_max * mean(r2_data)


def standard_error(a: Sequence[float], b: Sequence[float]) -> float:
    """se of mean(a) - mean(b) over independent seeds (sample variances; 0 for one seed)."""
    var = [np.var(x, ddof=1) / len(x) if len(x) > 1 else 0.0 for x in (a, b)]
    return float(np.sqrt(sum(var)))


def lower_by_se(mnse_bsnp: Sequence[float], mnse_data: Sequence[float],
                k: float = SE_FACTOR) -> bool:
    """A2: mean MNSE(BSNP) < mean MNSE(data) - k se (one seed: se 0, and the precondition,
    which asks for two, makes the claim inconclusive)."""
    return mean(mnse_bsnp) < mean(mnse_data) - k * standard_error(mnse_bsnp, mnse_data)


def data_lower_by_se(mnse_bsnp: Sequence[float], mnse_data: Sequence[float],
                     k: float = SE_FACTOR, min_seeds: int = OPPOSITE_SEEDS) -> bool:
    """A2's opposite: the data-only NP's mean MNSE below BSNP's by more than k se, over at least
    `min_seeds` seeds."""
    return len(mnse_bsnp) >= min_seeds and lower_by_se(mnse_data, mnse_bsnp, k)


def calibrated(ecp90: Sequence[float], low: float = ECP_LOW, high: float = ECP_HIGH) -> bool:
    """A3: the seed-mean ECP90 within [low, high]."""
    return low <= mean(ecp90) <= high


def collapsed(inside_sample: Sequence[float], inside_bsnp: Sequence[float],
              width_sample: Sequence[float], width_bsnp: Sequence[float],
              ecp_drop: float = COLLAPSE_ECP_DROP,
              sigma_ratio: float = COLLAPSE_SIGMA_RATIO) -> bool:
    """A4: over the test tasks, sample-level enforcement loses >= ecp_drop of BSNP's coverage and
    its mean sigma / max|u| is below sigma_ratio of BSNP's."""
    return (mean(inside_sample) < mean(inside_bsnp) - ecp_drop
            and mean(width_sample) / mean(width_bsnp) < sigma_ratio)


def overfits(off_fixed: Sequence[float], on_fixed: Sequence[float], off_bsnp: Sequence[float],
             on_bsnp: Sequence[float], fixed_min: float = OVERFIT_FIXED_MIN,
             stoch_max: float = OVERFIT_STOCH_MAX) -> bool:
    """A5: over the test tasks, the fixed grid's mean residual between its points is >=
    fixed_min times that at them, stochastic collocation's (BSNP) <= stoch_max times."""
    return (mean(off_fixed) / mean(on_fixed) >= fixed_min
            and mean(off_bsnp) / mean(on_bsnp) <= stoch_max)


def overfitting_to_prevent(off_fixed: Sequence[float], on_fixed: Sequence[float],
                           run_mnse: Sequence[float], fixed_min: float = OVERFIT_FIXED_MIN,
                           mnse_max: float = TRAINED_MNSE_MAX) -> bool:
    """A5's precondition: the fixed-grid run learned and overfits its grid (its mean residual
    between its points >= fixed_min times that at them). Without overfitting there is nothing
    for stochastic collocation to prevent: the claim is untested, not the paper failing."""
    return trained(run_mnse, mnse_max) and mean(off_fixed) / mean(on_fixed) >= fixed_min


def graceful(err: np.ndarray, ref: np.ndarray, noise: Sequence[float],
             growth_max: float = NOISE_GROWTH_MAX) -> bool:
    """N1: the pooled MNSE (one column per noise level) is non-decreasing in the noise and at
    the largest noise at most growth_max times its value at the smallest."""
    m = pooled(err, ref)[np.argsort(noise)]
    return bool(np.all(np.diff(m) >= 0) and m[-1] <= growth_max * m[0])


def uses_context(err_ctx: np.ndarray, ref_ctx: np.ndarray,
                 use_min: float = CONTEXT_USE_MIN) -> bool:
    """N1's precondition: permuting each task's context values among its own context points
    (column 1; the real values in column 0) raises the pooled MNSE at least use_min-fold: the
    network reads the values, not only lam and the positions."""
    real, shuffled = pooled(err_ctx, ref_ctx)
    return bool(shuffled >= use_min * real)


def reads_context(err_ctx: np.ndarray, ref_ctx: np.ndarray, run_mnse: Sequence[float],
                  mnse_max: float = TRAINED_MNSE_MAX, use_min: float = CONTEXT_USE_MIN) -> bool:
    """The precondition of a test of what the context does (noise, context size): the models
    learned, and BSNP reads its context values (`uses_context`)."""
    return trained(run_mnse, mnse_max) and uses_context(err_ctx, ref_ctx, use_min)


def sparse_advantage(err: np.ndarray, ref: np.ndarray) -> bool:
    """N2: columns [BSNP, data] at the smallest context, then [BSNP, data] at the largest: the
    pooled MNSE ratio BSNP / data at the smallest is < 1 and < the ratio at the largest."""
    b_s, d_s, b_l, d_l = pooled(err, ref)
    return bool(b_s / d_s < 1.0 and b_s / d_s < b_l / d_l)


def sparse_covered(inside: Sequence[float], flag: float = SPARSE_ECP_FLAG) -> bool:
    """N3: coverage at N_c = 3 (the mean over test tasks of the share inside the 90% band) not
    flagged."""
    return mean(inside) >= flag


def adds_beyond_prior(err: np.ndarray, ref: np.ndarray,
                      ratio_max: float = CONTEXT_GAIN_MAX) -> bool:
    """NB3's prior-only baseline: columns [largest context, empty context]: the pooled MNSE with
    the context is at most ratio_max times that without."""
    with_ctx, prior = pooled(err, ref)
    return bool(with_ctx <= ratio_max * prior)
