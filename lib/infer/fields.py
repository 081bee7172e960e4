"""The field models (spec §1.4): a Fourier-feature MLP trunk, batched over replicas (each its
own weights; a sweep run of notebook 02 trains one), with a time-domain head T or a frequency
head F. Axes: R replicas, P positions, K rFFT bins, n IR samples."""
from __future__ import annotations

import math

import torch
from torch import nn


def _uniform(shape: tuple[int, ...], fan_in: int, gen: torch.Generator) -> torch.Tensor:
    """torch.nn.Linear's default init, U(-1/sqrt(fan_in), 1/sqrt(fan_in)), from `gen`."""
    bound = 1.0 / math.sqrt(fan_in)
    return (2 * torch.rand(shape, generator=gen) - 1) * bound


class BatchedField(nn.Module):
    """R independent MLPs (depth x width, SiLU) on [p, sin 2 pi B p, cos 2 pi B p]; replica r is
    initialised from generator r alone, so its weights do not depend on what else is batched."""

    def __init__(self, gens: list[torch.Generator], *, features: int, sigma: float, width: int,
                 depth: int, d_out: int):
        super().__init__()
        draws = [self._draw(g, features, sigma, width, depth, d_out) for g in gens]
        self.register_buffer("proj", torch.stack([d[0] for d in draws]))      # (R, F, 2)
        self.weights = nn.ParameterList(
            [nn.Parameter(torch.stack([d[1][i] for d in draws])) for i in range(depth + 1)])
        self.biases = nn.ParameterList(
            [nn.Parameter(torch.stack([d[2][i] for d in draws])) for i in range(depth + 1)])

    @staticmethod
    def _draw(gen: torch.Generator, features: int, sigma: float, width: int, depth: int,
              d_out: int) -> tuple[torch.Tensor, list[torch.Tensor], list[torch.Tensor]]:
        proj = sigma * torch.randn(features, 2, generator=gen)
        dims = [2 + 2 * features] + [width] * depth + [d_out]
        ws = [_uniform((a, b), a, gen) for a, b in zip(dims, dims[1:])]
        bs = [_uniform((1, b), a, gen) for a, b in zip(dims, dims[1:])]
        return proj, ws, bs

    @property
    def replicas(self) -> int:
        return self.proj.shape[0]

    def forward(self, p: torch.Tensor) -> torch.Tensor:
        """Outputs (R, P, d_out) at positions p (P, 2) or (R, P, 2)."""
        p = p.expand(self.replicas, -1, -1) if p.dim() == 2 else p
        z = p @ self.proj.transpose(1, 2)                       # (R, P, F)
        x = torch.cat([p, torch.sin(z), torch.cos(z)], -1)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            x = torch.baddbmm(b, x, w)
            x = torch.nn.functional.silu(x) if i < last else x
        return x


class TimeField(nn.Module):
    """T: h[0..n/2-1] per position, zero-padded to n, so its spectrum is causal by construction."""

    def __init__(self, net: BatchedField, n: int, scale: float):
        super().__init__()
        self.net, self.n, self.scale = net, n, scale

    def impulse(self, p: torch.Tensor) -> torch.Tensor:
        """(R, P, n/2) samples."""
        return self.scale * self.net(p)

    def spectrum(self, p: torch.Tensor) -> torch.Tensor:
        """(R, P, n/2 + 1) complex half spectrum."""
        return torch.fft.rfft(self.impulse(p), n=self.n)


class FreqField(nn.Module):
    """F: ln |H| (around a fixed per-bin offset) and an unnormalised phasor (cos, sin) per bin."""

    def __init__(self, net: BatchedField, offset: torch.Tensor):
        super().__init__()
        self.net = net
        self.register_buffer("offset", offset)                                 # (K,)

    def parts(self, p: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """ln |H| (R, P, K) and the unit phasor's cos and sin (R, P, K each)."""
        k = self.offset.shape[0]
        out = self.net(p)
        c, s = out[..., k:2 * k], out[..., 2 * k:]
        norm = torch.sqrt(c ** 2 + s ** 2 + 1e-12)
        return self.offset + out[..., :k], c / norm, s / norm

    def spectrum(self, p: torch.Tensor) -> torch.Tensor:
        """(R, P, K) complex half spectrum."""
        log_mag, c, s = self.parts(p)
        return torch.exp(log_mag) * torch.complex(c, s)
