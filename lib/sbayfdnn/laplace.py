"""Laplace predictive intervals at the MAP (spec §3 NB3, reconstructed): a diagonal curvature of
the negative log posterior, the linearised predictive variance, and the interval's coverage.

Curvature (a decision, see notebook 03): the generalised Gauss-Newton diagonal of the likelihood,
sum_i (df_i/dtheta)^2 / s2, which is positive where the exact Hessian diagonal need not be, plus
the prior's: 1 for the unit-Gaussian weights and, for the entries of first-layer column j, the
precision q_j / s1 + (1 - q_j) / s0 averaged over the column's indicator (prior.expected_precision).
"""
from __future__ import annotations

import torch
from torch.func import jacrev, vmap

from lib.sbayfdnn import model, prior


def _jacobian(p: model.Params, Z: torch.Tensor) -> model.Params:
    """df(z_i)/dtheta for every row of Z (n, J): each entry (n, *shape of the parameter)."""
    return vmap(jacrev(lambda q, z: model.forward(q, z[None])[0]), in_dims=(None, 0))(p, Z)


def curvature(p: model.Params, Z: torch.Tensor, spec: model.PriorSpec) -> model.Params:
    """Diagonal of the posterior precision at one model's MAP p (no batch axis)."""
    jac = _jacobian(p, Z)
    H = {k: (v ** 2).sum(0) / spec.s2 + 1.0 for k, v in jac.items()}
    norm2 = (p["W1"] ** 2).sum(0)                                        # (J,)
    q = torch.sigmoid(prior.pip_logit(norm2, p["W1"].shape[0], spec.lam, spec.s0, spec.s1))
    prec = prior.expected_precision(q, spec.s0, spec.s1)
    H["W1"] = H["W1"] - 1.0 + prec[None, :]                              # (W, J)
    return H


def predictive(p: model.Params, H: model.Params, Z: torch.Tensor
               ) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean f(z) and linearised variance sum_theta (df/dtheta)^2 / H of the network at Z (n, J)."""
    jac = _jacobian(p, Z)
    var = sum((jac[k] ** 2 / H[k]).flatten(1).sum(1) for k in jac)       # (n,)
    with torch.no_grad():
        return model.forward(p, Z), var


def interval_coverage(mean: torch.Tensor, var_f: torch.Tensor, noise: float, y: torch.Tensor,
                      z: float) -> tuple[float, float]:
    """Share of y inside mean +- z sqrt(var_f + noise), and the mean half-width."""
    half = z * torch.sqrt(var_f + noise)
    inside = (y >= mean - half) & (y <= mean + half)
    return float(inside.double().mean()), float(half.double().mean())
