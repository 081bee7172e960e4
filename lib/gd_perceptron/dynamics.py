"""GD on the logistic loss and the generalized perceptron (GP), batched over runs (spec §1-§3).

One step, for every run r at once:

    theta <- theta + (eta_r / n) * sum_i w(y_i h(b_i; theta)) * y_i * grad h(b_i; theta)

with w = sigmoid(-z) for GD ("gd"), w = 1[z<0] + 1/2 1[z=0] for the GP ("gp", the gamma -> oo
limit, S(0) = 1/2), and w = 1[z<=0] after a first step of weight 1/2 for the author's Batch
Perceptron ("bp", arXiv 2412.08424). Iteration complexity is the first t with y_i h > 0 for all i
(strict, spec §3.5). Runs that have not separated by `max_iter` are reported, never dropped.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

RULES = ("gd", "gp", "bp")


def _check_rule(rule: str) -> None:
    if rule not in RULES:
        raise ValueError(f"rule = {rule!r}; allowed: {RULES}")


def margins(model, theta: torch.Tensor, B: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """y_i h(b_i; theta), shape (R, n)."""
    return y * model.output(theta, B)


def weights(margin: torch.Tensor, rule: str, first: bool = False) -> torch.Tensor:
    """Per-point step weights of GD, the GP or the author's Batch Perceptron."""
    if rule == "gd":
        return torch.sigmoid(-margin)
    if rule == "gp" or first:
        return (margin < 0).to(margin.dtype) + 0.5 * (margin == 0).to(margin.dtype)
    return (margin <= 0).to(margin.dtype)


def logistic_loss(margin: torch.Tensor) -> torch.Tensor:
    """f = (1/n) sum_i log(1 + exp(-z_i)) per run, computed stably."""
    return F.softplus(-margin).mean(dim=-1)


def _expand(eta, theta: torch.Tensor) -> torch.Tensor:
    eta = torch.as_tensor(eta, dtype=theta.dtype)
    eta = eta.expand(theta.shape[0]) if eta.dim() == 0 else eta
    return eta.reshape(-1, *([1] * (theta.dim() - 1)))  # broadcast over theta's trailing axes


def step(model, theta, B, y, eta, rule: str, first: bool = False, normalized: bool = False,
         margin: torch.Tensor | None = None):
    """One GD / GP / BP step for all runs; `normalized` scales GD by 1/mean(S(-z)) (NLR+GD).
    `margin`, the margins at theta when the caller already has them, saves computing them again."""
    m = margins(model, theta, B, y) if margin is None else margin
    w = weights(m, rule, first)
    scale = _expand(eta, theta) / m.shape[-1]
    if normalized:
        scale = scale / _expand(w.mean(dim=-1), theta)
    return theta + scale * model.direction(theta, B, w * y)


@dataclass
class Trajectory:
    """Iterates theta_0..theta_T (T+1, R, ...), margins (T+1, R, n) and losses (T+1, R)."""

    thetas: torch.Tensor
    margins: torch.Tensor
    losses: torch.Tensor


def trajectory(model, B, y, theta0, eta, steps: int, rule: str = "gd",
               normalized: bool = False) -> Trajectory:
    """Run `steps` steps from theta0 and keep every iterate (for plots and equivalence checks)."""
    _check_rule(rule)
    thetas, theta = [theta0], theta0
    for t in range(steps):
        theta = step(model, theta, B, y, eta, rule, first=(t == 0), normalized=normalized)
        thetas.append(theta)
    th = torch.stack(thetas)
    mg = torch.stack([margins(model, x, B, y) for x in thetas])
    return Trajectory(th, mg, logistic_loss(mg))


@dataclass
class Counts:
    """Iterations to separate per run; `capped` runs had not separated after max_iter steps."""

    iterations: torch.Tensor  # (R,) int64, max_iter where capped
    capped: torch.Tensor      # (R,) bool
    max_iter: int


def _rescale(theta: torch.Tensor, limit: float) -> torch.Tensor:
    """Divide runs whose norm exceeds `limit` by a power of two: exact, and the GP is invariant."""
    flat = theta.reshape(theta.shape[0], -1).abs().amax(dim=1)
    big = flat > limit
    if bool(big.any()):
        k = torch.floor(torch.log2(flat[big]))
        theta = theta.clone()
        theta[big] = theta[big] * torch.exp2(-k).reshape(-1, *([1] * (theta.dim() - 1)))
    return theta


def iterations(model, B, y, theta0, eta, rule: str = "gp", max_iter: int = 10_000,
               rescale: float | None = 1e50, normalized: bool = False, progress=None) -> Counts:
    """First t with y_i h(b_i; theta_t) > 0 for all i, per run, with finished runs dropped.

    B is (n, d) shared or (R, n, d) per run, y is (n,) or (R, n); eta is a scalar or (R,).
    `rescale` applies only to the scale-invariant rules (gp, bp); pass None to disable.
    `progress` is an optional tqdm bar.
    """
    _check_rule(rule)
    R = theta0.shape[0]
    out = torch.full((R,), max_iter, dtype=torch.int64)
    capped = torch.ones(R, dtype=torch.bool)
    idx = torch.arange(R)
    theta = theta0
    eta = torch.as_tensor(eta, dtype=theta0.dtype)
    eta = eta.expand(R).clone() if eta.dim() == 0 else eta.clone()
    Bp, yp = B, y
    for t in range(max_iter + 1):
        mg = margins(model, theta, Bp, yp)
        done = (mg > 0).all(dim=1)
        if bool(done.any()):
            out[idx[done]] = t
            capped[idx[done]] = False
            keep = ~done
            idx, theta, eta, mg = idx[keep], theta[keep], eta[keep], mg[keep]
            Bp = Bp[keep] if Bp.dim() == 3 else Bp
            yp = yp[keep] if yp.dim() == 2 else yp
            if progress is not None:
                progress.update(int(done.sum()))
        if idx.numel() == 0 or t == max_iter:
            break
        theta = step(model, theta, Bp, yp, eta, rule, first=(t == 0), normalized=normalized,
                     margin=mg)
        if rescale is not None and rule != "gd":
            theta = _rescale(theta, rescale)
    return Counts(out, capped, max_iter)
