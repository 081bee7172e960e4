"""The group spike-and-slab prior of spec §1.2 on a first-layer column w_j in R^W and its plug-in
posterior inclusion probability (PIP): a function of the squared norm ||w_j||^2 alone.

w_j ~ lam N(0, s1 I_W) + (1 - lam) N(0, s0 I_W);
logit q = log(lam / (1 - lam)) + (W / 2) log(s0 / s1) + (||w||^2 / 2)(1 / s0 - 1 / s1).
Works on numpy arrays and on torch tensors alike (the penalty enters the MAP objective).
"""
from __future__ import annotations

import math

import numpy as np
import torch

Array = np.ndarray | torch.Tensor


def _log_component(norm2: Array, W: int, var: float) -> Array:
    """log N(w; 0, var I_W) as a function of ||w||^2."""
    return -0.5 * W * math.log(2 * math.pi * var) - norm2 / (2 * var)


def neg_log_group_mixture(norm2: Array, W: int, lam: float, s0: float, s1: float) -> Array:
    """-log of the mixture density of one column, by log-sum-exp (stable for large norms)."""
    a = math.log(lam) + _log_component(norm2, W, s1)
    b = math.log1p(-lam) + _log_component(norm2, W, s0)
    if isinstance(norm2, torch.Tensor):
        return -torch.logaddexp(a, b)
    return -np.logaddexp(a, b)


def pip_logit(norm2: Array, W: int, lam: float, s0: float, s1: float) -> Array:
    """logit of P(r_j = 1 | w_j) in closed form (linear in ||w||^2)."""
    return (math.log(lam / (1 - lam)) + 0.5 * W * math.log(s0 / s1)
            + 0.5 * norm2 * (1 / s0 - 1 / s1))


def pip(norm2: Array, W: int, lam: float, s0: float, s1: float) -> Array:
    """Plug-in posterior inclusion probability of a column with squared norm norm2."""
    z = pip_logit(norm2, W, lam, s0, s1)
    return torch.sigmoid(z) if isinstance(z, torch.Tensor) else 1 / (1 + np.exp(-z))


def pip_threshold(W: int, lam: float, s0: float, s1: float) -> float:
    """tau*: the squared norm at which the PIP is exactly 1/2 (q > 1/2 iff ||w||^2 > tau*)."""
    return -(math.log(lam / (1 - lam)) + 0.5 * W * math.log(s0 / s1)) / (0.5 * (1 / s0 - 1 / s1))


def expected_precision(norm2: Array, W: int, lam: float, s0: float, s1: float) -> Array:
    """q / s1 + (1 - q) / s0: the prior precision of a column's entries averaged over r_j given
    w_j (the positive curvature the Laplace approximation uses, spec §3 NB3, a decision)."""
    q = pip(norm2, W, lam, s0, s1)
    return q / s1 + (1 - q) / s0
