"""lib/bsnp/metrics.py against the plain loops of naive.py (spec T4)."""
import numpy as np

from lib.bsnp import metrics, naive


def test_metrics_equal_loops():
    rng = np.random.default_rng(0)
    y, mu = rng.normal(size=(7, 5)), rng.normal(size=(7, 5))
    var = rng.uniform(0.1, 2, size=(7, 5))
    assert abs(metrics.mnse(mu, y, batch=3) - naive.mnse(mu, y, batch=3)) <= 1e-12
    assert abs(metrics.gaussian_nll(mu, var, y) - naive.gaussian_nll(mu, var, y)) <= 1e-12
    assert abs(metrics.ecp(mu, np.sqrt(var), y) - naive.ecp(mu, np.sqrt(var), y)) <= 1e-12


def test_ecp_of_standard_normal():
    y = np.random.default_rng(1).standard_normal((100, 1000))
    # 1e5 draws: binomial sd of the share is 0.001
    assert abs(metrics.ecp(np.zeros_like(y), np.ones_like(y), y) - 0.9) <= 0.01
