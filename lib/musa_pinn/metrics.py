"""Accuracy and mass-conservation metrics of trained nets against the exact field (spec §3 NB2):
relative L2 of u, v and mean-removed p; the mean |disc continuity flux| on held-out discs; the
error of the net flux through a vertical line. Every function is per seed: nets take (S, ..., 2)."""
from __future__ import annotations

import numpy as np
import torch

from lib.musa_pinn import geometry, kovasznay, residuals


def relative_l2(pred: torch.Tensor, exact: torch.Tensor) -> np.ndarray:
    """||pred - exact|| / ||exact|| over points for u, v and p (p mean-removed): (S, 3)."""
    pred, exact = pred.double(), exact.double()
    pred = torch.cat([pred[..., :2], pred[..., 2:] - pred[..., 2:].mean(-2, keepdim=True)], -1)
    exact = torch.cat([exact[..., :2], exact[..., 2:] - exact[..., 2:].mean(-2, keepdim=True)], -1)
    return ((pred - exact).norm(dim=-2) / exact.norm(dim=-2)).numpy()


def field_errors(net: torch.nn.Module, points: np.ndarray, re: float) -> np.ndarray:
    """relative_l2 of every seed's net on the same points (n, 2): (S, 3)."""
    xy = torch.as_tensor(points, dtype=net.centre.dtype)
    with torch.no_grad():
        pred = net(xy.expand(net.n_seeds, -1, -1))
    return relative_l2(pred, kovasznay.velocity_pressure(xy.double(), re).expand(net.n_seeds,
                                                                                 -1, -1))


def disc_mass_flux(net: torch.nn.Module, discs: geometry.Discs, q: int, nu: float
                   ) -> np.ndarray:
    """|area-normalised continuity flux| of each seed's net on held-out discs: (S, m)."""
    dtype = net.centre.dtype
    c = torch.as_tensor(discs.centres, dtype=dtype).expand(net.n_seeds, -1, -1)
    r = torch.as_tensor(discs.radii, dtype=dtype).expand(net.n_seeds, -1)
    return residuals.weak_residual(net, c, r, q, nu)[..., 0].detach().abs().double().numpy()


def line_points(domain: geometry.Domain, x_line: float, n: int) -> tuple[np.ndarray, float]:
    """Midpoints of n cells on the line x = x_line across the box, kept where in Omega, and
    the cell length."""
    _, _, y0, y1 = domain.box
    h = (y1 - y0) / n
    y = y0 + h * (np.arange(n) + 0.5)
    pts = np.stack([np.full(n, x_line), y], -1)
    return pts[domain.wall_distance(pts) > 0], h


def line_flux_error(net: torch.nn.Module, domain: geometry.Domain, x_line: float, n: int,
                    re: float) -> np.ndarray:
    """|int u dy - int u_exact dy| over the fluid part of x = x_line, one midpoint rule for
    both (so the rule's own error cancels to first order): (S,)."""
    pts, h = line_points(domain, x_line, n)
    xy = torch.as_tensor(pts, dtype=net.centre.dtype)
    with torch.no_grad():
        u = net(xy.expand(net.n_seeds, -1, -1))[..., 0].double()
    exact = kovasznay.velocity_pressure(torch.as_tensor(pts), re)[..., 0]
    return ((u.sum(-1) - exact.sum()) * h).abs().numpy()
