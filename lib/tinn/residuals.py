"""Burgers least-squares residuals and their per-point Jacobians (spec §1.4, §4).

r(theta) stacks three groups, each divided by sqrt(N_group) and the IC/BC groups multiplied by
their lambda (as coded, spec §1.4), so that loss = ||r||^2:
  PDE  u_t + u u_x - nu u_xx at collocation points,
  IC   u(x, 0) + sin(pi x),
  BC   u(-1, t), u(1, t).
Input derivatives by forward propagation through the model (`Model.jet`, no autograd); the
Jacobian by one backward pass of r.sum() into per-point copies of theta (rows of the batch depend
only on their own copy), so the gradient of the sum is the (N, P) Jacobian.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.tinn.models import Model


@dataclass(frozen=True)
class Points:
    """Collocation (xr, tr), initial (x0) and boundary (tb, both sides) points, float64."""

    xr: torch.Tensor
    tr: torch.Tensor
    x0: torch.Tensor
    tb: torch.Tensor

    @property
    def rows(self) -> int:
        return self.xr.numel() + self.x0.numel() + 2 * self.tb.numel()


def sample_points(rng: np.random.Generator, n_col: int, n_ic: int, n_bc: int) -> Points:
    """Uniform random points on [-1, 1] x [0, 1] (spec §1.5)."""
    f = lambda a: torch.as_tensor(a, dtype=torch.float64)  # noqa: E731
    return Points(f(rng.uniform(-1, 1, n_col)), f(rng.uniform(0, 1, n_col)),
                  f(rng.uniform(-1, 1, n_ic)), f(rng.uniform(0, 1, n_bc)))


def pde_residual(model: Model, theta: torch.Tensor, x: torch.Tensor, t: torch.Tensor,
                 nu: float) -> torch.Tensor:
    """u_t + u u_x - nu u_xx at (x, t), differentiable in theta (shared or per point)."""
    u, ux, ut, uxx = model.jet(theta, x, t).unbind(1)
    return ut + u * ux - nu * uxx


def residual(model: Model, theta: torch.Tensor, pts: Points, nu: float, lam_ic: float,
             lam_bc: float) -> torch.Tensor:
    """The stacked residual vector (rows,). theta (P,) or (rows, P) in the same row order."""
    sizes = group_rows(pts)
    if theta.dim() == 1:
        return _stacked(model, [theta] * 3, pts, nu, lam_ic, lam_bc)
    return _stacked(model, list(theta.split(sizes)), pts, nu, lam_ic, lam_bc)


def group_rows(pts: Points) -> list[int]:
    """Rows of the PDE, initial and boundary groups, in the residual's order."""
    return [pts.xr.numel(), pts.x0.numel(), 2 * pts.tb.numel()]


def _stacked(model: Model, params: list, pts: Points, nu: float, lam_ic: float,
             lam_bc: float) -> torch.Tensor:
    """The residual from each group's parameters (theta, per-row theta or split blocks)."""
    nr, n0, nb = pts.xr.numel(), pts.x0.numel(), pts.tb.numel()
    r = pde_residual(model, params[0], pts.xr, pts.tr, nu) / np.sqrt(nr)
    zeros0 = torch.zeros_like(pts.x0)
    r0 = (model.u(params[1], pts.x0, zeros0) + torch.sin(np.pi * pts.x0)) * (
        lam_ic / np.sqrt(n0))
    xb = torch.cat([-torch.ones_like(pts.tb), torch.ones_like(pts.tb)])
    rb = model.u(params[2], xb, torch.cat([pts.tb, pts.tb])) * (lam_bc / np.sqrt(2 * nb))
    return torch.cat([r, r0, rb])


def residual_and_jacobian(model: Model, theta: torch.Tensor, pts: Points, nu: float,
                          lam_ic: float, lam_bc: float) -> tuple[torch.Tensor, torch.Tensor]:
    """r (rows,) and J = dr/dtheta (rows, P) by one backward pass into per-row copies of
    theta's blocks (`Layout.leaves`), assembled group by group and block by block."""
    sizes = group_rows(pts)
    leaves = [model.layout.leaves(theta, n) for n in sizes]
    r = _stacked(model, leaves, pts, nu, lam_ic, lam_bc)
    grads = iter(torch.autograd.grad(r.sum(), [v for g in leaves for v in g.values()]))
    jac = torch.empty(sum(sizes), model.size, dtype=theta.dtype)       # (rows, P)
    row = 0
    for n, group in zip(sizes, leaves):                 # copied in place: torch.cat along the
        col = 0                                         # columns of narrow blocks is ~7x slower
        for block in group.values():
            width = block[0].numel()
            jac[row:row + n, col:col + width] = next(grads).reshape(n, width)
            col += width
        row += n
    return r.detach(), jac


def predict(model: Model, theta: torch.Tensor, x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """u on the grid (len(t), len(x))."""
    xx, tt = np.meshgrid(x, t)
    with torch.no_grad():
        u = model.u(theta, torch.as_tensor(xx.ravel()), torch.as_tensor(tt.ravel()))
    return u.numpy().reshape(len(t), len(x))


def slope_at_origin(model: Model, theta: torch.Tensor, t: np.ndarray) -> np.ndarray:
    """u_x(0, t) of the model, (len(t),)."""
    x = torch.zeros(len(t), dtype=torch.float64, requires_grad=True)
    u = model.u(theta.detach(), x, torch.as_tensor(t, dtype=torch.float64))
    ux, = torch.autograd.grad(u.sum(), x)
    return ux.numpy()


def relative_l2(pred: np.ndarray, ref: np.ndarray) -> float:
    """||pred - ref||_2 / ||ref||_2 over the grid; refuses a non-finite prediction."""
    if not np.all(np.isfinite(pred)):
        raise FloatingPointError(f"prediction has {int((~np.isfinite(pred)).sum())} non-finite "
                                 "values: the training diverged")
    return float(np.linalg.norm(pred - ref) / np.linalg.norm(ref))
