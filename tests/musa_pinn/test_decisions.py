"""The claim rules and the open-question functions, each shown both ways."""
import pytest

from lib.musa_pinn import decisions


def test_momentum_weight_two_stage():
    assert decisions.momentum_weight(29, 100, True, 0.3, 0.1) == 0.1
    assert decisions.momentum_weight(30, 100, True, 0.3, 0.1) == 1.0
    assert decisions.momentum_weight(0, 100, False, 0.3, 0.1) == 1.0


def test_scale_counts_keep_the_total():
    counts = {"large": 16, "meso": 24, "small": 24}
    assert decisions.scale_counts(counts, ("large", "meso", "small")) == counts
    assert decisions.scale_counts(counts, ("large", "small")) == {"large": 26, "small": 38}
    assert sum(decisions.scale_counts({"large": 1, "meso": 1, "small": 1},
                                      ("large", "meso")).values()) == 3


def test_lower_paired_both_ways():
    assert decisions.lower_paired([0.1, 0.11, 0.09], [0.2, 0.21, 0.2])
    assert not decisions.lower_paired([0.1, 0.3], [0.2, 0.21])        # spread too wide
    assert not decisions.lower_paired([0.1], [0.2])                    # one seed: no verdict
    assert decisions.paired_gain([0.3, 0.5], [0.1, 0.2]) == pytest.approx((0.25, 0.05))


def test_pathology_trained_and_not_lower():
    assert decisions.strong_fails([0.05, 0.06]) and not decisions.strong_fails([0.01, 0.02])
    assert decisions.trained([0.1, 0.49]) and not decisions.trained([0.1, 0.5])
    assert decisions.not_lower([0.2, 0.2], [0.1, 0.3]) and not decisions.not_lower([0.1], [0.2])
