"""Context / target sets drawn from the tasks' grid solutions (spec §1.2).

Per task: N_c ~ U{nc_low..nc_high} context points from the grid without replacement, with
noise N(0, (noise * max|u|)^2); n_target noise-free targets from the same grid. Contexts are
padded to nc_max with a mask. `fresh=True` draws a new split for every draw of a task (the
prototype's choice); `fresh=False` seeds each task's split by its index, as the release does.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.bsnp.poisson import Tasks


@dataclass(frozen=True)
class Batch:
    """One batch as torch tensors: context (B, Nc) x, y, mask; targets (B, Nt); lam (B, 2);
    per-task scale max|u| (B,)."""

    xc: torch.Tensor
    yc: torch.Tensor
    mc: torch.Tensor
    xt: torch.Tensor
    yt: torch.Tensor
    lam: torch.Tensor
    scale: torch.Tensor

    def union(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Context and targets together (C u T): x, y, mask (B, Nc + Nt)."""
        return (torch.cat([self.xc, self.xt], 1), torch.cat([self.yc, self.yt], 1),
                torch.cat([self.mc, torch.ones_like(self.xt, dtype=torch.bool)], 1))


def _split(rng: np.random.Generator, n_grid: int, nc_max: int, n_target: int, nc_low: int,
           nc_high: int) -> tuple[np.ndarray, ...]:
    """One task's context indices, target indices, noise draws and context size."""
    return (rng.permutation(n_grid)[:nc_max], rng.permutation(n_grid)[:n_target],
            rng.standard_normal(nc_max), rng.integers(nc_low, nc_high + 1))


def sample_batch(tasks: Tasks, idx: np.ndarray, rng: np.random.Generator, nc_low: int,
                 nc_high: int, noise: float, n_target: int, fresh: bool = True,
                 split_seed: int = 0, dtype: torch.dtype = torch.float32) -> Batch:
    """A batch of the tasks `idx` (B,); nc_low = 0 allowed (an empty context: prior only)."""
    n_grid, b = tasks.x.size, len(idx)
    nc_max = max(nc_high, 1)
    if fresh:
        ctx = np.argsort(rng.random((b, n_grid)), axis=1)[:, :nc_max]           # (B, Nc)
        tgt = np.argsort(rng.random((b, n_grid)), axis=1)[:, :n_target]         # (B, Nt)
        z = rng.standard_normal((b, nc_max))
        nc = rng.integers(nc_low, nc_high + 1, size=b)
    else:
        parts = [_split(np.random.default_rng([split_seed, int(i)]), n_grid, nc_max, n_target,
                        nc_low, nc_high) for i in idx]
        ctx, tgt, z, nc = (np.stack(p) for p in zip(*parts))
    mask = np.arange(nc_max)[None, :] < nc[:, None]
    u = tasks.u[idx]
    scale = np.abs(u).max(axis=1)                  # = tasks.scale[idx], on the batch only
    yc = np.take_along_axis(u, ctx, 1) + noise * scale[:, None] * z
    t = lambda a, d=dtype: torch.as_tensor(a, dtype=d)   # noqa: E731
    return Batch(t(tasks.x[ctx]), t(yc), torch.as_tensor(mask), t(tasks.x[tgt]),
                 t(np.take_along_axis(u, tgt, 1)), t(tasks.lam[idx]), t(scale))
