"""Where the spec (or the official code) leaves a choice open, the one swappable function that
makes it, and the rules deciding graphpfn's statistical claims with the spec's thresholds (spec
§3), fixed before any run. Pure functions; tests/graphpfn/test_decisions.py shows each both
ways."""
from __future__ import annotations

import numpy as np

DIVERSITY_RANGE = 0.3          # prior.diversity: 10-90 % quantile range of edge homophily
TAIL_SLOPE = (-3.0, -1.2)      # prior.pa_tail: fitted CCDF slope of the PA-only component
ZERO_INIT_ATOL = 1e-6          # adapter.zero_init: max |logit difference| at init
CONFIDENCE = 0.95              # mechanism.graph_helps: the bootstrap interval's level


def symmetrise(lam: np.ndarray) -> np.ndarray:
    """The code's propensity matrix is not symmetric when group sizes differ (row i divides
    column i's earlier entries by the *other* group's size); graph-tool's undirected SBM wants
    a symmetric one. Decision: the mean of lam and its transpose (spec §1.1 is silent)."""
    return (lam + lam.T) / 2


def clip_propensities(theta: np.ndarray) -> np.ndarray:
    """The code's degree formula m - u m with u ~ U(0, m) is negative whenever u > 1 (every
    m > 1 allows it), and a block propensity goes negative when earlier groups' inflow exceeds
    a group's mean degree; a DC-SBM propensity cannot be. Decision: clip both at 0."""
    return np.maximum(theta, 0.0)


def feasible_groups(n: int, k: int, min_size: int) -> int:
    """At most n // min_size groups (the code's draw goes negative and fails otherwise,
    which scaled-down configs would hit); at least one."""
    return max(1, min(k, n // min_size))


def diverse(homophily: np.ndarray) -> tuple[float, bool]:
    """prior.diversity: (10-90 % quantile range of edge homophily, range >= 0.3)."""
    spread = float(np.quantile(homophily, 0.9) - np.quantile(homophily, 0.1))
    return spread, spread >= DIVERSITY_RANGE


def heavy_tail(slope: float) -> bool:
    """prior.pa_tail: the fitted CCDF slope lies in [-3, -1.2]."""
    return TAIL_SLOPE[0] <= slope <= TAIL_SLOPE[1]


def bootstrap_mean_ci(diff: np.ndarray, draws: int, rng: np.random.Generator
                      ) -> tuple[float, float, float]:
    """(mean, lower, upper) of a percentile bootstrap interval at CONFIDENCE for the mean of
    paired differences, `draws` resamples."""
    idx = rng.integers(0, len(diff), size=(draws, len(diff)))
    means = diff[idx].mean(axis=1)
    a = (1 - CONFIDENCE) / 2
    return float(diff.mean()), float(np.quantile(means, a)), float(np.quantile(means, 1 - a))


def graph_helps(lower: float) -> bool:
    """mechanism.graph_helps: the lower bootstrap bound of mean(graph-PFN - tab-PFN) > 0."""
    return lower > 0


def homophily_trend(diff: np.ndarray, homophily: np.ndarray) -> tuple[float, bool]:
    """mechanism.homophily_trend: (Spearman rho of the paired gain against homophily,
    rho > 0)."""
    # imported here: scipy.stats takes about a second to import, and every sweep run process
    # imports this module (through prior_structure) without needing it
    from scipy import stats
    rho = float(stats.spearmanr(diff, homophily).statistic)
    return rho, rho > 0
