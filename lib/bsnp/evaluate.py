"""Prediction and evaluation of a trained model on fixed test tasks (spec §1.4, §1.6, §3 NB2).

Prediction: S latent samples from q(z | C); mean = average of mu, variance = mean of sigma^2 +
variance of mu across samples (law of total variance). The physics residual is measured for
the posterior-mean latent z = mean of q(z | C) on a dense grid and at given points.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import torch

from lib.bsnp import metrics, physics
from lib.bsnp.batches import Batch, sample_batch
from lib.bsnp.model import BSNP
from lib.bsnp.poisson import Tasks

DENSE = np.linspace(0.02, 0.98, 197)     # the off-grid residual grid (spec §3 NB2)


@dataclass(frozen=True)
class Setting:
    """One evaluation condition: context sizes and noise level."""

    nc_low: int = 10
    nc_high: int = 50
    noise: float = 0.05
    n_target: int = 100


@torch.no_grad()
def predict(model: BSNP, batch: Batch, n_samples: int, gen: torch.Generator,
            x: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """Predictive mean and variance at the targets (or at x): (B, N) each."""
    g, mz, lz = model.encode(batch.xc, batch.yc, batch.mc, batch.lam)
    eps = torch.randn((n_samples, *mz.shape), generator=gen)
    x = batch.xt if x is None else x
    mu, sd = model.decode(g, mz + (0.5 * lz).exp() * eps, x)                   # (S, B, N)
    return mu.mean(0), sd.square().mean(0) + mu.var(0, unbiased=False)


def residual_sq(model: BSNP, batch: Batch, x: np.ndarray) -> np.ndarray:
    """r(x)^2 for the posterior-mean latent, per task and point: (tasks, len(x))."""
    with torch.no_grad():
        g, mz, _ = model.encode(batch.xc, batch.yc, batch.mc, batch.lam)
        xx = torch.as_tensor(x, dtype=torch.float32).expand(len(mz), -1)
        f = model.field_derivatives(g, mz, xx)
        return physics.residual(f["mu1"], f["mu2"], xx, batch.lam).square().numpy()


def mean_residual_sq(model: BSNP, batch: Batch, x: np.ndarray) -> np.ndarray:
    """Mean over tasks of r(x)^2 for the posterior-mean latent: (len(x),)."""
    return residual_sq(model, batch, x).mean(0)


def test_batch(tasks: Tasks, setting: Setting, seed: int) -> Batch:
    """The fixed evaluation batch of a setting: every model sees the same contexts."""
    rng = np.random.default_rng([seed, 7])
    return sample_batch(tasks, np.arange(len(tasks.lam)), rng, setting.nc_low, setting.nc_high,
                        setting.noise, setting.n_target)


def shuffle_values(batch: Batch, seed: int) -> Batch:
    """The same batch with each task's context values permuted among its own (unmasked) context
    points: positions, mask, lam and targets kept; only the pairing of x with y is broken."""
    rng = np.random.default_rng([seed, 11])
    yc = batch.yc.clone()
    for b in range(len(yc)):
        keep = torch.nonzero(batch.mc[b])[:, 0]
        yc[b, keep] = yc[b, keep[torch.as_tensor(rng.permutation(len(keep)))]]
    return replace(batch, yc=yc)


def evaluate(model: BSNP, batch: Batch, n_samples: int, seed: int,
             points: np.ndarray | None = None) -> dict[str, float]:
    """MNSE, NLL, ECP90, mean sigma / max|u| and residuals (dense, and at `points` if given)."""
    mu, var = predict(model, batch, n_samples, torch.Generator().manual_seed(seed))
    mu, var, y = mu.numpy().astype(float), var.numpy().astype(float), batch.yt.numpy()
    sd = np.sqrt(var)
    out = {"mnse": metrics.mnse(mu, y), "nll": metrics.gaussian_nll(mu, var, y),
           "ecp90": metrics.ecp(mu, sd, y, 0.9),
           "sigma_width": float(np.mean(sd / batch.scale.numpy()[:, None])),
           "r2_off": float(mean_residual_sq(model, batch, DENSE).mean())}
    if points is not None:
        out["r2_on"] = float(mean_residual_sq(model, batch, points).mean())
    return out


def coverage(model: BSNP, batch: Batch, n_samples: int, seed: int,
             levels: np.ndarray) -> np.ndarray:
    """Empirical coverage of the central bands at `levels` (reliability diagram)."""
    mu, var = predict(model, batch, n_samples, torch.Generator().manual_seed(seed))
    return metrics.reliability_curve(mu.numpy().astype(float), np.sqrt(var.numpy()).astype(float),
                                     batch.yt.numpy().astype(float), levels)


PER_TASK = ("err", "ref", "inside", "width", "r2_off", "r2_on")


def per_task(model: BSNP, batch: Batch, n_samples: int, seed: int,
             points: np.ndarray | None = None) -> np.ndarray:
    """The test tasks as replicates: per task (rows) the columns of PER_TASK: squared error and
    squared target summed over the targets (MNSE pooled over tasks is err.sum() / ref.sum()),
    share of targets inside the 90% band (equal targets per task, so the mean over tasks is
    ECP90), mean sigma / max|u|, mean r^2 on the dense grid and at `points` (NaN without them).
    Same draws as `evaluate` (same seed): (tasks, 6)."""
    mu, var = predict(model, batch, n_samples, torch.Generator().manual_seed(seed))
    mu, var, y = mu.numpy().astype(float), var.numpy().astype(float), batch.yt.numpy()
    sd = np.sqrt(var)
    z = 1.6448536269514722                          # the 0.95 quantile: the central 90% band
    on = (residual_sq(model, batch, points).mean(1) if points is not None
          else np.full(len(y), np.nan))
    return np.stack([((mu - y) ** 2).sum(1), (y ** 2).sum(1),
                     (np.abs(y - mu) <= z * sd).mean(1),
                     (sd / batch.scale.numpy()[:, None]).mean(1),
                     residual_sq(model, batch, DENSE).mean(1), on], axis=1)


def columns(per: dict, keys: list) -> dict[str, np.ndarray]:
    """The squared errors and squared targets (`err`, `ref`) of the per-task rows of several
    evaluations side by side, one column per key in order: (tasks, len(keys)) each, what a
    claim pooling MNSE over resampled tasks records."""
    return {name: np.stack([per[k][:, PER_TASK.index(name)] for k in keys], axis=1)
            for name in ("err", "ref")}
