"""Small sequence models of the experiment plan, in plain torch (spec §2.2-2.4, §7.1 models.py).

Every model is embedding -> `layers` pre-norm blocks (sequence mixer + ReLU MLP, residual) ->
norm -> per-position class logits. Mixers ("families"):

- `rnn`: Elman ReLU RNN, h_t = min(relu(W h_{t-1} + U x_t + b), 6) (spec §2.2; clamped and
  initialised as the released code's ClampedReLURNN).
- `gru`: GRU (the released IMM launchers' nonlinear RNN).
- `diag_pos` / `diag_neg`: selective diagonal LRNN h_t = a(x_t) * h_{t-1} + b(x_t), with
  a = sigmoid(.) in (0,1) (Mamba-like) or a = 2 sigmoid(.) - 1 in (-1,1) (Grazzi et al.).
- `pd`: PD LRNN h_t = P(x_t) D(x_t) h_{t-1} + b(x_t): P column one-hot (straight-through argmax
  over each column of dictionary-mixed logits, PD-SSM style), D = diag(2 sigmoid - 1) in (-1,1).
- `deltanet`: matrix state per head, S_t = S_{t-1} (I - beta k k^T) + beta v k^T, k L2-normalised,
  beta = 2 sigmoid(.) in (0,2) (negative eigenvalues allowed), output S_t q_t.
- `rwkv7`: RWKV-7-lite, the same matrix state with a diagonal decay plus a rank-1 removal,
  S_t = S_{t-1} (diag(w_t) - kh_t^T (a_t * kh_t)) + v_t^T k_t (spec §7.1 "optional RWKV-7-lite").
- `transformer`: causal self-attention with sinusoidal positions.

Every mixer is plain tensor code (no fused RNN or attention kernels), so `torch.func.vmap` can
run the seeds of one family as one batched model (`seeds.py`). The loops over time (rnn, gru, the
linear recurrences on CPU) are `recurrences.py`'s, each with a hand-written backward; the plain
loops that autograd differentiates step by step are `naive.py`'s references.

The linear recurrences are written as affine pairs (A_t, b_t) with h_t = A_t h_{t-1} + b_t
(column convention, h_0 = 0) and run by `affine_scan`: a Hillis-Steele doubling scan
(ceil(log2 T) rounds of batched combines) or the sequential loop (`recurrences.AffineSequential`);
tests check they agree with each other and with part 1's `scan.scan_hillis_steele`. It is a
batch-first copy of that scan whose b may be a matrix (DeltaNet's d_k x d_v state), combined by
one n x m product per step: part 1's kernel, with b's columns as a batch axis, ran DeltaNet's
forward 5.5x slower (0.92 s vs 0.17 s, bench).
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from lib.linear_rnns import recurrences

FAMILIES = ("rnn", "gru", "diag_pos", "diag_neg", "pd", "deltanet", "rwkv7", "transformer")


# --- scans ---------------------------------------------------------------------------------

def _apply(A: torch.Tensor, h: torch.Tensor, diagonal: bool) -> torch.Tensor:
    """A h for A (..., n) diagonal or (..., n, n) dense; h (..., n, m)."""
    return A.unsqueeze(-1) * h if diagonal else A @ h


def affine_sequential(A: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """h_t = A_t h_{t-1} + b_t, h_0 = 0. A: (B, T, n) diagonal or (B, T, n, n); b: (B, T, n, m).
    Returns (B, T, n, m)."""
    return recurrences.AffineSequential.apply(A, b)


def affine_scan(A: torch.Tensor, b: torch.Tensor, parallel: bool | None = None) -> torch.Tensor:
    """Same result as `affine_sequential`, by Hillis-Steele doubling when `parallel`: after the
    round with shift s, (A_t, b_t) holds the composition of steps t-2s+1..t. `parallel=None`
    picks the faster path measured by bench/linear_rnns_recurrences.py and in training: on CPU
    the loop with its hand-written backward (`recurrences.AffineSequential`; forward + backward
    2-5x faster than the scan for diagonal transitions at T = 16-80, one thread: the scan's
    slices and concatenations cost more going back than the loop's steps; for dense ones (PD)
    the scan's O(T log T) n x n products cost more than the loop at n = 16); on GPU the scan for
    diagonal transitions, and for dense ones at T >= 64 while the (B, T, n, n) tensor stays
    under 2^30 entries."""
    diagonal = A.dim() == b.dim() - 1
    if parallel is None:
        parallel = A.is_cuda and (diagonal or (b.shape[1] >= 64 and A.numel() <= 2 ** 30))
    if not parallel:
        return affine_sequential(A, b)
    T, s = b.shape[1], 1
    while s < T:
        # earlier block (t - s), identity-padded at the front
        A_prev, b_prev = A[:, :T - s], b[:, :T - s]
        b = torch.cat([b[:, :s], _apply(A[:, s:], b_prev, diagonal) + b[:, s:]], dim=1)
        A = torch.cat([A[:, :s], A[:, s:] * A_prev if diagonal else A[:, s:] @ A_prev], dim=1)
        s *= 2
    return b


# --- mixers --------------------------------------------------------------------------------

class ReLURNN(nn.Module):
    """Clamped Elman ReLU RNN, h_t = min(relu(W h_{t-1} + U x_t + b), act_clip), W initialised
    orthogonal x hh_shrink (the released code's ClampedReLURNN: clip 6.0, shrink 0.3; the clamp
    keeps the state finite on long inputs). An explicit loop, so torch.func.vmap can batch seeds."""

    def __init__(self, d: int, act_clip: float = 6.0, hh_shrink: float = 0.3, **_):
        super().__init__()
        self.act_clip = act_clip
        self.ih, self.hh = nn.Linear(d, d), nn.Linear(d, d)
        nn.init.orthogonal_(self.hh.weight)
        with torch.no_grad():
            self.hh.weight.mul_(hh_shrink)

    def forward(self, x: torch.Tensor, parallel: bool | None = None) -> torch.Tensor:
        return recurrences.ClampedReLURNN.apply(self.ih(x), self.hh.weight, self.hh.bias,
                                                self.act_clip)[0]     # (B, T, d)


class GRU(nn.Module):
    """Gated recurrent unit (the released IMM launchers' default "nonlinear RNN"), torch.nn.GRU's
    equations written as a loop: r, z = sigmoid(.), n = tanh(W_n x + r * (U_n h)), h = (1-z) n + z h."""

    def __init__(self, d: int, **_):
        super().__init__()
        self.ih, self.hh = nn.Linear(d, 3 * d), nn.Linear(d, 3 * d)

    def forward(self, x: torch.Tensor, parallel: bool | None = None) -> torch.Tensor:
        return recurrences.GRU.apply(self.ih(x), self.hh.weight, self.hh.bias)[0]   # (B, T, d)


class DiagonalLRNN(nn.Module):
    def __init__(self, d: int, negative: bool, **_):
        super().__init__()
        self.negative = negative
        self.gate, self.inp, self.out = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def transition(self, x):
        a = torch.sigmoid(self.gate(x))
        return 2 * a - 1 if self.negative else a                      # (B, T, d)

    def forward(self, x, parallel: bool | None = None):
        h = affine_scan(self.transition(x), self.inp(x).unsqueeze(-1), parallel)  # (B, T, d, 1)
        return self.out(h.squeeze(-1))


class PDLRNN(nn.Module):
    """A = P D with P column one-hot from logits L = sum_k softmax(W x)_k M_k (dictionary)."""

    def __init__(self, d: int, n_state: int = 16, n_dict: int = 8, **_):
        super().__init__()
        self.n = n_state
        self.mix = nn.Linear(d, n_dict)
        self.dictionary = nn.Parameter(torch.randn(n_dict, n_state, n_state))
        self.diag, self.inp, self.out = (nn.Linear(d, n_state), nn.Linear(d, n_state),
                                         nn.Linear(n_state, d))

    def transition(self, x):
        logits = torch.einsum("btk,kij->btij", torch.softmax(self.mix(x), -1), self.dictionary)
        soft = torch.softmax(logits, dim=-2)                          # each column sums to 1
        hard = F.one_hot(soft.argmax(-2), self.n).transpose(-1, -2).to(soft.dtype)  # (B,T,n,n)
        P = hard + soft - soft.detach()                               # straight-through
        D = 2 * torch.sigmoid(self.diag(x)) - 1                       # (B, T, n) in (-1, 1)
        return P * D.unsqueeze(-2)                                    # P @ diag(D)

    def forward(self, x, parallel: bool | None = None):
        h = affine_scan(self.transition(x), self.inp(x).unsqueeze(-1), parallel)
        return self.out(h.squeeze(-1))


class DPLRMixer(nn.Module):
    """Matrix state per head with a diagonal-plus-rank-1 transition (column form, S = state^T):
    S_t = (diag(w_t) - c_t u_t^T) S_{t-1} + e_t v_t^T, output S_t^T q_t. Subclasses give the terms."""

    def __init__(self, d: int, heads: int = 2):
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.out = nn.Linear(d, d)

    def _fold(self, z: torch.Tensor) -> torch.Tensor:
        """(B, T, H * m) or (B, T, H, m) -> (B * H, T, m): heads into the batch."""
        B, T = z.shape[:2]
        return z.reshape(B, T, self.h, -1).transpose(1, 2).reshape(B * self.h, T, -1)

    def terms(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """(q, w, c, u, e, v), each (B*H, T, dk); w None means w = 1."""
        raise NotImplementedError

    def pairs(self, x):
        """(q, A, b): A = diag(w) - c u^T (Z, T, dk, dk), b = e v^T (Z, T, dk, dv), Z = B*H."""
        q, w, c, u, e, v = self.terms(x)
        diag = torch.ones_like(c) if w is None else w
        A = torch.diag_embed(diag) - c.unsqueeze(-1) * u.unsqueeze(-2)
        return q, A, e.unsqueeze(-1) * v.unsqueeze(-2)

    def forward(self, x, parallel: bool | None = None):
        B, T, d = x.shape
        if parallel is None:            # the loop wins on CPU (bench: ~9x at T = 256)
            parallel = x.is_cuda and T >= 64 and B * self.h * T * self.dk ** 2 <= 2 ** 30
        if parallel:
            q, A, b = self.pairs(x)
            o = torch.einsum("ztkv,ztk->ztv", affine_scan(A, b, True), q)   # S_t^T q_t
        else:
            o = recurrences.DPLR.apply(*self.terms(x))[0]
        return self.out(o.view(B, self.h, T, self.dk).transpose(1, 2).reshape(B, T, d))


class DeltaNet(DPLRMixer):
    """Delta rule S_t = (I - beta k k^T) S_{t-1} + beta k v^T, k L2-normalised, beta in (0, 2)."""

    def __init__(self, d: int, heads: int = 2, **_):
        super().__init__(d, heads)
        self.qkv, self.beta = nn.Linear(d, 3 * d), nn.Linear(d, heads)

    def terms(self, x):
        q, k, v = (self._fold(z) for z in self.qkv(x).chunk(3, dim=-1))
        k = F.normalize(k, dim=-1)
        beta = 2 * torch.sigmoid(self._fold(self.beta(x)))            # (Z, T, 1) in (0, 2)
        return q, None, beta * k, k, beta * k, v


class RWKV7Lite(DPLRMixer):
    """RWKV-7's state update without token shift or bonus terms: S_t = (diag(w_t) - (a_t * kh_t)
    kh_t^T) S_{t-1} + k_t v_t^T, decay w = exp(-e^{-1/2} sigmoid(.)) in (0.545, 1), in-context
    rate a = sigmoid(.) in (0, 1), removal key kh L2-normalised (RWKV-7's ranges)."""

    def __init__(self, d: int, heads: int = 2, **_):
        super().__init__(d, heads)
        self.proj = nn.Linear(d, 6 * d)                               # r, w, k, v, kh, a

    def terms(self, x):
        r, w, k, v, kh, a = (self._fold(z) for z in self.proj(x).chunk(6, dim=-1))
        w = torch.exp(-math.exp(-0.5) * torch.sigmoid(w))
        kh, a = F.normalize(kh, dim=-1), torch.sigmoid(a)
        return r, w, a * kh, kh, k, v


class CausalAttention(nn.Module):
    """Causal multi-head softmax attention, written out (q k^T / sqrt(d_h), future masked)."""

    def __init__(self, d: int, heads: int = 2, **_):
        super().__init__()
        self.h = heads
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)

    def forward(self, x, parallel: bool | None = None):
        B, T, d = x.shape
        q, k, v = (z.reshape(B, T, self.h, -1).transpose(1, 2) for z in self.qkv(x).chunk(3, -1))
        scores = q @ k.transpose(-1, -2) / math.sqrt(d // self.h)    # (B, H, T, T)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), 1)
        att = torch.softmax(scores.masked_fill(future, float("-inf")), -1) @ v   # (B, H, T, dh)
        return self.out(att.transpose(1, 2).reshape(B, T, d))


def _mixer(family: str, d: int, **kw) -> nn.Module:
    return {"rnn": lambda: ReLURNN(d), "gru": lambda: GRU(d), "diag_pos": lambda: DiagonalLRNN(d, False),
            "diag_neg": lambda: DiagonalLRNN(d, True), "pd": lambda: PDLRNN(d, **kw),
            "deltanet": lambda: DeltaNet(d, **kw), "rwkv7": lambda: RWKV7Lite(d, **kw),
            "transformer": lambda: CausalAttention(d, **kw)
            }[family]()


def sinusoidal(T: int, d: int, device) -> torch.Tensor:
    pos = torch.arange(T, device=device, dtype=torch.float32)[:, None]
    freq = torch.exp(-math.log(10000.0) * torch.arange(0, d, 2, device=device) / d)
    pe = torch.zeros(T, d, device=device)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * freq), torch.cos(pos * freq[: d // 2])
    return pe


class Block(nn.Module):
    def __init__(self, family: str, d: int, **kw):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.mix = _mixer(family, d, **kw)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))

    def forward(self, x, parallel: bool | None = None):
        x = x + self.mix(self.n1(x), parallel)
        return x + self.mlp(self.n2(x))


class SeqModel(nn.Module):
    """Tokens (B, T) int or features (B, T, F) float -> logits (B, T, n_classes). `pool`: each
    position reads the mean of the block outputs up to it (the released code's masked mean pool
    for sequence labels, read at the last real position), else the position's own output."""

    def __init__(self, family: str, *, vocab: int | None, in_features: int | None, n_classes: int,
                 d: int = 32, layers: int = 1, pool: bool = False, **kw):
        super().__init__()
        self.pool = pool
        if family not in FAMILIES:
            raise ValueError(f"family {family!r} is not one of {FAMILIES}")
        self.family = family
        self.embed = nn.Embedding(vocab, d) if vocab else nn.Linear(in_features, d)
        self.blocks = nn.ModuleList(Block(family, d, **kw) for _ in range(layers))
        self.norm, self.head = nn.LayerNorm(d), nn.Linear(d, n_classes)

    def forward(self, x: torch.Tensor, parallel: bool | None = None) -> torch.Tensor:
        h = self.embed(x)
        if self.family == "transformer":
            h = h + sinusoidal(h.shape[1], h.shape[2], h.device)
        for blk in self.blocks:
            h = blk(h, parallel)
        if self.pool:                 # prefix mean: read at length - 1 it is the masked mean pool
            h = h.cumsum(1) / torch.arange(1, h.shape[1] + 1, device=h.device, dtype=h.dtype)[:, None]
        return self.head(self.norm(h))
