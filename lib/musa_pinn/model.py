"""The PINN: a tanh MLP (x, y) -> (u, v, p), one independent copy per seed in one module
(spec §3 NB2: 4 x 64, float32). Weights are (S, fan_in, fan_out) and inputs (S, ..., 2), so S
seeds train in one batched pass and, because the loss is a sum of per-seed losses, Adam updates
each copy exactly as it would alone.

`jet` gives the input derivatives the residuals need (gradients, and Laplacians for the strong
form) by forward (Taylor-mode) propagation: each layer carries the value, its partial (or one
directional) derivatives and its Laplacian through batched products with the same weights, so a
training step is one forward and one first-order backward, where nested autograd builds and walks
a second- and third-order graph of many small nodes. For a = z W + b and z = tanh(a), with
t = 1 - z^2:
    d_k a' = (d_k z) W,  lap a' = (lap z) W,
    d_k z = t d_k a,     lap z = t lap a - 2 z t |grad a|^2.
"""
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

    def _forward_mode(self, xy: torch.Tensor, tangents: torch.Tensor, laplacian: bool
                      ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """The output layer's value (S, N, 3), its derivatives along each input tangent
        (S, T, N, 3) from tangents (S, T, N, 2) and, with `laplacian` (the tangents then being
        the two axes), its Laplacian (S, N, 3), at xy (S, ..., 2)."""
        s = xy.shape[0]
        h = ((xy - self.centre) / self.half_width).reshape(s, -1, 2)           # (S, N, 2)
        n, k = h.shape[1], tangents.shape[1]
        w0 = self.weights[0]                                                   # (S, 2, w)
        a = torch.baddbmm(self.biases[0], h, w0)                               # (S, N, w)
        scaled = (tangents / self.half_width).reshape(s, k * n, 2)             # d(input scaling)
        da = torch.bmm(scaled, w0).reshape(s, k, n, -1)                        # (S, T, N, w)
        lap = torch.zeros_like(a) if laplacian else None                      # (S, N, w)
        for w, b in zip(self.weights[1:], self.biases[1:]):
            z = torch.tanh(a)
            t = 1 - z * z
            if laplacian:
                lap = torch.bmm(t * lap - 2 * z * t * da.square().sum(1), w)      # (S, N, w')
            da = torch.bmm((t[:, None] * da).reshape(s, k * n, -1), w).reshape(s, k, n, -1)
            a = torch.baddbmm(b, z, w)                                         # (S, N, w')
        return a, da, lap

    def jet(self, xy: torch.Tensor, laplacian: bool = False
            ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """Values (S, ..., 3), input gradients (S, ..., 3, 2) and, with `laplacian`, the
        Laplacians (S, ..., 3) at xy (S, ..., 2), by forward propagation (module docstring)."""
        lead = xy.shape[:-1]
        axes = torch.eye(2, dtype=xy.dtype)[None, :, None, :]                  # (1, 2, 1, 2)
        n = xy[0, ..., 0].numel()
        a, da, lap = self._forward_mode(xy, axes.expand(xy.shape[0], -1, n, -1), laplacian)
        grads = da.permute(0, 2, 3, 1).reshape(*lead, 3, 2)
        return a.reshape(*lead, 3), grads, None if lap is None else lap.reshape(*lead, 3)

    def directional(self, xy: torch.Tensor, direction: torch.Tensor
                    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Values (S, ..., 3) and their derivatives (S, ..., 3) along `direction` (broadcast to
        xy's shape) at xy (S, ..., 2): one tangent stream where `jet` carries two."""
        lead = xy.shape[:-1]
        tangent = direction.expand_as(xy).reshape(xy.shape[0], 1, -1, 2)       # (S, 1, N, 2)
        a, da, _ = self._forward_mode(xy, tangent, False)
        return a.reshape(*lead, 3), da[:, 0].reshape(*lead, 3)
