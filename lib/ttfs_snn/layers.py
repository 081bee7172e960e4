"""Weight layers on time-major spike tensors (spec §1.6), plain or weight-normalised.

Normalised rows (i: output neuron or channel, n its fan-in, std over the row's n entries):

    W_hat_i = gamma_i (W_i - mean_j W_ij) / (std_j W_ij sqrt(n)) + beta_i / n

so every row of W_hat has mean beta_i / n and standard deviation gamma_i / sqrt(n), whatever W;
gamma and beta are learnable. Convolutions fold time into the batch: (T, B, C, H, W) ->
(T*B, C, H, W) -> conv -> back. `keep_grad` keeps the effective weight of the last forward with
its gradient, so the gradient that D4 speaks of (w.r.t. W_hat) can be read for either layer kind.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def weight_norm(W: torch.Tensor, gain: torch.Tensor, shift: torch.Tensor) -> torch.Tensor:
    """Standardise every row of W (out, ...) and give it mean shift/n and std gain/sqrt(n)."""
    rows = W.reshape(W.shape[0], -1)                                # (out, n)
    n = rows.shape[1]
    centred = rows - rows.mean(dim=1, keepdim=True)
    std = centred.square().mean(dim=1, keepdim=True).sqrt()         # population std of the row
    out = (gain[:, None] / (std * n ** 0.5)) * centred + shift[:, None] / n
    return out.reshape(W.shape)


class _Weighted(nn.Module):
    def __init__(self, shape: tuple[int, ...], norm: bool):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(shape))
        self.norm = norm
        self.fan_in = int(torch.tensor(shape[1:]).prod())
        if norm:
            self.gain = nn.Parameter(torch.ones(shape[0]))
            self.shift = nn.Parameter(torch.zeros(shape[0]))
        self.keep_grad = False
        self.last_weight: torch.Tensor | None = None

    def effective_weight(self) -> torch.Tensor:
        w = weight_norm(self.weight, self.gain, self.shift) if self.norm else self.weight
        if self.keep_grad and w.requires_grad:
            if not self.norm:                 # a view, so the leaf's .grad stays untouched
                w = w.view_as(w)
            w.retain_grad()
            self.last_weight = w
        return w


class TTFSLinear(_Weighted):
    """Currents I = W s of a fully connected layer: (T, B, n_in) -> (T, B, n_out)."""

    def __init__(self, n_in: int, n_out: int, norm: bool = False):
        super().__init__((n_out, n_in), norm)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.effective_weight().T


class TTFSConv(_Weighted):
    """Currents of a k x k convolution without padding: (T, B, C, H, W) -> (T, B, C', H', W')."""

    def __init__(self, c_in: int, c_out: int, k: int, norm: bool = False):
        super().__init__((c_out, c_in, k, k), norm)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        T, B = x.shape[:2]
        out = F.conv2d(x.reshape(T * B, *x.shape[2:]), self.effective_weight())
        return out.reshape(T, B, *out.shape[1:])
