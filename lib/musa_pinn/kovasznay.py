"""Kovasznay flow, an exact steady Navier-Stokes solution with zero forcing (spec §1.5).

u = 1 - e^{lx} cos 2pi y, v = l / (2 pi) e^{lx} sin 2pi y, p = (1 - e^{2lx}) / 2 with
l = Re/2 - sqrt(Re^2/4 + 4 pi^2) and nu = 1/Re. `fields` returns the values and the analytic
first derivatives that the disc-flux identities of NB1 integrate.
"""
from __future__ import annotations

import math

import torch


def lam(re: float) -> float:
    """Kovasznay's decay rate l(Re) (negative: the wake decays downstream)."""
    return re / 2 - math.sqrt(re ** 2 / 4 + 4 * math.pi ** 2)


def velocity_pressure(xy: torch.Tensor, re: float) -> torch.Tensor:
    """(u, v, p) at points xy (..., 2) -> (..., 3); differentiable in xy (for autograd checks)."""
    ll = lam(re)
    x, y = xy[..., 0], xy[..., 1]
    e = torch.exp(ll * x)
    u = 1 - e * torch.cos(2 * math.pi * y)
    v = ll / (2 * math.pi) * e * torch.sin(2 * math.pi * y)
    p = 0.5 * (1 - e * e)
    return torch.stack([u, v, p], -1)


def gradients(xy: torch.Tensor, re: float) -> torch.Tensor:
    """Analytic gradients d(u, v, p)/d(x, y) at xy (..., 2) -> (..., 3, 2)."""
    ll = lam(re)
    x, y = xy[..., 0], xy[..., 1]
    e = torch.exp(ll * x)
    c, s = torch.cos(2 * math.pi * y), torch.sin(2 * math.pi * y)
    du = torch.stack([-ll * e * c, 2 * math.pi * e * s], -1)
    dv = torch.stack([ll ** 2 / (2 * math.pi) * e * s, ll * e * c], -1)
    dp = torch.stack([-ll * e * e, torch.zeros_like(x)], -1)
    return torch.stack([du, dv, dp], -2)


def fields(xy: torch.Tensor, re: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Values (..., 3) and gradients (..., 3, 2) of the exact solution: the `Fields` contract."""
    return velocity_pressure(xy, re), gradients(xy, re)
