"""The exact span reduction (spec §2.3, §6): dynamics that live in span{b_i} run in r <= n dims.

Every GD / GP update is a combination of the b_i (linear from 0) or of (w_j^T b_i) b_i (two-layer,
only W trained), so components orthogonal to span{b_i} never move and never change h(b_i). With
an orthonormal basis Q (d, r) of that span, running the same dynamics on Br = B Q (n, r) and on
the in-plane coordinates theta Q gives the same margins and counts whatever d is: one step costs
O(m n r), so data set A at d = 2^20 costs what it costs at d = 16.
"""
from __future__ import annotations

import numpy as np
import torch

from lib.gd_perceptron import dynamics


def basis(B: np.ndarray) -> np.ndarray:
    """Orthonormal basis Q (d, r) of the row span of B (n, d), via QR of B^T; r = rank."""
    Q, R = np.linalg.qr(np.asarray(B, dtype=np.float64).T)
    rank = int((np.abs(np.diag(R)) > 1e-12 * np.abs(R).max()).sum())
    return Q[:, :rank]


def reduce(B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Q, Br): the basis and the data in it, Br = B Q of shape (n, r)."""
    Q = basis(B)
    return Q, np.asarray(B, dtype=np.float64) @ Q


def stack(datasets: list[np.ndarray], runs_each: int) -> torch.Tensor:
    """Per-run reduced data (K * runs_each, n, r) for K data sets of equal n and rank."""
    reduced = [reduce(B)[1] for B in datasets]
    shapes = {R.shape for R in reduced}
    if len(shapes) != 1:
        raise ValueError(f"span.stack: reduced shapes differ {sorted(shapes)}; need one (n, r)")
    Br = torch.as_tensor(np.stack(reduced))                         # (K, n, r)
    return Br.repeat_interleave(runs_each, dim=0)                    # (K * runs_each, n, r)


def in_plane(theta: torch.Tensor, Q: np.ndarray) -> torch.Tensor:
    """Coordinates of theta (R, ..., d) in the basis Q: (R, ..., r)."""
    return theta @ torch.as_tensor(Q, dtype=theta.dtype)


def gaussian_init(runs: int, m: int, r: int, gen: torch.Generator) -> torch.Tensor:
    """In-plane coordinates of W_0 with i.i.d. N(0,1) entries: again N(0,1), whatever d is."""
    return torch.randn(runs, m, r, generator=gen, dtype=torch.float64)


def compare_with_full(model, B: np.ndarray, y: np.ndarray, W0: torch.Tensor, eta: float,
                      max_iter: int, drift_steps: int = 20) -> dict:
    """Run the GP in full d and in the span from the same W0 (R, m, d): counts and the largest
    change of the components orthogonal to span{b_i} over `drift_steps` full-d steps."""
    Q, Br = reduce(B)
    Bt, yt = torch.as_tensor(B, dtype=torch.float64), torch.as_tensor(y, dtype=torch.float64)
    full = dynamics.iterations(model, Bt, yt, W0, eta, rule="gp", max_iter=max_iter)
    plane = dynamics.iterations(model, torch.as_tensor(Br), yt, in_plane(W0, Q), eta, rule="gp",
                                max_iter=max_iter)
    P = torch.eye(B.shape[1], dtype=torch.float64) - torch.as_tensor(Q @ Q.T)  # (d, d)
    traj = dynamics.trajectory(model, Bt, yt, W0, eta, drift_steps, rule="gp").thetas
    drift = ((traj - W0) @ P).abs().amax().item()
    return {"full": full.iterations.numpy(), "plane": plane.iterations.numpy(), "drift": drift}
