"""Pooling on spike tensors (spec §1.3), applied at every time step to S (T, B, C, H, W).

- avg:   P[t] = k^-2 sum_window s[t]: graded values, spike mass sum_t P <= 1;
- max:   P[t] = max_window s[t]: binary, sum_t P = the number of distinct firing steps in the
         window, up to min(k^2, T), which breaks the single-spike property;
- first: P[t] = max_window F[t] - max_window F[t-1] (F = "has fired"): one spike, at the earliest
         spike of the window (our TTFS-consistent analogue of max pooling, not the paper's).

Windows are k x k with stride k; a last row or column that does not fill a window is dropped
(torch's floor mode). `window_first_times` gives the other route to the same counts: each
window's four first-spike times, from which distinct-step and fired counts follow by sorting.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

from lib.spiking.counting import first_spike_time

KINDS = ("avg", "max", "first")
TRANSMISSIONS = ("pulse", "held")


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"pooling kind = {kind!r}; allowed: {list(KINDS)}")
    return kind


def _fold(x: torch.Tensor, fn, k: int) -> torch.Tensor:
    """Apply a 2-d pooling fn to (T, B, C, H, W) with T folded into the batch."""
    T, B = x.shape[:2]
    out = fn(x.reshape(T * B, *x.shape[2:]), k)                     # (T*B, C, H/k, W/k)
    return out.reshape(T, B, *out.shape[1:])


def pool_spikes(S: torch.Tensor, kind: str, k: int = 2, transmission: str = "pulse"
                ) -> torch.Tensor:
    """Pool a layer's transmitted signal (T, B, C, H, W): its pulses, or under `held`
    transmission its cumulative "has fired" state (then max and first coincide: the max of step
    functions is a step function). Differentiable."""
    check_kind(kind)
    if transmission not in TRANSMISSIONS:
        raise ValueError(f"transmission = {transmission!r}; allowed: {list(TRANSMISSIONS)}")
    if kind == "avg":
        return _fold(S, F.avg_pool2d, k)
    if kind == "max" or transmission == "held":
        return _fold(S, F.max_pool2d, k)
    held = _fold(torch.cumsum(S, dim=0), F.max_pool2d, k)          # max_window F[t]
    return torch.diff(held, dim=0, prepend=torch.zeros_like(held[:1]))


def spike_train(P: torch.Tensor, transmission: str = "pulse") -> torch.Tensor:
    """The spikes a pooled signal forwards: its values (pulse), or its increments (held)."""
    if transmission == "pulse":
        return P
    return torch.diff(P, dim=0, prepend=torch.zeros_like(P[:1]))


def pooled_mass(P: torch.Tensor) -> torch.Tensor:
    """Spike mass per pooled unit, sum over time of P (T, ...) -> (...)."""
    return P.sum(dim=0)


def active_steps(P: torch.Tensor) -> torch.Tensor:
    """Number of time steps at which a pooled unit is non-zero (int64)."""
    return (P != 0).sum(dim=0)


def window_first_times(S: torch.Tensor, k: int = 2) -> torch.Tensor:
    """First-spike step of every neuron of every window, (B, C, H/k, W/k, k*k); T = never."""
    t = first_spike_time(S)                                         # (B, C, H, W)
    B, C, H, W = t.shape
    h, w = H // k, W // k
    t = t[:, :, :h * k, :w * k].reshape(B, C, h, k, w, k)
    return t.permute(0, 1, 2, 4, 3, 5).reshape(B, C, h, w, k * k)


def distinct_steps(times: torch.Tensor, T: int) -> torch.Tensor:
    """Distinct firing steps among each window's first-spike times (..., k*k) -> (...)."""
    srt = times.sort(dim=-1).values
    new = torch.cat([torch.ones_like(srt[..., :1], dtype=torch.bool),
                     srt[..., 1:] != srt[..., :-1]], dim=-1)
    return (new & (srt < T)).sum(dim=-1)


def fired_count(times: torch.Tensor, T: int) -> torch.Tensor:
    """Neurons of each window that fire within the T steps (..., k*k) -> (...)."""
    return (times < T).sum(dim=-1)


def histogram(values: torch.Tensor) -> tuple[tuple[float, int], ...]:
    """Sorted (value, count) pairs of a tensor, for exact claims on whole distributions."""
    uniq, counts = torch.unique(values.flatten(), return_counts=True)
    return tuple((float(u), int(c)) for u, c in zip(uniq.tolist(), counts.tolist()))
