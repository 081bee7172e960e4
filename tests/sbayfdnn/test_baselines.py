"""lib/sbayfdnn/baselines.py: the lasso FLM recovers a sparse linear model and is deterministic."""
import numpy as np

from lib.sbayfdnn import baselines


def test_lasso_recovers_sparse_support():
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((300, 10))
    y = 2 * Z[:, 3] - Z[:, 7] + 0.01 * rng.standard_normal(300)
    coef, pred = baselines.flm_lasso(Z, y, Z[:5], cv=5, alphas=30)
    assert abs(coef[3] - 2) < 0.05 and abs(coef[7] + 1) < 0.05
    assert np.abs(np.delete(coef, [3, 7])).max() < 0.02
    again, _ = baselines.flm_lasso(Z, y, Z[:5], cv=5, alphas=30)
    assert np.array_equal(coef, again) and pred.shape == (5,)
