"""The physics operator of the Poisson family in torch (spec §1.5, §1.7).

r(x) = -(a u')' - f = -(a' u' + a u'') - f and the linear part L v = -(a v')'. Two routes: by
autograd through any callable u(x) (`residual_autograd`, create_graph, the release's way) and
from closed-form derivatives (`residual`, for the decoder's `field_derivatives`). The
sample-level arm's expected squared residual over u = mu + eps sigma, eps ~ N(0, 1), is
r(mu)^2 + (L sigma)^2 because the operator is affine (spec §1.7 [DERIVED]); `sample_level_mc`
is the Monte-Carlo form of the same expectation.
"""
from __future__ import annotations

from typing import Callable

import torch


def coefficient(x: torch.Tensor, lam: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """a(x; lam) and a'(x; lam); lam (B, 2), x (B, N) -> (B, N) each."""
    a0, a1 = lam[:, :1], lam[:, 1:2]
    sx, cx = torch.sin(torch.pi * x), torch.cos(torch.pi * x)
    a = torch.exp(a0 * sx + a1 * cx)
    return a, a * torch.pi * (a0 * cx - a1 * sx)


def operator(v1: torch.Tensor, v2: torch.Tensor, x: torch.Tensor, lam: torch.Tensor
             ) -> torch.Tensor:
    """L v = -(a' v' + a v'') from v' and v'' at x: (B, N)."""
    a, da = coefficient(x, lam)
    return -(da * v1 + a * v2)


def residual(u1: torch.Tensor, u2: torch.Tensor, x: torch.Tensor, lam: torch.Tensor
             ) -> torch.Tensor:
    """r = L u - f from u' and u'' at x: (B, N)."""
    return operator(u1, u2, x, lam) - torch.sin(torch.pi * x)


def residual_autograd(u_fn: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor,
                      lam: torch.Tensor) -> torch.Tensor:
    """r = -(a u')' - f by two autograd passes through u_fn (x (B, N) -> u (B, N))."""
    x = x.detach().requires_grad_(True)
    u = u_fn(x)
    du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    flux = coefficient(x, lam)[0] * du
    dflux = torch.autograd.grad(flux.sum(), x, create_graph=True)[0]
    return -dflux - torch.sin(torch.pi * x)


def sample_level_exact(f: dict[str, torch.Tensor], x: torch.Tensor, lam: torch.Tensor
                       ) -> torch.Tensor:
    """E_eps r(mu + eps sigma)^2 = r(mu)^2 + (L sigma)^2 pointwise: (B, N)."""
    return residual(f["mu1"], f["mu2"], x, lam).square() + \
        operator(f["sigma1"], f["sigma2"], x, lam).square()


def sample_level_mc(f: dict[str, torch.Tensor], x: torch.Tensor, lam: torch.Tensor,
                    eps: torch.Tensor) -> torch.Tensor:
    """Monte-Carlo mean over eps (K,) of r(mu + eps sigma)^2, one eps per sample path: (B, N)."""
    r = residual(f["mu1"], f["mu2"], x, lam)
    ls = operator(f["sigma1"], f["sigma2"], x, lam)
    return (r[None] + eps[:, None, None] * ls[None]).square().mean(0)
