"""The rules deciding calpro's claims (lib/calpro/decisions.py), each both ways on hand-built
evidence (one seed per row)."""
import numpy as np
import pytest

from lib.calpro import decisions as d


def test_id_validity_counts_every_variance():
    # SE of a mean of 3 independent seeds with variance 1e-4 each: sqrt(3e-4) / 3 = 0.005774,
    # so 0.885 passes against 0.9 - 3 SE = 0.8827; with a test-only SE of 0.004 (variance
    # 3 * 0.004^2 per seed) the bar is 0.888 and it fails
    cov = np.full((3, 2), 0.885)
    assert d.covers_every_arm(cov, np.full((3, 2), 1e-4), a=0.1)
    assert not d.covers_every_arm(cov, np.full((3, 2), 3 * 0.004 ** 2), a=0.1)
    one_low = np.array([[0.9, 0.80]] * 3)                    # every arm, not the mean of arms
    assert not d.covers_every_arm(one_low, np.full((3, 2), 1e-4), a=0.1)


def test_closed_form_rule_both_ways():
    assert d.near_closed_form([0.70, 0.72], closed_form=0.71)
    assert not d.near_closed_form([0.60, 0.62], closed_form=0.71)


def test_drop_rules_both_ways():
    assert d.drop_like_baselines([0.2, 0.22]) and not d.drop_like_baselines([0.11, 0.12])
    assert not d.drop_like_baselines([0.3, 0.28])
    assert d.drop_at_most([0.04, 0.05]) and not d.drop_at_most([0.06, 0.07])
    assert d.drop_at_least([0.2, 0.3]) and not d.drop_at_least([0.05, 0.08])


def test_ordered_drops_both_ways():
    good = {"drop_p0": [0.02], "drop_p1": [0.01], "drop_p2": [0.1], "drop_blind": [0.2]}
    assert d.ordered_drops(**good)
    assert not d.ordered_drops(**{**good, "drop_p1": [0.15]})
    assert not d.ordered_drops(**{**good, "drop_blind": [0.05]})


def test_width_and_error_rules_both_ways():
    assert d.narrower([-0.1, 0.05]) and not d.narrower([0.1, -0.05])
    with pytest.raises(ValueError):
        d.narrower([])
    assert d.error_reduced([0.06], [0.1]) and not d.error_reduced([0.08], [0.1])


def test_grows_both_ways():
    level = [0.1, 0.2, 0.3]
    assert d.grows(np.array([[0.0, 0.1, 0.2], [0.0, 0.05, 0.3]]), level)
    assert not d.grows(np.array([[0.2, 0.1, 0.0]]), level)
    assert d.grows(np.array([[0.1, 0.2]]), [0.1, 0.5])                # two levels: the sign
    assert not d.grows(np.array([[0.2, 0.1]]), [0.1, 0.5])


def test_docking_rule_both_ways():
    assert d.filtering_helps([0.75], [0.52]) and not d.filtering_helps([0.5], [0.52])


FLAT = [1.0, 1.0, 0.99, 1.0, 0.99, 1.0, 1.0, 0.99]            # a converged loss tail
FALLING = [1.0, 0.98, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7]        # still falling by > 5 %


def test_preconditions_both_ways():
    assert d.converged(np.array([[FLAT, FLAT]] * 3))          # (seeds, arms, epochs)
    assert not d.converged(np.array([[FLAT, FALLING], [FLAT, FLAT]]))
    assert not d.converged(np.array([[[1.0, 1.0, 1.0]]]))      # too short to tell
    assert d.trend_ready(np.array([FLAT] * 2), [0.1, 0.2, 0.3])
    assert not d.trend_ready(np.array([FLAT] * 2), [0.1, 0.3])           # two levels
    assert not d.trend_ready(np.array([FALLING] * 2), [0.1, 0.2, 0.3])


def test_control_rule_both_ways():
    # 0.2 > 0 + 3 * 0.05 = 0.15 on both rows; 0.1 is not (0.15 > 0.1)
    assert d.exceeds_bound([0.2, 0.2], [0.05, 0.05], 0.0)
    assert not d.exceeds_bound([0.2, 0.1], [0.05, 0.05], 0.0)
    assert not d.exceeds_bound([0.2, 0.2], [0.05, 0.05], 0.1)          # 0.1 + 0.15 > 0.2
