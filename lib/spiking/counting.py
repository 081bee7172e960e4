"""Spike counting on time-major trains S (T, ...): counts, first spike steps, running means
(the rate readout at every t <= T in one pass)."""
from __future__ import annotations

import torch


def spike_counts(S: torch.Tensor) -> torch.Tensor:
    """Spikes per neuron over the whole train, sum_t S[t] (int64)."""
    return S.detach().sum(dim=0).round().long()


def first_spike_time(S: torch.Tensor) -> torch.Tensor:
    """Step of the first non-zero entry along time of S (T, ...), T where there is none (int64):
    T - max_t (T - t) [S[t] != 0]."""
    T = S.shape[0]
    weight = torch.arange(T, 0, -1, dtype=torch.float32).view(T, *([1] * (S.dim() - 1)))
    return (T - ((S != 0) * weight).amax(dim=0)).long()


def running_mean(x: torch.Tensor) -> torch.Tensor:
    """(1/(t+1)) sum_{tau <= t} x[tau] for every t: the rate (or mean output) after t + 1 steps."""
    steps = torch.arange(1, x.shape[0] + 1, dtype=x.dtype).view(-1, *([1] * (x.dim() - 1)))
    return torch.cumsum(x, dim=0) / steps
