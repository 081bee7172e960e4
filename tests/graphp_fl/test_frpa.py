"""FRPA's closed form against the loop and L-BFGS, its limits in exact arithmetic, and the
equal-distance Pareto property against a constrained reference solver (spec §1.3)."""
from fractions import Fraction as Fr

import numpy as np
import pytest
from scipy import optimize

from lib.graphp_fl import frpa, naive


def fr(*values) -> np.ndarray:
    return np.array([Fr(v) for v in values], dtype=object)


@pytest.mark.parametrize("dim", [1, 7, 19])
def test_align_equals_loop_and_lbfgs(dim):
    rng = np.random.default_rng(dim)
    tk, tg, h = frpa.random_instance(rng, dim, dim, 2.0)
    fast = frpa.align(tk, tg, h, 0.7)
    # same float64 expression: bitwise equal
    assert np.array_equal(fast, naive.align_loop(tk, tg, h, 0.7))
    # L-BFGS from theta_g on the autograd gradient; 1e-12 is rounding of a 1e3-conditioned system
    assert np.abs(fast - frpa.solve_numerically(tk, tg, h, 0.7)).max() <= 1e-12


def test_limits_in_exact_arithmetic():
    tk, tg = fr(3, -1, Fr(1, 2)), fr(0, 2, 5)
    assert list(frpa.align(tk, tg, fr(0, 0, 0), Fr(2))) == list(tg)          # F = 0: adopt
    c, lam = Fr(3), Fr(1)
    iso = frpa.interpolate(tk, tg, lam / (c + lam))
    assert list(frpa.align(tk, tg, fr(c, c, c), lam)) == list(iso)            # F = c 1
    big = frpa.align(np.array([3.0]), np.array([0.0]), np.array([1e300]), 1.0)
    assert big[0] == 3.0                                                       # F -> inf: keep


def test_naive_counterexample_exact():
    # spec §1.3: H = (1, 100), gap (1, 0); at lam = 1 the weights are 1/2 and 1/101
    gap = frpa.same_mean_weight_gap(fr(1, 100), fr(1, 0), Fr(1))
    assert gap == Fr(1, 8) - Fr(103, 404) ** 2 / 2 and gap > 0


def test_pareto_margins_nonnegative():
    rng = np.random.default_rng(3)
    for _ in range(30):
        tk, tg, h = frpa.random_instance(rng, 2, 19, 2.0)
        assert frpa.pareto_margins(tk, tg, h, [0.1, 0.5, 0.9]).min() >= -1e-9


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_frpa_is_the_constrained_minimum(seed):
    # FRPA at lam(d) minimises the local-loss increase on the sphere |t - theta_g| = d
    rng = np.random.default_rng(seed)
    tk, tg, h = frpa.random_instance(rng, 5, 5, 1.0)
    d = 0.5 * frpa.distance(tk, tg)
    got = frpa.align(tk, tg, h, frpa.lambda_at_distance(tk, tg, h, d))
    assert abs(frpa.distance(got, tg) - d) <= 1e-10
    cons = {"type": "eq", "fun": lambda t: np.sum((t - tg) ** 2) - d ** 2}
    ref = optimize.minimize(lambda t: frpa.loss_increase(t, tk, h), 0.5 * (tk + tg),
                            constraints=[cons], method="SLSQP",
                            options={"ftol": 1e-14, "maxiter": 1000})
    # SLSQP converges to about 1e-8 relative; FRPA must not be worse beyond that
    assert frpa.loss_increase(got, tk, h) <= ref.fun * (1 + 1e-7)
