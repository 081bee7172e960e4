"""Levenberg-Marquardt as coded by the paper (spec §1.4), and Adam for the baseline arm.

Step: (J^T J + mu I) delta = -J^T r, theta <- theta + delta, always accepted. Damping: mu0 = 10;
every second step compare the loss with the loss two steps earlier: fell -> mu = max(mu/1.3,
mu_min), else mu = min(1.7 mu, mu_max); whenever loss/mu > 1e5 set mu = loss/10.
Resampling: whenever validation loss > 5 x training loss draw fresh training points.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import torch


class SingularSystemError(np.linalg.LinAlgError):
    """The damped normal matrix J^T J + mu I is singular or too ill-conditioned to solve."""


class NonFiniteError(FloatingPointError):
    """The residual, Jacobian or step is not finite."""


@dataclass(frozen=True)
class Damping:
    mu0: float = 10.0
    down: float = 1.3
    up: float = 1.7
    mu_min: float = 1e-12
    mu_max: float = 1e8
    reset_ratio: float = 1e5
    reset_div: float = 10.0


def next_mu(mu: float, step: int, losses: list[float], rule: Damping) -> float:
    """The damping after step `step` (1-based) given the losses after each step so far
    (losses[0] is the initial loss): the paper's rule of spec §1.4."""
    loss = losses[-1]
    if step % 2 == 0 and len(losses) >= 3:
        mu = max(mu / rule.down, rule.mu_min) if loss < losses[-3] else min(mu * rule.up,
                                                                            rule.mu_max)
    if loss / mu > rule.reset_ratio:
        mu = loss / rule.reset_div
    return mu


def normal_matrix(jac: torch.Tensor) -> torch.Tensor:
    """J^T J (P, P), by numpy, which takes a matrix times its own transpose as one symmetric
    rank-k update (BLAS syrk): half the products of a general J^T @ J, which torch computes in
    full. A non-finite J gives a non-finite result, so checking this (P, P) matrix checks J."""
    j = jac.detach().numpy()
    return torch.from_numpy(j.T @ j)


def lm_step(jac: torch.Tensor, r: torch.Tensor, mu: float,
            rcond_min: float = 1e-15) -> torch.Tensor:
    """Solve (J^T J + mu I) delta = -J^T r by Cholesky; refuse (SingularSystemError, saying why)
    a system that is not positive definite or whose estimated reciprocal condition is below
    rcond_min, and a non-finite input (NonFiniteError, via J^T J and J^T r: a NaN or inf in J or
    r reaches them), before returning a NaN step."""
    if not mu >= 0:
        raise ValueError(f"mu = {mu!r}; allowed: mu >= 0")
    p = jac.shape[1]
    gram = normal_matrix(jac)
    grad = jac.T @ r
    if not (torch.isfinite(gram).all() and torch.isfinite(grad).all()):
        raise NonFiniteError(f"LM input not finite: {int((~torch.isfinite(r)).sum())} residual and "
                             f"{int((~torch.isfinite(jac)).sum())} Jacobian entries (or J^T J "
                             "overflowed)")
    chol, info = torch.linalg.cholesky_ex(gram + mu * torch.eye(p, dtype=jac.dtype))
    if info.item() != 0:
        raise SingularSystemError(f"LM system J^T J + mu I (P = {p}, mu = {mu:g}, rows = "
                                  f"{jac.shape[0]}) is not positive definite (pivot {info.item()}"
                                  "): J has dependent columns and mu is 0; raise mu_min")
    d = torch.diagonal(chol)
    rcond = float((d.min() / d.max()) ** 2)
    if rcond < rcond_min:
        raise SingularSystemError(f"LM system J^T J + mu I (P = {p}, mu = {mu:g}) is numerically "
                                  f"singular: reciprocal condition ~ {rcond:.2e} < rcond_min = "
                                  f"{rcond_min:g}; J has (nearly) dependent columns, raise mu")
    return torch.cholesky_solve(-grad[:, None], chol)[:, 0]


def should_resample(val_loss: float, train_loss: float, ratio: float = 5.0) -> bool:
    """The paper's rule: fresh training points iff validation loss > ratio x training loss."""
    return val_loss > ratio * train_loss


@dataclass
class History:
    step: list[int] = field(default_factory=list)
    loss: list[float] = field(default_factory=list)
    error: list[float] = field(default_factory=list)
    mu: list[float] = field(default_factory=list)
    cpu_s: list[float] = field(default_factory=list)
    resamples: int = 0


def train_lm(theta: torch.Tensor, res_jac: Callable, res: Callable, sample: Callable,
             evaluate: Callable, steps: int, eval_every: int, rule: Damping,
             resample_every: int, rcond_min: float) -> tuple[torch.Tensor, History]:
    """res_jac(theta, pts) -> (r, J); res(theta, pts) -> r; sample(kind) -> points ('train' or
    'val'); evaluate(theta) -> relative L2. Returns the final theta and its history."""
    hist = History()
    pts, val = sample("train"), sample("val")
    mu = rule.mu0
    start = time.process_time()
    r, jac = res_jac(theta, pts)
    losses = [float(r @ r)]
    hist.step.append(0), hist.loss.append(losses[0]), hist.error.append(evaluate(theta))
    hist.mu.append(mu), hist.cpu_s.append(0.0)
    for k in range(1, steps + 1):
        delta = lm_step(jac, r, mu, rcond_min)
        theta = theta + delta
        if resample_every and k % resample_every == 0:
            vr, tr = res(theta, val), res(theta, pts)
            if should_resample(float(vr @ vr), float(tr @ tr)):
                pts = sample("train")
                hist.resamples += 1
        r, jac = res_jac(theta, pts)
        loss = float(r @ r)
        if not np.isfinite(loss):
            raise NonFiniteError(f"LM loss became non-finite at step {k} (mu = {mu:g})")
        losses.append(loss)
        mu = next_mu(mu, k, losses, rule)
        if k % eval_every == 0 or k == steps:
            hist.step.append(k), hist.loss.append(loss), hist.error.append(evaluate(theta))
            hist.mu.append(mu), hist.cpu_s.append(time.process_time() - start)
    return theta, hist


def train_adam(theta: torch.Tensor, res: Callable, sample: Callable, evaluate: Callable,
               steps: int, eval_every: int, lr0: float, lr1: float,
               resample_every: int) -> tuple[torch.Tensor, History]:
    """Adam on loss = ||r||^2 with lr decaying exponentially from lr0 to lr1 over the run."""
    hist = History()
    th = theta.detach().clone().requires_grad_(True)
    opt = torch.optim.Adam([th], lr=lr0)
    gamma = (lr1 / lr0) ** (1.0 / max(steps, 1))
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma)
    pts, val = sample("train"), sample("val")
    start = time.process_time()
    for k in range(0, steps + 1):
        opt.zero_grad()
        r = res(th, pts)
        loss = r @ r
        if not torch.isfinite(loss):
            raise NonFiniteError(f"Adam loss became non-finite at step {k}")
        if k % eval_every == 0 or k == steps:
            hist.step.append(k), hist.loss.append(loss.item()), hist.error.append(
                evaluate(th.detach()))
            hist.mu.append(float("nan")), hist.cpu_s.append(time.process_time() - start)
        if k == steps:
            break
        loss.backward()
        opt.step()
        sched.step()
        if resample_every and (k + 1) % resample_every == 0:
            vr = res(th, val)
            if should_resample((vr @ vr).item(), loss.item()):
                pts = sample("train")
                hist.resamples += 1
    return th.detach(), hist
