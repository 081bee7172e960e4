"""Metrics vanish on the exact field; bad parameters are refused with the key named."""
import numpy as np
import pytest
import torch
from pydantic import ValidationError

from lib.musa_pinn import geometry, kovasznay, metrics, schema
from tests.musa_pinn.conftest import assert_close


class ExactNet(torch.nn.Module):
    """The exact Kovasznay field posing as a batch of S nets (float64)."""

    def __init__(self, seeds: int):
        super().__init__()
        self.register_buffer("centre", torch.zeros(2, dtype=torch.float64))
        self.n_seeds = seeds

    def forward(self, xy: torch.Tensor) -> torch.Tensor:
        return kovasznay.velocity_pressure(xy, 20.0)


def test_metrics_of_exact_field_vanish():
    dom, net = geometry.Domain(), ExactNet(2)
    pts = geometry.sample_interior(dom, 301, np.random.default_rng(0))
    assert_close("rel L2", np.zeros((2, 3)), metrics.field_errors(net, pts, 20.0), 0, 1e-15)
    discs = geometry.fixed_radius_discs(dom, 31, 0.05, np.random.default_rng(1))
    assert metrics.disc_mass_flux(net, discs, 16, 0.05).max() < 1e-13      # spectral at Q=16
    assert_close("line", np.zeros(2), metrics.line_flux_error(net, dom, 0.2, 999, 20.0), 0, 0)


def test_relative_l2_ignores_pressure_constant():
    exact = torch.rand(1, 50, 3, dtype=torch.float64)
    shifted = exact + torch.tensor([0.0, 0.0, 3.0], dtype=torch.float64)
    assert_close("gauge", np.zeros((1, 3)), metrics.relative_l2(shifted, exact), 0, 1e-14)


def test_line_flux_of_kovasznay_is_two():
    """int (1 - e^{l x} cos 2 pi y) dy over [-0.5, 1.5] = 2 (two whole periods): the rule."""
    pts, h = metrics.line_points(geometry.Domain(), 0.2, 4000)
    u = kovasznay.velocity_pressure(torch.as_tensor(pts), 20.0)[:, 0]
    assert len(pts) == 4000                                           # x = 0.2 misses every hole
    assert_close("flux", 2.0, float(u.sum()) * h, 0, 1e-12)


@pytest.mark.parametrize("cls,bad,match", [
    (schema.Flux, {"q_fine": 12}, "q_fine = 12 is not in quads"),
    (schema.Flux, {"r_min": 0.2, "r_max": 0.1}, "r_min = 0.2 exceeds r_max"),
    (schema.Flux, {"quads": [4, 16, 8]}, "falls from 16 to 8"),
    (schema.Arms, {"eval_every": 1300}, "eval_every = 1300 exceeds steps"),
    (schema.Arms, {"decay_at": [0.8, 0.6]}, "does not rise"),
    (schema.Arms, {"r_small": 0.2}, "r_small = 0.2 is not below r_large"),
    (schema.Flux, {"r_max": 0.3}, "r_max = 0.3 leaves too few places"),
    (schema.Arms, {"meso_r_min": 0.1, "meso_fraction": 0.4}, "meso_r_min / meso_fraction"),
], ids=["q-not-swept", "radii", "quads-order", "eval-every", "decay", "scales", "r-max-fits",
        "meso-depth"])
def test_schema_rejects(cls, bad, match):
    with pytest.raises(ValidationError, match=match):
        cls(**bad)
