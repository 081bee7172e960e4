"""The exact solution satisfies steady NS pointwise, and its analytic gradients are autograd's."""
import numpy as np
import torch

from lib.musa_pinn import geometry, kovasznay, residuals
from tests.musa_pinn.conftest import assert_close


def points(n: int, seed: int = 0) -> torch.Tensor:
    return torch.as_tensor(geometry.sample_interior(geometry.Domain(), n,
                                                    np.random.default_rng(seed)))


def test_strong_residual_of_exact_field_is_zero():
    for re in (5.0, 20.0, 40.0):
        r = residuals.strong_residual(lambda xy: kovasznay.velocity_pressure(xy, re), points(37),
                                      1 / re)
        assert_close(f"strong residual Re={re}", torch.zeros_like(r), r, 0, 1e-9)  # float64


def test_analytic_gradients_match_autograd():
    xy = points(23)
    _, auto = residuals.value_and_grad(lambda p: kovasznay.velocity_pressure(p, 20.0), xy,
                                       create_graph=False)
    assert_close("grad", auto, kovasznay.gradients(xy, 20.0), 1e-13, 1e-13)   # rounding only


def test_lambda_closed_form():
    lam = kovasznay.lam(20.0)
    assert_close("lambda", 10 - np.sqrt(100 + 4 * np.pi ** 2), lam, 1e-15, 0)
    assert lam ** 2 - 20 * lam - 4 * np.pi ** 2 == 0 or abs(lam ** 2 - 20 * lam
                                                          - 4 * np.pi ** 2) < 1e-11
