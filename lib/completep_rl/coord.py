"""The coordinate check (spec §3 NB1): one Adam step on a fixed regression batch, the change of
the output and of the last hidden layer, and log-log slopes of those against width or depth."""
from __future__ import annotations

import math

import numpy as np
import torch

from lib.completep_rl import adam, param


def batch(n_points: int, d_in: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The fixed regression batch: x ~ N(0, I), y ~ N(0, 1), float64."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(n_points, d_in, generator=gen, dtype=torch.float64)
    return x, torch.randn(n_points, generator=gen, dtype=torch.float64)


def one_step(kind: str, n: int, depth: int, x: torch.Tensor, y: torch.Tensor, lr: float,
             eps: float, members: int, seed: int, ntk_variant: str) -> dict[str, np.ndarray]:
    """RMS change of f and relative RMS change of h_L after one Adam step, per member."""
    gen = torch.Generator().manual_seed(seed)
    weights, tab = param.make_mlp(kind, n, depth, x.shape[1], members, gen, ntk_variant)
    f0, h0 = param.forward(weights, tab, x)
    (0.5 * ((f0 - y) ** 2).mean(1).sum()).backward()
    mult = {k: math.sqrt(r.lr_sq) for k, r in tab.rules.items()}
    opt = adam.EnsembleAdam(weights, torch.full((members,), lr, dtype=x.dtype), mult,
                            eps * float(tab.eps_mult))
    opt.step()
    with torch.no_grad():
        f1, h1 = param.forward(weights, tab, x)
    df = ((f1 - f0.detach()) ** 2).mean(1).sqrt()
    dh = ((h1 - h0.detach()) ** 2).mean((1, 2)).sqrt() / (h0.detach() ** 2).mean((1, 2)).sqrt()
    return {"df": df.numpy(), "dh": dh.numpy()}


def slope(sizes: list[int], values: list[float]) -> float:
    """Least-squares slope of log value on log size."""
    return float(np.polyfit(np.log(sizes), np.log(values), 1)[0])
