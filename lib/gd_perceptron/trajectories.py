"""Trajectories in the plane of data set A and the three-option structure (spec §2.3, §3.4, F6).

In the basis q_1 = e_d, q_2 = (1_d - e_d)/sqrt(d-1) data set A is b_1 = (1, sqrt(d-1)),
b_2 = (0, sqrt(d-1)): integers' zeros stay exact zeros, so the t = 1 tie of the linear GP stays
exact. Each quadratic GP step applies one of three matrices: only b_1 misclassified (A_1), only
b_2 (A_2), or both (the "brake", whose eigenvalues in the plane are (1 +- sqrt(4d-3))/2 times c').
"""
from __future__ import annotations

import numpy as np
import torch

from lib.gd_perceptron import datasets, dynamics
from lib.gd_perceptron.models import Linear, make_model

OPTIONS = ("separated", "A_1 (only b_1 wrong)", "A_2 (only b_2 wrong)", "brake (both wrong)")


def plane_data(d: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Data set A in the exact plane basis: B (2, 2) and y (2,)."""
    s = np.sqrt(d - 1.0)
    B = torch.tensor([[1.0, s], [0.0, s]], dtype=torch.float64)
    return B, torch.tensor([1.0, -1.0], dtype=torch.float64)


def linear_path(d: int, steps: int) -> np.ndarray:
    """GP (1/2-tie) iterates u_0..u_steps of the linear model from 0, in the plane (T+1, 2)."""
    B, y = plane_data(d)
    traj = dynamics.trajectory(Linear(), B, y, torch.zeros(1, 2, dtype=torch.float64), 1.0,
                               steps, rule="gp")
    return traj.thetas[:, 0].numpy()


def quadratic_paths(d: int, c: float, runs: int, steps: int, gen: torch.Generator, m: int = 2
                    ) -> tuple[np.ndarray, np.ndarray]:
    """GP iterates W_t (T+1, R, m, 2) from N(0,1) in-plane inits, and margins (T+1, R, n)."""
    B, y = plane_data(d)
    W0 = torch.randn(runs, m, 2, generator=gen, dtype=torch.float64)
    eta = c / d                                      # c = 2 eta ||b_1||^2 / n with n = 2
    traj = dynamics.trajectory(make_model("two_layer", m), B, y, W0, eta, steps, rule="gp")
    return traj.thetas.numpy(), traj.margins.numpy()


def options(margins: np.ndarray) -> np.ndarray:
    """Option index per (t, run): 0 separated, 1 only b_1 wrong, 2 only b_2 wrong, 3 both."""
    wrong = margins <= 0                             # (T+1, R, 2)
    return wrong[..., 0] * 1 + wrong[..., 1] * 2


def brake_eigenvalues(d: int) -> tuple[np.ndarray, np.ndarray]:
    """Nonzero eigenvalues of b_1 b_1^T - b_2 b_2^T on data set A: (closed form, numeric in R^d)."""
    closed = np.array([(1 - np.sqrt(4 * d - 3)) / 2, (1 + np.sqrt(4 * d - 3)) / 2])
    B, _ = datasets.dataset_a(d)
    M = np.outer(B[0], B[0]) - np.outer(B[1], B[1]).astype(np.float64)
    ev = np.linalg.eigvalsh(M)
    nonzero = np.sort(ev[np.abs(ev) > 1e-9 * np.abs(ev).max()])
    return closed, nonzero


def single_point_unit_multiplicity(d: int, c_prime: float) -> int:
    """Multiplicity of the eigenvalue 1 of I + c' b_1 b_1^T on data set A (expected d - 1)."""
    b = datasets.dataset_a(d)[0][0].astype(np.float64)
    ev = np.linalg.eigvalsh(np.eye(d) + c_prime * np.outer(b, b))
    return int(np.sum(np.abs(ev - 1.0) < 1e-9))
