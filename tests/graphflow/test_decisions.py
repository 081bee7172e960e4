"""The rules deciding graphflow's claims (lib/graphflow/decisions.py), each both ways on
hand-built evidence (one replicate per row)."""
import numpy as np

from lib.graphflow import decisions


def test_error_rule_both_ways():
    assert decisions.falls_within_seeds([[0.02, 0.01, 0.0], [0.03, 0.03, 1e-17]])
    assert not decisions.falls_within_seeds([[0.02, 0.01, 0.0], [0.01, 0.02, 0.0]])
    assert not decisions.falls_within_seeds([[0.0, 0.0]])      # flat: nothing falls


def test_monotone_rule_both_ways():
    assert decisions.monotone_in_every_draw(np.array([[1.0, 1.0, 2.0]]))
    assert not decisions.monotone_in_every_draw(np.array([[1.0, 2.0], [2.0, 1.5]]))


def test_preconditions_both_ways():
    assert decisions.at_least_two_points(np.array([[1.0, 2.0]]))
    assert not decisions.at_least_two_points(np.array([[1.0]]))
    assert decisions.residual_can_fall(np.zeros((3, 2)), layers=2)
    assert not decisions.residual_can_fall(np.zeros((3, 2)), layers=1)
    assert not decisions.residual_can_fall(np.zeros((3, 1)), layers=2)


def test_four_x_rule_both_ways():
    assert decisions.reaches(np.array([[1.5, 3.9, 4.0]]))
    assert not decisions.reaches(np.array([[1.5, 3.99]]))
    assert decisions.reaches(np.array([[2.0]]), target=2.0)
