"""The rules deciding graphp_fl's claims (lib/graphp_fl/decisions.py), each both ways on
hand-built evidence (one seed per row), the preconditions included."""
import numpy as np
import pytest

from lib.graphp_fl import decisions


def test_denoise_rule_both_ways():
    rect, obs = np.array([[0.7, 0.5], [0.72, 0.5]]), np.array([[0.6, 0.4], [0.6, 0.4]])
    assert decisions.denoises(rect, obs)
    assert not decisions.denoises(rect - np.array([0, 0.11]), obs)   # level 2: 0.39 < 0.4


def test_slope_rule_both_ways():
    noise = np.array([[0, 1, 2, 3], [0, 1, 2, 3]])
    slope, se = decisions.slope_and_se(noise, [0.0, 0.1, 0.21, 0.3, 0.01, 0.1, 0.2, 0.31])
    assert abs(slope - 0.1) < 0.01                        # by hand: the rise per level is ~0.1
    assert decisions.gain_rises(noise, np.array([[0.0, 0.1, 0.21, 0.3], [0.01, 0.1, 0.2, 0.31]]))
    assert not decisions.gain_rises(noise, np.array([[0.1, -0.1, 0.1, -0.1]] * 2))
    assert not decisions.gain_rises(np.array([[1.0, 1.0, 1.0]]), np.array([[0.0, 1.0, 2.0]]))
    with pytest.raises(ValueError):
        decisions.slope_and_se([1, 1, 1], [0, 1, 2])


def test_slope_precondition_both_ways():
    assert decisions.slope_defined(np.array([[0, 1], [0, 1]]), np.zeros((2, 2)))
    assert not decisions.slope_defined(np.array([[0, 1, 2]]), np.zeros((1, 3)))    # one seed
    assert not decisions.slope_defined(np.array([[1, 1], [1, 1]]), np.zeros((2, 2)))  # one level


def test_frpa_rules_both_ways():
    assert decisions.forgets_less([0.1, 0.2], [0.3, 0.2])
    assert not decisions.forgets_less([0.2], [0.2])
    assert decisions.at_least([0.8], [0.8]) and not decisions.at_least([0.7], [0.8])
    frpa = np.array([0.70, 0.71, 0.69, 0.70])
    assert decisions.below_beyond(frpa, frpa + 0.1)                # 0.1 below, s.e. ~0.005
    assert not decisions.below_beyond(frpa, frpa)
    assert not decisions.below_beyond(frpa[:2], frpa[:2] + 0.1)    # two seeds: no power


def test_learned_precondition_both_ways():
    assert decisions.local_learned([0.46, 0.44], n_comm=4)         # chance 0.25 + 0.2
    assert not decisions.local_learned([0.44, 0.44], n_comm=4)
