"""Initialisation and the signal-diminishing analysis (spec §1.5).

Kaiming-normal weights N(0, 2/n) on k = n p active binary inputs give V[T-1] ~ N(0, 2p), so the
fraction of neurons whose final potential reaches theta is g(p) = 1 - Phi(theta / sqrt(2p)) and
p -> g(p) collapses with depth. ETTFS-init (reconstructed) draws, layer by layer on a data batch,
W ~ N(mu, sigma^2) with mu = theta / (n m1), sigma = rho theta / sqrt(n m2), where m1 and m2 are
the mean and mean square of the input's cumulative signal c = sum_t x[t] (over units and images).
For binary inputs m1 = m2 = p, the spec's mu = theta/(n p), sigma = rho theta/sqrt(n p); for graded
inputs (average pooling, analog coding) or several spikes (max pooling) the moments keep
E V[T-1] = theta and sd V[T-1] = rho theta. `stat = "fired"` uses the fraction of inputs with
c > 0 for both (the literal reading). With normalisation the same moments set beta = theta / m1
and gamma = rho theta / sqrt(m2), and W itself is an ETTFS-init draw: at step 0 W_hat is that
draw with each row's mean and spread made exact. (W's scale does not change W_hat, only the size
of an Adam step relative to W: a unit-variance W would learn its direction 20x slower.) Making
the row means exact removes the part of Var V[T-1] that the random row mean carries: the spread
becomes rho theta sqrt(1 - m1^2 / m2) (rho theta sqrt(1 - p) for binary inputs), the median stays
at theta [derived; tests/ttfs_snn/test_init.py].
"""
from __future__ import annotations

import math

import torch

from lib.ttfs_snn.models import TTFSNet
from lib.ttfs_snn.neuron import ttfs

ARMS = ("kaiming", "saturated", "ettfs", "ettfs_norm")
STATS = ("moments", "fired")


def uses_norm(arm: str) -> bool:
    """Whether an arm's layers carry the normalisation of spec §1.6."""
    return arm == "ettfs_norm"


def gaussian_fire_fraction(p: float, theta: float = 1.0, scale: float = 1.0) -> float:
    """P(V >= theta) for V ~ N(0, 2 p scale^2): Kaiming (scale 1) on a fraction p of inputs."""
    # imported here: a training run (a sweep process) needs no scipy, and importing it costs a
    # fresh process a second or more
    from scipy.stats import norm as gaussian
    if p <= 0:
        return 0.0
    return float(gaussian.sf(theta / (scale * math.sqrt(2.0 * p))))


def recursion(p0: float, layers: int, theta: float = 1.0, scale: float = 1.0) -> list[float]:
    """p_1 .. p_layers of p -> g(p) from the input fraction p0."""
    out, p = [], p0
    for _ in range(layers):
        p = gaussian_fire_fraction(p, theta, scale)
        out.append(p)
    return out


def input_moments(x: torch.Tensor, stat: str = "moments") -> tuple[float, float]:
    """(m1, m2) of the cumulative input c = sum_t x[t] (T, B, ...) over units and images."""
    if stat not in STATS:
        raise ValueError(f"stat = {stat!r}; allowed: {list(STATS)}")
    c = x.sum(dim=0).double()
    if stat == "fired":
        p = float((c > 0).double().mean())
        return p, p
    return float(c.mean()), float((c * c).mean())


@torch.no_grad()
def initialise(model: TTFSNet, arm: str, batch: torch.Tensor, *, rho: float = 0.5,
               saturation: float = 3.0, stat: str = "moments",
               gen: torch.Generator | None = None) -> list[tuple[float, float]]:
    """Set every layer's weights for one arm; `batch` (T, B, ...) is the data the data-driven
    arms measure, each layer after the ones before it are set. Returns the (m1, m2) per layer
    (measured for every arm, used only by ETTFS)."""
    if arm not in ARMS:
        raise ValueError(f"arm = {arm!r}; allowed: {list(ARMS)}")
    theta = model.theta
    signal, moments = batch, []
    for l, layer in enumerate(model.layers):
        inp = model.prepare(l, signal)
        m1, m2 = input_moments(inp, stat)
        moments.append((m1, m2))
        if layer.norm != (arm == "ettfs_norm"):
            raise ValueError(f"arm {arm!r} needs layers with norm={arm == 'ettfs_norm'}; layer "
                             f"{l + 1} has norm={layer.norm} (build the net with uses_norm(arm))")
        n, w = layer.fan_in, layer.weight
        if arm in ("kaiming", "saturated"):
            scale = saturation if arm == "saturated" else 1.0
            w.copy_(torch.randn(w.shape, generator=gen) * scale * math.sqrt(2.0 / n))
        else:
            if m1 <= 0:
                raise ValueError(f"layer {l + 1}: its input is silent on the init batch; "
                                 "ETTFS-init needs some input spikes")
            mu, sigma = theta / (n * m1), rho * theta / math.sqrt(n * m2)
            w.copy_(mu + sigma * torch.randn(w.shape, generator=gen))
            if layer.norm:                    # W_hat = W with each row's moments made exact
                layer.shift.fill_(theta / m1)
                layer.gain.fill_(rho * theta / math.sqrt(m2))
        s, _ = ttfs(layer(inp), theta, model.alpha)
        signal = model.transmit(s)
    return moments
