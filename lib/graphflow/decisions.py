"""The rules deciding graphflow's statistical and qualitative claims (spec §3), fixed before the
run. The claims stage applies them (notebooks/graphflow/claims.yaml names the rule of each claim);
their thresholds are the constants here, the one place each is written. Each rule takes the
evidence a notebook recorded, one replicate per row (tests/graphflow/test_decisions.py checks
each both ways)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

FOUR_X = 4.0                 # G2: "about 4x lower memory footprint" (abstract)


def non_decreasing(values: Sequence[float]) -> bool:
    """Each value at least the one before."""
    return all(b >= a for a, b in zip(values, values[1:]))


def monotone_in_every_draw(ratios: np.ndarray) -> bool:
    """graphflow.ratio.monotone: A/B does not fall as W grows, in every draw (one row each)."""
    return all(non_decreasing(list(row)) for row in np.atleast_2d(ratios))


def at_least_two_points(ratios: np.ndarray) -> bool:
    """The precondition of a trend: each draw has two or more points."""
    return np.atleast_2d(ratios).shape[1] >= 2


def falls_within_seeds(errors: Sequence[Sequence[float]]) -> bool:
    """graphflow.C.error: for every seed, the mean error never rises as rho rises (one row per
    seed, one column per rho in increasing order) and ends below where it starts."""
    return all(non_decreasing([-e for e in row]) and row[-1] < row[0] for row in errors)


def residual_can_fall(errors: np.ndarray, layers: int) -> bool:
    """The precondition of C.error: two rho or more, and a decoder layer above 0 (a one-layer
    decoder's residual is zero, so its error cannot fall)."""
    return np.asarray(errors).shape[1] >= 2 and layers >= 2


def reaches(ratios: np.ndarray, target: float = FOUR_X) -> bool:
    """graphflow.ratio.4x: some W reaches `target` (the paper's "about 4x"), in every draw."""
    return bool((np.atleast_2d(ratios) >= target).any(axis=1).all())
