"""Plain references for tests and bench/ (notebooks use the fast kernels).

- `jacobian_func`: per-point Jacobian of the PDE residual by torch.func, vmap over points of
  jacrev of a one-point residual whose input derivatives are nested torch.func.grad calls.
- `jacobian_loop`: one autograd backward per residual row (the per-sample loop).
- `lm_step_dense`: numpy.linalg.solve of the normal equations (J^T J + mu I) delta = -J^T r.
"""
from __future__ import annotations

import numpy as np
import torch
from torch.func import grad, jacrev, vmap

from lib.tinn.models import Model
from lib.tinn.residuals import Points, residual


def pde_residual_func(model: Model, theta, x, t, nu):
    """Residual at one point (scalar x, t) by nested torch.func.grad."""
    def u(xx, tt):
        return model.u(theta, xx.reshape(1), tt.reshape(1))[0]
    ux = grad(u, argnums=0)
    ut = grad(u, argnums=1)(x, t)
    uxx = grad(ux, argnums=0)(x, t)
    return ut + u(x, t) * ux(x, t) - nu * uxx


def jacobian_func(model: Model, theta: torch.Tensor, x: torch.Tensor, t: torch.Tensor,
                  nu: float) -> torch.Tensor:
    """(N, P) Jacobian of the PDE residual (unscaled) at the points (x_i, t_i)."""
    return vmap(jacrev(lambda th, a, b: pde_residual_func(model, th, a, b, nu)),
                in_dims=(None, 0, 0))(theta.detach(), x, t)


def jacobian_loop(model: Model, theta: torch.Tensor, pts: Points, nu: float, lam_ic: float,
                  lam_bc: float) -> tuple[torch.Tensor, torch.Tensor]:
    """r and J of the stacked residual, one backward pass per row."""
    th = theta.detach().clone().requires_grad_(True)
    r = residual(model, th, pts, nu, lam_ic, lam_bc)
    rows = [torch.autograd.grad(r[i], th, retain_graph=True)[0] for i in range(r.numel())]
    return r.detach(), torch.stack(rows)


def lm_step_dense(jac: np.ndarray, r: np.ndarray, mu: float) -> np.ndarray:
    """The LM step from the dense normal equations, by LU (numpy.linalg.solve)."""
    a = jac.T @ jac + mu * np.eye(jac.shape[1])
    return np.linalg.solve(a, -jac.T @ r)
