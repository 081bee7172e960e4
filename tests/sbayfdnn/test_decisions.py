"""Each rule of lib/sbayfdnn/decisions.py on hand-built inputs: one that holds, one that does
not. Expected outcomes follow from the rule's statement, never from a run."""
import pytest

from lib.sbayfdnn import decisions


def test_covers():
    assert decisions.covers([1.0, 0.9, 0.2])          # median 0.9 >= 0.9
    assert not decisions.covers([1.0, 0.85, 0.2])


def test_tight():
    assert decisions.tight([0.7, 0.84], [0.1, 0.1], oracle=0.862)      # 0.77 >= 0.662
    assert not decisions.tight([0.6, 0.6], [0.1, 0.1], oracle=0.862)   # 0.6 < 0.662
    assert not decisions.tight([0.84], [0.2], oracle=0.862)            # FPR 0.2 > 0.15


def test_above_is_strict():
    assert decisions.above([0.8, 0.7, 0.9], [0.5, 0.6, 0.7])
    assert not decisions.above([0.5], [0.5])


def test_ratio_at_most():
    assert decisions.ratio_at_most([0.05], [0.3], decisions.NONLINEAR_MSE_RATIO)   # 0.05 <= 0.15
    assert not decisions.ratio_at_most([0.2], [0.3], decisions.NONLINEAR_MSE_RATIO)


def test_trends():
    assert decisions.non_decreasing([0.6, 0.6, 0.8])
    assert not decisions.non_decreasing([0.7, 0.6])
    assert decisions.decreasing([0.3, 0.2, 0.1])
    assert not decisions.decreasing([0.3, 0.3])


def test_in_range():
    assert decisions.in_range(0.9) and decisions.in_range(0.8)
    assert not decisions.in_range(0.99)


def test_nothing_to_decide_on():
    with pytest.raises(ValueError, match="cannot fail"):
        decisions.covers([])
    with pytest.raises(ValueError, match="non-finite"):
        decisions.median([float("nan")])


def test_improves_and_not_shown_rising():
    first, last = [0.5, 0.6, 0.55, 0.5], [0.7, 0.8, 0.72, 0.75]   # gains 0.2, 0.2, 0.17, 0.25
    assert decisions.improves(first, last) and not decisions.improves(last, first)
    assert not decisions.improves([0.5, 0.6], [0.9, 1.0])         # two replications: no power
    assert decisions.not_shown_rising(last, first)                  # falls: not rising
    assert not decisions.not_shown_rising(first, last)
