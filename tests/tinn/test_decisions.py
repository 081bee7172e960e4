"""Each claim rule of lib/tinn/decisions.py on hand-built inputs: one that holds, one not."""
import pytest

from lib.tinn import decisions


def test_below():
    assert decisions.below(9e-4) and not decisions.below(1.1e-3)


def test_ratio_at_least():
    assert decisions.ratio_at_least(4e-3, 1e-3, 4.0)
    assert not decisions.ratio_at_least(3.9e-3, 1e-3, 4.0)
    with pytest.raises(ValueError):
        decisions.ratio_at_least(1.0, 0.0, 4.0)


def test_first_reach():
    assert decisions.first_reach([0, 10, 20, 30], [1.0, 0.5, 0.009, 0.001]) == 20
    assert decisions.first_reach([0, 10], [1.0, 0.5]) is None


def test_faster_both_reach():
    assert decisions.faster(10, 30, 100)        # 30 >= 3 * 10
    assert not decisions.faster(10, 29, 100)


def test_faster_pinn_never():
    assert decisions.faster(33, None, 100)      # 33 * 3 = 99 <= 100
    assert not decisions.faster(34, None, 100)
    assert not decisions.faster(None, None, 100)


def test_converging():
    assert decisions.converging([1e-5, 5e-8, 2e-10])
    assert not decisions.converging([1e-5, 2e-7])   # only 50x
    with pytest.raises(ValueError):
        decisions.converging([1e-5])


def test_trained():
    assert decisions.trained([1.0, 0.5] + [0.1] * 18)                  # flat last quarter
    assert not decisions.trained([0.5 ** k for k in range(20)])          # still falling
    assert not decisions.trained([1.0, 0.1, 0.1])                               # too short


def test_tail_ratio():
    assert decisions.tail_ratio([[4e-3, 1e-3], [5e-3, 1e-3], [3e-3, 2e-3]], 4.0)
    assert not decisions.tail_ratio([[3e-3, 1e-3], [3e-3, 1e-3], [9e-3, 1e-3]], 4.0)
