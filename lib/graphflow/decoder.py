"""A tiny pre-LN causal decoder with learned absolute positions, float64, random init (spec §3),
with an explicit `past` KV interface: the KV of the new tokens come back as one tensor
(L, 2, H, n, d_head), and a past is the concatenation of such tensors along the token axis."""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True)
class Sizes:
    """The decoder's shape: vocabulary, position table, layers, width, heads."""

    vocab: int
    positions: int
    layers: int
    d: int
    heads: int

    @property
    def d_head(self) -> int:
        return self.d // self.heads


class Layer(nn.Module):
    """One pre-LN block: x + attn(LN x), then + MLP(LN x); the MLP is 4d wide with GELU."""

    def __init__(self, d: int):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.up, self.down = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)


class Decoder(nn.Module):
    """Token and position embeddings, `layers` blocks, a final LN and an untied unembedding."""

    def __init__(self, sizes: Sizes, generator: torch.Generator):
        super().__init__()
        self.sizes = sizes
        self.tok = nn.Embedding(sizes.vocab, sizes.d)
        self.pos = nn.Embedding(sizes.positions, sizes.d)
        self.blocks = nn.ModuleList(Layer(sizes.d) for _ in range(sizes.layers))
        self.ln_f, self.head = nn.LayerNorm(sizes.d), nn.Linear(sizes.d, sizes.vocab)
        self.double()
        init_random(self, generator)
        self.requires_grad_(False)

    def forward(self, tokens: torch.Tensor, positions: torch.Tensor,
                past: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (n, vocab) of n new tokens after `past` (L, 2, H, t, dh) and their KV
        (L, 2, H, n, dh). Token i attends to the whole past and to new tokens 0..i."""
        H, dh = self.sizes.heads, self.sizes.d_head
        n = len(tokens)
        t = 0 if past is None else past.shape[3]
        x = self.tok(tokens) + self.pos(positions)                          # (n, d)
        mask = torch.ones(n, t + n, dtype=torch.bool).tril(diagonal=t)      # (n, t + n)
        kvs = []
        for li, blk in enumerate(self.blocks):
            q, k, v = blk.qkv(blk.ln1(x)).view(n, 3, H, dh).permute(1, 2, 0, 3)  # (H, n, dh)
            kvs.append(torch.stack([k, v]))                                 # (2, H, n, dh)
            if past is not None:
                k = torch.cat([past[li, 0], k], dim=1)                      # (H, t + n, dh)
                v = torch.cat([past[li, 1], v], dim=1)
            att = (q @ k.transpose(1, 2)) / math.sqrt(dh)                   # (H, n, t + n)
            att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
            x = x + blk.out((att @ v).transpose(0, 1).reshape(n, H * dh))
            x = x + blk.down(F.gelu(blk.up(blk.ln2(x))))
        return self.head(self.ln_f(x)), torch.stack(kvs)                    # (L, 2, H, n, dh)

    def kv_of(self, tokens: torch.Tensor, positions: torch.Tensor,
              past: torch.Tensor | None = None) -> torch.Tensor:
        """The KV (L, 2, H, n, dh) the new tokens add to the cache."""
        return self(tokens, positions, past)[1]


def init_random(model: Decoder, generator: torch.Generator) -> None:
    """Weights N(0, 1/fan_in), embeddings N(0, 1), biases N(0, 0.02^2), LayerNorm gains
    1 + N(0, 0.1^2): random but not degenerate (attention far from uniform)."""
    for name, p in model.named_parameters():
        if "ln" in name:
            base = 1.0 if name.endswith("weight") else 0.0
            p.data = base + 0.1 * torch.randn(p.shape, generator=generator, dtype=p.dtype)
        elif name.endswith("bias"):
            p.data = 0.02 * torch.randn(p.shape, generator=generator, dtype=p.dtype)
        elif name in ("tok.weight", "pos.weight"):
            p.data = torch.randn(p.shape, generator=generator, dtype=p.dtype)
        else:
            p.data = torch.randn(p.shape, generator=generator, dtype=p.dtype) / math.sqrt(
                p.shape[1])
