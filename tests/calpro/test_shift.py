"""lib/calpro/shift.py: the closed form against Monte Carlo, the pivotal score, the bounds."""
import math

import numpy as np
import pytest
import torch

from lib.calpro import chains, naive, shift
from lib.calpro.chains import Regime

P, Q = chains.regimes("extrapolate", 0.08, 0.45)


def test_quadrature_weights_sum_to_one():
    assert shift.quadrature(Q)[2].sum() == pytest.approx(1.0, abs=1e-12)


def test_closed_form_matches_monte_carlo():
    q = shift.calibrated_threshold(0.1, P)
    for regime in (P, Q):
        mc, se = naive.monte_carlo_coverage(q, regime, 1500, np.random.default_rng(7))
        assert abs(mc - shift.coverage(q, regime)) <= 3 * se


def test_threshold_solves_the_calibration_equation_and_pivot():
    q = shift.calibrated_threshold(0.1, P)
    assert shift.coverage(q, P) == pytest.approx(0.9, abs=1e-12)
    assert shift.shifted_coverage(0.1, P, Q) < 0.8                 # vanilla falls under shift
    assert shift.shifted_coverage(0.1, P, Q, shift.true_sigma) == pytest.approx(0.9, abs=1e-9)


@pytest.mark.parametrize("p", [0.01, 0.08, 0.3, 0.6])
def test_segment_laws_against_bernoulli(p):
    base, shifted = chains.regimes("interpolate", 0.08, p)
    assert shift.segment_tv(base, shifted) == pytest.approx(shift.bernoulli_tv(p, 0.08), abs=1e-14)
    assert shift.segment_kl(shifted, base) == pytest.approx(shift.bernoulli_kl(p, 0.08), abs=1e-14)


def test_extrapolation_kl_is_infinite_and_tv_bound_finite():
    assert shift.segment_kl(Q, P) == math.inf
    assert shift.segment_tv(P, Q) == pytest.approx(0.45, abs=1e-14)   # 1/2 (0.37 + 0.08 + 0.45)
    assert 0.45 < shift.window_tv_bound(P, Q, 2) < 1


def test_segments_touched():
    assert [shift.segments_touched(r) for r in (1, 2, 3)] == [2, 2, 3]


def test_gaussian_kl_against_torch():
    m = np.random.default_rng(0).standard_normal(17)
    mt = torch.as_tensor(m)
    sd = torch.ones(17, dtype=torch.float64)
    ref = torch.distributions.kl_divergence(torch.distributions.Normal(mt, 0.05 * sd),
                                            torch.distributions.Normal(0 * mt, 0.1 * sd))
    assert shift.gaussian_kl(m, 0.05, 0.1) == pytest.approx(float(ref.sum()), rel=1e-12)
    assert shift.pac_bayes_term(0.0, 100, 0.05) == pytest.approx(
        math.sqrt(math.log(20 / 0.05) / 200), rel=1e-12)


def test_no_shift_no_bound():
    r = Regime(0.08, 0.6, 1.0)
    assert shift.window_tv_bound(r, r, 2) == 0.0 and shift.pinsker_bound(r, r, 2) == 0.0


def test_concept_shift_scales_the_noise_and_keeps_the_covariates():
    c = chains.sample_chains(200, chains.Regime(0.08, 0.3, 0.55), np.random.default_rng(4))
    y = shift.concept_shifted(c, 1.5, np.random.default_rng(5))
    z = (y - c.mu) / c.sigma
    assert abs(z.std() - 1.5) < 0.03                       # ~12k residues: sd known to ~1 %
    assert shift.window_tv_bound(chains.Regime(0.08, 0.3, 0.55),
                                 chains.Regime(0.08, 0.3, 0.55), 2) == 0.0
