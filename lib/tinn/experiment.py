"""Notebook 02's three training arms (TINN + LM, PINN + LM, PINN + Adam), one sweep run each
(issue 45). An arm builds its model from the parameters, starts from model.init(seed) and draws
its points from its own stream (seed + 10): nothing passes from one arm to the next, so the
results are the same on any executor and in any order."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch

from lib.companion import sweep
from lib.tinn import lm, models, residuals
from lib.tinn.schema import Comparison

ARMS = ("TINN+LM", "PINN+LM", "PINN+Adam")


@dataclass
class ArmRun:
    """What an arm's run returns: its final parameters and its training history."""

    theta: np.ndarray              # (P,) float64
    hist: lm.History


def eval_grid(cfg: Comparison) -> tuple[np.ndarray, np.ndarray]:
    """The evaluation grid (x on [-1, 1], t on [0, 1]) the reference and every arm share."""
    return np.linspace(-1, 1, cfg.n_x), np.linspace(0, 1, cfg.n_t)


def arm_model(cfg: Comparison, arm: str) -> models.Model:
    """The arm's model: the TINN for TINN + LM, the equal-size PINN for the other two."""
    if arm not in ARMS:
        raise ValueError(f"arm = {arm!r}: allowed: one of {', '.join(ARMS)}")
    if arm == "TINN+LM":
        return models.make_tinn(cfg.time_widths, cfg.tinn_widths)
    return models.make_pinn(cfg.pinn_widths)


def sampler(cfg: Comparison, seed: int) -> Callable[[str], residuals.Points]:
    """Fresh training ('train') or validation ('val', half the size, spec §1.4) points, all from
    one stream of `seed` that the arm owns."""
    gen = np.random.default_rng(seed)

    def sample(kind: str) -> residuals.Points:
        k = 1 if kind == "train" else 2
        return residuals.sample_points(gen, cfg.n_col // k, cfg.n_ic // k, max(cfg.n_bc // k, 1))
    return sample


def run_arm(cfg: Comparison, arm: str, u_ref: np.ndarray) -> ArmRun:
    """Train one arm from its initial parameters against the reference u_ref (n_t, n_x) on one
    torch thread: LM by the paper's rule, or Adam with its decaying learning rate."""
    model, nu = arm_model(cfg, arm), cfg.nu_pi / np.pi
    x_eval, t_eval = eval_grid(cfg)

    def res(th: torch.Tensor, pts: residuals.Points) -> torch.Tensor:
        return residuals.residual(model, th, pts, nu, cfg.lam_ic, cfg.lam_bc)

    def evaluate(th: torch.Tensor) -> float:
        return residuals.relative_l2(residuals.predict(model, th, x_eval, t_eval), u_ref)

    sample = sampler(cfg, cfg.seed + 10)
    if arm == "PINN+Adam":
        theta, hist = lm.train_adam(model.init(cfg.seed), res, sample, evaluate, cfg.adam_steps,
                                    6 * cfg.eval_every, cfg.adam_lr0, cfg.adam_lr1,
                                    cfg.resample_every)
        return ArmRun(theta.numpy(), hist)

    def res_jac(th: torch.Tensor, pts: residuals.Points) -> tuple[torch.Tensor, torch.Tensor]:
        return residuals.residual_and_jacobian(model, th, pts, nu, cfg.lam_ic, cfg.lam_bc)

    theta, hist = lm.train_lm(model.init(cfg.seed), res_jac, res, sample, evaluate,
                              cfg.lm_steps, cfg.eval_every, lm.Damping(mu_min=cfg.mu_min),
                              cfg.resample_every, cfg.rcond_min)
    return ArmRun(theta.numpy(), hist)


def run_arms(cfg: Comparison, u_ref: np.ndarray, notebook: str,
             arms: tuple[str, ...] = ARMS) -> dict[str, ArmRun]:
    """Every arm, one sweep run each on the notebook's `executor` (`workers` at once), by name
    in `arms` order."""
    runs = sweep.run_params(run_arm, [(cfg, arm, u_ref) for arm in arms], cfg, notebook,
                            labels=list(arms))
    return dict(zip(arms, runs))
