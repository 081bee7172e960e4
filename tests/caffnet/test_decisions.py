"""Each rule of lib/caffnet/decisions.py on hand-built inputs: one that holds, one that does not.
Expected outcomes follow from the rule's statement, never from a run."""
import pytest

from lib.caffnet import decisions


def test_share_violating():
    assert decisions.share_violating([0.0, 1e-7, 2e-6, 1.0]) == 0.5   # 2e-6 and 1.0 exceed 1e-6


def test_hardnet_fails():
    assert decisions.hardnet_fails([0.51, 0.9, 1.0])
    assert not decisions.hardnet_fails([0.9, 0.5])          # 0.5 is not more than half


def test_violates_every_seed():
    assert decisions.violates_every_seed([0.1, 0.002])
    assert not decisions.violates_every_seed([0.1, 0.0005])


def test_within_paper_mse():
    # paper 0.0020 + 0.0032 = 0.0052: median of (0.001, 0.005, 0.3) is 0.005 -> holds
    assert decisions.within_paper_mse([0.001, 0.005, 0.3])
    assert not decisions.within_paper_mse([0.006, 0.3, 0.001])   # median 0.006


def test_median_not_worse():
    assert decisions.median_not_worse([1.0, 2.0, 3.0], [2.0, 2.0, 2.0])   # medians 2 <= 2
    assert not decisions.median_not_worse([3.0], [2.0])
    assert decisions.median_not_worse([0.0, 0.0, 9.0], [1.0])     # median 0, not the mean 3


def test_dead_starts():
    assert decisions.dead_starts([0.001, 0.002, 0.5]) == 1        # 0.5 > 10 x 0.002
    # every seed dead: invisible against its own median, visible against a reference
    assert decisions.dead_starts([0.27, 0.27, 0.28]) == 0
    assert decisions.dead_starts([0.27, 0.27, 0.28], [0.001, 0.0015, 0.002]) == 3


def test_pointwise_not_worse():
    assert decisions.pointwise_not_worse([0.1, 0.2], [0.1, 0.3])
    assert not decisions.pointwise_not_worse([0.1, 0.4], [0.1, 0.3])
    with pytest.raises(ValueError, match="shapes"):
        decisions.pointwise_not_worse([0.1], [0.1, 0.2])


def test_rules_refuse_empty_and_nan():
    with pytest.raises(ValueError, match="cannot fail"):
        decisions.hardnet_fails([])
    with pytest.raises(ValueError, match="non-finite"):
        decisions.within_paper_mse([float("nan")])


def test_mean_not_worse():
    assert decisions.mean_not_worse([0.1, 0.3], [0.2, 0.2])       # 0.2 <= 0.2
    assert not decisions.mean_not_worse([0.1, 0.5], [0.2, 0.2])   # 0.3 > 0.2


def test_exceeds():
    assert decisions.exceeds(2e-4, decisions.OPT_EQ_VIOLATES)
    assert not decisions.exceeds(1e-4, decisions.OPT_EQ_VIOLATES)   # strictly above


def test_reference_not_beaten():
    assert decisions.reference_not_beaten([0.0, -5e-8, 0.3])
    assert not decisions.reference_not_beaten([0.1, -1e-6])


