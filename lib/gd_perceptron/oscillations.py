"""Loss curves and step-size sweeps of linear GD on data set A and on random data (spec F4, F5).

Data set A runs in Gram coefficients (`models.LinearGram`) so that its exact ties stay exact;
random data runs in full d. All step sizes of a sweep form one batch of runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import torch

from lib.gd_perceptron import datasets, dynamics, exact
from lib.gd_perceptron.models import Linear, LinearGram


@dataclass
class LossCurves:
    """Per gamma (R,): losses (T+1, R), margins (T+1, R, n) of GD from 0."""

    gammas: np.ndarray
    losses: np.ndarray
    margins: np.ndarray


def dataset_a_curves(d: int, gammas: list[float], steps: int) -> LossCurves:
    """GD from 0 on data set A for every gamma at once, keeping every loss and margin."""
    B, y = datasets.dataset_a(d)
    G = torch.as_tensor((B @ B.T).astype(np.float64))                     # (n, n)
    g = torch.tensor(gammas, dtype=torch.float64)
    traj = dynamics.trajectory(LinearGram(), G, torch.as_tensor(y, dtype=torch.float64),
                               torch.zeros(len(gammas), 2, dtype=torch.float64), g, steps)
    return LossCurves(g.numpy(), traj.losses.numpy(), traj.margins.numpy())


def perceptron_hinge(d: int, steps: int) -> np.ndarray:
    """H(u_t) = (1/n) sum_i max(0, -y_i b_i^T u_t) of the batch perceptron (1/2 on ties) on data
    set A for t = 0..steps, computed exactly in rational arithmetic, then rounded: (T+1,)."""
    y = datasets.dataset_a(2)[1]
    run = exact.perceptron_steps(exact.gram_dataset_a(d), y, tie="half")
    return np.array([float(sum(max(Fraction(0), -z) for z in margins) / len(margins))
                     for _, (_, _, margins) in zip(range(steps + 1), run)])


def hinge_gap(curves: LossCurves, hinge_u: np.ndarray) -> np.ndarray:
    """|f(v_t)/gamma - H(u_t)| per (t, run): GD's loss against the hinge loss of the exact
    perceptron iterate u_t (spec §2.2). softplus(-z) - max(0, -z) is in (0, log 2], so when
    v_t / gamma = u_t this is at most log(2) / gamma; when GD has not reduced to the perceptron
    (small gamma), H(v_t / gamma) differs from H(u_t) and nothing bounds it."""
    g = curves.gammas[None, :]                                              # (1, R)
    return np.abs(curves.losses / g - hinge_u[:, None])                     # (T+1, R)


def count_increases(losses: np.ndarray) -> np.ndarray:
    """Number of steps at which the loss went up, per run."""
    return (np.diff(losses, axis=0) > 0).sum(axis=0)


def gamma_sweep_dataset_a(d: int, gammas: list[float], max_iter: int) -> np.ndarray:
    """Iterations to separate data set A from 0 for every gamma (one batch)."""
    B, y = datasets.dataset_a(d)
    G = torch.as_tensor((B @ B.T).astype(np.float64))
    res = dynamics.iterations(LinearGram(), G, torch.as_tensor(y, dtype=torch.float64),
                              torch.zeros(len(gammas), 2, dtype=torch.float64),
                              torch.tensor(gammas, dtype=torch.float64), rule="gd",
                              max_iter=max_iter)
    return np.where(res.capped.numpy(), np.nan, res.iterations.numpy())


def gamma_sweep_random(n: int, d: int, gammas: list[float], data_seeds: list[int],
                       max_iter: int) -> tuple[np.ndarray, np.ndarray]:
    """GD counts (seeds, gammas), NaN where capped, and GP counts (seeds,) on random separable
    data from 0; every (seed, gamma) is one run of a single batch."""
    data = [datasets.random_separable(n, d, np.random.default_rng(s)) for s in data_seeds]
    B = torch.as_tensor(np.stack([b for b, _ in data]))                    # (S, n, d)
    y = torch.as_tensor(np.stack([v for _, v in data]), dtype=torch.float64)  # (S, n)
    S, G = len(data_seeds), len(gammas)
    runs_B = B.repeat_interleave(G, dim=0)                                  # (S*G, n, d)
    runs_y = y.repeat_interleave(G, dim=0)                                  # (S*G, n)
    eta = torch.tensor(gammas, dtype=torch.float64).repeat(S)              # (S*G,)
    zeros = torch.zeros(S * G, d, dtype=torch.float64)
    gd = dynamics.iterations(Linear(), runs_B, runs_y, zeros, eta, rule="gd", max_iter=max_iter)
    gp = dynamics.iterations(Linear(), B, y, zeros[:S], 1.0, rule="gp", max_iter=max_iter)
    counts = np.where(gd.capped.numpy(), np.nan, gd.iterations.numpy().astype(float))
    return counts.reshape(S, G), gp.iterations.numpy()


def median_finite(counts: np.ndarray) -> np.ndarray:
    """Median over axis 0 of the finite (uncapped) counts; NaN where every run was capped."""
    finite = np.isfinite(counts)
    return np.array([np.median(col[ok]) if ok.any() else np.nan
                     for col, ok in zip(counts.T, finite.T)])
