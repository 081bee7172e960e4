"""The PINN: a tanh MLP (x, y) -> (u, v, p), one independent copy per seed in one module
(spec §3 NB2: 4 x 64, float32). Weights are (S, fan_in, fan_out) and inputs (S, ..., 2), so S
seeds train in one batched pass and, because the loss is a sum of per-seed losses, Adam updates
each copy exactly as it would alone."""
from __future__ import annotations

import math

import torch
from torch import nn


class SeedMLP(nn.Module):
    """S independent MLPs with `depth` hidden tanh layers of `width`, input scaled to [-1, 1]."""

    def __init__(self, seeds: list[int], width: int, depth: int,
                 box: tuple[float, float, float, float], dtype: torch.dtype = torch.float32):
        super().__init__()
        sizes = [2] + [width] * depth + [3]
        self.weights = nn.ParameterList()
        self.biases = nn.ParameterList()
        gens = [torch.Generator().manual_seed(s) for s in seeds]
        for fan_in, fan_out in zip(sizes, sizes[1:]):
            std = math.sqrt(2.0 / (fan_in + fan_out))                  # Glorot normal
            w = torch.stack([torch.randn(fan_in, fan_out, generator=g, dtype=torch.float64)
                             for g in gens]) * std
            self.weights.append(nn.Parameter(w.to(dtype)))            # (S, fan_in, fan_out)
            self.biases.append(nn.Parameter(torch.zeros(len(seeds), 1, fan_out, dtype=dtype)))
        x0, x1, y0, y1 = box
        self.register_buffer("centre", torch.tensor([(x0 + x1) / 2, (y0 + y1) / 2], dtype=dtype))
        self.register_buffer("half_width",
                             torch.tensor([(x1 - x0) / 2, (y1 - y0) / 2], dtype=dtype))

    @property
    def n_seeds(self) -> int:
        return self.weights[0].shape[0]

    def forward(self, xy: torch.Tensor) -> torch.Tensor:
        """xy (S, ..., 2) -> (u, v, p) (S, ..., 3); each seed's points go through its own net."""
        shape = xy.shape
        h = ((xy - self.centre) / self.half_width).reshape(shape[0], -1, 2)  # (S, N, 2)
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            h = torch.baddbmm(b, h, w)                                 # (S, N, fan_out)
            if i < len(self.weights) - 1:
                h = torch.tanh(h)
        return h.reshape(*shape[:-1], 3)
