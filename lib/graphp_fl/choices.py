"""Where the spec leaves graphp_fl open (spec §7), the one swappable function each. The rules that
decide the statistical claims are in decisions.py, which only the claims stage reads."""
from __future__ import annotations

import torch


def fisher_scale(fisher: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, ...]:
    """Open question 1 (spec §7): the Fisher's scale is arbitrary, so FRPA's lambda is set
    against a Fisher divided by its mean over all of a model's coordinates (lambda = 1: the
    average coordinate moves halfway to the global model)."""
    total = sum(f.flatten(1).sum(1) for f in fisher)             # (M,)
    count = sum(f[0].numel() for f in fisher)
    mean = (total / count).clamp_min(1e-30)
    return tuple(f / mean.view(-1, *[1] * (f.dim() - 1)) for f in fisher)
