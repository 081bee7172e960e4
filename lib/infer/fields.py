"""The field models (spec §1.4): a Fourier-feature MLP trunk, batched over replicas (each its
own weights; a sweep run of notebook 02 trains one arm's seeds as its replicas), with a
time-domain head T or a frequency head F. Axes: R replicas, P positions, K rFFT bins (Kb in the
loss band), n IR samples."""
from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn


def _uniform(shape: tuple[int, ...], fan_in: int, gen: torch.Generator) -> torch.Tensor:
    """torch.nn.Linear's default init, U(-1/sqrt(fan_in), 1/sqrt(fan_in)), from `gen`."""
    bound = 1.0 / math.sqrt(fan_in)
    return (2 * torch.rand(shape, generator=gen) - 1) * bound


class BatchedField(nn.Module):
    """R independent MLPs (depth x width, SiLU) on [p, sin 2 pi B p, cos 2 pi B p]; replica r is
    initialised from generator r alone, so its weights do not depend on what else is batched.
    The output layer's columns may be held as groups (`groups`: index arrays that partition
    range(d_out)), each its own parameter, so that a query needing some outputs computes those
    only (`head`); the values drawn, and so the function, are the same as ungrouped."""

    def __init__(self, gens: list[torch.Generator], *, features: int, sigma: float, width: int,
                 depth: int, d_out: int, groups: list[np.ndarray] | None = None):
        super().__init__()
        draws = [self._draw(g, features, sigma, width, depth, d_out) for g in gens]
        self.register_buffer("proj", torch.stack([d[0] for d in draws]))      # (R, F, 2)
        self.weights = nn.ParameterList(
            [nn.Parameter(torch.stack([d[1][i] for d in draws])) for i in range(depth)])
        self.biases = nn.ParameterList(
            [nn.Parameter(torch.stack([d[2][i] for d in draws])) for i in range(depth)])
        groups = [np.arange(d_out)] if groups is None else [g for g in groups if len(g)]
        w_out = torch.stack([d[1][depth] for d in draws])                       # (R, width, d_out)
        b_out = torch.stack([d[2][depth] for d in draws])                       # (R, 1, d_out)
        self.head_w = nn.ParameterList([nn.Parameter(w_out[..., g].clone()) for g in groups])
        self.head_b = nn.ParameterList([nn.Parameter(b_out[..., g].clone()) for g in groups])
        order = np.argsort(np.concatenate(groups))            # grouped column -> output column
        self.register_buffer("order", torch.as_tensor(order))
        self.grouped = len(groups) > 1 or not np.array_equal(groups[0], np.arange(d_out))

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

    def hidden(self, p: torch.Tensor) -> torch.Tensor:
        """The last hidden layer (R, P, width) at positions p (P, 2) or (R, P, 2)."""
        p = p.expand(self.replicas, -1, -1) if p.dim() == 2 else p
        z = p @ self.proj.transpose(1, 2)                       # (R, P, F)
        x = torch.cat([p, torch.sin(z), torch.cos(z)], -1)
        for w, b in zip(self.weights, self.biases):
            x = torch.nn.functional.silu(torch.baddbmm(b, x, w))
        return x

    def head(self, x: torch.Tensor, group: int = 0) -> torch.Tensor:
        """The output columns of one group (R, P, len(group)) from the last hidden layer x."""
        return torch.baddbmm(self.head_b[group], x, self.head_w[group])

    def outputs(self, x: torch.Tensor) -> torch.Tensor:
        """Every output (R, P, d_out), in column order, from the last hidden layer x."""
        if not self.grouped:
            return self.head(x)
        out = torch.cat([self.head(x, g) for g in range(len(self.head_w))], -1)
        return out.index_select(-1, self.order)

    def forward(self, p: torch.Tensor) -> torch.Tensor:
        """Outputs (R, P, d_out) at positions p (P, 2) or (R, P, 2)."""
        return self.outputs(self.hidden(p))


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


def band_groups(k: int, band: slice) -> list[np.ndarray]:
    """The frequency head's output columns (ln |H|, cos, sin over k bins each) split into the
    band's bins of all three, then the rest: the loss reads the first group only."""
    cols = np.arange(3 * k).reshape(3, k)
    inside = np.zeros(k, bool)
    inside[band] = True
    return [cols[:, inside].ravel(), cols[:, ~inside].ravel()]


class FreqField(nn.Module):
    """F: ln |H| (around a fixed per-bin offset) and an unnormalised phasor (cos, sin) per bin.
    Its net is grouped by `band_groups(K, band)`, so the band's bins come alone (`band_parts`)."""

    def __init__(self, net: BatchedField, offset: torch.Tensor, band: slice):
        super().__init__()
        self.net, self.band = net, band
        self.register_buffer("offset", offset)                                 # (K,)

    @staticmethod
    def _unit(log_mag: torch.Tensor, c: torch.Tensor, s: torch.Tensor) -> tuple[torch.Tensor, ...]:
        norm = torch.sqrt(c ** 2 + s ** 2 + 1e-12)
        return log_mag, c / norm, s / norm

    def parts_from(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """ln |H| (R, P, K) and the unit phasor's cos and sin (R, P, K each) from the net's last
        hidden layer x: each quantity's band bins (group 0) between its bins below and above the
        band (group 1), by concatenation rather than a gather."""
        lo = self.band.start
        inside = self.net.head(x, 0).chunk(3, -1)                              # (R, P, Kb) each
        if len(self.net.head_w) == 1:                                          # the band is all
            log_mag, c, s = inside
        else:
            outside = self.net.head(x, 1).chunk(3, -1)                         # (R, P, K - Kb)
            log_mag, c, s = (torch.cat([o[..., :lo], i, o[..., lo:]], -1)
                             for i, o in zip(inside, outside))
        return self._unit(self.offset + log_mag, c, s)

    def band_parts(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """`parts_from` over the band's bins only (R, P, Kb each): the first column group."""
        log_mag, c, s = self.net.head(x, 0).chunk(3, -1)                    # (R, P, Kb) each
        return self._unit(self.offset[self.band] + log_mag, c, s)

    def parts(self, p: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """ln |H| (R, P, K) and the unit phasor's cos and sin (R, P, K each) at positions p."""
        return self.parts_from(self.net.hidden(p))

    def spectrum_from(self, x: torch.Tensor) -> torch.Tensor:
        """(R, P, K) complex half spectrum from the net's last hidden layer x."""
        log_mag, c, s = self.parts_from(x)
        return torch.exp(log_mag) * torch.complex(c, s)

    def spectrum(self, p: torch.Tensor) -> torch.Tensor:
        """(R, P, K) complex half spectrum at positions p."""
        return self.spectrum_from(self.net.hidden(p))
