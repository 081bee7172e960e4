"""CTC as the recognizer uses it (spec §1.4): the loss (torch's), greedy decoding, the character
error rate, and the shortest input a label sequence fits in."""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from lib.spike_htr.alphabet import BLANK


def loss(log_probs: torch.Tensor, targets: torch.Tensor, target_lengths: torch.Tensor,
         input_lengths: torch.Tensor | None = None, reduction: str = "mean",
         zero_infinity: bool = False) -> torch.Tensor:
    """CTC negative log-likelihood of log_probs (L, B, C); an infeasible line (input shorter than
    min_length) gives +inf unless zero_infinity (then 0, and no gradient from it)."""
    L, B = log_probs.shape[:2]
    if input_lengths is None:
        input_lengths = torch.full((B,), L, dtype=torch.long)
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=BLANK,
                      reduction=reduction, zero_infinity=zero_infinity)


def collapse(path: np.ndarray) -> list[int]:
    """B(π): merge repeats, then drop blanks (vectorised on one path)."""
    path = np.asarray(path)
    if path.size == 0:
        return []
    keep = np.ones(path.size, dtype=bool)
    keep[1:] = path[1:] != path[:-1]
    kept = path[keep]
    return kept[kept != BLANK].tolist()


def greedy_decode(log_probs: torch.Tensor, lengths: torch.Tensor | None = None) -> list[list[int]]:
    """Per-position argmax of (L, B, C), then B, for every line (its first lengths[b] positions)."""
    paths = log_probs.argmax(dim=-1).T.numpy()
    L = paths.shape[1]
    lengths = [L] * len(paths) if lengths is None else lengths.tolist()
    return [collapse(p[:n]) for p, n in zip(paths, lengths)]


def edit_distance(a: list[int] | str, b: list[int] | str) -> int:
    """Unit-cost Levenshtein distance, one vectorised DP row per symbol of a: the insertion chain
    new[j] = min(cand[j], new[j-1] + 1) is j + the running minimum of cand[k] - k."""
    b = np.array([ord(c) for c in b] if isinstance(b, str) else list(b), dtype=np.int64)
    cols = np.arange(len(b) + 1)
    row = cols.copy()
    for i, ca in enumerate(a, 1):
        ca = ord(ca) if isinstance(ca, str) else int(ca)
        cand = np.empty_like(row)
        cand[0] = i
        cand[1:] = np.minimum(row[1:] + 1, row[:-1] + (b != ca))
        row = np.minimum.accumulate(cand - cols) + cols
    return int(row[-1])


def cer(predicted: list, truth: list) -> float:
    """Σ edit(ŷ, y) / Σ |y| over the lines."""
    chars = sum(len(t) for t in truth)
    if chars == 0:
        raise ValueError("cer: the reference lines hold no characters")
    return sum(edit_distance(p, t) for p, t in zip(predicted, truth)) / chars


def line_edits(predicted: list, truth: list) -> np.ndarray:
    """Per line, (edit distance to the label, label length): (B, 2) ints, the replicates a CER
    is pooled from (cer = column 0's sum over column 1's)."""
    return np.array([[edit_distance(p, t), len(t)] for p, t in zip(predicted, truth)],
                    dtype=np.int64).reshape(-1, 2)


def repeats(labels: list[int]) -> int:
    """r(y): adjacent equal labels, each needing a blank between them in any CTC path."""
    return sum(1 for a, b in zip(labels, labels[1:]) if a == b)


def min_length(labels: list[int]) -> int:
    """U + r(y): the shortest input length with a CTC path for y (D2)."""
    return len(labels) + repeats(labels)
