"""Input coding (spec §1.1): latency (time-to-first-spike) coding, and direct analog input
(a constant current at every step).

Every tensor here is time-major, (T, B, ...): the time step first, then the batch.
"""
from __future__ import annotations

import torch

from lib.spiking.integrate import check_steps

CODINGS = ("latency", "direct")


def latency_times(x: torch.Tensor, T: int, x_min: float = 0.0) -> torch.Tensor:
    """First-spike step of each pixel, round((1 - x)(T - 1)), and T ("never") where x <= x_min.

    x in [0, 1], any shape; returns int64 of the same shape."""
    check_steps(T)
    t = torch.round((1.0 - x.clamp(0.0, 1.0)) * (T - 1)).long()
    return torch.where(x > x_min, t, torch.full_like(t, T))


def latency_encode(x: torch.Tensor, T: int, x_min: float = 0.0) -> torch.Tensor:
    """One spike per active pixel at step round((1 - x)(T - 1)); brighter pixels fire earlier.

    x (B, ...) in [0, 1] -> (T, B, ...) float32 of 0/1, at most one 1 along time."""
    times = latency_times(x, T, x_min)                              # (B, ...)
    steps = torch.arange(T).view(T, *([1] * x.dim()))               # (T, 1, ...)
    return (steps == times.unsqueeze(0)).to(torch.float32)          # (T, B, ...)


def direct_encode(x: torch.Tensor, T: int) -> torch.Tensor:
    """The analog image as a constant current at every step (ours: spec §1.1 and §7 Q2 read an
    analog input at t = 0). A current at t = 0 alone would leave nothing to time in this
    non-leaky model: every neuron would fire at t = 0 or never."""
    check_steps(T)
    return x.to(torch.float32).unsqueeze(0).expand(T, *x.shape).contiguous()


def encode(x: torch.Tensor, T: int, coding: str, x_min: float = 0.0) -> torch.Tensor:
    """Dispatch on the coding name; an unknown name is refused with the allowed ones."""
    if coding == "latency":
        return latency_encode(x, T, x_min)
    if coding == "direct":
        return direct_encode(x, T)
    raise ValueError(f"coding = {coding!r}; allowed: {list(CODINGS)}")
