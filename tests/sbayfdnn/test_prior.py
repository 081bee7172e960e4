"""lib/sbayfdnn/prior.py: PIP against the two densities, the threshold, monotonicity, the
penalty as -log of the mixture density (spec §5 T1, T4)."""
import math

import numpy as np
import pytest
import torch
from scipy.stats import multivariate_normal

from lib.sbayfdnn import naive, prior
from tests.conftest import assert_close

DEFAULTS = (64, 1e-5, 1e-5, 2e-3)   # the audit's example values (spec §1.2)


def test_pip_equals_naive_density_ratio():
    n2 = np.linspace(0, 0.012, 1201)
    # two forms of one expression; rounding of logits of size ~ 600 in float64
    assert_close("pip", naive.pip(n2, *DEFAULTS), prior.pip(n2, *DEFAULTS), rtol=0, atol=1e-12)


@pytest.mark.parametrize("hyper", [DEFAULTS, (16, 0.1, 1e-4, 1e-1), (1, 0.5, 0.01, 1.0)])
def test_threshold_gives_one_half(hyper):
    tau = prior.pip_threshold(*hyper)
    assert abs(prior.pip(tau, *hyper) - 0.5) <= 1e-12      # closed form, rounding only


def test_threshold_value_at_defaults():
    assert abs(prior.pip_threshold(*DEFAULTS) - 3.639e-3) < 5e-7   # spec §1.2, 4 digits


def test_pip_increasing():
    z = prior.pip_logit(np.linspace(0, 0.05, 5001), *DEFAULTS)
    assert (np.diff(z) > 0).all()


def test_penalty_is_neg_log_mixture():
    rng = np.random.default_rng(3)
    W, lam, s0, s1 = 7, 0.2, 1e-3, 0.5
    w = rng.normal(0, 0.05, (40, W))
    direct = -np.logaddexp(math.log(lam) + multivariate_normal(np.zeros(W), s1).logpdf(w),
                           math.log1p(-lam) + multivariate_normal(np.zeros(W), s0).logpdf(w))
    got = prior.neg_log_group_mixture((w ** 2).sum(1), W, lam, s0, s1)
    assert_close("penalty", direct, got, rtol=1e-12, atol=1e-12)   # same density, two routes


def test_torch_components_match_numpy():
    n2 = np.linspace(0, 0.01, 11)
    ref = prior.log_components(n2, *DEFAULTS)
    got = prior.log_components(torch.tensor(n2), *DEFAULTS)
    for r, g in zip(ref, got):   # the same arithmetic on two array types
        assert_close("log component", r, g.numpy(), rtol=1e-15, atol=1e-12)
    z = torch.sigmoid(prior.pip_logit(torch.tensor(n2), *DEFAULTS)).numpy()
    assert_close("torch pip", prior.pip(n2, *DEFAULTS), z, rtol=0, atol=1e-15)


def test_expected_precision_between_the_components():
    q = prior.pip(np.array([0.0, prior.pip_threshold(*DEFAULTS), 1.0]), *DEFAULTS)
    p = prior.expected_precision(q, 1e-5, 2e-3)
    assert_close("precision", [1 / 1e-5, 0.5 / 2e-3 + 0.5 / 1e-5, 1 / 2e-3], p, rtol=1e-9, atol=0)
