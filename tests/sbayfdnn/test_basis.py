"""lib/sbayfdnn/basis.py: the B-spline basis against Cox-de Boor, the partition of unity, scores
by the trapezoid rule and the region map (spec §5 T2)."""
import numpy as np
import pytest

from lib.sbayfdnn import basis, naive
from tests.conftest import assert_close


@pytest.mark.parametrize("J, degree, n", [(24, 3, 101), (7, 1, 33), (24, 4, 63), (5, 2, 1)])
def test_basis_equals_cox_de_boor(J, degree, n):
    t = np.linspace(0, 1, n) if n > 1 else np.array([1.0])       # n = 1: the right end point
    # both are the same piecewise polynomials; float64 rounding of a few products only
    assert_close(f"B J{J} k{degree}", naive.bspline_basis(t, J, degree),
                 basis.bspline_basis(t, J, degree), rtol=0, atol=1e-12)


@pytest.mark.parametrize("J, degree", [(24, 3), (9, 2), (30, 5)])
def test_partition_of_unity(J, degree):
    t = np.linspace(0, 1, 777)
    assert_close("sum_j B_j", np.ones(777), basis.bspline_basis(t, J, degree).sum(1),
                 rtol=0, atol=1e-12)   # identity; rounding of <= degree + 1 terms


def test_knots_clamped():
    k = basis.clamped_knots(24, 3)
    assert len(k) == 24 + 3 + 1 and (k[:4] == 0).all() and (k[-4:] == 1).all()
    assert_close("spacing", np.full(21, 1 / 21), np.diff(k[3:-3]), rtol=0, atol=1e-15)


def test_scores_trapezoid_exact_on_linear():
    # trapezoid is exact for a piecewise-linear integrand on its own grid: X = 1, B = hat (degree 1)
    t = np.linspace(0, 1, 11)
    B = basis.bspline_basis(t, 11, 1)                 # hats on the grid nodes
    xi = basis.scores(np.ones((1, 11)), t, B)[0]
    expected = np.r_[0.05, np.full(9, 0.1), 0.05]     # int of each hat: h or h/2 at the ends
    assert_close("scores of 1", expected, xi, rtol=0, atol=1e-15)


def test_audit_interval_example():
    # spec §1.2 [3P-A]: degree 4, J = 24, bases {0, 1, 2} -> [0, 0.15]
    (lo, hi), = basis.basis_support_intervals([0, 1, 2], basis.clamped_knots(24, 4), 4)
    assert lo == 0.0 and abs(hi - 0.15) < 1e-12


@pytest.mark.parametrize("seed", range(5))
def test_intervals_equal_naive_union(seed):
    rng = np.random.default_rng(seed)
    knots = basis.clamped_knots(24, 3)
    for _ in range(50):
        chosen = np.flatnonzero(rng.random(24) < 0.3)
        assert basis.basis_support_intervals(chosen, knots, 3) == \
            naive.basis_support_intervals(chosen, knots, 3)


def test_empty_selection_and_bad_J():
    assert basis.basis_support_intervals([], basis.clamped_knots(24, 3), 3) == []
    with pytest.raises(ValueError, match="J = 3"):
        basis.clamped_knots(3, 3)


def test_functional_weights_shape():
    W1 = np.eye(24)[:5]                                # unit k carries basis k
    B = basis.bspline_basis(np.linspace(0, 1, 50), 24, 3)
    assert_close("beta_k = B_k", B[:, :5].T, basis.functional_weights(W1, B), rtol=0, atol=0)
