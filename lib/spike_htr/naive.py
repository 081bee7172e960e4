"""Plain-loop references for lib/spike_htr: tests, claims and bench/ use them as the independent
computation. Python floats and ints, straight from the definitions (spec §1.4, §1.5); the mixer
and the run merging, one line at a time in small tensor ops (float64 for the merge)."""
from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from lib.spike_htr.alphabet import BLANK


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(v - top) for v in values))


def ctc_nll_naive(log_probs: np.ndarray, labels: list[int]) -> float:
    """-log p(y | x) for one line, log_probs (L, C): the α recursion over the extended label
    (∅, y1, ∅, ..., yU, ∅) in float64 log space, one position and one state at a time."""
    L = len(log_probs)
    ext = [BLANK]
    for y in labels:
        ext += [y, BLANK]
    S = len(ext)
    alpha = [-math.inf] * S
    alpha[0] = float(log_probs[0][ext[0]])
    if S > 1:
        alpha[1] = float(log_probs[0][ext[1]])
    for t in range(1, L):
        new = [-math.inf] * S
        for s in range(S):
            terms = [alpha[s]]
            if s >= 1:
                terms.append(alpha[s - 1])
            if s >= 2 and ext[s] != BLANK and ext[s] != ext[s - 2]:
                terms.append(alpha[s - 2])
            new[s] = _logsumexp(terms) + float(log_probs[t][ext[s]])
        alpha = new
    return -_logsumexp(alpha[-2:] if S > 1 else alpha[-1:])


def greedy_naive(log_probs: np.ndarray) -> list[int]:
    """Argmax per position by a loop, then merge repeats and drop blanks, one symbol at a time."""
    out, previous = [], None
    for row in log_probs:
        best = max(range(len(row)), key=lambda c: (row[c], -c))
        if best != previous and best != BLANK:
            out.append(best)
        previous = best
    return out


def levenshtein_naive(a, b) -> int:
    """The textbook (|a| + 1) x (|b| + 1) table in Python ints."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1,
                              table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return table[-1][-1]


def topr_naive(blank: list[float], r: float) -> list[int]:
    """Positions kept by top-r: sort by blank probability (ties by position), take ceil(r L),
    return them in increasing order."""
    L = len(blank)
    k = math.ceil(r * L - 1e-9)
    order = sorted(range(L), key=lambda i: (blank[i], i))
    return sorted(order[:k])


def mixer_macs_naive(shapes: list[tuple[int, int, int]]) -> int:
    """Multiply-adds of a list of matmuls (m, k, n), one product of three Python ints each."""
    total = 0
    for m, k, n in shapes:
        total += m * k * n
    return total


def merge_blank_runs_naive(z: torch.Tensor, blank: torch.Tensor,
                           tau: float) -> tuple[torch.Tensor, torch.Tensor]:
    """`reducer.merge_blank_runs` line by line: walk the positions of each line, open a new group
    unless this position and the previous one both have b >= tau, then average each group's rows
    in float64 for every time step: zero-padded (N, L*, d) in z's dtype, and the valid mask
    (B, L*) of the lines (what `Recognizer.mix` takes as keys and repeats over the steps)."""
    B = len(blank)
    steps = z.shape[0] // B
    groups = []                                    # per line: lists of positions
    for row in blank.tolist():
        line, previous = [], False
        for position, p in enumerate(row):
            if p >= tau and previous:
                line[-1].append(position)
            else:
                line.append([position])
            previous = p >= tau
        groups.append(line)
    width = max(len(line) for line in groups)
    out = torch.zeros(z.shape[0], width, z.shape[2], dtype=z.dtype)
    valid = torch.zeros(B, width, dtype=torch.bool)
    for t in range(steps):
        for b, line in enumerate(groups):
            n = t * B + b                                  # row of line b at step t
            for g, members in enumerate(line):
                out[n, g] = z[n, members].double().mean(dim=0).to(z.dtype)
                valid[b, g] = True
    return out, valid


def mix_naive(net, z: torch.Tensor, keys: torch.Tensor | None = None,
              spikes: dict | None = None) -> torch.Tensor:
    """`Recognizer.mix` of a spiking `net` on z (T*B, L', d), one line and one time step at a time:
    for line b, step t takes its row t B + b through every block, and each group of neurons
    (a block's q, k, v, attention, MLP) keeps its (L', width) membrane potential from step t to
    t + 1 (LIF, hard reset, zero before t = 0). Attention is (Q K^T) V / (attn_div sqrt d) of
    the one sequence; keys (B, L') zeroes the dropped positions' K and V rows. torch's layer_norm
    and linear on the (L', d) slice are the only primitives shared with the fast path. spikes,
    when a dict, receives each group's spikes as "blocks.<i>.<q|k|v|attn|mlp>" ->
    (T*B, L', width)."""
    arch = net.arch
    if not arch.spiking:
        raise ValueError("mix_naive: the spiking mixer only (net.arch.spiking is False)")
    T, d = arch.T, arch.d
    B = z.shape[0] // T
    out = torch.full_like(z, math.nan)
    for b in range(B):
        potential: dict[str, torch.Tensor] = {}

        def fire(name: str, current: torch.Tensor, row: int) -> torch.Tensor:
            u = potential.get(name, torch.zeros_like(current))
            u = u + (current - u) / arch.tau
            s = (u - arch.v_th >= 0).to(current.dtype)
            potential[name] = u * (1.0 - s)
            if spikes is not None:
                spikes.setdefault(name, torch.full((z.shape[0], *s.shape), math.nan))[row] = s
            return s

        for t in range(T):
            row = t * B + b
            x = z[row]                                             # (L', d)
            for i, block in enumerate(net.blocks):
                h = F.layer_norm(x, (d,), block.norm1.weight, block.norm1.bias, block.norm1.eps)
                qkv = F.linear(h, block.qkv.weight, block.qkv.bias)  # (L', 3d)
                q = fire(f"blocks.{i}.q", qkv[:, :d], row)
                k = fire(f"blocks.{i}.k", qkv[:, d:2 * d], row)
                v = fire(f"blocks.{i}.v", qkv[:, 2 * d:], row)
                if keys is not None:
                    k, v = k * keys[b][:, None], v * keys[b][:, None]
                a = fire(f"blocks.{i}.attn", (q @ k.T) @ v / (arch.attn_div * math.sqrt(d)), row)
                x = x + F.linear(a, block.out.weight, block.out.bias)
                h = F.layer_norm(x, (d,), block.norm2.weight, block.norm2.bias, block.norm2.eps)
                m = fire(f"blocks.{i}.mlp", F.linear(h, block.up.weight, block.up.bias), row)
                x = x + F.linear(m, block.down.weight, block.down.bias)
            out[row] = x
    return out
