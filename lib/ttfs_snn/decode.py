"""Output decoding, tie-breaking and latency (spec §1.4, §1.7). O, V: output spikes and
potentials (T, B, K).

- weighted_spikes (the paper's decoder, reconstructed): z = lam sum_t w_t O[t], w_t = (T - t)/T;
- count: z = lam sum_t O[t] (for TTFS: fired or not);
- final_potential: z = V[T-1];
- weighted_potential: z = sum_t w_t V[t] / sum_t w_t.

Prediction: argmax of z + eps V[T-1] (ties between classes that fired at the same step go to the
higher potential); without the tie-break argmax takes the lowest index. Anytime accuracy A(t)
uses steps <= t only.
"""
from __future__ import annotations

import torch

DECODERS = ("weighted_spikes", "count", "final_potential", "weighted_potential")
SPIKE_DECODERS = ("weighted_spikes", "count")


def check_decoder(kind: str) -> str:
    if kind not in DECODERS:
        raise ValueError(f"decoder = {kind!r}; allowed: {list(DECODERS)}")
    return kind


def time_weights(T: int, kind: str, dtype=torch.float32) -> torch.Tensor:
    """w_t, t = 0 .. T-1: (T - t)/T for the weighted decoders, 1 for count."""
    t = torch.arange(T, dtype=dtype)
    return torch.ones(T, dtype=dtype) if kind == "count" else (T - t) / T


def logits(O: torch.Tensor, V: torch.Tensor, kind: str, lam: float = 10.0) -> torch.Tensor:
    """z (B, K) of one decoder; differentiable through O (surrogate) and V."""
    check_decoder(kind)
    T = O.shape[0]
    if kind == "final_potential":
        return V[-1]
    w = time_weights(T, kind, O.dtype)
    if kind == "weighted_potential":
        return torch.einsum("t,tbk->bk", w, V) / w.sum()
    return lam * torch.einsum("t,tbk->bk", w, O)


def predict(O: torch.Tensor, V: torch.Tensor, kind: str, lam: float = 10.0,
            eps: float = 1e-3, tie_break: bool = True) -> torch.Tensor:
    """Class per sample (B,): argmax z (+ eps V[T-1] when tie_break)."""
    z = logits(O, V, kind, lam)
    return (z + eps * V[-1] if tie_break else z).argmax(dim=1)


def anytime_logits(O: torch.Tensor, V: torch.Tensor, kind: str, lam: float = 10.0,
                   eps: float = 1e-3) -> torch.Tensor:
    """(T, B, K): row t is the decision score from steps <= t only (later spikes zeroed; the
    tie-break and potentials up to t)."""
    check_decoder(kind)
    T = O.shape[0]
    if kind == "final_potential":
        return V
    w = time_weights(T, kind, O.dtype).view(T, 1, 1)
    if kind == "weighted_potential":
        return torch.cumsum(w * V, dim=0) / torch.cumsum(w, dim=0)
    return lam * torch.cumsum(w * O, dim=0) + eps * V


def anytime_accuracy(O, V, y, kind, lam=10.0, eps=1e-3) -> torch.Tensor:
    """A(t) for t = 0 .. T-1 (T,), float64."""
    pred = anytime_logits(O, V, kind, lam, eps).argmax(dim=2)       # (T, B)
    return (pred == y.view(1, -1)).double().mean(dim=1)


def output_latency(O: torch.Tensor) -> torch.Tensor:
    """Per sample (B,): the first step with any output spike, T if none fires (float64)."""
    T = O.shape[0]
    any_spike = O.sum(dim=2) > 0                                    # (T, B)
    steps = torch.arange(T).view(T, 1).expand_as(any_spike)
    return torch.where(any_spike, steps, torch.full_like(steps, T)).min(dim=0).values.double()


def hidden_spike_steps(S: torch.Tensor) -> tuple[float, int]:
    """(sum of first-spike steps, number of neurons that fired) of a hidden layer (T, B, ...)."""
    T = S.shape[0]
    steps = torch.arange(T, dtype=torch.float64).view(T, *([1] * (S.dim() - 1)))
    return float((S.double() * steps).sum()), int((S != 0).sum())


def t95(curve: torch.Tensor | list[float], frac: float = 0.95) -> int:
    """First t with A(t) >= frac A(T-1)."""
    a = torch.as_tensor(curve, dtype=torch.float64)
    return int(torch.nonzero(a >= frac * a[-1])[0])
