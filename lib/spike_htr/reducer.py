"""The CTC-guided length reducer (spec §1.5, reconstructed): rank width positions by the
auxiliary head's blank probability b, keep the least blank ones (top-r) or those below a
threshold, or merge runs of blank positions; and the mixer's cost at the reduced length.

Per block the mixer's multiply-adds at length L' and width d are 8 L' d^2 (Q, K, V, out: 4 d^2;
MLP d -> 2d -> d: 4 d^2) plus 2 L'^2 d (Q K^T and its product with V).
"""
from __future__ import annotations

import math

import torch

from lib.spike_htr.alphabet import BLANK


def check_ratio(r: float) -> float:
    """0 < r <= 1, or a ValueError naming the keep ratio."""
    if not 0.0 < r <= 1.0:
        raise ValueError(f"keep ratio r = {r!r}: allowed 0 < r <= 1")
    return float(r)


def kept_length(L: int, r: float) -> int:
    """ceil(r L) (at least 1), exact for the decimal ratios of the sweep."""
    check_ratio(r)
    return max(1, math.ceil(round(r * L, 9)))


def select_topr(blank: torch.Tensor, r: float) -> torch.Tensor:
    """Indices (B, ceil(r L)) of the positions with the smallest blank probability (B, L), ties
    to the earlier position, in increasing order (the sequence's order is kept)."""
    k = kept_length(blank.shape[1], r)
    order = torch.sort(blank, dim=1, stable=True).indices
    return order[:, :k].sort(dim=1).values


def select_threshold(blank: torch.Tensor, tau: float) -> torch.Tensor:
    """The keep mask (B, L): b < tau."""
    if not 0.0 < tau <= 1.0 + 1e-12:
        raise ValueError(f"threshold tau_b = {tau!r}: allowed 0 < tau_b <= 1")
    return blank < tau


def gather(z: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    """Rows keep (N, L') of z (N, L, d), in that order."""
    return z.gather(1, keep[..., None].expand(-1, -1, z.shape[-1]))


def merge_blank_runs(z: torch.Tensor, blank: torch.Tensor,
                     tau: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Each maximal run of positions with b >= tau averaged into one position: z' (N, L*, d)
    zero-padded to the longest line, and the valid mask (B, L*) of the lines (what `mix` takes as
    keys). blank is (B, L) with N = T B (the same grouping for every time step)."""
    blanks = ~select_threshold(blank, tau)
    start = torch.ones_like(blanks)
    start[:, 1:] = ~(blanks[:, 1:] & blanks[:, :-1])          # a run continues only blank->blank
    group = start.long().cumsum(dim=1) - 1                       # (B, L) group of each position
    size = group.max(dim=1).values + 1
    steps = z.shape[0] // blank.shape[0]
    group = group.repeat(steps, 1)
    out = torch.zeros(z.shape[0], int(size.max()), z.shape[2], dtype=z.dtype)
    count = torch.zeros(z.shape[0], out.shape[1], 1, dtype=z.dtype)
    out.scatter_add_(1, group[..., None].expand_as(z), z)
    count.scatter_add_(1, group[..., None], torch.ones_like(z[..., :1]))
    valid = torch.arange(out.shape[1])[None, :] < size[:, None]
    return out / count.clamp(min=1), valid


def mixer_macs(L: int, d: int, blocks: int) -> int:
    """Multiply-adds of the mixer on one sequence of length L (the closed form above)."""
    return blocks * (8 * L * d * d + 2 * L * L * d)


def attention_share(L: int, d: int) -> float:
    """a: the share of Q K^T and (Q K^T) V in a block's multiply-adds at length L."""
    return 2 * L * L * d / (8 * L * d * d + 2 * L * L * d)


def relative_cost(L: int, kept: int, d: int) -> float:
    """(L'/L)^2 a + (L'/L)(1 - a): the mixer's cost at L' relative to L."""
    a, q = attention_share(L, d), kept / L
    return q * q * a + q * (1 - a)


def essential(path: list[int]) -> list[bool]:
    """The positions of an argmax path greedy decoding needs: every non-blank one, and one blank
    of each blank run that separates two equal labels (without it the two would merge)."""
    keep = [c != BLANK for c in path]
    last, run_start = None, None
    for i, c in enumerate(path):
        if c == BLANK:
            run_start = i if run_start is None else run_start
            continue
        if run_start is not None and last == c:
            keep[run_start] = True
        last, run_start = c, None
    return keep


def run_kept(net, z: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    """Main-head log-probabilities (L', B, C) of the mixer run on the kept positions keep
    (B, L') of the encoder features z (T*B, L, d) only: what saves the mixer's cost."""
    return net.readout(net.head, net.mix(gather(z, keep.repeat(net.steps(), 1))))


def run_masked(net, z: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """(L, B, C): the mixer with the dropped positions (mask (B, L) False) excluded as keys, the
    kept ones' outputs as `run_kept`'s, and the dropped ones forced to emit the blank."""
    out = net.readout(net.head, net.mix(z, keys=mask))
    forced = torch.full_like(out, -math.inf)
    forced[..., BLANK] = 0.0
    return torch.where(mask.T[..., None], out, forced)


def run_merged(net, z: torch.Tensor, blank: torch.Tensor,
               tau: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(L*, B, C) and the lengths (B,): the mixer on the sequence whose blank runs (b >= tau)
    `merge_blank_runs` averaged into one position each, padding excluded as keys."""
    merged, valid = merge_blank_runs(z, blank, tau)
    out = net.readout(net.head, net.mix(merged, keys=valid))
    return out, valid.sum(dim=1)
