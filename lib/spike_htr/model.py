"""The recognizer (spec §1.2, reconstructed): a conv encoder, a sequence mixer of attention + MLP
blocks, a CTC head, and an auxiliary CTC head before the mixer that the length reducer reads.

Spiking (LIF at every nonlinearity, Spikformer's softmax-free attention, T steps, logits averaged
over T) or its non-spiking twin (ReLU, softmax attention, one step), with the same weights'
shapes. Activations are time-major (T, B, ...); stateless layers see T x B images at once.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from lib.spike_htr.alphabet import CLASSES
from lib.spiking.integrate import check_steps, lif_hard_reset


@dataclass(frozen=True)
class Arch:
    """The sizes and the neuron: channels c1..c3, width d, N blocks, image width W."""

    channels: tuple[int, int, int] = (16, 32, 48)
    d: int = 64
    blocks: int = 2
    width: int = 128
    spiking: bool = True
    T: int = 2
    tau: float = 2.0
    v_th: float = 1.0
    alpha: float = 4.0
    attn_div: float = 8.0          # spiking attention's scale 1/(attn_div sqrt d) (spec Q4)

    @property
    def length(self) -> int:
        """L = W / 4 width positions after the encoder's two width poolings."""
        return self.width // 4


class Fire(nn.Module):
    """The nonlinearity: LIF over the leading T of a (T*B, ...) tensor, or ReLU; in eval mode
    keeps the last firing rate (spikes per neuron and step) for the rate figures and the cost
    count, and per line (`line_rate`, (T, B): spikes per neuron of each line and step) for the
    claims resampled over lines (training reads neither, so it skips the two reductions)."""

    def __init__(self, arch: Arch):
        super().__init__()
        self.arch, self.rate, self.line_rate = arch, None, None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.arch.spiking:
            return F.relu(x)
        T = self.arch.T
        s = lif_hard_reset(x.reshape(T, -1, *x.shape[1:]), self.arch.tau, self.arch.v_th,
                           self.arch.alpha)
        if not self.training:
            self.rate = s.detach().mean(dim=tuple(range(1, s.dim())))      # per step
            self.line_rate = s.detach().mean(dim=tuple(range(2, s.dim())))  # (T, B)
        return s.reshape(x.shape)


class Encoder(nn.Module):
    """conv3x3 + BN -> fire -> pool, three times (pools 2, 2, (2, 1)); height flattened into the
    channels, then a linear map to d: (T*B, 1, 32, W) -> (T*B, L, d).

    The feature maps are channels-last (the convolutions' weights too): oneDNN's convolutions,
    batch norm and pooling run about 1.5x faster so on one core, and the LIF keeps the layout."""

    POOLS = ((2, 2), (2, 2), (2, 1))

    def __init__(self, arch: Arch):
        super().__init__()
        c = (1, *arch.channels)
        self.convs = nn.ModuleList(nn.Conv2d(c[i], c[i + 1], 3, padding=1, bias=False)
                                   for i in range(3)).to(memory_format=torch.channels_last)
        self.norms = nn.ModuleList(nn.BatchNorm2d(c[i + 1]) for i in range(3))
        self.fires = nn.ModuleList(Fire(arch) for _ in range(3))
        self.proj = nn.Linear(arch.channels[2] * 4, arch.d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous(memory_format=torch.channels_last)
        for conv, norm, fire, pool in zip(self.convs, self.norms, self.fires, self.POOLS):
            x = F.avg_pool2d(fire(norm(conv(x))), pool)
        N, C, H, L = x.shape
        return self.proj(x.permute(0, 3, 1, 2).reshape(N, L, C * H))


class Block(nn.Module):
    """Pre-norm attention with a residual, then a pre-norm MLP (d -> 2d -> d) with a residual.
    Spiking: Q, K, V = LIF(linear), A = LIF((Q K^T) V / (attn_div sqrt d)), no softmax; else
    softmax."""

    def __init__(self, arch: Arch):
        super().__init__()
        d = arch.d
        self.arch = arch
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.up, self.down = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)
        self.fire_qkv, self.fire_attn, self.fire_mlp = Fire(arch), Fire(arch), Fire(arch)

    def attend(self, z: torch.Tensor, keys: torch.Tensor | None) -> torch.Tensor:
        """(N, L, d) -> (N, L, d); keys (N, L) bool masks dropped positions out as keys."""
        d = self.arch.d
        q, k, v = self.qkv(z).chunk(3, dim=-1)
        if self.arch.spiking:
            q, k, v = (self.fire_qkv(t) for t in (q, k, v))
            if keys is not None:
                k, v = k * keys[..., None], v * keys[..., None]
            scale = self.arch.attn_div * math.sqrt(d)
            return self.fire_attn((q @ k.transpose(1, 2)) @ v / scale)
        scores = q @ k.transpose(1, 2) / math.sqrt(d)
        if keys is not None:
            scores = scores.masked_fill(~keys[:, None, :], -math.inf)
        return scores.softmax(dim=-1) @ v

    def forward(self, z: torch.Tensor, keys: torch.Tensor | None = None) -> torch.Tensor:
        z = z + self.out(self.attend(self.norm1(z), keys))
        return z + self.down(self.fire_mlp(self.up(self.norm2(z))))


class Recognizer(nn.Module):
    """Stream (T, B, 1, 32, W) -> per-position log-probabilities (L, B, 28) of the main head,
    and of the auxiliary head on the encoder output (the reducer's blank scores)."""

    def __init__(self, arch: Arch):
        super().__init__()
        check_steps(arch.T)
        self.arch = arch
        self.encoder = Encoder(arch)
        self.blocks = nn.ModuleList(Block(arch) for _ in range(arch.blocks))
        self.head = nn.Linear(arch.d, CLASSES)
        self.aux_head = nn.Linear(arch.d, CLASSES)

    def steps(self) -> int:
        return self.arch.T if self.arch.spiking else 1

    def encode(self, stream: torch.Tensor) -> torch.Tensor:
        """(T, B, 1, H, W) -> encoder features (T*B, L, d); the ANN reads step 0 only."""
        T = self.steps()
        if stream.shape[0] != T:
            raise ValueError(f"stream has {stream.shape[0]} steps, the model runs {T}")
        return self.encoder(stream.reshape(-1, *stream.shape[2:]))

    def readout(self, head: nn.Linear, z: torch.Tensor) -> torch.Tensor:
        """Logits averaged over the T steps, then log-softmax: (T*B, L, d) -> (L, B, 28)."""
        logits = head(z).reshape(self.steps(), -1, z.shape[1], CLASSES).mean(dim=0)
        return logits.log_softmax(dim=-1).transpose(0, 1)

    def mix(self, z: torch.Tensor, keys: torch.Tensor | None = None) -> torch.Tensor:
        """The mixer's blocks on (T*B, L', d); keys (B, L') as in Block.attend."""
        if keys is not None:
            keys = keys.repeat(self.steps(), 1)
        for block in self.blocks:
            z = block(z, keys)
        return z

    def forward(self, stream: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        z = self.encode(stream)
        return self.readout(self.head, self.mix(z)), self.readout(self.aux_head, z)

    def fires(self) -> dict[str, Fire]:
        """Every nonlinearity by name (encoder.fires.0, blocks.1.fire_mlp, ...)."""
        return {name: m for name, m in self.named_modules() if isinstance(m, Fire)}
