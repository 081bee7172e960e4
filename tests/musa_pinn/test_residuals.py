"""Disc fluxes: batched against the per-disc loop, and the divergence-theorem identities."""
import numpy as np
import pytest
import torch

from lib.musa_pinn import geometry, kovasznay, manufactured, naive, residuals
from lib.musa_pinn.model import SeedMLP
from tests.musa_pinn.conftest import assert_close


def discs(n: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    d = geometry.random_radius_discs(geometry.Domain(), n, 0.02, 0.15,
                                     np.random.default_rng(seed))
    return torch.as_tensor(d.centres), torch.as_tensor(d.radii)


@pytest.mark.parametrize("m,q", [(1, 4), (7, 5), (33, 16)], ids=["m1-q4", "m7-q5", "m33-q16"])
def test_batched_flux_equals_loop(m, q):
    c, r = discs(m, seed=m)
    normals = residuals.circle_normals(q)
    pts = residuals.disc_points(c, r, normals)
    gen = torch.Generator().manual_seed(q)
    values = torch.randn(m, q, 3, generator=gen, dtype=torch.float64)
    grads = torch.randn(m, q, 3, 2, generator=gen, dtype=torch.float64)
    assert pts.shape == (m, q, 2)
    assert_close("flux", naive.disc_flux(values, grads, normals, r, 0.05),
                 residuals.disc_flux(values, grads, normals, r, 0.05), 1e-13, 1e-13)


def test_kovasznay_fluxes_vanish_at_q32():
    c, r = discs(200)
    normals = residuals.circle_normals(32)
    v, g = kovasznay.fields(residuals.disc_points(c, r, normals), 20.0)
    flux = residuals.disc_flux(v, g, normals, r, 0.05)
    assert_close("kovasznay flux", torch.zeros_like(flux), flux, 0, 1e-10)   # spec NB1


def test_square_flux_is_closed_form():
    c, r = discs(50)
    normals = residuals.circle_normals(4)       # x^2 n_x is a trig polynomial of degree 3 < 4
    v, g = manufactured.square(residuals.disc_points(c, r, normals))
    flux = residuals.disc_flux(v, g, normals, r, 0.05)[:, 0]
    assert_close("square", manufactured.square_divergence_mean(c), flux, 0, 1e-13)


def test_transcendental_flux_equals_area_average():
    c, r = discs(20)
    normals = residuals.circle_normals(32)
    v, g = manufactured.transcendental(residuals.disc_points(c, r, normals))
    flux = residuals.disc_flux(v, g, normals, r, 0.05)[:, 0]
    area = residuals.area_average(manufactured.transcendental_divergence, c, r, 24, 64)
    assert_close("divergence theorem", area, flux, 0, 1e-12)


def test_area_average_equals_loop():
    c, r = discs(5)
    f = manufactured.transcendental_divergence
    loop = [naive.disc_average(lambda x, y: float(f(torch.tensor([x, y]))), tuple(ci), float(ri),
                               n_r=6, n_theta=9) for ci, ri in zip(c.tolist(), r)]
    assert_close("area average", loop, residuals.area_average(f, c, r, 6, 9), 1e-13, 1e-14)


def test_stream_function_flux_is_zero():
    c, r = discs(40)
    normals = residuals.circle_normals(32)
    v, g = manufactured.stream(residuals.disc_points(c, r, normals))
    flux = residuals.disc_flux(v, g, normals, r, 0.05)[:, 0]
    assert_close("stream", torch.zeros_like(flux), flux, 0, 1e-12)


def test_weak_residual_tends_to_conservative_form():
    """For a smooth (not solenoidal) net the disc flux tends, as r -> 0, to the conservative
    residual at the centre: the strong one plus u_i div u."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(),
                              torch.nn.Linear(8, 3)).double()
    c = torch.tensor([[0.1, 0.3]], dtype=torch.float64)
    strong = residuals.strong_residual(net, c, 0.05)
    uv = net(c)[:, :2]
    strong = strong + torch.cat([torch.zeros(1, 1), uv * strong[:, :1]], -1).double()
    weak = residuals.weak_residual(net, c, torch.tensor([1e-3], dtype=torch.float64), 32, 0.05)
    assert_close("small-disc limit", strong, weak, 1e-4, 1e-6)   # O(r^2) = 1e-6 bias


def test_seed_net_residuals_equal_autograd_route():
    """The seed-batched net's residuals by forward propagation (`SeedMLP.jet`, `directional`)
    equal those of the same net's autograd derivatives (float64, two exact routes: rounding)."""
    net = SeedMLP([4, 6], 9, 3, geometry.Domain().box, dtype=torch.float64)

    def plain(xy: torch.Tensor) -> torch.Tensor:            # the net as a bare callable
        return net(xy)

    c, r = discs(13, seed=2)
    centres, radii = c.expand(2, -1, -1), r.expand(2, -1)
    assert_close("weak", residuals.weak_residual(plain, centres, radii, 16, 0.05),
                 residuals.weak_residual(net, centres, radii, 16, 0.05), 0, 1e-12)
    assert_close("strong", residuals.strong_residual(plain, centres, 0.05),
                 residuals.strong_residual(net, centres, 0.05), 0, 1e-12)
