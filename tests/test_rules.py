"""lib/companion/rules.py on hand-worked cases: expected values from closed forms, not the code."""
import math
from fractions import Fraction

import numpy as np
import pytest

from lib.companion import rules


@pytest.mark.parametrize("n, share, need", [
    (3, (2, 3), 2), (4, (2, 3), 3), (5, (2, 3), 4), (6, (2, 3), 4),   # 8/3 -> 3, 10/3 -> 4
    (5, (3, 5), 3), (6, (3, 5), 4), (1, (3, 5), 1), (3, (3, 5), 2),   # 18/5 -> 4, 9/5 -> 2
    (0, (2, 3), 0), (7, (1, 1), 7), (300_000, (2, 3), 200_000),       # exact: no round-up
], ids=lambda v: str(v))
def test_seeds_needed_hand_cases(n, share, need):
    assert rules.seeds_needed(n, share) == need


def test_seeds_needed_is_the_exact_ceiling():
    for num, den in ((2, 3), (3, 5), (1, 2), (7, 10)):
        for n in range(0, 200):
            assert rules.seeds_needed(n, (num, den)) == math.ceil(Fraction(num * n, den))


def test_nonempty_finite_returns_floats():
    arr = rules.nonempty_finite([1, 2], "values")
    assert arr.dtype == np.float64 and arr.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("values, match", [
    ([], "no gaps to decide on: a claim over nothing cannot fail"),
    ([1.0, float("nan")], r"gaps holds non-finite values: \[1.0, nan\]"),
    ([float("inf")], "gaps holds non-finite"),
    ([-float("inf"), 0.0], "gaps holds non-finite"),
], ids=["empty", "nan", "inf", "-inf"])
def test_nonempty_finite_refuses(values, match):
    with pytest.raises(ValueError, match=match):
        rules.nonempty_finite(values, "gaps")


def test_within_is_closed_at_both_ends():
    assert rules.within(0.15, 0.15, 0.25) and rules.within(0.25, 0.15, 0.25)
    assert rules.within(0.2, 0.15, 0.25)
    assert not rules.within(0.149, 0.15, 0.25) and not rules.within(0.251, 0.15, 0.25)
    assert not rules.within(float("nan"), 0.0, 1.0)


def test_not_worse_with_and_without_margin():
    assert rules.not_worse(2.0, 2.0) and not rules.not_worse(2.5, 2.0)
    assert rules.not_worse(1.0, 2.0)                       # lower is better
    assert rules.not_worse(2.5, 2.0, 0.5) and not rules.not_worse(2.75, 2.0, 0.5)
    assert not rules.not_worse(float("nan"), 2.0)
    assert rules.not_worse(np.float64(1.0), np.float64(1.0)) is True


def test_beyond_needs_the_mean_two_standard_errors_out():
    # mean 1, s.d. 0.1 over 4: s.e. 0.05, far beyond
    assert rules.beyond([0.9, 1.0, 1.1, 1.0])
    assert not rules.opposite_beyond([0.9, 1.0, 1.1, 1.0])
    assert rules.opposite_beyond([-0.9, -1.0, -1.1, -1.0])
    # mean 0.5, s.d. 1 over 4: s.e. 0.5, inside 2 s.e. either way
    d = [1.5, -0.5, 1.5, -0.5]
    assert not rules.beyond(d) and not rules.opposite_beyond(d)
    assert not rules.beyond([1.0, 1.1])              # two seeds: no power, whatever the sizes


def test_tail_median_and_convergence():
    # the last quarter of 0..99 is 75..99: its median is 87
    assert rules.tail_median(list(range(100))) == 87.0
    falling = [1.0 / (1 + t) for t in range(100)]
    flat = [1.0] * 50 + [0.5] * 50
    assert rules.converged(flat)
    assert not rules.converged([100 - t for t in range(100)])      # still falling fast
    # 1/(1+t) over t = 75..99: halves' medians 1/81.5 and 1/94, 13 % lower: still falling
    assert not rules.converged(falling)
    assert rules.converged([1.0 / (1 + t) for t in range(100)] + [0.0101] * 100)
    with pytest.raises(ValueError, match="too short"):
        rules.converged([1.0, 0.5, 0.2])


def test_evidence_hands_over_replicates_or_the_single_run():
    rule = lambda s: sum(s) > 0                                             # noqa: E731
    assert rules.evidence([1.0, -0.5], rule, "one seed") == {"samples": [1.0, -0.5],
                                                               "decide": rule}
    assert rules.evidence([-1.0], rule, "one seed (seed 0)") == {"holds": False,
                                                                  "rests_on": "one seed (seed 0)"}
    with pytest.raises(ValueError, match="nothing"):
        rules.evidence([], rule, "none")


def test_evidence_by_index_resamples_indices_or_rests_on_one():
    vals = np.array([3.0, 1.0, 2.0])
    ev = rules.evidence_by_index(3, lambda i: np.median(vals[i]) >= 2)
    assert (ev["samples"][:, 0] == [0, 1, 2]).all() and ev["decide"](ev["samples"])
    assert not ev["decide"](np.array([[1], [1], [2]]))       # a resample deciding otherwise
    assert rules.evidence_by_index(1, lambda i: vals[i][0] > 2, "seed") == {
        "holds": True, "rests_on": "one seed (the profile's only one)"}
