"""GD -> generalized perceptron equivalence, measured as a gap vs the scale (spec §2.2, F3).

Linear from 0: v_t / gamma -> u_t (GP, eta = 1) as gamma -> oo. Homogeneous model of degree k
from alpha * W0 with step gamma = eta * alpha^(2-k): theta_t / alpha -> GP iterate from W0.
All scales run as one batch: the run axis R holds one run per scale.
"""
from __future__ import annotations

import torch

from lib.gd_perceptron import dynamics


def _as_tensors(B, y):
    return (torch.as_tensor(B, dtype=torch.float64), torch.as_tensor(y, dtype=torch.float64))


def linear_gap(model, B, y, gammas: list[float], steps: int) -> torch.Tensor:
    """max_{t<=steps} ||v_t/gamma - u_t||_inf per gamma (GD and GP both from 0)."""
    B, y = _as_tensors(B, y)
    g = torch.tensor(gammas, dtype=torch.float64)                       # (R,)
    zeros = torch.zeros(len(gammas), B.shape[1], dtype=torch.float64)   # (R, d)
    gd = dynamics.trajectory(model, B, y, zeros, g, steps, rule="gd").thetas   # (T+1, R, d)
    gp = dynamics.trajectory(model, B, y, zeros[:1], 1.0, steps, rule="gp").thetas  # (T+1, 1, d)
    return (gd / g[None, :, None] - gp).abs().amax(dim=(0, 2))          # (R,)


def scaled_gap(model, B, y, W0: torch.Tensor, eta: float, alphas: list[float], steps: int
               ) -> torch.Tensor:
    """max_t ||theta_t/alpha - GP_t|| / ||GP_t|| per alpha: GD from alpha W0, eta a^(2-k) steps."""
    B, y = _as_tensors(B, y)
    a = torch.tensor(alphas, dtype=torch.float64)                       # (R,)
    shape = (-1,) + (1,) * W0.dim()
    start = a.reshape(shape) * W0.unsqueeze(0)                          # (R, m, d)
    gamma = eta * a ** (2 - model.degree)
    gd = dynamics.trajectory(model, B, y, start, gamma, steps, rule="gd").thetas  # (T+1,R,m,d)
    gp = dynamics.trajectory(model, B, y, W0.unsqueeze(0), eta, steps, rule="gp").thetas
    diff = (gd / a.reshape((1,) + shape) - gp).flatten(2).norm(dim=2)   # (T+1, R)
    return (diff / gp.flatten(2).norm(dim=2)).amax(dim=0)               # (R,)
