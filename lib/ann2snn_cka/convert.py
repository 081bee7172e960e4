"""Open-loop conversion (spec §1.1): per-site scales λ_l from the 99.9th percentile of the
ANN's activations, and the converted SNN, in which each ReLU becomes an IF neuron with
threshold λ_l that emits λ_l per spike (scale 1/λ → IF(θ = 1, soft reset) → scale λ).

`SpikingNet.run` is the fast forward: the image is fed at every step (direct input), so the
first layer's current is computed once; every later synapse (a conv, a pooling, a linear map)
is applied to all T steps at once, time folded into the batch, and only the IF recurrence
loops over t (lib/spiking). `SpikingNet.run_step_loop` is the same network one time step at a
time, every synapse per step: the bench's baseline and the tests' check.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

from lib.ann2snn_cka.ann import CNN, SITES
from lib.spiking.counting import running_mean
from lib.spiking.integrate import check_steps, check_v0, if_soft_reset_from
from lib.spiking.surrogate import SpikeSurrogate

CALIB_MODES = ("pooled", "ema")


@torch.no_grad()
def site_activations(ann: CNN, x: torch.Tensor, chunk: int = 500) -> list[torch.Tensor]:
    """The ANN's post-ReLU activations a_l at every site for the images x, concatenated."""
    parts = [ann.currents_and_activations(x[i:i + chunk])[2] for i in range(0, len(x), chunk)]
    return [torch.cat([p[s] for p in parts]) for s in range(len(SITES))]


def calibrate(ann: CNN, x: torch.Tensor, q: float = 99.9, mode: str = "ema", batch: int = 100,
              momentum: float = 0.1) -> list[float]:
    """λ_l per site: the q-th percentile of a_l over the calibration images x, `pooled` (one
    percentile of all of them) or `ema` (SpikingJelly's: one percentile per batch of `batch`
    images, combined as λ ← (1 - momentum) λ + momentum p_b from the first batch's p)."""
    if mode not in CALIB_MODES:
        raise ValueError(f"calib_mode = {mode!r}; allowed: {list(CALIB_MODES)}")
    acts = site_activations(ann, x)
    if mode == "pooled":
        return [float(np.percentile(a.double().numpy(), q)) for a in acts]
    lams = []
    for a in acts:
        lam = None
        for i in range(0, len(x), batch):
            p = float(np.percentile(a[i:i + batch].double().numpy(), q))
            lam = p if lam is None else (1.0 - momentum) * lam + momentum * p
        lams.append(lam)
    return lams


@dataclass(frozen=True)
class Run:
    """One forward pass of T steps: the output layer's current at every step (T, B, 10) and,
    when recorded, each site's output train λ_l s_l[t] and input current z_l[t] (T, B, ...)."""

    outputs: torch.Tensor
    trains: list[torch.Tensor]
    currents: list[torch.Tensor]

    @property
    def logits(self) -> torch.Tensor:
        """The readout ẑ(T): the mean of the outputs over the T steps (B, 10)."""
        return self.outputs.mean(dim=0)

    def rates(self) -> list[torch.Tensor]:
        """Each site's rate × λ, the time average of its train (B, ...)."""
        return [s.mean(dim=0) for s in self.trains]

    def mean_currents(self) -> list[torch.Tensor]:
        """Each site's time-averaged input current (the pre-activation feature)."""
        return [z.mean(dim=0) for z in self.currents]


def _join(blocks: list[torch.Tensor]) -> torch.Tensor:
    """The blocks of steps as one (T, ...) tensor (no copy when there is one block)."""
    return blocks[0] if len(blocks) == 1 else torch.cat(blocks)


def _fold(x: torch.Tensor) -> torch.Tensor:
    return x.reshape(-1, *x.shape[2:])


class SpikingNet(nn.Module):
    """The converted SNN: a copy of the ANN's synapses (fine-tuning never touches the ANN), the
    scales λ_l as a fixed buffer, IF neurons with initial potential v0 (in units of θ = λ)."""

    def __init__(self, ann: CNN, lam: list[float], v0: float = 0.0, alpha: float = 4.0):
        super().__init__()
        if len(lam) != len(SITES) or not all(v > 0 for v in lam):
            raise ValueError(f"lam = {lam}: one positive scale per site {SITES}")
        self.net = copy.deepcopy(ann).train()
        self.register_buffer("lam", torch.tensor(lam, dtype=torch.float32))
        self.v0 = check_v0(v0, 1.0)
        self.alpha = alpha

    def first_current(self, x: torch.Tensor) -> torch.Tensor:
        """c = z_0/λ_0, the first site's normalised current: the same at every step."""
        return self.net.synapse(0, x) / self.lam[0].to(x.dtype)

    def run(self, x: torch.Tensor, T: int, block: int | None = None,
            record: bool = False) -> Run:
        """T steps of the network on the images x (B, 1, 28, 28), `block` steps at a time folded
        into the batch of every synapse (None: all T at once); `record` keeps every site's
        train and current (for features and Grams), otherwise only the outputs."""
        check_steps(T)
        block = T if block is None else check_steps(block)
        B = len(x)
        z0 = self.net.synapse(0, x)                      # direct input: the same every step
        u: list[torch.Tensor | None] = [None] * len(SITES)     # potentials, made on first use
        outs, trains, currents = [], [[] for _ in SITES], [[] for _ in SITES]
        for t0 in range(0, T, block):
            n = min(block, T - t0)
            z = z0.unsqueeze(0).expand(n, *z0.shape)
            for i in range(len(SITES)):
                lam = self.lam[i].to(z.dtype)
                if u[i] is None:
                    u[i] = torch.full_like(z[0], self.v0)
                s, u[i] = if_soft_reset_from(z / lam, u[i], 1.0, self.alpha)
                h = lam * s
                if record:
                    trains[i].append(h)
                    currents[i].append(z)
                z = self.net.synapse(i + 1, _fold(h))         # into the next site (or out)
                z = z.reshape(n, B, *z.shape[1:])
            outs.append(z)
        return Run(_join(outs), [_join(p) for p in trains if p],
                   [_join(p) for p in currents if p])

    def run_step_loop(self, x: torch.Tensor, T: int) -> torch.Tensor:
        """The output currents (T, B, 10) computed one step at a time (every synapse each step)."""
        check_steps(T)
        u = [None] * len(SITES)
        outs = []
        for _ in range(T):
            h = x
            for i in range(len(SITES)):
                lam = self.lam[i].to(x.dtype)
                c = self.net.synapse(i, h) / lam
                v = (torch.full_like(c, self.v0) if u[i] is None else u[i]) + c
                s = SpikeSurrogate.apply(v - 1.0, self.alpha)
                u[i] = v - s
                h = lam * s
            outs.append(self.net.synapse(len(SITES), h))
        return torch.stack(outs)


@torch.no_grad()
def anytime_hits(snn: SpikingNet, x: torch.Tensor, y: torch.Tensor, T: int,
                 chunk: int = 100) -> np.ndarray:
    """Per test image, whether the readout ẑ(t) after t = 1 .. T steps is right, from one run of
    T steps: (images, T) booleans, the replicates a claim on accuracy is resampled over."""
    hits = []
    for i in range(0, len(x), chunk):
        zhat = running_mean(snn.run(x[i:i + chunk], T).outputs)        # (T, b, 10)
        hits.append((zhat.argmax(dim=2) == y[i:i + chunk]).T)         # (b, T)
    return torch.cat(hits).numpy()


def anytime_accuracy(snn: SpikingNet, x: torch.Tensor, y: torch.Tensor, T: int,
                     chunk: int = 100) -> np.ndarray:
    """Accuracy of the readout ẑ(t) after t = 1 .. T steps, from one run of T steps (the
    cumulative evaluation of the authors' code): element t - 1 is accuracy at t."""
    return anytime_hits(snn, x, y, T, chunk).sum(axis=0) / len(x)
