"""lib/bsnp/poisson.py: banded == batched == naive dense FD; second order against quadrature."""
import numpy as np
import pytest

from lib.bsnp import naive, poisson


@pytest.mark.parametrize("lam", [(0.0, 0.0), (-2.0, 2.0), (1.3, -0.7)])
@pytest.mark.parametrize("n", [1, 7, 33])
def test_banded_batched_and_dense_agree(lam, n):
    dense = naive.solve_fd(lam, n)
    # direct solves of one tridiagonal system: rounding only (values ~0.1)
    assert np.abs(poisson.solve_fd(lam, n) - dense).max() <= 1e-12
    assert np.abs(poisson.solve_fd_batch(np.array([lam]), n)[0] - dense).max() <= 1e-12


def test_second_order_against_quadrature():
    sizes = np.array([31, 63, 127])
    errs = [np.abs(poisson.solve_fd((-2, 2), n) - poisson.solve_quadrature((-2, 2),
                   poisson.grid(n), 20_001)).max() for n in sizes]
    order = np.polyfit(np.log(1 / (sizes + 1)), np.log(errs), 1)[0]
    assert 1.95 <= order <= 2.05          # spec D1


def test_zero_lambda_closed_form():
    x = poisson.grid(128)
    u = poisson.solve_quadrature((0, 0), x, 20_001)
    # quadrature on 2e4 nodes: Simpson error ~1e-12, linear interpolation ~1e-10
    assert np.abs(u - np.sin(np.pi * x) / np.pi ** 2).max() <= 1e-8


def test_tasks_deterministic_and_in_prior():
    a, b = poisson.make_tasks(10, 3), poisson.make_tasks(10, 3)
    assert np.array_equal(a.u, b.u)
    assert np.all(np.abs(a.lam) <= 2) and a.u.shape == (10, 128)
