"""The group spike-and-slab prior of spec §1.2 on a first-layer column w_j in R^W and its plug-in
posterior inclusion probability (PIP): a function of the squared norm ||w_j||^2 alone.

w_j ~ lam N(0, s1 I_W) + (1 - lam) N(0, s0 I_W);
logit q = log(lam / (1 - lam)) + (W / 2) log(s0 / s1) + (||w||^2 / 2)(1 / s0 - 1 / s1).
`log_components`, `pip_logit` and `expected_precision` are plain arithmetic, so they take numpy
arrays and torch tensors alike (the MAP objective in model.py builds on them); the rest is numpy.
This module imports no torch, so the schema can use the threshold cheaply.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Union

import numpy as np

if TYPE_CHECKING:
    import torch

Array = Union[np.ndarray, "torch.Tensor"]


def log_components(norm2: Array, W: int, lam: float, s0: float, s1: float
                   ) -> tuple[Array, Array]:
    """log(lam N(w; 0, s1 I_W)) and log((1 - lam) N(w; 0, s0 I_W)) as functions of ||w||^2."""
    slab = math.log(lam) - 0.5 * W * math.log(2 * math.pi * s1) - norm2 / (2 * s1)
    spike = math.log1p(-lam) - 0.5 * W * math.log(2 * math.pi * s0) - norm2 / (2 * s0)
    return slab, spike


def neg_log_group_mixture(norm2: np.ndarray, W: int, lam: float, s0: float, s1: float
                          ) -> np.ndarray:
    """-log of the mixture density of one column, by log-sum-exp (stable for large norms)."""
    return -np.logaddexp(*log_components(norm2, W, lam, s0, s1))


def pip_logit(norm2: Array, W: int, lam: float, s0: float, s1: float) -> Array:
    """logit of P(r_j = 1 | w_j) in closed form (linear in ||w||^2)."""
    return (math.log(lam / (1 - lam)) + 0.5 * W * math.log(s0 / s1)
            + 0.5 * norm2 * (1 / s0 - 1 / s1))


def pip(norm2: np.ndarray, W: int, lam: float, s0: float, s1: float) -> np.ndarray:
    """Plug-in posterior inclusion probability of a column with squared norm norm2."""
    return 1 / (1 + np.exp(-pip_logit(norm2, W, lam, s0, s1)))


def pip_threshold(W: int, lam: float, s0: float, s1: float) -> float:
    """tau*: the squared norm at which the PIP is exactly 1/2 (q > 1/2 iff ||w||^2 > tau*)."""
    return -(math.log(lam / (1 - lam)) + 0.5 * W * math.log(s0 / s1)) / (0.5 * (1 / s0 - 1 / s1))


def expected_precision(q: Array, s0: float, s1: float) -> Array:
    """q / s1 + (1 - q) / s0: the prior precision of a column's entries averaged over r_j given
    its PIP q (the positive curvature the Laplace approximation uses, spec §3 NB3, a decision)."""
    return q / s1 + (1 - q) / s0
