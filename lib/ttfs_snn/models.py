"""TTFS networks (spec §3): an MLP 784 -> 256^L -> 10 and the CNN of notebook 01,
conv(1->16, 5x5) -> pool 2x2 -> conv(16->32, 5x5) -> pool 2x2 -> fc(512->128) -> fc(128->10),
a TTFS neuron after every weight layer. Each layer l sees `pre[l]` (pooling, flattening) of what
layer l-1 transmits: its pulses s, or under `held` transmission its state F = cumsum_t s.

`run` returns a Trace: per weight layer its input signal, its spikes and its potentials, all
(T, B, ...); the decoders read the last layer's spikes and potentials.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import torch
from torch import nn

from lib.ttfs_snn import pooling
from lib.ttfs_snn.layers import TTFSConv, TTFSLinear
from lib.ttfs_snn.neuron import ttfs


@dataclass
class Trace:
    """Per weight layer: input signal, spikes s, potentials V, each (T, B, ...)."""

    inputs: list[torch.Tensor] = field(default_factory=list)
    spikes: list[torch.Tensor] = field(default_factory=list)
    potentials: list[torch.Tensor] = field(default_factory=list)


class TTFSNet(nn.Module):
    """A stack of weight layers with TTFS neurons; `pre[l]` maps the transmitted signal of
    layer l-1 (or the input) to layer l's input."""

    def __init__(self, layers: list[nn.Module], pre: list[str], *, theta: float = 1.0,
                 alpha: float = 4.0, transmission: str = "pulse", pool_kind: str = "avg",
                 k: int = 2):
        super().__init__()
        if transmission not in pooling.TRANSMISSIONS:
            raise ValueError(f"transmission = {transmission!r}; allowed: "
                             f"{list(pooling.TRANSMISSIONS)}")
        self.layers = nn.ModuleList(layers)
        self.pre = pre
        self.theta, self.alpha, self.transmission = theta, alpha, transmission
        self.pool_kind, self.k = pooling.check_kind(pool_kind), k
        self.image_input = isinstance(layers[0], TTFSConv)        # takes (T, B, 1, H, W)

    def prepare(self, l: int, x: torch.Tensor) -> torch.Tensor:
        """Layer l's input from the previous layer's transmitted signal x (T, B, ...)."""
        op = self.pre[l]
        if op == "pool":
            return pooling.pool_spikes(x, self.pool_kind, self.k, self.transmission)
        if op == "pool_flatten":
            x = pooling.pool_spikes(x, self.pool_kind, self.k, self.transmission)
            return x.flatten(start_dim=2)
        return x

    def transmit(self, s: torch.Tensor) -> torch.Tensor:
        return s if self.transmission == "pulse" else torch.cumsum(s, dim=0)

    def run(self, x: torch.Tensor, record: bool = False) -> Trace:
        """Simulate the input x (T, B, ...); keep every layer's tensors when record, else only
        the last layer's spikes and potentials."""
        trace = Trace()
        signal = x
        for l, layer in enumerate(self.layers):
            inp = self.prepare(l, signal)
            s, V = ttfs(layer(inp), self.theta, self.alpha)
            signal = self.transmit(s)
            if record or l == len(self.layers) - 1:
                trace.inputs.append(inp)
                trace.spikes.append(s)
                trace.potentials.append(V)
        return trace

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        t = self.run(x)
        return t.spikes[-1], t.potentials[-1]


def mlp(sizes: list[int], norm: bool = False, **kw) -> TTFSNet:
    """Fully connected TTFS net on flattened inputs (T, B, sizes[0])."""
    layers = [TTFSLinear(a, b, norm) for a, b in zip(sizes, sizes[1:])]
    return TTFSNet(layers, ["none"] * len(layers), **kw)


def cnn_side(side: int = 28, kernel: int = 5, k: int = 2) -> int:
    """Side of the last pooled map: 28 -> 24 -> 12 -> 8 -> 4 for 5 x 5 convs and 2 x 2 pools."""
    s = ((side - kernel + 1) // k - kernel + 1) // k
    if s < 1:
        raise ValueError(f"a {side}x{side} image leaves no pixel after two {kernel}x{kernel} "
                         f"convs and {k}x{k} pools")
    return s


def cnn(pool_kind: str, norm: bool = False, channels: tuple[int, int] = (16, 32),
        hidden: int = 128, classes: int = 10, side: int = 28, kernel: int = 5, k: int = 2,
        **kw) -> TTFSNet:
    """The spec's CNN on images (T, B, 1, side, side), no padding, k x k pools."""
    c1, c2 = channels
    s = cnn_side(side, kernel, k)
    layers = [TTFSConv(1, c1, kernel, norm), TTFSConv(c1, c2, kernel, norm),
              TTFSLinear(c2 * s * s, hidden, norm), TTFSLinear(hidden, classes, norm)]
    return TTFSNet(layers, ["none", "pool", "pool_flatten", "none"], pool_kind=pool_kind, k=k,
                   **kw)


def pool_sites(model: TTFSNet) -> list[int]:
    """Indices of the weight layers whose input is pooled."""
    return [l for l, op in enumerate(model.pre) if op.startswith("pool")]
