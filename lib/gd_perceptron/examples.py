"""The author's small R^2 examples from arXiv 2412.08424 (spec §8), as GD runs over gamma / n.

Thm 4.1 example: from 0, theta_1 = gamma (1/2, 3/4) exactly and theta_2 / gamma -> (1, 1/4), so
the loss at t = 1 blows up with gamma while t = 2 already separates. Thm 5.1 worst-case set: the
lone +1 point gains 1/n per step, so the count grows linearly in n.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from lib.gd_perceptron import datasets, dynamics
from lib.gd_perceptron.models import Linear


@dataclass
class Thm41:
    """Per gamma: theta_1/gamma, theta_2/gamma (R, 2), losses and gradient norms at t = 1, 2."""

    gammas: np.ndarray
    theta1: np.ndarray
    theta2: np.ndarray
    loss: np.ndarray       # (R, 3) for t = 0, 1, 2
    grad_norm: np.ndarray  # (R, 3)


def thm41_runs(gammas: list[float]) -> Thm41:
    """Two GD steps from 0 on the Thm 4.1 example for every gamma at once."""
    B, y = (torch.as_tensor(a, dtype=torch.float64) for a in datasets.loss_unreliable_2d())
    g = torch.tensor(gammas, dtype=torch.float64)
    traj = dynamics.trajectory(Linear(), B, y, torch.zeros(len(gammas), 2, dtype=torch.float64),
                               g, 2, rule="gd")
    w = torch.sigmoid(-traj.margins)                                     # (3, R, n)
    grads = -torch.einsum("trn,nd->trd", w * y, B) / B.shape[0]          # (3, R, 2)
    return Thm41(g.numpy(), (traj.thetas[1] / g[:, None]).numpy(),
                 (traj.thetas[2] / g[:, None]).numpy(), traj.losses.T.numpy(),
                 grads.norm(dim=2).T.numpy())


def worst_case_count(n: int, gamma: float, normalized: bool, max_iter: int) -> tuple[int, bool]:
    """Iterations of (Normalized) LR+GD from 0 on the Thm 5.1 set with n points; (count, capped)."""
    B, y = datasets.worst_case_2d(n)
    Bt = torch.as_tensor(B.astype(np.float64))
    yt = torch.as_tensor(y, dtype=torch.float64)
    res = dynamics.iterations(Linear(), Bt, yt, torch.zeros(1, 2, dtype=torch.float64), gamma,
                              rule="gd", max_iter=max_iter, normalized=normalized)
    return int(res.iterations[0]), bool(res.capped[0])


def worst_case_scan(ns: list[int], gamma: float, normalized: bool, max_iter: int) -> pd.DataFrame:
    """Iterations of (Normalized) LR+GD on the Thm 5.1 set per n: columns n, iterations, capped."""
    rows = [(n, *worst_case_count(n, gamma, normalized, max_iter)) for n in ns]
    return pd.DataFrame(rows, columns=["n", "iterations", "capped"])


def normalized_counts(ns: list[int], gammas: list[float], max_iter: int) -> dict[int, list[int]]:
    """Normalized LR+GD iterations on the Thm 5.1 set: {n: [count per gamma]}."""
    return {n: [worst_case_count(n, g, True, max_iter)[0] for g in gammas] for n in ns}
