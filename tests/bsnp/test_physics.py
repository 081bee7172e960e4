"""lib/bsnp/physics.py and the closed-form decoder derivatives (spec T2, T3)."""
import numpy as np
import torch

from lib.bsnp import model, naive, physics


def _net():
    torch.manual_seed(0)
    net = model.BSNP(model.Sizes(channels=(8,), latent=3, hidden=8)).double()
    g = torch.randn(2, 32, 8, dtype=torch.float64)
    z = torch.randn(2, 3, dtype=torch.float64)
    x = torch.rand(2, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    lam = torch.tensor([[1.0, -2.0], [-0.5, 0.3]], dtype=torch.float64)
    return net, g, z, x, lam


def test_closed_form_equals_autograd():
    net, g, z, x, lam = _net()
    f = net.field_derivatives(g, z, x, sigma=True)
    r = physics.residual(f["mu1"], f["mu2"], x, lam)
    ra = physics.residual_autograd(lambda s: net.decode(g, z, s)[0], x, lam)
    assert (r - ra).abs().max() <= 1e-10 * ra.abs().max()       # float64, two exact routes
    ls = physics.operator(f["sigma1"], f["sigma2"], x, lam)
    la = physics.residual_autograd(lambda s: net.decode(g, z, s)[1], x, lam) + \
        torch.sin(torch.pi * x)
    assert (ls - la).abs().max() <= 1e-10 * la.abs().max()


def test_autograd_equals_finite_differences():
    net, g, z, x, lam = _net()
    ra = physics.residual_autograd(lambda s: net.decode(g, z, s)[0], x, lam).detach().numpy()
    rn = naive.batched_residual(net, g, z, x.numpy(), lam.numpy())
    # central differences, h = 1e-4: truncation ~1e-8, rounding ~1e-16 / h^2 ~ 1e-8
    assert np.abs(ra - rn).max() <= 1e-4 * np.abs(ra).max()


def test_sample_level_identity():
    net, g, z, x, lam = _net()
    f = net.field_derivatives(g, z, x, sigma=True)
    eps = torch.tensor([-1.0, 1.0], dtype=torch.float64)       # mean 0, mean square 1: exact
    assert torch.allclose(physics.sample_level_mc(f, x, lam, eps),
                          physics.sample_level_exact(f, x, lam), rtol=1e-12, atol=0)
