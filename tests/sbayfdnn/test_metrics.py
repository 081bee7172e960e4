"""lib/sbayfdnn/metrics.py: grid region metrics against exact interval arithmetic (spec §5 T3)
and the oracle IoU against every subset of bases."""
import numpy as np
import pytest

from lib.sbayfdnn import basis, metrics, naive

GRID = np.linspace(0, 1, 1001)
R = (0.2, 0.4)


@pytest.mark.parametrize("seed", range(6))
def test_grid_metrics_equal_exact(seed):
    rng = np.random.default_rng(seed)
    knots = basis.clamped_knots(24, 3)
    chosen = np.flatnonzero(rng.random(24) < 0.25)
    ivs = basis.basis_support_intervals(chosen, knots, 3)
    grid, exact = metrics.region_metrics(ivs, R, GRID), naive.region_metrics(ivs, R)
    for key in ("tpr", "fpr", "iou"):
        # a 1e-3 grid miscounts each interval end by one point: <= 2e-3 / 0.2 relative to |R|
        assert abs(grid[key] - float(exact[key])) <= 1.2e-2, (key, grid[key], exact[key])


def test_perfect_and_empty():
    assert metrics.region_metrics([R], R, GRID) == {"tpr": 1.0, "fpr": 0.0, "iou": 1.0}
    assert metrics.region_metrics([], R, GRID)["iou"] == 0.0


@pytest.mark.parametrize("J, degree, support", [(24, 3, (0.2, 0.4)), (13, 2, (0.3, 0.7)),
                                                 (24, 4, (0.2, 0.45))])
def test_oracle_equals_every_subset(J, degree, support):
    fast, arg = metrics.oracle_iou(J, degree, support, np.linspace(0, 1, 100001))
    exact, exact_arg = naive.oracle_iou(J, degree, support)
    assert abs(fast - float(exact)) <= 1e-4     # grid 1e-5: a few points' error
    knots = basis.clamped_knots(J, degree)      # ties: different subsets, the same union
    assert np.allclose(basis.basis_support_intervals(arg, knots, degree),
                       basis.basis_support_intervals(exact_arg, knots, degree), atol=1e-12)


def test_oracle_spec_value():
    # spec §3: 0.862 with basis {7} alone (grid); exactly 19/22 = 0.8636
    iou, arg = metrics.oracle_iou(24, 3, R, GRID)
    assert arg == (7,) and abs(iou - 0.862) < 5e-4
    assert naive.oracle_iou(24, 3, R)[0] == naive.Fraction(19, 22)
